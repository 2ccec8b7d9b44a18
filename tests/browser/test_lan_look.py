"""What a fresh look at the pages on a table's phones (a small Android phone on the laptop's LAN
name, plain http, both languages) and its display found out of place, each kept fixed:

- A finished game's players stay in their card on the session page; 反贼 is never broken in two.
- The host console's distance table shows every seat's column; the join address under its QR
  code keeps the table code whole.
- Text that wraps on the identity card and on a link drawn as a button stays centred.
- A dead player's phone says once that the identity is public.
- A lord's five jades take one line between the HP buttons.
- The 3 vs 3 display's banners take the distance table's place instead of half covering it.

Screenshots: test-artifacts/lan-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import screen_tables, tables
from tests.browser.boxes import measure
from tests.browser.conftest import LAN_NAME, AppServer, screenshot
from tests.browser.test_lan_pages import lan_page

pytestmark = [pytest.mark.browser]

FOUR_HP_LORDS = ("WEI001", "SHU001", "WU001")  # 曹操, 刘备, 孙权


# A table's width past its box's, and the table cells laid out on more than one line whose text
# is a single word (a Chinese identity or hero name broken in two: 反/贼).
TABLE_FIT_JS = """el => {
  const box = el.parentElement.getBoundingClientRect();
  const broken = [...el.querySelectorAll('td')].filter(td => {
    const text = td.textContent.trim();
    if (!/^[\\u4e00-\\u9fff]{2,4}$/.test(text)) return false;
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
  }).map(td => td.textContent.trim());
  return [Math.round(el.getBoundingClientRect().right - box.right), broken];
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_finished_games_players_fit_the_session_page_of_a_small_phone(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    lord, rebel = table.seat_by_identity("lord"), table.seat_by_identity("rebel")
    tables.kill(table, lord, rebel)
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url + "session/")
        players = page.locator("table.game-players").first
        expect(players).to_be_visible()
        past, broken = measure(players, TABLE_FIT_JS)
        screenshot(page, f"lan-session-players-{lang}", full_page=True)
        assert past <= 0, f"the players' table runs {past}px past its card (its last column cut)"
        assert broken == [], f"names broken in two: {broken}"
        # Whom the rebel killed: under the rebel's name, not in a column of its own.
        killer = players.locator("tbody tr", has_text=rebel.name)
        killed = "击杀：" if lang == "zh" else "Killed:"
        expect(killer.locator("td").first.locator(".kills")).to_have_text(f"{killed} {lord.name}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_host_consoles_distance_table_shows_every_seat_on_a_small_phone(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        box = page.locator("#table-state .matrix-box")
        hidden = measure(box, "el => el.scrollWidth - el.clientWidth")
        box.scroll_into_view_if_needed()
        screenshot(page, f"lan-host-matrix-{lang}")
        # The box scrolls sideways, without a sign that it does: a column past its edge is lost.
        assert hidden <= 0, f"the last {hidden}px of the distance table are out of sight"
    finally:
        page.context.close()


# How far each line of an element's text is from the middle of the element's content box: the
# largest difference, in px, between the room left and right of a line.
OFF_CENTRE_JS = """el => {
  const box = el.getBoundingClientRect(), style = getComputedStyle(el);
  const left = box.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
  const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
  const range = document.createRange();
  range.selectNodeContents(el);
  const lines = new Map();
  for (const r of range.getClientRects()) {
    if (!r.width) continue;
    const top = Math.round(r.top), line = lines.get(top) || [r.left, r.right];
    lines.set(top, [Math.min(line[0], r.left), Math.max(line[1], r.right)]);
  }
  return Math.max(...[...lines.values()].map(([l, r]) => Math.abs((l - left) - (right - r))));
}"""


def test_a_wrapped_line_on_the_identity_card_is_centred_like_a_short_one(
    browser: Browser, app_server: AppServer
) -> None:
    lobby = tables.seated(app_server.base_url, tables.NAMES_EN[:4])
    threes, commanders = screen_tables.threes(app_server.base_url)
    page = lan_page(browser, app_server, "en", [])
    try:
        for path, name in (
            (lobby.seats[0].device.url, "waiting"),
            (commanders[0].device.url, "3v3"),
        ):
            page.goto(path)
            expect(page.locator("#conn")).to_have_attribute("data-state", "open")
            card = page.locator("#my-seat .identity-card")
            off = measure(card, OFF_CENTRE_JS)
            screenshot(page, f"lan-identity-card-{name}")
            assert off <= 4, f"{name}: a line of the card is {off:.0f}px off its middle"
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_link_drawn_as_a_button_centres_its_wrapped_label(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:4])
    page = lan_page(browser, app_server, lang, [])
    try:
        # Two lines on a small phone: "第一局：一步步带你开始", "武将盒：添加、启用/停用、导出、导入…".
        for path, selector in (("/", "a.fg-start"), (table.host.url, "a.box-link")):
            page.goto(path)
            link = page.locator(selector)
            off = measure(link, OFF_CENTRE_JS)
            assert off <= 4, f"{path} {selector}: a line of its label is {off:.0f}px off its middle"
        screenshot(page, f"lan-button-label-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "public"), [("zh", "公开"), ("en", "public")])
def test_a_dead_players_phone_says_once_that_the_identity_is_public(
    browser: Browser, app_server: AppServer, lang: str, public: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    dead = table.seat_by_identity("rebel")
    tables.kill(table, dead, None)
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(dead.device.url)
        expect(page.locator("#my-seat .dead-mark")).to_be_visible()
        # The card says it ("你的身份已公开。"); the line under it said it again word for word.
        said = page.locator("#my-seat .identity-card, #my-seat .dead-mark").all_inner_texts()
        assert sum(text.count(public) for text in said) == 1, said
        screenshot(page, f"lan-dead-{lang}")
    finally:
        page.context.close()


# The parts of the distance table drawn where a banner is: [banner text, part] pairs.
UNDER_BANNERS_JS = """el => {
  const shown = e => getComputedStyle(e).visibility === 'visible' && e.getClientRects().length;
  const parts = [...el.querySelectorAll("#table-state .distances :is(thead, tbody tr, .mx-legend)")].filter(shown);
  const banners = [...document.querySelectorAll('.banner')].filter(shown);
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return banners.flatMap(b => parts.filter(p => meet(b.getBoundingClientRect(), p.getBoundingClientRect()))
    .map(p => [b.textContent.trim().slice(0, 30), p.tagName + '.' + p.className]));
}"""


def test_the_3v3_displays_banners_leave_no_distance_table_half_hidden(
    browser: Browser, app_server: AppServer
) -> None:
    table, _commanders = screen_tables.threes(app_server.base_url)
    lan = f"http://{LAN_NAME}:{app_server.port}"
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=lan)
    try:
        page = context.new_page()
        page.goto(table.display_path)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        # The first turn's "every hero draws 4" and the question of who acts first.
        expect(page.locator(".mode-board .banner")).to_have_count(2)
        covered = measure(page.locator("body"), UNDER_BANNERS_JS)
        screenshot(page, "lan-threes-display-banners")
        assert covered == [], f"banners drawn over the distance table: {covered}"
    finally:
        context.close()


# The lines the table code takes in the join address under the QR code.
CODE_LINES_JS = """function (el, code) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode()); ) {
    const at = node.data.indexOf(code);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + code.length);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  }
  return 0;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_join_address_on_a_small_phones_console_keeps_the_table_code_whole(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:4])
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url)
        address = page.locator(".join-box .join-url")
        expect(address).to_contain_text(f"/j/{table.code}/")
        screenshot(page, f"lan-join-address-{lang}")
        # Its width depends on the laptop's address and the code's letters: every width from a
        # narrow phone's box to a wide one. It broke anywhere, "…/j/WMEH" and "R/".
        split = address.evaluate(
            f"""el => {{
              const lines = {CODE_LINES_JS};
              const split = [];
              for (let w = 120; w <= 320; w += 2) {{
                el.style.width = w + 'px';
                if (lines(el, '{table.code}') !== 1) split.push(w);
              }}
              return split;
            }}"""
        )
        assert split == [], f"the table code {table.code} breaks at widths {split}"
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_lords_five_jades_take_one_line_between_the_hp_buttons_of_a_small_phone(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:5])
    tables.deal(table)
    table.host.act("start")
    lord = table.seat_by_identity("lord")
    # A lord of 4 HP (曹操, 刘备 or 孙权: each is offered to the lord), not the first offered,
    # which may be a hero of 3.
    offer = tables.HERO_RE.findall(lord.device.page())
    lord.device.act("pick", hero=next(h for h in offer if h in FOUR_HP_LORDS))
    for seat in table.seats:
        if seat is not lord:
            seat.device.act("pick", hero=tables.HERO_RE.findall(seat.device.page())[0])
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(lord.device.url)
        jades = page.locator("#my-seat .hp-center .jade")
        expect(jades).to_have_count(5)  # the hero's 4 and the lord's 1
        tops = jades.evaluate_all(
            "els => new Set(els.map(e => e.getBoundingClientRect().top)).size"
        )
        screenshot(page, f"lan-lord-jades-{lang}")
        assert tops == 1, f"the five jades take {tops} lines (four, and one under them)"
    finally:
        page.context.close()
