  // socket.js: The socket: one per screen, its frames, its reconnect with backoff, the heartbeat
  // that finds a socket that silently died, and the checks when the phone wakes up or comes online.

  function setConn(state) {
    var el = document.getElementById('conn');
    if (!el) return;
    el.setAttribute('data-state', state);
    var label = body.getAttribute('data-conn-' + state) || state;
    el.setAttribute('title', label);
    el.setAttribute('aria-label', label);
  }

  function send(obj) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(obj));
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
    // No control is replaced under a press: the frame waits for the click (taps.js).
    if (pressing) return heldFrames.push(text);
    var was = document.activeElement || body;
    var key = focusKey(was);
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
      return refocus(was, key);
    }
    var pub = holder.content.querySelector('#table-state');
    var gap = false;
    if (pub) {
      var v = versionOf(pub);
      // One transaction's changes come as one state, which names the first of them.
      var since = +pub.getAttribute('data-since') || v;
      gap = lastPublic && since > lastPublic + 1;
      if (v > lastPublic) lastPublic = v;
    }
    htmx.swap(body, text, { swapStyle: 'none' });
    afterSwap();
    refocus(was, key);
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

  document.addEventListener('visibilitychange', checkAlive);
  window.addEventListener('online', function () { retry = 0; checkAlive(); });
  window.addEventListener('pageshow', function (ev) { if (ev.persisted) checkAlive(); });
