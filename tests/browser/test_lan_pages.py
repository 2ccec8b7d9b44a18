"""The pages as a table's phones see them: by the laptop's LAN name over plain http (not a secure
context), on a small Android phone (360x640), in both languages.

- No page writes an error to the browser's console there (a header the browser ignores on an
  untrustworthy origin made every page say so in red).
- The top bar's brand is whole, not cut to "Sang…", whatever the page puts next to it.
- The help page names where a ruling comes from in the page's language, not by the project's
  file names ("seed 003", "RULES §5").

Screenshots: test-artifacts/lan-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, expect

from tests.browser import screen_tables, tables
from tests.browser.boxes import measure
from tests.browser.conftest import LAN_NAME, AppServer, screenshot

pytestmark = [pytest.mark.browser]

SMALL_PHONE = {
    "viewport": {"width": 360, "height": 640},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def lan_page(browser: Browser, server: AppServer, lang: str, problems: list[str]) -> Page:
    """A small phone on the LAN name; `problems` collects its console errors and page errors."""
    lan = f"http://{LAN_NAME}:{server.port}"
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US", base_url=lan, **SMALL_PHONE
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": lan}])
    page = context.new_page()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"{page.url}: {message.text}")

    def error(exc: Error) -> None:
        problems.append(f"{page.url}: {exc}")

    page.on("console", console)
    page.on("pageerror", error)
    return page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_page_writes_an_error_to_the_console_of_a_phone_on_the_lan(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_ZH[:4])
    tables.deal(table)
    problems: list[str] = []
    page = lan_page(browser, app_server, lang, problems)
    try:
        assert page.evaluate("() => window.isSecureContext") is False
        for path in ("/", "/help/", table.host.url, table.display_path, table.seats[1].device.url):
            page.goto(path)
            if path != "/" and not path.startswith("/help"):
                expect(page.locator("#conn")).to_have_attribute("data-state", "open")
            page.wait_for_load_state("networkidle")
        assert problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_brand_is_whole_in_the_top_bar_of_a_small_phone(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:4])
    page = lan_page(browser, app_server, lang, [])
    try:
        # The host console puts the most next to it: the table code and the hero box link.
        for path, name in ((table.host.url, "host"), (table.seats[0].device.url, "phone")):
            page.goto(path)
            expect(page.locator("#conn")).to_have_attribute("data-state", "open")
            brand = page.locator(".topbar .brand")
            cut = measure(brand, "el => el.scrollWidth - el.clientWidth")
            assert cut <= 0, f"{name}: the brand is {cut}px too wide for its place"
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
            screenshot(page, f"lan-topbar-{name}-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_help_page_names_the_rule_sources_in_its_language(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto("/help/?q=%E5%88%A4%E5%AE%9A")  # 判定: answers citing several sources
        sources = page.locator("#help-results .help-source")
        expect(sources.first).to_be_visible()
        texts = sources.all_text_contents()
        assert texts
        for text in texts:
            assert not re.search(r"\bseed\b|RULES|§", text), text
            if lang == "zh":
                assert not re.search(r"[A-Za-z]", text), text
        screenshot(page, f"lan-help-sources-{lang}")
    finally:
        page.context.close()


# Points just outside a button's drawn box, that a thumb aiming at it may touch: 3px above and
# below (44px in all), 2px to each side (a narrow phone's top bar has 6px between buttons).
EDGES_JS = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const points = [[r.left - 2, y], [r.right + 2, y], [x, r.top - 3], [x, r.bottom + 3]];
  return points.filter(([px, py]) => {
    const hit = document.elementFromPoint(px, py);
    return !(hit && (hit === el || el.contains(hit)));
  }).map(p => p.map(Math.round));
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_top_bar_buttons_answer_a_thumb_round_their_drawn_box(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_ZH[:4])
    page = lan_page(browser, app_server, lang, [])
    try:
        for path, buttons in (
            (table.seats[0].device.url, ("#sound-toggle", ".help-link", ".lang button")),
            (table.host.url, (".box-top", ".help-link", ".lang button")),
        ):
            page.goto(path)
            expect(page.locator("#conn")).to_have_attribute("data-state", "open")
            for selector in buttons:
                missed = measure(page.locator(f".topbar {selector}"), EDGES_JS)
                assert missed == [], f"{path} {selector}: taps at {missed} reach nothing"
    finally:
        page.context.close()


# Text colour against the colour behind it (the nearest opaque background), WCAG's ratio.
CONTRAST_JS = """el => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = [0, 0, 0];
  for (let x = el; x; x = x.parentElement) {
    const c = rgb(getComputedStyle(x).backgroundColor);
    if (c.length === 3 || c[3] > 0.5) { bg = c; break; }
  }
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_a_dying_seat_reads_clearly_on_a_dim_phone_and_the_display(
    browser: Browser, app_server: AppServer
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_ZH[:4], heroes=False)
    victim = table.seats[1]
    hp = tables.shown_hp(table, victim)
    assert hp
    table.host.act("hp", seat=str(victim.id), delta=str(-hp), source="")
    page = lan_page(browser, app_server, "zh", [])
    try:
        for path in (table.seats[0].device.url, table.display_path):
            page.goto(path)
            expect(page.locator("#conn")).to_have_attribute("data-state", "open")
            seat = page.locator(f"#table-state .seat[data-seat='{victim.id}']")
            for part in (".dying-mark", ".peach-need"):
                ratio = measure(seat.locator(part), CONTRAST_JS)
                assert ratio >= 4.5, f"{path} {part}: contrast {ratio:.2f}:1"
        screenshot(page, "lan-dying-display")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_strip_leaves_the_note_that_the_screen_may_lock_whole(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.playing(app_server.base_url, tables.NAMES_ZH[:4], heroes=False)
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.seats[1].device.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        note, strip = page.locator("#awake-note"), page.locator("#now-strip")
        expect(note).to_be_visible()  # plain http, no tap yet: nothing keeps the screen on
        bottom = measure(note, "el => el.getBoundingClientRect().bottom")
        top = measure(strip, "el => el.getBoundingClientRect().top")
        assert bottom <= top, f"the strip covers the note's last {bottom - top:.0f}px"
        screenshot(page, f"lan-awake-note-strip-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_kingdom_badge_reads_clearly_among_the_lords_candidates(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_ZH[:4])
    tables.deal(table)
    table.host.act("start")
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.seat_by_identity("lord").device.url)
        # One drawn per candidate: 曹操, 刘备, 孙权 (Wu) and two more.
        badges = page.locator("#my-seat .hero-choices .kingdom-badge >> visible=true")
        expect(badges).to_have_count(5)
        for index in range(5):
            ratio = measure(badges.nth(index), CONTRAST_JS)
            assert ratio >= 4.5, f"badge {index}: contrast {ratio:.2f}:1"
    finally:
        page.context.close()


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
    tables.kill(table, table.seat_by_identity("lord"), table.seat_by_identity("rebel"))
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.host.url + "session/")
        players = page.locator("table.game-players").first
        expect(players).to_be_visible()
        past, broken = measure(players, TABLE_FIT_JS)
        screenshot(page, f"lan-session-players-{lang}", full_page=True)
        assert past <= 0, f"the players' table runs {past}px past its card (its last column cut)"
        assert broken == [], f"names broken in two: {broken}"
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
    table = tables.playing(app_server.base_url, tables.NAMES_EN[:5])
    page = lan_page(browser, app_server, lang, [])
    try:
        page.goto(table.seat_by_identity("lord").device.url)
        jades = page.locator("#my-seat .hp-center .jade")
        expect(jades).to_have_count(5)  # 曹操's 4 and the lord's 1
        tops = jades.evaluate_all(
            "els => new Set(els.map(e => e.getBoundingClientRect().top)).size"
        )
        screenshot(page, f"lan-lord-jades-{lang}")
        assert tops == 1, f"the five jades take {tops} lines (four, and one under them)"
    finally:
        page.context.close()
