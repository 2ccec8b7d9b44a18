"""Big tables, small phones, busy hosts, in a real browser, in both
languages, with long names (eight Chinese characters, sixteen Latin ones: the join form's limit).

- 9: at 8 and 10 players the phone's ring, scrolled under the strip, fits one 360x640 screen
  (and a 390x844 one), for the current player (the turn's buttons pinned at the bottom) and for
  the others; no name is cut or broken inside a word.
- 10: the host console's next action (发身份, then 发武将) is on the first screen at every size, and
  once a stage is over (dealt, heroes, play) the console is back at the top, where the ring is.
- 11: at 360x640 the hero candidates fit one screen as a compact list (five for the lord, two
  for the others at ten players); the damage source buttons keep long names whole.
- 12, 13 (dying at a big table): test_big_tables_dying.py.

Tables are built with plain requests (tests/browser/tables.py), their hero box every hero as
wide as the widest standard one (tables.widest_box): whatever the deal draws, the layout is the
worst case. Screenshots go to test-artifacts/big-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.boxes import box_of, measure
from tests.browser.conftest import AppServer, screenshot
from tests.browser.test_display import heavy_play

pytestmark = [pytest.mark.browser]

POOLS = {"zh": tables.NAMES_ZH, "en": tables.NAMES_EN}
SMALL = (360, 640)
PHONE = (390, 844)
WIDEST = tables.widest_box()
CONSOLE_SIZES = {
    "laptop": (1280, 800),
    "tv": (1920, 1080),
    "tablet": (800, 1280),
    "phone": PHONE,
    "small": SMALL,
}

# Is every piece of text whole: not cut (scrollWidth), and no word (a run of letters, or of
# Chinese characters: a name) spread over two lines?
WHOLE_JS = """(els) => els.map(el => {
  const cut = el.scrollWidth > el.clientWidth + 1;
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const re = /[A-Za-z]+|[\\u4e00-\\u9fff]+/g;
    let m;
    while ((m = re.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return {text: el.textContent.trim(), cut, broken};
})"""

RING_JS = """() => {
  const rect = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const strip = document.getElementById('now-strip');
  const ring = document.querySelector('#table-state .ring');
  const bar = document.querySelector('#table-state .turn-bar .turn-only');
  const pinned = bar && getComputedStyle(bar).position === 'fixed' && bar.getBoundingClientRect().height > 0;
  return {
    viewport: [innerWidth, innerHeight],
    strip: rect(strip),
    ring: rect(ring),
    bottom: pinned ? bar.getBoundingClientRect().top : innerHeight,
    seats: Array.from(ring.querySelectorAll(':scope > .seat')).map(s => ({
      id: s.getAttribute('data-seat'), rect: rect(s), name: s.querySelector('.seat-name').textContent})),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def open_page(
    browser: Browser, server: AppServer, path: str, size: tuple[int, int], lang: str
) -> Page:
    """A page at this size in this language; a phone (touch) below 700 CSS pixels wide."""
    width, height = size
    phone = width < 700
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale="zh-CN" if lang == "zh" else "en-US",
        base_url=server.base_url,
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.base_url}])
    page = context.new_page()
    page.goto(path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def pick_all(table: tables.HttpTable, skip: tables.HttpSeat | None = None) -> None:
    """Every seat but `skip` picks its first candidate, the lord first (the candidates are dealt)."""
    for seat in table.seats:
        if not seat.identity:
            found = tables.IDENTITY_RE.search(seat.device.page())
            assert found
            seat.identity = found.group(1)
    lord = table.seat_by_identity("lord")
    for seat in [lord, *(s for s in table.seats if s is not lord)]:
        if seat is skip:
            continue
        heroes = tables.HERO_RE.findall(seat.device.page())
        assert heroes, seat.name
        seat.device.act("pick", hero=heroes[0])


def whole(page: Page, selector: str) -> list[dict[str, Any]]:
    return list(page.locator(selector).evaluate_all(WHOLE_JS))


def assert_whole(page: Page, selector: str, where: str) -> None:
    found = whole(page, selector)
    assert found, f"{where}: nothing matches {selector}"
    for item in found:
        assert not item["cut"], f"{where}: {item['text']!r} is cut"
        assert not item["broken"], f"{where}: {item['text']!r} broken inside {item['broken']}"


def inside(box: dict[str, float] | None, top: float, bottom: float, width: float) -> bool:
    return bool(
        box
        and box["x"] >= -0.5
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] >= top - 0.5
        and box["y"] + box["height"] <= bottom + 0.5
    )


def in_screen(page: Page, selector: str, where: str) -> None:
    """Visible and wholly inside the viewport as the page is scrolled now."""
    el = page.locator(selector)
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    assert inside(box_of(el), 0, height, width), f"{where}: {selector} off the screen"
    # Not under anything else (a sheet, a pinned bar): its middle and its corners (inside the
    # rounding) are its own.
    covered = measure(
        el,
        """el => { const r = el.getBoundingClientRect();
          const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 10, r.top + 10],
                          [r.right - 10, r.top + 10], [r.left + 10, r.bottom - 10], [r.right - 10, r.bottom - 10]];
          return points.filter(([x, y]) => { const hit = document.elementFromPoint(x, y);
            return !(hit && (hit === el || el.contains(hit))); })
            .map(([x, y]) => { const hit = document.elementFromPoint(x, y);
              return `${Math.round(x)},${Math.round(y)}: ${hit ? hit.className : 'nothing'}`; }); }""",
    )
    assert not covered, f"{where}: {selector} is partly covered ({covered})"


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def check_ring(page: Page, names: list[str], where: str) -> dict[str, Any]:
    """Scrolled so the ring starts under the strip, every seat is on that one screen, above the
    pinned buttons, apart from the others, its name whole."""
    # Scrolled again until the ring stays put: what the page fills in after loading (the role
    # tips) may still move it once.
    page.wait_for_function(
        """() => {
          const ring = document.querySelector('#table-state .ring');
          const strip = document.getElementById('now-strip').getBoundingClientRect();
          const off = ring.getBoundingClientRect().top - strip.bottom;
          if (Math.abs(off) < 1) return true;
          window.scrollTo(0, off + window.scrollY);
          return false;
        }""",
        polling=100,
    )
    got = dict(page.evaluate(RING_JS))
    width = got["viewport"][0]
    top, bottom = got["strip"][3], got["bottom"]
    assert sorted(s["name"] for s in got["seats"]) == sorted(names), where
    height = got["ring"][3] - got["ring"][1]
    assert height <= bottom - top + 0.5, f"{where}: ring {height:.0f} px, room {bottom - top:.0f}"
    for i, seat in enumerate(got["seats"]):
        left, s_top, right, s_bottom = seat["rect"]
        assert left >= 0 and right <= width, f"{where}: {seat['name']} leaves the screen sideways"
        assert s_top >= top - 0.5 and s_bottom <= bottom + 0.5, f"{where}: {seat['name']} {seat}"
        for other in got["seats"][:i]:
            assert not _overlap(seat["rect"], other["rect"]), f"{where}: {seat} on {other}"
    assert got["scrollWidth"] <= width, f"{where}: the page scrolls sideways"
    assert_whole(page, "#table-state .ring .seat-name", where)
    return got


# ---------------------------------------------------------------------------------------------
# 9. The ring of 8 to 10 on a small phone


@pytest.mark.parametrize("count", [8, 10])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_ring_fits_one_small_screen(
    browser: Browser, app_server: AppServer, lang: str, count: int
) -> None:
    names = POOLS[lang][:count]
    table, _dead = heavy_play(app_server.base_url, names, box=WIDEST)
    lord = table.seat_by_identity("lord")  # the lord has the first turn
    other = next(s for s in table.seats if s is not lord and s.name not in _dead)
    sizes = [SMALL, PHONE] if count == 10 else [SMALL]
    for size in sizes:
        for who, seat in (("turn", lord), ("other", other)):
            page = open_page(browser, app_server, seat.device.url, size, lang)
            where = f"{lang} {count} players {size[0]}x{size[1]} {who}"
            if who == "turn":
                expect(page.locator("body.my-turn")).to_have_count(1)
            check_ring(page, names, where)
            if size == SMALL:
                screenshot(page, f"big-{lang}-{count}-ring-{who}")
            page.context.close()


# ---------------------------------------------------------------------------------------------
# 10. The host console's next action, and back to the top when a stage is over


def _scroll_to_bottom(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_host_consoles_next_action_is_on_the_first_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    for size_name, size in CONSOLE_SIZES.items():
        where = f"{lang} console {size_name}"
        table = tables.seated(app_server.base_url, POOLS[lang][:10], box=WIDEST)
        page = open_page(browser, app_server, table.host.url, size, lang)
        deal = "#host-panel .host-main form[hx-post='act/deal'] button"
        assert page.evaluate("() => window.scrollY") == 0
        in_screen(page, deal, where + " lobby")
        if size_name in ("laptop", "small"):
            screenshot(page, f"big-{lang}-console-{size_name}-lobby")
        # The host scrolls down to arrange the seats, then deals from where the button is.
        _scroll_to_bottom(page)
        in_screen(page, deal, where + " lobby, scrolled")
        page.locator(deal).click()
        expect(page.locator("#table-state")).to_have_attribute("data-status", "dealt")
        page.wait_for_function("() => window.scrollY === 0")
        start = "#host-panel .host-main form[hx-post='act/start'] button"
        in_screen(page, start, where + " dealt")
        _scroll_to_bottom(page)
        in_screen(page, start, where + " dealt, scrolled")
        page.locator(start).click()
        expect(page.locator("#table-state")).to_have_attribute("data-status", "heroes")
        page.wait_for_function("() => window.scrollY === 0")
        _scroll_to_bottom(page)
        pick_all(table)
        expect(page.locator("#table-state")).to_have_attribute("data-status", "playing")
        page.wait_for_function("() => window.scrollY === 0")
        width, height = size
        sideways = page.evaluate("() => document.documentElement.scrollWidth")
        assert sideways <= width, f"{where}: the console scrolls sideways ({sideways} px)"
        seats = page.locator("#table-state .ring > .seat")
        expect(seats).to_have_count(10)
        if width > height:
            # A console used as the TV shows the whole ring once play starts.
            for i in range(10):
                assert inside(box_of(seats.nth(i)), 0, height, width), f"{where} seat {i}"
        else:
            # A portrait or phone-sized console: the table starts on the first screen.
            first = box_of(page.locator("#table-state"))
            assert first["y"] < height, where
        if size_name in ("laptop", "small"):
            screenshot(page, f"big-{lang}-console-{size_name}-playing")
        page.context.close()


# ---------------------------------------------------------------------------------------------
# 11. Hero candidates and damage sources on a 360x640 phone


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hero_candidates_and_damage_sources_fit_a_small_phone(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    names = POOLS[lang][:10]
    table = tables.seated(app_server.base_url, names, box=WIDEST)
    tables.deal(table)
    table.host.act("start")
    lord = table.seat_by_identity("lord")
    page = open_page(browser, app_server, lord.device.url, SMALL, lang)
    choices = page.locator("#my-seat .hero-choices .choice")
    expect(choices).to_have_count(5)
    # Scrolled to the heading: all five candidates and their buttons on one screen.
    page.locator("#my-seat .hero-choices").evaluate(
        """el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY
                 - document.getElementById('now-strip').getBoundingClientRect().bottom)"""
    )
    strip = box_of(page.locator("#now-strip"))
    for i in range(5):
        for part in (choices.nth(i), choices.nth(i).locator("> .btn")):
            assert inside(box_of(part), strip["y"] + strip["height"], SMALL[1], SMALL[0]), (
                f"{lang}: candidate {i + 1} of 5 off the screen"
            )
    assert_whole(page, "#my-seat .hero-choices .choice-name", f"{lang} candidates")
    screenshot(page, f"big-{lang}-heroes-lord")
    # A tap on a candidate's line opens its skills.
    choices.first.locator("summary").click()
    expect(choices.first.locator(".skills p").first).to_be_visible()
    choices.first.locator("> .btn").click()
    expect(page.locator("#my-seat .hero-choices")).to_have_count(0)
    # The others (two candidates at ten players): both on the first screen, without scrolling.
    other = next(s for s in table.seats if s is not lord)
    page = open_page(browser, app_server, other.device.url, SMALL, lang)
    expect(page.locator("#my-seat .hero-choices .choice")).to_have_count(2)
    for i in range(2):
        in_screen(page, f"#my-seat .hero-choices .choice >> nth={i}", f"{lang} other's candidates")
    screenshot(page, f"big-{lang}-heroes-other")
    pick_all(table, skip=lord)
    expect(page.locator("#table-state")).to_have_attribute("data-status", "playing")
    # The damage dialog: every source button keeps its name whole.
    page.locator("#my-seat .hp-minus").click()
    grid = page.locator("#dialog .damage-form .source-grid")
    expect(grid).to_be_visible()
    expect(grid.locator(".btn")).to_have_count(11)
    assert_whole(page, "#dialog .damage-form .source-grid .btn", f"{lang} damage sources")
    for box in grid.locator(".btn").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    ):
        assert box[0] >= 0 and box[1] <= SMALL[0], f"{lang}: a source button leaves the screen"
    grid.scroll_into_view_if_needed()
    screenshot(page, f"big-{lang}-damage-sources")
