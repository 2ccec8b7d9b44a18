  // dialog.js: The dialog a tap opened: closed by its close button, or by the tap it sent (taps.js).

  document.addEventListener('click', function (ev) {
    if (ev.target.closest && ev.target.closest('[data-close-dialog]')) {
      document.getElementById('dialog').innerHTML = '';
    }
  });
