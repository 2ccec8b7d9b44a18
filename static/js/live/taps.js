  // taps.js: Taps: each one gets an id, travels over the socket (over HTTP when the socket is closed
  // or slow), one at a time, the others queued; a double tap is dropped.

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

  // A press on a control holds the frames that come meanwhile (handleFrame): a redraw puts a new
  // button where the pressed one was, and a mouse click pressed on one element and released on
  // another goes to neither, so the tap would be lost. The frames are applied, in order, once the
  // click is through (its handlers start the tap), or the press ends without one (a touch's click
  // comes a moment after the finger lifts), or after ten seconds. Holding the identity card
  // holds nothing. Enter or Space on a focused control is a press too (a button's Space clicks
  // as the key comes up, a box's too); a held key's repeats go on holding.
  function unpress(press) {
    if (!pressing || (press && press !== pressing)) return;
    clearTimeout(pressing);
    pressing = 0;
    heldFrames.splice(0).forEach(handleFrame);
  }
  function onPress(ev) {
    var el = (ev.isPrimary || /^( |Enter)$/.test(ev.key)) && ev.target.closest('button,input,select,label,summary,a');
    if (!el || ev.repeat || el.closest('[data-hold]')) return;
    unpress();
    pressing = setTimeout(unpress, 1e4);
  }
  document.addEventListener('pointerdown', onPress, true);
  document.addEventListener('keydown', onPress, true);
  ['click', 'pointerup', 'pointercancel', 'keyup'].forEach(function (type) {
    document.addEventListener(type, function () {
      var press = pressing;
      if (press) setTimeout(function () { unpress(press); }, /up/.test(type) ? 300 : 0);
    }, true);
  });
