"""Issue 11, items 12-14 in a real browser at phone size (390x844): passing the host role
between two phones, the guided judgement flow with 鬼才 (司马懿), and delayed tricks placed,
removed and cancelled by 无懈可击 as the table plays them.

Screenshots for a human go to test-artifacts/judge-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Dialog, Locator, Page, expect

from tests.browser.conftest import ContextFactory, screenshot

pytestmark = [pytest.mark.browser]


def open_console(context: BrowserContext) -> tuple[Page, str]:
    """A new table's host console; the join address."""
    host = context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    return host, host.locator(".join-url").inner_text().strip()


def join(new_phone: ContextFactory, join_url: str, name: str, locale: str = "zh-CN") -> Page:
    page = new_phone(locale=locale).new_page()
    page.goto(join_url)
    page.locator("#name").fill(name)
    page.locator("form:has(#name) button[type=submit]").click()
    expect(page.locator("#my-seat .me-name")).to_have_text(name)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


def seat_of(page: Page) -> str:
    return page.locator("#my-seat").get_attribute("data-seat") or ""


def accept_dialogs(page: Page) -> list[str]:
    """Accept every confirm() on the page; the messages asked."""
    asked: list[str] = []

    def handle(box: Dialog) -> None:
        asked.append(box.message)
        box.accept()

    page.on("dialog", handle)
    return asked


def make_host(by: Page, seat: str) -> None:
    """The host taps "Make host" on a seat in the host controls."""
    row = by.locator(f"#host-panel .host-seats li:has(input[name=seat][value='{seat}'])").first
    row.locator("details.more summary").click()
    row.locator("form[hx-post='act/host'] button").click()


def console_errors(page: Page) -> list[str]:
    found: list[str] = []

    def listen(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning") or "oob" in message.text.lower():
            found.append(message.text)

    page.on("console", listen)
    return found


def host_controls(page: Page) -> Locator:
    return page.locator("#host-panel form[hx-post='act/deal'] button")


# ---------------------------------------------------------------------------------------------
# Item 12: the host role passes from phone to phone, live


def test_host_pass_updates_both_phones_live(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    host, join_url = open_console(display_context)
    alice = join(new_phone, join_url, "阿丽")
    bob = join(new_phone, join_url, "Bob", locale="en-US")
    alice_errors, bob_errors = console_errors(alice), console_errors(bob)
    accept_dialogs(host)
    accept_dialogs(alice)

    make_host(host, seat_of(alice))
    expect(alice.locator("#my-seat .host-mark")).to_have_count(1)
    expect(host_controls(alice)).to_be_visible()
    expect(host_controls(bob)).to_have_count(0)

    # Alice passes the role on to Bob: Bob gets the controls, Alice loses them, no reload.
    make_host(alice, seat_of(bob))
    expect(host_controls(bob)).to_be_visible()
    expect(bob.locator("#my-seat .host-mark")).to_have_count(1)
    expect(host_controls(alice)).to_have_count(0)
    expect(alice.locator("#my-seat .host-mark")).to_have_count(0)
    expect(alice.locator("#conn")).to_have_attribute("data-state", "open")
    expect(bob.locator("#conn")).to_have_attribute("data-state", "open")
    screenshot(alice, "judge-host-passed-old-zh")
    screenshot(bob, "judge-host-passed-new-en")
    # And back again: the same page takes the controls a second time.
    accept_dialogs(bob)
    make_host(bob, seat_of(alice))
    expect(host_controls(alice)).to_be_visible()
    expect(host_controls(bob)).to_have_count(0)
    bob.wait_for_timeout(500)
    oob = [m for m in alice_errors + bob_errors if "oob" in m.lower() or "host-panel" in m]
    assert oob == [], f"console: {oob}"
