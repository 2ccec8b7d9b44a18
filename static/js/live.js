/* Live table: one websocket per screen. It receives the state, and carries the phone's taps.
 *
 * - A tap is an htmx form (hx-post="act/<name>"). While the socket is open it goes over the
 *   socket ({"type": "act"}) and is answered by the change's own frame (its data-action is the
 *   tap's id), or by "done" (nothing new to send) or "error"; otherwise, or when no answer comes
 *   within a few seconds, it is posted over HTTP with the same action id (a tap is applied once,
 *   whichever way it arrives). One tap travels at a time, the others wait in this script's
 *   queue, never in htmx's (which drops a request whose form was re-rendered meanwhile).
 * - Every fragment root carries data-version; an older fragment never replaces a newer one.
 * - A change of HP, dying, a 桃, equipment, a delayed trick or the turn comes as a delta: a
 *   <template id="table-delta"> with just what it touched, that applies only on top of the
 *   version it names (data-base); otherwise the phone asks for the state. An HP change's delta
 *   holds the seat's HP tracker (#my-hp), which only that seat's own phone puts in place.
 * - On (re)connect the server sends the whole current state; a gap in public versions, or the
 *   phone waking up, asks for it again ({"type": "sync"}).
 * - The socket reconnects by itself, except when the server says the link is gone (4404).
 * - Pending taps, double taps, outcomes in doubt, heartbeat: docs/architecture.md.
 */
(function () {
  'use strict';

  var body = document.body;
  var wsPath = body.getAttribute('data-ws');
  var mySeat = body.getAttribute('data-my-seat');
  var socket = null;
  // Failed attempts since a socket was last current: an open that ends before its state
  // arrives (closed with 1013 while Redis is away) does not start the backoff again.
  var retry = 0;
  var retryTimer = null;
  // The server said "try later" (1013) and no socket has been current since: retries stay
  // between 1 s and 2.5 s apart, whatever closes them meanwhile (a refused handshake is a 1006).
  var tryLater = false;
  var lastPublic = 0;
  // The version the page was served at, named to its first socket (`?v=`): the server then
  // sends {"type": "current"} instead of the state the page already shows. Only until a socket
  // has been current once: after that the page may hold frames of its own.
  var pageVersion = 0;
  var lastAnnounce = null;
  var lastStage = null;
  var gone = false;
  var wakeLock = null;
  var pending = {};
  var ACT_TIMEOUT = 4000;
  var TAP_SAME_MS = 400;
  // The heartbeat: a ping after this long without a frame, the socket given up when no pong
  // comes in time (data-heartbeat-ms and data-pong-ms on <body> override them, for tests).
  function heartbeatMs() { return parseInt(body.getAttribute('data-heartbeat-ms'), 10) || 12000; }
  function pongMs() { return parseInt(body.getAttribute('data-pong-ms'), 10) || 5000; }
  var lastFrameAt = Date.now();
  var answeredAt = {};
  var behindTimer = null;
  var queue = [];
  var dialogSerial = 0;

  function randomId() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ('0' + b.toString(16)).slice(-2);
    }).join('');
  }

  function versionOf(el) {
    var v = el && el.getAttribute && el.getAttribute('data-version');
    return v ? parseInt(v, 10) : 0;
  }

  function setConn(state) {
    var el = document.getElementById('conn');
    if (!el) return;
    el.setAttribute('data-state', state);
    var label = body.getAttribute('data-conn-' + state) || state;
    el.setAttribute('title', label);
    el.setAttribute('aria-label', label);
  }

  function toast(text) {
    var el = document.getElementById('toast');
    if (!el) return;
    el.textContent = text;
    el.dispatchEvent(new Event('live:toast'));  // the display places it (display.js)
    el.classList.add('show');
    clearTimeout(el._hide);
    el._hide = setTimeout(function () { el.classList.remove('show'); }, 5000);
  }

  function send(obj) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(obj));
  }

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
    // Rebirth and dark souls: a button or note for the phones its data-for-seats names.
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
    // bigtable: a host console that moves to the next stage (dealt, heroes,
    // play) goes back to the top, where the table is: a console used as the TV shows the ring.
    var stage = state.getAttribute('data-status');
    if (body.classList.contains('host-console') && lastStage && stage !== lastStage) window.scrollTo(0, 0);
    lastStage = stage;
    keepAwake();
    phoneNow(state);
    document.dispatchEvent(new Event('live:swapped'));  // the display fits its seats (display.js)
  }


  function closeDialogOf(elt) {
    var dialog = document.getElementById('dialog');
    if (dialog && elt && dialog.contains(elt)) dialog.innerHTML = '';
  }

  function tapText(name) {
    var el = document.getElementById('tap-texts');
    return el ? el.getAttribute('data-' + name) : name;
  }

  function markPending(tap, on) {
    [tap.elt, tap.button].forEach(function (el, i) {
      if (!el || !el.classList) return;
      el.classList.toggle(i ? 'tap-pending-btn' : 'tap-pending', on);
      el.setAttribute('aria-busy', String(on));
      if (i) el.setAttribute('aria-disabled', String(on));
    });
  }

  function settle(id, outcome, message) {
    var tap = pending[id];
    if (!tap) return;
    clearTimeout(tap.timer);
    delete pending[id];
    markPending(tap, false);
    if (outcome === 'applied' || outcome === 'merged') {
      answeredAt[tap.key] = tap.sentAt || Date.now();
      closeDialogOf(tap.elt);
      // Merged: the server counted it once with the identical tap just before it.
      if (outcome === 'merged') toast(tapText('merged'));
      else if (tap.doubt) toast(tapText('applied'));
    } else {
      // A refused option: its box goes back to what the table has.
      var box = tap.changed;
      if (box && box.type === 'checkbox') box.checked = !box.checked;
      toast(outcome === 'not_applied' ? tapText('not-applied') : message || body.getAttribute('data-error-text'));
    }
    if (tap.doubt) send({ type: 'sync', version: lastPublic });
    setTimeout(nextTap, 0);
  }

  function answered(msg) {
    var tap = pending[msg.action_id];
    if (!tap) return;
    if (msg.type === 'error') {
      // Not applied over the socket while the same tap is on its way over HTTP: that decides
      // (and if it is not applied either, neither copy can be any more).
      if (msg.outcome === 'not_applied') {
        if (!tap.posting) settle(msg.action_id, 'not_applied');
        else tap.notApplied = true;
      }
      else if ((msg.status || 0) >= 500) doubt(msg.action_id);
      else settle(msg.action_id, 'refused', msg.message);
    } else {
      settle(msg.action_id, msg.type === 'merged' ? 'merged' : 'applied');
      if (msg.version) behind(msg.version);
    }
  }

  // In doubt: ask the server until it answers; the taps waiting behind are dropped.
  function doubt(id) {
    var tap = pending[id];
    if (!tap) return;
    if (!tap.doubt) {
      queue.forEach(function (t) { markPending(t, false); });
      queue = [];
      tap.doubt = true;
      tap.tries = 0;
      toast(tapText('checking'));
    }
    askStatus(id);
  }

  // The answer is read beside the server's writer, so it comes at once: "not known yet" while
  // a copy of the tap is still in line there (until its deadline), so the phone asks again
  // within a second.
  function askStatus(id) {
    var tap = pending[id];
    if (!tap) return;
    clearTimeout(tap.timer);
    tap.tries += 1;
    tap.timer = setTimeout(function () { askStatus(id); }, Math.min(1000, 250 << tap.tries));
    send({ type: 'status', action_id: id });
  }

  // One tap, one outcome: refused or merged as its first answer said, whichever copy got it.
  function statusAnswer(msg) {
    if (!pending[msg.action_id] || typeof msg.applied !== 'boolean') return;
    if (msg.outcome === 'refused') settle(msg.action_id, 'refused', msg.message);
    else if (msg.outcome === 'merged') settle(msg.action_id, 'merged');
    else settle(msg.action_id, msg.applied ? 'applied' : 'not_applied');
  }

  function behind(version) {
    if (!(version > lastPublic) || behindTimer) return;
    behindTimer = setTimeout(function () {
      behindTimer = null;
      if (version > lastPublic) send({ type: 'sync', version: lastPublic });
    }, 1000);
  }

  // A ping on this socket, once its state has arrived; no pong in time closes this socket only
  // (the timer belongs to it and dies with it), and the phone reconnects.
  function ping(sock, wait) {
    if (!sock || sock !== socket || sock.readyState !== 1 || !sock.current) return;
    clearTimeout(sock.pongTimer);
    sock.send(JSON.stringify({ type: 'ping', version: lastPublic }));
    sock.pongTimer = setTimeout(function () { sock.close(); }, wait);
  }

  function heartbeat() {
    if (!socket || document.hidden || socket.pongTimer) return;
    if (Object.keys(pending).length || Date.now() - lastFrameAt < heartbeatMs()) return;
    lastFrameAt = Date.now();
    ping(socket, pongMs());
  }
  (function beat() {
    heartbeat();
    setTimeout(beat, Math.min(3000, heartbeatMs() / 4));
  })();

  // A change on top of the previous version: only what it touched (server: fragments.delta).
  // Anything that does not fit (another base, a piece with no place) asks for the whole state.
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
    // 军争: a change of several seats' HP carries each one's tracker, by seat.
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

  function handleFrame(text) {
    if (text.charAt(0) === '{') {
      var msg;
      try { msg = JSON.parse(text); } catch (e) { return; }
      if (msg.type === 'pong' && socket) { clearTimeout(socket.pongTimer); socket.pongTimer = null; }
      if ((msg.type === 'pong' || msg.type === 'version') && msg.version) behind(msg.version);
      if (/^(done|merged|error)$/.test(msg.type) && msg.action_id) answered(msg);
      if (msg.type === 'status' && msg.action_id) statusAnswer(msg);
      return;
    }
    var holder = document.createElement('template');
    holder.innerHTML = text;
    var delta = holder.content.querySelector('template#table-delta');
    // A frame caused by one of this phone's taps answers that tap.
    var acted = delta || holder.content.querySelector('[data-action]');
    if (acted && pending[acted.getAttribute('data-action')]) {
      answered({ type: 'done', action_id: acted.getAttribute('data-action') });
    }
    if (delta) {
      applyDelta(delta);
      return;
    }
    var pub = holder.content.querySelector('#table-state');
    var gap = false;
    if (pub) {
      var v = versionOf(pub);
      gap = lastPublic && v > lastPublic + 1;
      if (v > lastPublic) lastPublic = v;
    }
    htmx.swap(body, text, { swapStyle: 'none' });
    afterSwap();
    if (gap) send({ type: 'sync', version: lastPublic });
  }

  function connect() {
    if (!wsPath || gone) return;
    clearTimeout(retryTimer);
    if (socket && (socket.readyState === 0 || socket.readyState === 1)) return;
    var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    setConn('connecting');
    lastPublic = 0;
    var path = wsPath;
    if (pageVersion > 0) {
      path += (path.indexOf('?') < 0 ? '?' : '&') + 'v=' + pageVersion + '&lang=' +
        encodeURIComponent(document.documentElement.getAttribute('data-lang') || '');
    }
    try {
      socket = new WebSocket(scheme + location.host + path);
    } catch (e) {
      schedule();
      return;
    }
    var sock = socket;
    sock.current = false;
    // "open" once the server's first frame (the whole current state) is on the screen; the
    // heartbeat starts only then.
    sock.onmessage = function (ev) {
      lastFrameAt = Date.now();
      var text = String(ev.data);
      var current = text.charAt(0) !== '{' || /^\{"type": ?"current"/.test(text);
      if (current && !sock.current && text.charAt(0) === '{') lastPublic = pageVersion;
      handleFrame(text);
      if (!sock.current && current) {
        pageVersion = 0;
        sock.current = true;
        retry = 0;
        tryLater = false;
        setConn('open');
        Object.keys(pending).forEach(function (id) { if (pending[id].doubt) askStatus(id); });
      }
    };
    sock.onclose = function (ev) {
      clearTimeout(sock.pongTimer);
      sock.pongTimer = null;
      if (socket !== sock) return;
      socket = null;
      Object.keys(pending).forEach(function (id) {
        if (pending[id].via !== 'ws') return;
        if (ev.code === 4404) settle(id, 'refused', body.getAttribute('data-conn-gone'));
        else if (!pending[id].posting) doubt(id);
      });
      if (ev.code === 4404) {
        // The host console after the host role has passed: it becomes the public display.
        var displayUrl = body.getAttribute('data-display-url');
        if (displayUrl) { location.replace(displayUrl); return; }
        gone = true;
        setConn('gone');
        body.classList.add('link-gone');
        return;
      }
      setConn('closed');
      // 1008: too many messages; 4429: too many screens on this table; 1013: the server cannot
      // reach Redis for now: at most one try a second (not five: every phone of the table at
      // once), never more than 2.5 s apart (current within a few seconds of Redis's return).
      if (ev.code === 1013) tryLater = true;
      if (ev.code === 4429) schedule(30000);
      else if (tryLater) schedule(1000, 2500);
      else schedule(ev.code === 1008 ? 5000 : 0, 5000);
    };
  }

  function schedule(minDelay, maxDelay) {
    clearTimeout(retryTimer);
    var delay = Math.min(maxDelay || 5000, 250 * Math.pow(2, retry)) * (0.5 + Math.random() / 2);
    retry += 1;
    retryTimer = setTimeout(connect, Math.max(minDelay || 0, delay));
  }

  // A phone that wakes up may hold a socket that silently died: ask for the state, and
  // reconnect if no answer comes.
  function checkAlive() {
    if (document.visibilityState !== 'visible' || gone) return;
    if (!socket || socket.readyState > 1) { retry = 0; connect(); return; }
    // A socket still waiting for its first state is not checked: its state is on the way.
    if (socket.readyState === 1 && socket.current) {
      // The whole state (no version named): a phone back from sleep redraws everything.
      send({ type: 'sync' });
      ping(socket, pongMs());
    }
  }

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

  // ---- The phone's "now" strip, its alerts and the ring of seats seen from this seat ----

  // The strip is public (one rendering for every phone): each phone shows its own buttons. A
  // dead player cannot give a Peach; only the dying player drinks Wine.
  function markStrip(state) {
    var strip = document.getElementById('now-strip');
    var mine = state.querySelector('.ring > li[data-seat="' + mySeat + '"]');
    var dead = !!(mine && mine.classList.contains('dead'));
    body.classList.toggle('me-dead', dead);
    var now = { turn: body.classList.contains('my-turn'), dying: false, save: {} };
    var rows = strip ? strip.querySelectorAll('.now-dying[data-dying]') : [];
    for (var i = 0; i < rows.length; i++) {
      var id = rows[i].getAttribute('data-dying');
      var self = id === mySeat;
      rows[i].classList.toggle('mine', self);
      var peach = rows[i].querySelector('.strip-peach');
      if (peach) peach.hidden = dead;
      var wine = rows[i].querySelector('.strip-wine');
      if (wine) wine.hidden = !self;
      if (self) now.dying = true;
      else if (!dead) now.save[id] = true;
    }
    return now;
  }

  var PATTERNS = { dying: [400, 120, 400, 120, 400], turn: [150, 80, 150], save: [250, 100, 250],
    handover: [300, 100, 300, 100, 300] };
  var TONES = { dying: [440, 330, 440, 330], turn: [660, 880], save: [587, 740, 587], handover: [523, 784, 523] };

  var SOUND_KEY = 'sgs-sound';
  var audio = null;
  var seen = null;

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === '1'; } catch (e) { return false; }
  }

  function audioContext() {
    var AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    if (!audio) { try { audio = new AC(); } catch (e) { return null; } }
    if (audio.state === 'suspended' && audio.resume) audio.resume();
    return audio;
  }

  // A short tone made here (no sound file): one soft beep per frequency.
  function beep(kind) {
    var ctx = audioContext();
    if (!ctx) return;
    var start = ctx.currentTime + 0.02;
    TONES[kind].forEach(function (freq, i) {
      var t = start + i * 0.18;
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.3, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.16);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.17);
    });
  }

  function signal(kind) {
    if (navigator.vibrate) { try { navigator.vibrate(PATTERNS[kind]); } catch (e) { /* unsupported */ } }
    if (soundOn()) beep(kind);
  }

  // Alert on a change only (not on opening the page): my turn starts, I am dying, someone
  // else is dying and I (alive) may save them.
  function alerts(now) {
    if (seen) {
      var fresh = Object.keys(now.save).some(function (id) { return !seen.save[id]; });
      if (now.dying && !seen.dying) signal('dying');
      else if (fresh) signal('save');
      else if (now.wait && now.wait !== seen.wait) signal('handover');
      else if (now.turn && !seen.turn) signal('turn');
    }
    seen = now;
  }

  function showSound() {
    var button = document.getElementById('sound-toggle');
    if (button) button.setAttribute('aria-pressed', soundOn() ? 'true' : 'false');
  }

  document.addEventListener('click', function (ev) {
    if (!ev.target.closest || !ev.target.closest('#sound-toggle')) return;
    var on = !soundOn();
    try { window.localStorage.setItem(SOUND_KEY, on ? '1' : '0'); } catch (e) { /* private mode */ }
    showSound();
    if (on) beep('turn');
  });
  // Browsers start audio only from a tap: wake the audio up on the first one.
  document.addEventListener('pointerdown', function () { if (soundOn()) audioContext(); });

  // The ring seen from this phone: this seat at the bottom, the others in play order
  // counterclockwise (the next seat at the bottom right), as a grid of rows: one seat on top
  // when the others do not split evenly, the same number down each side.
  function placeRing(state) {
    var ring = state.querySelector('.ring');
    if (!ring) return;
    var seats = ring.querySelectorAll(':scope > li.seat');
    var n = seats.length;
    var me = -1;
    for (var i = 0; i < n; i++) if (seats[i].getAttribute('data-seat') === mySeat) me = i;
    if (me < 0) { ring.removeAttribute('data-me'); return; }
    var top = (n - 1) % 2;
    var side = (n - 1 - top) / 2;
    var rows = top + side + 1;
    for (var j = 0; j < n; j++) {
      var k = (j - me + n) % n;
      var row, where;
      if (k === 0) { row = rows; where = 'mid'; }
      else if (k <= side) { row = rows - k; where = 'right'; }
      else if (top && k === side + 1) { row = 1; where = 'mid'; }
      else { row = k - side; where = 'left'; }
      seats[j].setAttribute('data-row', String(row));
      seats[j].setAttribute('data-side', where);
      seats[j].setAttribute('data-k', String(k));
    }
    ring.setAttribute('data-rows', String(rows));
    ring.setAttribute('data-me', String(me));
  }

  // The folded hero card stays as the player left it when the seat's part is sent again.
  var heroOpen = null;
  document.addEventListener('toggle', function (ev) {
    if (ev.target.matches && ev.target.matches('#my-seat details.hero-fold')) heroOpen = ev.target.open;
  }, true);

  function phoneNow(state) {
    if (!mySeat || !body.classList.contains('page-phone')) return;
    placeRing(state);
    var now = markStrip(state);
    // A decision the table waits on this phone for (its strip asks it): alerted once per question.
    var wait = document.querySelector('#now-strip .now-wait:not([hidden])');
    now.wait = wait ? wait.textContent : '';
    alerts(now);
    handoverAlert(state);
    var fold = document.querySelector('#my-seat details.hero-fold');
    if (fold && heroOpen !== null && fold.open !== heroOpen) fold.open = heroOpen;
  }

  // The screen stays on while identities are dealt and in play. The Screen Wake Lock exists
  // only in a secure context (https, or the laptop's own 127.0.0.1): phones that open the
  // laptop's LAN address over plain http have none, so a tap starts a muted, looping, inline
  // video instead, as NoSleep.js does (the file is fetched then, never with the page).
  // Chromium keeps the screen on for a muted video only while it plays on a visible page, most
  // of it in view and at least a fifth of the viewport (its video_wake_lock.cc), hence the
  // transparent video over the whole viewport, under everything (app.css .awake-video); Safari
  // plays it only once it is in the document. Safari also grants the wake lock only within a
  // tap, so a tap asks again. When neither keeps the screen on, the page says so (#awake-note).
  var awakeVideo = null;
  function wantAwake() {
    var state = document.getElementById('table-state');
    var status = state && state.getAttribute('data-status');
    return status === 'dealt' || status === 'playing';
  }
  function showAwake() {
    var note = document.getElementById('awake-note');
    var hide = !wantAwake() || !!wakeLock || !!(awakeVideo && !awakeVideo.paused);
    // The note moves what is under it: the display fits its seats again (display.js).
    if (note && note.hidden !== hide) {
      note.hidden = hide;
      document.dispatchEvent(new Event('live:swapped'));
    }
  }
  function playAwake() {
    if (!awakeVideo) {
      awakeVideo = document.createElement('video');
      awakeVideo.className = 'awake-video';
      awakeVideo.muted = awakeVideo.loop = awakeVideo.playsInline = true;
      ['muted', 'loop', 'playsinline', 'aria-hidden'].forEach(function (a) { awakeVideo.setAttribute(a, a === 'aria-hidden' ? 'true' : ''); });
      (body.getAttribute('data-awake') || '').split(' ').forEach(function (src) {
        var source = document.createElement('source');
        source.src = src;
        source.type = 'video/' + src.split('.').pop();
        awakeVideo.appendChild(source);
      });
      ['playing', 'pause', 'error'].forEach(function (e) { awakeVideo.addEventListener(e, showAwake, true); });
      body.appendChild(awakeVideo);
    }
    var played = awakeVideo.play();
    if (played && played.catch) played.catch(showAwake);
  }

  function keepAwake(tapped) {
    var wanted = wantAwake();
    var visible = document.visibilityState === 'visible';
    if (wanted && visible && !wakeLock && 'wakeLock' in navigator) {
      navigator.wakeLock.request('screen').then(function (lock) {
        wakeLock = lock;
        lock.addEventListener('release', function () { wakeLock = null; showAwake(); });
        showAwake();
      }).catch(function () { wakeLock = null; showAwake(); });
    } else if (wanted && visible && !('wakeLock' in navigator) && (tapped === true || awakeVideo)) {
      if (!awakeVideo || awakeVideo.paused) playAwake();
    } else if (!wanted && wakeLock) {
      wakeLock.release();
      wakeLock = null;
    }
    if (!wanted && awakeVideo) awakeVideo.pause();
    showAwake();
  }
  function tappedAwake() { if (!wakeLock && !(awakeVideo && !awakeVideo.paused)) keepAwake(true); }
  ['click', 'touchend', 'keydown'].forEach(function (e) { document.addEventListener(e, tappedAwake, true); });

  document.addEventListener('visibilitychange', checkAlive);
  // The browser lets the wake lock go when the page is hidden: take it again on return.
  document.addEventListener('visibilitychange', keepAwake);
  window.addEventListener('online', function () { retry = 0; checkAlive(); });
  window.addEventListener('pageshow', function (ev) { if (ev.persisted) checkAlive(); });

  // Never let an older fragment replace a newer one (a late frame, or a slow POST answer).
  document.addEventListener('htmx:oobBeforeSwap', function (ev) {
    var incoming = ev.detail.fragment && (ev.detail.fragment.firstElementChild || ev.detail.fragment);
    var current = ev.detail.target;
    if (versionOf(incoming) && versionOf(current) && versionOf(incoming) < versionOf(current)) {
      ev.detail.shouldSwap = false;
    }
  });

  // Every tap carries an id, so a replay is applied once.
  document.addEventListener('htmx:configRequest', function (ev) {
    var d = ev.detail;
    if (d.formData && d.formData.has('action_id')) return;
    var id = randomId();
    d.parameters['action_id'] = id;
    var m = /(?:^|\/)act\/([a-z]+)$/.exec(d.path || '');
    if (d.verb !== 'post' || !m || m[1] === 'handover') return;
    var dialog = document.getElementById('dialog');
    var box = dialog && dialog.firstElementChild;
    if (box && dialog.contains(d.elt)) {
      // Opened again, a dialog's tap is another one.
      if (!box.tapSerial) box.tapSerial = String(++dialogSerial);
      d.parameters['from'] = 'dialog-' + box.tapSerial;
    }
    var fields = {};
    d.formData.forEach(function (value, key) {
      if (key === 'csrfmiddlewaretoken' || key === 'action_id') return;
      if (Object.prototype.hasOwnProperty.call(fields, key)) fields[key] = [].concat(fields[key], value);
      else fields[key] = value;
    });
    var key = d.path + ' ' + JSON.stringify(Object.keys(fields).sort().map(function (k) { return [k, fields[k]]; }));
    var trigger = d.triggeringEvent;
    var tap = { id: id, name: m[1], elt: d.elt, button: (trigger && trigger.submitter) || null, changed: trigger && trigger.type === 'change' ? trigger.target : null, path: d.path, fields: fields, key: key, via: 'http' };
    var waiting = Object.keys(pending).map(function (p) { return pending[p]; });
    if (waiting.length) {
      ev.preventDefault();
      var same = waiting.concat(queue).some(function (t) { return t.key === key; });
      if (waiting.some(function (t) { return t.doubt; })) {
        toast(tapText('checking'));
      } else if ((!same || 'repeat' in fields) && queue.length < 3) {
        queue.push(tap);
        markPending(tap, true);
      }
      return;
    }
    if (!('repeat' in fields) && Date.now() - (answeredAt[key] || 0) < TAP_SAME_MS) {
      ev.preventDefault();
      closeDialogOf(d.elt);
      return;
    }
    // Never the element's own request: htmx holds a second request of an element behind its
    // first and drops it if the element is re-rendered meanwhile (the host panel after a tick).
    ev.preventDefault();
    if (!startTap(tap)) post(tap);
  });

  function startTap(tap) {
    var id = tap.id;
    tap.sentAt = Date.now();
    pending[id] = tap;
    markPending(tap, true);
    if (!socket || socket.readyState !== 1) return false;
    tap.via = 'ws';
    tap.timer = setTimeout(function () { overHttp(id); }, ACT_TIMEOUT);
    send({ type: 'act', name: tap.name, fields: tap.fields, action_id: id });
    return true;
  }

  // A retry is marked: the server never takes it for the moment of the tap.
  function post(tap, retry) {
    var values = { action_id: tap.id };
    for (var k in tap.fields) values[k] = tap.fields[k];
    var headers = retry ? { 'X-Tap-Retry': '1' } : {};
    htmx.ajax('POST', tap.path, { source: body, values: values, swap: 'none', headers: headers });
  }

  // No answer in time: the same tap (same id) over HTTP.
  function overHttp(id) {
    var tap = pending[id];
    if (!tap || tap.doubt || tap.posting) return;
    tap.posting = true;
    post(tap, true);
  }

  function nextTap() {
    if (Object.keys(pending).length || !queue.length) return;
    var tap = queue.shift();
    if (!startTap(tap)) post(tap);
  }
  // A refused tap answers 4xx with a message (nothing on the page is replaced): show it.
  function errorText(xhr) {
    var holder = document.createElement('template');
    holder.innerHTML = xhr.responseText || '';
    var el = holder.content.querySelector('#toast, [role=alert], h1');
    return el ? el.textContent.trim() : (body.getAttribute('data-error-text') || 'Error');
  }
  document.addEventListener('htmx:afterRequest', function (ev) {
    var xhr = ev.detail.xhr;
    if (!xhr) return;
    var config = ev.detail.requestConfig;
    var id = config && config.formData && config.formData.get('action_id');
    if (id && pending[id] && (pending[id].via === 'http' || pending[id].posting)) {
      var only = pending[id].via === 'http';
      pending[id].posting = false;
      var merged = xhr.getResponseHeader('X-Tap-Outcome') === 'merged';
      if (xhr.status >= 200 && xhr.status < 400) settle(id, merged ? 'merged' : 'applied');
      else if ((only || pending[id].notApplied) && xhr.getResponseHeader('X-Tap-Outcome') === 'not_applied') {
        settle(id, 'not_applied');
      }
      else if (xhr.status === 0 || xhr.status >= 500) doubt(id);
      else settle(id, 'refused', errorText(xhr));
      if (!socket || socket.readyState !== 1) { retry = 0; connect(); }
      return;
    }
    if (xhr.status === 0) {
      toast(body.getAttribute('data-offline-text') || 'Offline');
    } else if (xhr.status >= 400) {
      toast(errorText(xhr));
    } else if (ev.detail.requestConfig && ev.detail.requestConfig.verb === 'post') {
      if (xhr.status === 204) closeDialogOf(ev.detail.elt);
    }
    if (!socket || socket.readyState !== 1) { retry = 0; connect(); }
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

  document.addEventListener('click', function (ev) {
    if (ev.target.closest && ev.target.closest('[data-close-dialog]')) {
      document.getElementById('dialog').innerHTML = '';
    }
  });

  showSound();
  afterSwap();
  var initial = document.getElementById('table-state');
  lastPublic = versionOf(initial);
  pageVersion = lastPublic;
  connect();
})();

// The rules help at hand (its own block, apart from the live page above).
// - A tap on anything with `data-help="card:八卦阵"` (a card, equipment, delayed trick, skill or
//   judgement name) opens its entry in a <dialog> over the page; one tap closes it. The page
//   underneath (an open dialog, what was typed in it) is left as it was.
// - The identity tips: every phone loads the same file with all four roles' tips and shows its
//   own beside the covered identity, only while it is held or peeked (the CSS does the showing).
// - The phase hints of a first game can be switched off on this phone.
(function () {
  'use strict';

  var pop = null;
  var asked = 0;

  function lang() {
    return (document.documentElement.getAttribute('data-lang') || '').indexOf('en') === 0 ? 'en' : 'zh';
  }

  function close() {
    if (pop && pop.open) pop.close();
  }

  function ensurePop() {
    if (pop) return pop;
    pop = document.createElement('dialog');
    pop.id = 'help-pop';
    pop.className = 'help-pop';
    pop.setAttribute('aria-label', 'help');
    document.body.appendChild(pop);
    pop.addEventListener('click', function (ev) {
      // Links inside an entry (a hero's skills) open that entry; any other tap closes.
      if (ev.target.closest && ev.target.closest('[data-help]')) return;
      ev.preventDefault();
      ev.stopPropagation();
      close();
    });
    return pop;
  }

  function entryUrl(key) {
    var i = key.indexOf(':');
    if (i < 1) return null;
    return '/help/' + encodeURIComponent(key.slice(0, i)) + '/' +
      encodeURIComponent(key.slice(i + 1)) + '/?pop=1';
  }

  function openEntry(key) {
    var url = entryUrl(key);
    if (!url) return;
    var mine = ++asked;
    fetch(url, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error('help ' + r.status);
      return r.text();
    }).then(function (html) {
      if (mine !== asked) return;
      var d = ensurePop();
      d.innerHTML = html;
      if (!d.open) d.showModal();
      d.scrollTop = 0;
    }).catch(function () { /* offline: the page stays as it was */ });
  }

  // Capture: the tap is the help's, not the seat button's or the label's around the name.
  document.addEventListener('click', function (ev) {
    var el = ev.target.closest && ev.target.closest('[data-help]');
    if (!el) return;
    var key = el.getAttribute('data-help');
    if (!key) return;
    // A name that is a choice (the judgement helper's 八卦阵, the damage dialog's horse): the
    // first tap chooses it, a tap on the chosen one opens its entry.
    var choice = el.closest('label');
    var radio = choice && choice.querySelector('input[type=radio]');
    if (radio && !radio.checked) return;
    ev.preventDefault();
    ev.stopPropagation();
    openEntry(key);
  }, true);

  // The identity tips.
  var tips = null;
  var loading = false;

  function secretRole(box) {
    var scope = box.parentNode;
    var card = scope && scope.querySelector('[data-hold]');
    if (!card) return null;
    var roles = ['loyalist', 'rebel', 'renegade'];
    for (var i = 0; i < roles.length; i++) {
      if (card.classList.contains('idn-' + roles[i])) return roles[i];
    }
    return null;
  }

  function fill(box) {
    var role = box.getAttribute('data-role-tips') || secretRole(box);
    var words = role && tips[role] && tips[role][lang()];
    if (!words) return;
    var goal = document.createElement('p');
    goal.className = 'role-goal';
    goal.textContent = words.goal;
    var list = document.createElement('ul');
    list.className = 'role-tip-list';
    for (var i = 0; i < words.tips.length; i++) {
      var li = document.createElement('li');
      li.textContent = words.tips[i];
      list.appendChild(li);
    }
    box.appendChild(goal);
    box.appendChild(list);
  }

  function fillTips() {
    var empty = document.querySelectorAll('[data-role-tips]:empty');
    if (!empty.length) return;
    if (!tips) {
      if (loading) return;
      loading = true;
      fetch('/help/roles.json', { credentials: 'same-origin' }).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (data) {
        loading = false;
        if (data) { tips = data; fillTips(); }
      }).catch(function () { loading = false; });
      return;
    }
    for (var i = 0; i < empty.length; i++) fill(empty[i]);
  }

  // The lord's identity is public: a tap on it shows or hides his goal and tips.
  document.addEventListener('click', function (ev) {
    var card = ev.target.closest && ev.target.closest('[data-role-toggle]');
    if (!card) return;
    var box = card.parentNode && card.parentNode.querySelector('[data-role-tips]');
    if (box) box.classList.toggle('open');
  });

  // The phase hints of a first game, off on this phone once switched off.
  var HINTS_KEY = 'sgs-phase-hints';
  function hintsOff() {
    try { return window.localStorage.getItem(HINTS_KEY) === '0'; } catch (e) { return false; }
  }
  document.addEventListener('click', function (ev) {
    if (!ev.target.closest) return;
    var off = ev.target.closest('[data-phase-hint-off]');
    var on = ev.target.closest('[data-phase-hint-on]');
    if (!off && !on) return;
    try { window.localStorage.setItem(HINTS_KEY, off ? '0' : '1'); } catch (e) { /* private mode */ }
    document.documentElement.classList.toggle('no-phase-hints', !!off);
  });

  function start() {
    if (hintsOff()) document.documentElement.classList.add('no-phase-hints');
    fillTips();
    // Fragments arrive over the socket and replace the private section: fill the new box.
    new MutationObserver(fillTips).observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
