"""No page is ever wider than the phone it is on: every screen of every way to play
(tests/browser/screen_tables.py), in both languages, at 320, 360 and 390 px. A phone browser
whose page is wider zooms the whole page out (its layout viewport grows to the page), which
puts the fixed bars at the bottom below the screen: so the check is that the page's width and
the layout viewport are both the phone's own. And at 360×640 the current player's turn bar and
End turn are on the screen.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, screenshot
from tests.browser.screen_tables import Screens, every_screen, playing

pytestmark = [pytest.mark.browser]

WIDTHS = (320, 360, 390)
# What sticks out past the right edge, for the failure message.
WIDER = """(width) => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5)
      out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${Math.round(r.right)}`);
  }
  return {scroll: document.documentElement.scrollWidth, inner: innerWidth, wider: out.slice(0, 4)};
}"""


def phone_page(browser: Browser, server: AppServer, lang: str, width: int, height: int) -> Page:
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US",
        base_url=server.base_url,
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.base_url}])
    return context.new_page()


def settled(page: Page, path: str) -> None:
    """The page loaded, its live state in (a live page), its fonts laid out."""
    page.goto(path)
    if page.locator("#conn").count():
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    page.evaluate("() => document.fonts.ready.then(() => true)")


@pytest.fixture(scope="module")
def screens(app_server: AppServer) -> Screens:
    return every_screen(app_server.base_url)


# Layout at these widths is the stylesheets' alone (the one script that measures, display.js,
# acts from 900 px up, and on resize): a page loaded once and resized to each width lays out
# as one loaded at that width. One load per screen and language, not one per width.
SETTLED_LAYOUT = "() => new Promise((done) => requestAnimationFrame(() => done(true)))"


def test_no_screen_is_wider_than_the_phone(
    browser: Browser, app_server: AppServer, screens: Screens
) -> None:
    """Both languages in one test: the screens' tables are built once (they are most of its
    time), whichever test process runs it."""
    wider: list[tuple[str, str, int, dict]] = []
    for lang in ("zh", "en"):
        page = phone_page(browser, app_server, lang, WIDTHS[0], 640)
        for name, path in screens:
            page.set_viewport_size({"width": WIDTHS[0], "height": 640})
            settled(page, path)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 640})
                page.evaluate(SETTLED_LAYOUT)
                seen = page.evaluate(WIDER, width)
                if seen["scroll"] > width or seen["inner"] != width:
                    wider.append((name, lang, width, seen))
                    screenshot(page, f"fit-{name}-{lang}-{width}")
        page.context.close()
    assert not wider, wider
    assert len(screens) >= 30, [name for name, _path in screens]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_turn_bar_and_end_turn_are_on_a_360_screen(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = playing(app_server.base_url)
    page = phone_page(browser, app_server, lang, 360, 640)
    settled(page, table.seat_by_identity("lord").device.url)  # the lord's turn
    for selector in (".turn-bar .turn-only", "form.end-turn button"):
        box = box_of(page.locator(f"#table-state {selector}"))
        assert box, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (selector, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 640, (selector, box)
    screenshot(page, f"fit-turn-{lang}-360")
    page.context.close()
