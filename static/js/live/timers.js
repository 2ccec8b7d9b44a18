  // timers.js: The countdowns: the turn timer, and a seat move the host asked for.

  // The turn timer only reminds: a countdown on every screen, "time is up" at zero.
  function tick() {
    var timers = document.querySelectorAll('.timer[data-deadline]');
    for (var i = 0; i < timers.length; i++) {
      var left = Math.round((parseInt(timers[i].getAttribute('data-deadline'), 10) - Date.now()) / 1000);
      if (left > 0) {
        timers[i].textContent = Math.floor(left / 60) + ':' + ('0' + (left % 60)).slice(-2);
        timers[i].classList.remove('expired');
      } else {
        timers[i].textContent = timers[i].getAttribute('data-expired') || '0:00';
        timers[i].classList.add('expired');
      }
    }
  }
  setInterval(tick, 1000);

  // ---- A seat move the host asked for ----
  // When its countdown is over nobody objected in time: the banner says so, then goes (the
  // server no longer lists it). The seat's own phone is alerted when a move of its seat
  // appears; the banner sits at the top of that phone until the move is decided (app.css).
  var HANDOVER_SHOWN_MS = 8000;
  function settleHandovers() {
    var banners = document.querySelectorAll('.banner-handover:not(.handover-done)');
    for (var i = 0; i < banners.length; i++) {
      var banner = banners[i];
      var timer = banner.querySelector('.timer[data-deadline]');
      if (!timer || parseInt(timer.getAttribute('data-deadline'), 10) > Date.now()) continue;
      var text = banner.querySelector('.handover-text');
      var own = banner.classList.contains('mine');
      if (text) text.textContent = banner.getAttribute(own ? 'data-done-own' : 'data-done') || '';
      banner.classList.add('handover-done');
      setTimeout(function (b) { return function () { b.hidden = true; }; }(banner), HANDOVER_SHOWN_MS);
    }
  }
  setInterval(settleHandovers, 1000);

  var handoverSeen = {};
  function handoverAlert(state) {
    var mine = state.querySelector('.banner-handover.mine:not(.handover-done)');
    var key = mine ? mine.querySelector('.timer[data-deadline]') : null;
    key = key ? key.getAttribute('data-deadline') : '';
    if (key && !handoverSeen[key]) signal('handover');
    if (key) handoverSeen[key] = true;
  }
