  // identity.js: The covered identity: held or peeked to be seen, covered again at once.

  // Press and hold to see one's identity; let go and it is covered again.
  function hold(ev) {
    var el = ev.target.closest && ev.target.closest('[data-hold]');
    if (!el) return;
    if (ev.type === 'keydown' && ev.key !== ' ' && ev.key !== 'Enter') return;
    ev.preventDefault();
    el.classList.add('holding');
  }
  function release() {
    var held = document.querySelectorAll('[data-hold].holding');
    for (var i = 0; i < held.length; i++) held[i].classList.remove('holding');
  }
  document.addEventListener('pointerdown', hold);
  document.addEventListener('keydown', hold);
  ['pointerup', 'pointercancel', 'keyup', 'blur'].forEach(function (type) {
    (type === 'blur' ? window : document).addEventListener(type, release);
  });
  document.addEventListener('contextmenu', function (ev) {
    if (ev.target.closest && ev.target.closest('[data-hold]')) ev.preventDefault();
  });

  // The identity reminder: a tap shows it, and it covers itself again after a few seconds (or
  // as soon as the page is hidden); a new fragment comes covered.
  var PEEK_MS = 3000;
  function unpeek() {
    var shown = document.querySelectorAll('[data-peek].peeking');
    for (var i = 0; i < shown.length; i++) shown[i].classList.remove('peeking');
  }
  document.addEventListener('click', function (ev) {
    var el = ev.target.closest && ev.target.closest('[data-peek]');
    if (!el) return;
    el.classList.add('peeking');
    clearTimeout(el._peek);
    el._peek = setTimeout(function () { el.classList.remove('peeking'); }, PEEK_MS);
  });
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState !== 'visible') unpeek();
  });
