  // strip.js: The phone's "now" strip and the ring of seats seen from this seat.

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
