  // toast.js: The toast: one short message at a time, over the page, gone after a few seconds.

  function toast(text) {
    var el = document.getElementById('toast');
    if (!el) return;
    el.textContent = text;
    el.dispatchEvent(new Event('live:toast'));  // the display places it (display.js)
    el.classList.add('show');
    clearTimeout(el._hide);
    el._hide = setTimeout(function () { el.classList.remove('show'); }, 5000);
  }
