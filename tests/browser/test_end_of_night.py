"""The end of the night: the last game of a ten-player tournament ends
while the screens look on.

- The end card holds the game's result and the final ranking, shown once: on a laptop (1280x800)
  and a TV (1920x1080) all of it without scrolling, on a portrait tablet (800x1280) with the
  page's own scroll and never an inner one.
- The phone's end tables read as tables at 360 and 390 px: no name broken inside (a Chinese name
  never, a Latin one only between words), identities on one line, rows of at most three lines.
- The charts show every player's whole name at 360, 390 and 1280 px; their colours mean players
  only, and no player's colour is an identity's colour on that screen.
- The toast announcing the end covers none of the result, the ranking, the charts or the QR code.

Both languages; screenshots in test-artifacts/night-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.conftest import AppServer, screenshot
from tests.browser.night_tables import finish, open_page, pause_clock, tournament

pytestmark = [pytest.mark.browser]

DISPLAYS = {"laptop": (1280, 800), "tv": (1920, 1080), "tablet": (800, 1280)}
PHONES = {"phone360": (360, 740), "phone390": (390, 844)}

# Rectangles are [left, top, right, bottom].
END_JS = """() => {
  const rect = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = el => !!el && el.checkVisibility();
  const result = document.querySelector('#table-state .result');
  const rows = sel => Array.from(document.querySelectorAll(sel)).filter(shown).map(rect);
  const lines = el => {
    // How many lines the element's text takes, and the words (Latin) or names (Chinese) the
    // browser broke across two lines.
    const text = el.textContent.trim();
    const tops = new Set();
    const broken = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const re = /[A-Za-z]+|[\\u3400-\\u9fff]+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const mine = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        mine.forEach(t => tops.add(t));
        if (mine.size > 1) broken.push(m[0]);
      }
    }
    return {text, lines: tops.size, broken};
  };
  const cells = sel => Array.from(document.querySelectorAll(sel)).filter(shown).map(lines);
  return {
    viewport: [innerWidth, innerHeight],
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    result: shown(result) ? {
      rect: rect(result),
      inner: result.scrollHeight - result.clientHeight,
      innerX: result.scrollWidth - result.clientWidth,
      // The lowest bottom of anything shown inside the card.
      contentBottom: Math.max(...Array.from(result.querySelectorAll('*')).filter(shown).map(e => e.getBoundingClientRect().bottom)),
      resultRows: rows('#table-state .result .results tbody tr'),
      rankingRows: rows('#table-state .result .final-ranking .standings tbody tr'),
    } : null,
    standingsShown: Array.from(document.querySelectorAll('.standings')).filter(shown).length,
    names: cells('.result .results td.pname, .result .breakdown .pname, .standings td.pname'),
    identities: cells('.result .results td[class^="idn-"], .result .breakdown .small[class*="idn-"]'),
    rowHeights: Array.from(document.querySelectorAll('.result .results tbody tr')).filter(shown).map(tr => {
      const lh = parseFloat(getComputedStyle(tr.querySelector('td')).lineHeight) || 24;
      return tr.getBoundingClientRect().height / lh;
    }),
    tables: Array.from(document.querySelectorAll('.result table, .session-panel table')).filter(shown).map(t => {
      const box = t.parentElement.getBoundingClientRect();
      return {kind: t.className, right: t.getBoundingClientRect().right, room: box.right + 1};
    }),
    toast: rows('#toast.show'),
    join: rows('.join-box .qr-box'),
    charts: rows('.session-panel .chart-box'),
    panelRows: rows('.session-panel tbody tr'),
  };
}"""

# Every chart: its texts inside it, whole; the player names in each; the colours it draws players
# with, and the identity colours on the same screen.
CHARTS_JS = """() => {
  const shown = el => !!el && el.checkVisibility();
  const colour = c => { const d = document.createElement('div'); d.style.color = c; document.body.appendChild(d);
    const v = getComputedStyle(d).color; d.remove(); return v; };
  const charts = Array.from(document.querySelectorAll('svg.chart')).filter(shown).map(svg => {
    const box = svg.getBoundingClientRect();
    const texts = Array.from(svg.querySelectorAll('text')).map(t => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, inside: r.left >= box.left - 1 && r.right <= box.right + 1
        && r.top >= box.top - 1 && r.bottom <= box.bottom + 1, rect: [r.left, r.top, r.right, r.bottom]};
    });
    const keys = Array.from(svg.querySelectorAll('.chart-player, .chart-key')).map(k => {
      const r = k.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];
    });
    const players = Array.from(svg.querySelectorAll('polyline, .chart-player, .chart-key, rect[fill]'))
      .map(e => colour(e.getAttribute('stroke') || e.getAttribute('fill')));
    return {kind: svg.classList.contains('chart-bars') ? 'bars' : 'line', texts, keys, players,
            width: box.width};
  });
  const identities = {};
  document.querySelectorAll('[class^="idn-"], [class*=" idn-"]').forEach(el => {
    if (!shown(el)) return;
    const m = el.className.match(/idn-(lord|loyalist|rebel|renegade)/);
    if (m) identities[getComputedStyle(el).color] = m[1];
  });
  return {charts, identities};
}"""


def _overlap(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    return (
        a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
    )


# The toast slides in (app.css: a transition of its transform): on a wide display from below,
# over the QR code, to its place above it. Transitions run on the browser's own time, not the
# page's paused clock, so it is measured once it has stopped moving: on a loaded machine the end
# may reach the page just before it is measured, the toast still on its way.
TOAST_SETTLED_JS = """() => { const toast = document.querySelector('#toast.show');
  return !!toast && toast.getAnimations().every(a => a.playState !== 'running'); }"""


def end_layout(page: Page) -> dict[str, Any]:
    page.wait_for_function(TOAST_SETTLED_JS)
    return dict(page.evaluate(END_JS))


def check_toast(got: dict[str, Any], where: str) -> None:
    """The toast is up and covers no row of the result or the ranking, no chart, no QR code."""
    assert got["toast"], f"{where}: no toast announced the end"
    toast = got["toast"][0]
    covered = []
    result = got["result"]
    for name in ("resultRows", "rankingRows"):
        covered += [(name, r) for r in result[name] if _overlap(toast, r)]
    covered += [("qr", r) for r in got["join"] if _overlap(toast, r)]
    covered += [("chart", r) for r in got["charts"] if _overlap(toast, r)]
    covered += [("standings", r) for r in got["panelRows"] if _overlap(toast, r)]
    assert not covered, f"{where}: the toast {toast} covers {covered}"


def check_charts(page: Page, names: list[str], where: str) -> None:
    got = page.evaluate(CHARTS_JS)
    kinds = sorted(c["kind"] for c in got["charts"])
    assert kinds == ["bars", "line"], f"{where}: charts {kinds}"
    for chart in got["charts"]:
        texts = [t["text"] for t in chart["texts"]]
        cut = [t["text"] for t in chart["texts"] if not t["inside"]]
        assert not cut, f"{where}: {chart['kind']} chart cuts {cut}"
        for name in names:
            # The whole name: a label of its own (bars) or before the score (line legend).
            assert any(t == name or t.startswith(name + " ") for t in texts), (
                f"{where}: {name!r} not whole in the {chart['kind']} chart: {texts}"
            )
        # No key sits on a name.
        for key in chart["keys"]:
            for t in chart["texts"]:
                assert not _overlap(key, t["rect"]), f"{where}: a key on {t['text']!r}"
        # One meaning per colour: the players' colours are not the identities' on this screen.
        clash = set(chart["players"]) & set(got["identities"])
        assert not clash, (
            f"{where}: {chart['kind']} chart draws players in identity colours {clash}"
        )
    line, bars = sorted(got["charts"], key=lambda c: c["kind"] != "line")
    assert set(bars["players"]) <= set(line["players"]), f"{where}: a player's colour differs"
    assert len(set(line["players"])) == len(names), f"{where}: players share a colour"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_end_of_a_tournament_on_every_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    names = tables.NAMES_ZH if lang == "zh" else tables.NAMES_EN
    table, last = tournament(app_server.base_url, names)
    pages: dict[str, Page] = {}
    for size, wh in DISPLAYS.items():
        pages[size] = open_page(browser, app_server, table.display_path, wh, lang)
    for size, wh in PHONES.items():
        pages[size] = open_page(
            browser, app_server, table.seats[0].device.url, wh, lang, phone=True
        )
    # The toast announcing the end shows for five seconds: each page's clock stands still while
    # every screen is measured, so a slow machine cannot make the toast go first.
    for page in pages.values():
        pause_clock(page)
    finish(table, last)
    seen: dict[str, dict[str, Any]] = {}
    for size, page in pages.items():
        expect(page.locator("#table-state .result .final-ranking")).to_be_visible()
        expect(page.locator("#toast.show"), f"{lang} {size}: no toast").to_be_visible()
        seen[size] = end_layout(page)

    for page in pages.values():
        page.clock.resume()
    for size, page in pages.items():
        where = f"{lang} {size}"
        got = seen[size]
        result = got["result"]
        assert len(result["resultRows"]) == 10 and len(result["rankingRows"]) == 10, where
        # The ranking once: in the end card, not again in the session panel under it.
        assert got["standingsShown"] == 1, (
            f"{where}: the ranking is shown {got['standingsShown']} times"
        )
        assert got["scrollWidth"] <= got["viewport"][0], f"{where}: the page scrolls sideways"
        assert result["inner"] <= 1 and result["innerX"] <= 1, (
            f"{where}: the end card scrolls inside"
        )
        for t in got["tables"]:
            assert t["right"] <= t["room"], f"{where}: a table runs out of its box {t}"
        check_toast(got, where)
        screenshot(page, f"night-end-{lang}-{size}")
        if size in ("laptop", "tv"):
            width, height = got["viewport"]
            assert result["rect"][3] <= height, f"{where}: the end card ends at {result['rect'][3]}"
            assert result["contentBottom"] <= result["rect"][3] + 1, f"{where}: content spills out"
            for row in result["resultRows"] + result["rankingRows"]:
                assert row[3] <= height and row[2] <= width, f"{where}: a row off the screen {row}"
        if size == "tablet":
            # One page, one scroll: the whole card below the fold is reached by the page's own.
            assert result["contentBottom"] <= result["rect"][3] + 1, f"{where}: content spills out"
            if result["rect"][3] > got["viewport"][1]:
                assert got["scrollHeight"] >= result["rect"][3], where
        if size.startswith("phone"):
            for cell in got["names"]:
                assert not cell["broken"], (
                    f"{where}: {cell['text']!r} broken inside {cell['broken']}"
                )
                if lang == "zh":
                    assert cell["lines"] == 1, f"{where}: {cell['text']!r} on {cell['lines']} lines"
            for cell in got["identities"]:
                assert cell["lines"] == 1, f"{where}: identity {cell['text']!r} wraps"
            for rows in got["rowHeights"]:
                assert rows <= 3.2, f"{where}: a result row {rows:.1f} lines high"
        # The charts, at 360, 390 and 1280 (the laptop's panel is under the end card).
        if size in ("laptop", "phone360", "phone390"):
            page.locator(".session-panel .charts").scroll_into_view_if_needed()
            check_charts(page, names, where)
            page.locator(".session-panel .charts").screenshot(
                path=str(screenshot(page, f"night-charts-{lang}-{size}"))
            )
        if size.startswith("phone"):
            page.evaluate("() => window.scrollTo(0, 0)")
            screenshot(page, f"night-end-{lang}-{size}-full", full_page=True)
        page.context.close()
