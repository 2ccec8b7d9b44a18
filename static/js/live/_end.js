
  // _end.js: the page starts (every part above has set itself up): its first state is the
  // page itself, then the socket opens. The function every part belongs to ends here.

  showSound();
  afterSwap();
  var initial = document.getElementById('table-state');
  lastPublic = versionOf(initial);
  pageVersion = lastPublic;
  connect();
})();
