  // swap.js: After every change on the page: what this phone marks as its own, the announcements,
  // and the guards htmx's out-of-band swaps go through.

  function afterSwap() {
    var state = document.getElementById('table-state');
    if (!state) return;
    if (mySeat) {
      var mine = state.querySelector('[data-seat="' + mySeat + '"]');
      if (mine) mine.classList.add('me');
      var dist = state.querySelector('[data-dist="' + mySeat + '"]');
      if (dist) dist.classList.add('mine');
      // The dying player's own phone has its own rescue buttons.
      var own = state.querySelector('.rescue-other[data-dying="' + mySeat + '"]');
      if (own) own.hidden = true;
    }
    // A game's button or note, only for the phones its data-for-seats names.
    var only = document.querySelectorAll('[data-for-seats]');
    for (var o = 0; o < only.length; o++) {
      var listed = (' ' + only[o].getAttribute('data-for-seats') + ' ').indexOf(' ' + mySeat + ' ') >= 0;
      only[o].hidden = !(mySeat && listed && only[o].getAttribute('data-not-seat') !== mySeat);
    }
    var bar = state.querySelector('.turn-bar');
    var judge = state.querySelector('.banner-judge');
    body.classList.toggle('my-turn', !!(mySeat && bar && bar.getAttribute('data-turn-seat') === mySeat));
    body.classList.toggle('my-guicai', !!(mySeat && judge && judge.getAttribute('data-guicai') === mySeat));
    body.classList.toggle('my-judged', !!(mySeat && judge && judge.getAttribute('data-judged') === mySeat));
    // A seat move the host asked for: its own phone agrees or refuses, the others may object.
    var moves = state.querySelectorAll('.banner-handover');
    for (var m = 0; m < moves.length; m++) {
      moves[m].classList.toggle('mine', !!mySeat && moves[m].getAttribute('data-handover-seat') === mySeat);
    }
    tick();
    settleHandovers();
    var announce = state.getAttribute('data-announce-version');
    // The judged player and 司马懿 have the waiting judgement on screen already (a sheet).
    var kind = state.getAttribute('data-announce-kind') || '';
    var onSheet = judge && /^judgement_(pending|replaced)$/.test(kind) &&
      (body.classList.contains('my-guicai') || body.classList.contains('my-judged'));
    if (announce && lastAnnounce !== null && announce !== lastAnnounce && !onSheet) {
      toast(state.getAttribute('data-announce'));
    }
    if (announce) lastAnnounce = announce;
    if (lastAnnounce === null) lastAnnounce = '';
    // A host console that moves to the next stage (dealt, heroes,
    // play) goes back to the top, where the table is: a console used as the TV shows the ring.
    var stage = state.getAttribute('data-status');
    if (body.classList.contains('host-console') && lastStage && stage !== lastStage) window.scrollTo(0, 0);
    lastStage = stage;
    keepAwake();
    phoneNow(state);
    document.dispatchEvent(new Event('live:swapped'));  // the display fits its seats (display.js)
  }

  // A frame that replaces the focused control focuses its successor, so that a keyboard (or a
  // switch) goes on from where it was, not from the page's start: the control with its id, or
  // the one of a form that posts to the same place with its name and value and the same hidden
  // fields (the same seat's: never another seat's button). htmx's own swap restores an id alone.
  function focusKey(el) {
    var f = el.form;
    return el.id ? '#' + el.id : f ? [f.getAttribute('hx-post'), el.name, el.getAttribute('value')].concat(
      [].map.call(f.querySelectorAll('[type=hidden]'), function (i) { return i.value; })).join() : '';
  }
  function refocus(was, key) {
    if (key && !was.isConnected) {
      [].some.call(document.querySelectorAll(was.tagName), function (el) { return focusKey(el) === key && !el.focus({ preventScroll: true }); });
    }
  }

  // Never let an older fragment replace a newer one (a late frame, or a slow POST answer).
  document.addEventListener('htmx:oobBeforeSwap', function (ev) {
    var incoming = ev.detail.fragment && (ev.detail.fragment.firstElementChild || ev.detail.fragment);
    var current = ev.detail.target;
    if (versionOf(incoming) && versionOf(current) && versionOf(incoming) < versionOf(current)) {
      ev.detail.shouldSwap = false;
    }
  });

  document.addEventListener('htmx:afterSwap', afterSwap);
  // A page without a place for the host controls (the role just came to this phone) puts them
  // ahead of the table.
  document.addEventListener('htmx:oobErrorNoTarget', function (ev) {
    var el = ev.detail && ev.detail.content;
    var state = document.getElementById('table-state');
    if (!el || el.id !== 'host-panel' || !state || document.getElementById('host-panel')) return;
    el.removeAttribute('hx-swap-oob');
    state.parentNode.insertBefore(el, state);
    htmx.process(el);
  });
