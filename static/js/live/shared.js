  // shared.js: The state every part of the live page reads or sets (one function scope: the parts
  // are fragments of it), and the small helpers they all use.

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
  // A press on a control in progress (its timer, taps.js), and the frames that wait for its end.
  var pressing = 0;
  var heldFrames = [];

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
