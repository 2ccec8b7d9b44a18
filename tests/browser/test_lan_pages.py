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

from tests.browser import tables
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
