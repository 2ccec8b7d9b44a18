  // alerts.js: The alerts: a vibration and, when switched on, a tone made here (no sound file).

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
