  // outcomes.js: A tap's outcome: applied, merged with the same tap, refused or not applied, and the
  // questions to the server while it is in doubt.

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
