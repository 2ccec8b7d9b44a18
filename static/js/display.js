/* The table display's own layout work (loaded by the display pages only, so a phone's first
 * load stays small): live.js announces each new state (live:swapped) and each toast (live:toast).
 */
(function () {
  'use strict';

  var body = document.body;

  // On a wide table display the toast keeps to the left column just above the QR code (over the
  // history), however tall the column's other parts are (never over the QR code).
  function placeToast(el) {
    var join = document.querySelector('body.page-display .join-box');
    if (!join || !window.matchMedia('(min-width: 900px)').matches) return;
    var r = join.getBoundingClientRect();
    var above = r.top < window.innerHeight && r.bottom > 0 ? window.innerHeight - r.top + 8 : 12;
    el.style.setProperty('--toast-bottom', Math.max(12, Math.round(above)) + 'px');
  }

  // On a wide table display a seat card too full for its place (a long hero name, every kind of
  // equipment, delayed tricks) takes smaller type, step by step, until it stays on the screen,
  // off the distance table and off the other seats (display.css --seat-fit).
  function fitSeats() {
    if (!body.classList.contains('page-display') || !window.matchMedia('(min-width: 900px)').matches) return;
    var ring = document.querySelector('#table-state .ring');
    if (!ring) return;
    var seats = Array.prototype.slice.call(ring.querySelectorAll(':scope > .seat'));
    var middle = document.querySelector('#table-state .distances');
    seats.forEach(function (seat) { seat.style.removeProperty('--seat-fit'); });
    var area = ring.getBoundingClientRect();
    var bottom = Math.min(area.bottom, window.innerHeight);
    function clash(seat) {
      var r = seat.getBoundingClientRect();
      if (r.top < area.top - 1 || r.bottom > bottom + 1) return true;
      var others = seats.filter(function (o) { return o !== seat; }).map(function (o) { return o.getBoundingClientRect(); });
      if (middle && middle.checkVisibility && middle.checkVisibility()) others.push(middle.getBoundingClientRect());
      return others.some(function (o) {
        return r.left < o.right - 1 && o.left < r.right - 1 && r.top < o.bottom - 1 && o.top < r.bottom - 1;
      });
    }
    seats.forEach(function (seat) {
      // In twentieths: 0.95 down to 0.60 itself (steps of 0.05 in floating point stop short).
      for (var step = 19; step >= 12 && clash(seat); step--) {
        seat.style.setProperty('--seat-fit', (step / 20).toFixed(2));
      }
    });
  }
  window.addEventListener('resize', fitSeats);

  document.getElementById('toast').addEventListener('live:toast', function (ev) { placeToast(ev.target); });
  document.addEventListener('live:swapped', function () {
    var shown = document.querySelector('#toast.show');
    if (shown) placeToast(shown);  // the page under it may have moved
    fitSeats();
  });
})();
