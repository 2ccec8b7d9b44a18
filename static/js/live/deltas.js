  // deltas.js: A delta: a change applied on top of the version the page shows, piece by piece. A
  // change on top of the previous version: only what it touched (server: fragments.delta). Anything
  // that does not fit (another base, a piece with no place) asks for the whole state.

  function applyDelta(delta) {
    var state = document.getElementById('table-state');
    var v = versionOf(delta);
    var current = versionOf(state);
    if (!state || v <= current) return;
    var base = parseInt(delta.getAttribute('data-base'), 10);
    var frag = delta.content;
    var seats = Array.prototype.slice.call(frag.querySelectorAll('li.seat'));
    var olds = seats.map(function (seat) {
      return state.querySelector('.ring > li[data-seat="' + seat.getAttribute('data-seat') + '"]');
    });
    var bar = frag.querySelector('.turn-bar');
    var oldBar = state.querySelector('.turn-bar');
    var strip = frag.querySelector('#now-strip');
    var oldStrip = document.getElementById('now-strip');
    var dist = frag.querySelector('.distances');
    var oldDist = state.querySelector('.distances');
    if (base !== current || olds.indexOf(null) >= 0 || (bar && !oldBar) || (strip && !oldStrip) ||
        (dist && !oldDist)) {
      send({ type: 'sync', version: current });
      return;
    }
    // The seat's own HP tracker comes along; only that seat's phone puts it in place.
    var hp = frag.querySelector('#my-hp');
    var oldHp = document.getElementById('my-hp');
    var hpSeat = seats.length === 1 && seats[0].getAttribute('data-seat');
    // A change of several seats' HP (a chain's damage) carries each one's tracker, by seat.
    if (seats.length > 1 && mySeat) {
      hp = frag.querySelector('.hp-tracker[data-seat="' + mySeat + '"]');
      hpSeat = hp && mySeat;
    }
    if (hp && oldHp && mySeat && hpSeat === mySeat && versionOf(hp) > versionOf(oldHp)) {
      oldHp.replaceWith(hp);
      htmx.process(hp);
    }
    function put(old, piece) { old.replaceWith(piece); htmx.process(piece); }
    seats.forEach(function (seat, i) { put(olds[i], seat); });
    if (bar) put(oldBar, bar);
    if (strip) put(oldStrip, strip);
    else if (oldStrip) oldStrip.setAttribute('data-version', String(v));
    if (dist) put(oldDist, dist);
    var banners = frag.querySelector('[data-banners]');
    if (banners) {
      // The dying banners, in their place among the table's banners (live.html's order).
      Array.prototype.forEach.call(state.querySelectorAll(':scope > .banner-dying'), function (b) { b.remove(); });
      var next = state.querySelector(':scope > :is(.banner-handover, .banner-judge, .turn-bar, .result, .ring)');
      Array.prototype.slice.call(banners.children).forEach(function (b) {
        state.insertBefore(b, next);
        htmx.process(b);
      });
    }
    var line = frag.querySelector('li[data-line]');
    var list = state.querySelector('.history .events');
    if (line && list) {
      line.removeAttribute('data-line');
      list.insertBefore(line, list.firstChild);
      var keep = parseInt(delta.getAttribute('data-keep'), 10) || 15;
      while (list.children.length > keep) list.removeChild(list.lastElementChild);
    }
    state.setAttribute('data-version', String(v));
    var action = delta.getAttribute('data-action');
    if (action) state.setAttribute('data-action', action); else state.removeAttribute('data-action');
    ['data-announce', 'data-announce-version', 'data-announce-kind'].forEach(function (a) {
      state.removeAttribute(a);
    });
    lastPublic = v;
    afterSwap();
  }
