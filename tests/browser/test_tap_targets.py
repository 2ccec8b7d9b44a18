"""A thumb's target on a table's phones (a small Android phone, 360x640, and a 390x844 one, in a
dim room, both languages): each control the players tap answers taps over at least 44x44 CSS
px, measured as the area round the control's middle where a tap reaches it (its own box, padding
or a pseudo-element that extends it; not a control inside it with a tap of its own):

- the lobby's seats (the seat's button fills its card),
- the hero candidates' skill chips (part of the candidate's line, which opens the card),
- the help page's chips that open another entry,
- the session panel's History (历史) on the play screen,
- the brand's link home beside the table code in the top bar,
- the group page's filters, drawn as the app's other selects,
- the small buttons (.btn-small, drawn 36px tall to stay compact): the host's seat dialog
  (Remove, Undo) and judge dialog (Deck reshuffled), the session page (a game's breakdown, the
  exports, side by side), its group panel (its selects too, inside the panel), the box page,
- the table history's fold (牌桌记录) on a phone.

The names that open a help entry on a phone in play: test_tap_targets_names.py.

Screenshots: test-artifacts/targets-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser import screen_tables, tables
from tests.browser.boxes import measure
from tests.browser.conftest import AppServer, screenshot
from tests.browser.tables import HEADER_CSRF_RE
from tests.browser.test_group_page import imported_group
from tests.browser.test_lan_pages import lan_page

pytestmark = [pytest.mark.browser]

SIZES = ((360, 640), (390, 844))
THUMB = 44
# The area a tap reaches the element's control in: from the element's middle, each way, as far
# as the point a tap lands on belongs to the same control (the nearest link, button, summary,
# select or help name holding it; the element itself if none does).
HIT_JS = """el => {
  const sel = 'a, button, summary, select, input, label, [data-help]';
  const target = el.closest(sel) || el;
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const on = (px, py) => {
    const hit = document.elementFromPoint(px, py);
    if (!hit || !target.contains(hit)) return false;
    const own = hit.closest(sel);
    return own === target || !target.contains(own);
  };
  const reach = (dx, dy) => { let d = 0; while (d < 300 && on(x + dx * (d + 1), y + dy * (d + 1))) d++; return d; };
  const drawn = [Math.round(r.width), Math.round(r.height)];
  if (!on(x, y)) return {w: 0, h: 0, drawn};
  return {w: reach(-1, 0) + reach(1, 0) + 1, h: reach(0, -1) + reach(0, 1) + 1, drawn};
}"""


def small_targets(locator: Locator, name: str, most: int = 12) -> list[str]:
    """Each of the locator's elements (the first `most`) whose hit area is under a thumb's size,
    described."""
    count = locator.count()
    assert count, f"no {name} on the page"
    found = []
    for index in range(min(count, most)):
        hit = measure(locator.nth(index), HIT_JS)
        if hit["w"] < THUMB or hit["h"] < THUMB:
            w, h = hit["drawn"]
            found.append(
                f"{name} #{index} (drawn {w}x{h}px): taps reach it over {hit['w']}x{hit['h']}px"
            )
    return found


# Whether each of the elements has another of them beside it in the row above or below, nearer
# than a thumb (names that wrapped onto a second row).
CROWDED_JS = """els => els.map(el => {
  const mid = e => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; };
  return [...el.parentElement.children].some(o => {
    const d = o === el || !els.includes(o) ? 0 : Math.abs(mid(o) - mid(el));
    return d > 8 && d < 44;
  });
})"""


def short_names(locator: Locator, name: str, most: int = 12) -> list[str]:
    """Each of the locator's names (a line of words that opens something, beside the next name:
    as wide as its words) whose hit area is under a thumb's height, described. Two rows of them
    closer than a thumb share the room between them: there each needs its own box."""
    count = locator.count()
    assert count, f"no {name} on the page"
    crowded = locator.evaluate_all(CROWDED_JS)
    found = []
    for index in range(min(count, most)):
        hit = measure(locator.nth(index), HIT_JS)
        w, h = hit["drawn"]
        if hit["w"] < w - 2 or hit["h"] < (h - 2 if crowded[index] else THUMB):
            found.append(
                f"{name} #{index} (drawn {w}x{h}px): taps reach it over {hit['w']}x{hit['h']}px"
            )
    return found


def at_each_size(page: Page, check: dict[str, Locator], *, tall: tuple[str, ...] = ()) -> list[str]:
    """The targets under a thumb's size, at each phone size (`tall`: the names checked by
    short_names)."""
    small = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for name, locator in check.items():
            measured = short_names if name in tall else small_targets
            small += [f"{width}px {s}" for s in measured(locator, name)]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 360, "height": 640})
    return small


def live(page: Page, path: str) -> None:
    page.goto(path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lobby_seats_and_the_brand_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_ZH[:4])
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, table.seats[1].device.url)
        seats = page.locator("#table-state .seat-open")
        expect(seats).to_have_count(4)
        small = at_each_size(page, {"seat": seats, "brand": page.locator(".topbar .brand")})
        page.evaluate("() => scrollTo(0, 0)")
        screenshot(page, f"targets-lobby-{lang}")
        assert small == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hero_candidates_skill_chips_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = screen_tables.heroes(app_server.base_url)
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, table.seat_by_identity("lord").device.url)
        chips = page.locator("#my-seat .hero-choices .choice-skills .tag")
        small = at_each_size(page, {"skill chip": chips})
        page.locator("#my-seat .hero-choices").scroll_into_view_if_needed()
        screenshot(page, f"targets-candidates-{lang}")
        assert small == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_help_pages_chips_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    page = lan_page(browser, app_server, lang, [])
    try:
        # 刘备 (his skills and his lord skill) and the cards and skills that name 杀.
        for name, query in (("liubei", "%E5%88%98%E5%A4%87"), ("sha", "%E6%9D%80")):
            page.goto(f"/help/?q={query}")
            chips = page.locator("#help-results .help-links a")
            expect(chips.first).to_be_visible()
            small = at_each_size(page, {"help chip": chips})
            # The entry with the most chips, to look at how their rows wrap.
            page.evaluate(
                """() => [...document.querySelectorAll('#help-results .help-links')]
                .sort((a, b) => b.children.length - a.children.length)[0]
                .scrollIntoView({block: 'center'})"""
            )
            screenshot(page, f"targets-help-{name}-{lang}")
            assert small == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_session_history_button_takes_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = screen_tables.finished(app_server.base_url)
    tables.deal(table)  # the next game, in play: the panel stays under the play screen
    tables.pick_heroes(table)
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, table.seats[0].device.url)
        history = page.locator("#session-panel button[hx-get='session/']")
        small = at_each_size(page, {"History": history, "brand": page.locator(".topbar .brand")})
        history.scroll_into_view_if_needed()
        screenshot(page, f"targets-history-{lang}")
        assert small == []
    finally:
        page.context.close()


# The app's other selects (the turn's fix, a session's): its panel colour, text and line, rounded.
SELECT_LOOK = {
    "backgroundColor": "rgb(44, 37, 32)",
    "color": "rgb(243, 236, 228)",
    "borderTopColor": "rgb(61, 52, 45)",
    "borderTopLeftRadius": "10px",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_group_pages_filters_take_a_thumb_and_look_like_the_apps(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    link = imported_group(app_server.base_url)
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(link)
        filters = page.locator(".group-filters :is(select, button)")
        expect(filters).to_have_count(3)
        assert at_each_size(page, {"filter": filters}) == []
        for index in range(2):
            look = filters.nth(index).evaluate(
                "(el, keys) => Object.fromEntries(keys.map(k => [k, getComputedStyle(el)[k]]))",
                list(SELECT_LOOK),
            )
            assert look == SELECT_LOOK
        screenshot(page, f"targets-group-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hosts_seat_and_judge_dialogs_small_buttons_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    seat = next(s for s in table.seats if s.identity != "lord")
    # A horse and 闪电 to take off again, two HP changes to undo.
    table.host.act("equip", seat=str(seat.id), name="赤兔")
    table.host.act("trick", seat=str(seat.id), name="闪电")
    table.host.act("hp", seat=str(seat.id), delta="-1", source="")
    table.host.act("hp", seat=str(seat.id), delta="1")
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, table.host.url)
        page.locator(f"#table-state .ring .seat[data-seat='{seat.id}'] .seat-open").click()
        small = page.locator("#dialog .btn-small")
        expect(small).to_have_count(4)  # the horse's and 闪电's Remove, two Undo
        found = at_each_size(page, {"seat dialog's small button": small})
        small.first.scroll_into_view_if_needed()
        screenshot(page, f"targets-seat-dialog-{lang}")
        small.last.scroll_into_view_if_needed()
        screenshot(page, f"targets-seat-undo-{lang}")
        page.locator("#dialog button[hx-get^='judge/']").click()
        reshuffle = page.locator("#dialog .reshuffle-form .btn-small")
        expect(reshuffle).to_be_visible()
        found += at_each_size(page, {"Deck reshuffled": reshuffle})
        reshuffle.scroll_into_view_if_needed()
        screenshot(page, f"targets-judge-dialog-{lang}")
        assert found == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_session_pages_small_buttons_and_group_panel_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    tables.kill(table, table.seat_by_identity("lord"), table.seat_by_identity("rebel"))
    csrf = HEADER_CSRF_RE.search(table.host.page())
    assert csrf
    # A group for the evening: the panel's links to fix (Is), a merge.
    table.host.post(table.host.url + "group/create", {"name": "周五三国杀"}, csrf.group(1))
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url + "session/")
        panel = page.locator("#group-panel .btn-small")
        expect(panel.first).to_be_visible()
        small = at_each_size(
            page,
            {
                "game's breakdown": page.locator("main .btn-small[hx-get*='game/']"),
                "export": page.locator(".exports .btn-small"),
                "group panel's button": panel,
                "group panel's select": page.locator("#group-panel select"),
            },
        )
        # Its table of who is who stays inside the panel (a select as wide as the longest
        # name ran past its edge, cut off).
        past = page.locator("#group-panel").evaluate(
            "el => Math.max(...[...el.querySelectorAll('select, .btn')]"
            ".map(c => c.getBoundingClientRect().right)) - el.getBoundingClientRect().right"
        )
        assert past <= 0, f"the group panel's controls run {past}px past its edge"
        # The two exports stay side by side (JSON alone on a line read as apart from CSV).
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            tops = page.locator(".exports .btn-small").evaluate_all(
                "els => els.map(el => Math.round(el.getBoundingClientRect().top))"
            )
            assert len(tops) == 2 and tops[0] == tops[1], f"{width}px: exports at {tops}"
        page.set_viewport_size({"width": 360, "height": 640})
        page.locator(".exports").scroll_into_view_if_needed()
        screenshot(page, f"targets-session-exports-{lang}")
        page.locator("#group-panel").scroll_into_view_if_needed()
        screenshot(page, f"targets-group-panel-{lang}")
        assert small == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_box_pages_small_buttons_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    # Two added heroes (their Remove) and every standard hero switched off (its switch).
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:4], box=tables.widest_box(2))
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url + "box/")
        small = at_each_size(
            page,
            {
                "Back": page.locator(".box-page .btn-small"),
                "Remove": page.locator(".box-list .btn-danger.btn-small"),
                "switch": page.locator(".box-switch"),
            },
        )
        page.locator(".box-list .btn-danger").first.scroll_into_view_if_needed()
        screenshot(page, f"targets-box-added-{lang}")
        page.locator(".box-switch").first.scroll_into_view_if_needed()
        screenshot(page, f"targets-box-switches-{lang}")
        assert small == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_table_historys_fold_takes_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = screen_tables.playing(app_server.base_url)
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, table.seats[1].device.url)
        fold = page.locator("#table-state .history > summary")
        small = at_each_size(page, {"history's fold": fold})
        fold.scroll_into_view_if_needed()
        screenshot(page, f"targets-table-history-{lang}")
        assert small == []
    finally:
        page.context.close()
