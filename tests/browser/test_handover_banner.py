"""Nothing happens behind a player's back: a seat move the host asked
for while the seat holds a secret.

- The seat's own phone (390x844) shows the move at the top, under the top bar, whatever the
  scroll, with both of its buttons in view, and vibrates; another phone and the display show
  the banner without vibrating for it.
- When the countdown is over (the page's clock run forward) every screen says what happened
  ("nobody objected in time") and the banner goes.
- A game that ends while a move waits decides it: no banner covers the results.

Both languages; screenshots in test-artifacts/handover-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import tables
from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, screenshot
from tests.browser.phone_page import ALERT_STUB

pytestmark = [pytest.mark.browser]

HANDOVER_PATTERN = [300, 100, 300, 100, 300]
DONE = {"zh": "无人及时反对", "en": "Nobody objected in time"}


def open_screen(
    browser: Browser, server: AppServer, path: str, lang: str, *, phone: bool = True
) -> Page:
    options: dict = (
        {
            "viewport": {"width": 390, "height": 844},
            "device_scale_factor": 2,
            "is_mobile": True,
            "has_touch": True,
        }
        if phone
        else {"viewport": {"width": 1280, "height": 800}}
    )
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US", base_url=server.base_url, **options
    )
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.base_url}])
    context.add_init_script(ALERT_STUB)
    page = context.new_page()
    page.clock.install()
    page.goto(path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def handover_vibrations(page: Page) -> int:
    calls = page.evaluate("() => window.__vibrations")
    return sum(1 for c in calls if c == HANDOVER_PATTERN)


def box(page: Page, selector: str) -> dict[str, float]:
    found = box_of(page.locator(selector))
    assert found, selector
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_owner_is_asked_at_the_top_and_the_move_ends_when_its_time_is_up(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    names = (tables.NAMES_ZH if lang == "zh" else tables.NAMES_EN)[:5]
    table = tables.playing(app_server.base_url, names, heroes=False)
    owner = next(s for s in table.seats if s.identity != "lord")
    other = next(s for s in table.seats if s is not owner)
    mine = open_screen(browser, app_server, owner.device.url, lang)
    theirs = open_screen(browser, app_server, other.device.url, lang)
    display = open_screen(browser, app_server, table.display_path, lang, phone=False)
    table.host.act("handover", seat=str(owner.id))

    # The owner's phone: at the top, both buttons in view, whatever the scroll; it vibrates.
    banner = mine.locator(".banner-handover.mine")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(owner.name)
    topbar = box(mine, ".topbar")
    for scroll in (0, 900, 5000):
        # Measured once the page has laid out the scroll (the next frame).
        mine.evaluate(
            "y => { window.scrollTo(0, y);"
            " return new Promise(done => requestAnimationFrame(() => done())); }",
            scroll,
        )
        got = box(mine, ".banner-handover.mine")
        assert got["y"] >= topbar["y"] + topbar["height"] - 1, (scroll, got, topbar)
        assert got["y"] <= 140, f"{lang}: the move is not at the top ({scroll}): {got}"
        for button in ("form.handover-own button", "form[hx-post='act/handoverno'] button"):
            b = box(mine, f".banner-handover.mine {button}")
            assert b["y"] >= 0 and b["y"] + b["height"] <= 844, f"{lang}: {button} {b}"
            assert b["x"] >= 0 and b["x"] + b["width"] <= 390, f"{lang}: {button} {b}"
        if scroll == 900:
            screenshot(mine, f"handover-{lang}-owner-scrolled")
    assert handover_vibrations(mine) >= 1, f"{lang}: the owner's phone did not vibrate"
    # The others see it where it was, and do not vibrate for it.
    expect(theirs.locator("#table-state .banner-handover")).to_contain_text(owner.name)
    expect(theirs.locator(".banner-handover .handover-other")).to_be_visible()
    assert handover_vibrations(theirs) == 0
    expect(display.locator("#table-state .banner-handover")).to_be_visible()
    screenshot(theirs, f"handover-{lang}-other")
    screenshot(display, f"handover-{lang}-display")

    # The countdown runs out: every screen says what happened, then the banner goes.
    for page in (mine, theirs, display):
        page.clock.fast_forward("01:02")
    for page in (mine, theirs, display):
        done = page.locator(".banner-handover")
        expect(done).to_contain_text(DONE[lang])
        expect(done).to_have_class(re.compile(r"\bhandover-done\b"))
        expect(done.locator("form[hx-post='act/handoverno'] button")).to_be_hidden()
    screenshot(mine, f"handover-{lang}-owner-done")
    screenshot(display, f"handover-{lang}-display-done")
    for page in (mine, theirs, display):
        page.clock.fast_forward("00:10")
    for page in (mine, theirs, display):
        expect(page.locator(".banner-handover")).to_be_hidden()
    for page in (mine, theirs, display):
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_move_waiting_at_the_end_of_the_game_covers_no_result(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    names = (tables.NAMES_ZH if lang == "zh" else tables.NAMES_EN)[:6]
    table = tables.playing(app_server.base_url, names, heroes=False)
    lord = table.seat_by_identity("lord")
    rebel = next(s for s in table.seats if s.identity == "rebel")
    owner = next(s for s in table.seats if s.identity not in ("lord", "rebel"))
    display = open_screen(browser, app_server, table.display_path, lang, phone=False)
    mine = open_screen(browser, app_server, owner.device.url, lang)
    table.host.act("handover", seat=str(owner.id))
    expect(display.locator(".banner-handover")).to_be_visible()
    expect(mine.locator(".banner-handover.mine")).to_be_visible()
    tables.kill(table, lord, rebel)
    for page in (display, mine):
        expect(page.locator("#table-state .result")).to_be_visible()
        expect(page.locator(".banner-handover")).to_have_count(0)
        rows = page.locator("#table-state .result .results tbody tr")
        expect(rows).to_have_count(6)
    screenshot(display, f"handover-{lang}-end-display")
    for page in (display, mine):
        page.context.close()
