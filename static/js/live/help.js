
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
