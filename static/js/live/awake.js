  // awake.js: The screen kept on while identities are dealt and in play.

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
  // Whether the video is playing now (its 'playing' came, no 'pause' or error since): a video
  // told to play is not paused at once, yet may never start, and the note must not blink away
  // and back (moving the page under the player's finger) on each tap.
  var awakePlaying = false;
  function wantAwake() {
    var state = document.getElementById('table-state');
    var status = state && state.getAttribute('data-status');
    return status === 'dealt' || status === 'playing';
  }
  function showAwake() {
    var note = document.getElementById('awake-note');
    var hide = !wantAwake() || !!wakeLock || (awakePlaying && !!awakeVideo && !awakeVideo.paused);
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
      ['playing', 'pause', 'error'].forEach(function (e) {
        awakeVideo.addEventListener(e, function (ev) { awakePlaying = ev.type === 'playing'; showAwake(); }, true);
      });
      body.appendChild(awakeVideo);
    }
    var played = awakeVideo.play();
    if (played && played.catch) played.catch(function () { awakePlaying = false; showAwake(); });
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

  // The browser lets the wake lock go when the page is hidden: take it again on return.
  document.addEventListener('visibilitychange', keepAwake);
