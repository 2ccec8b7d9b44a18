"""Secrets in a real browser (390x844 phones): the identity reminder shows only while the card
is held or for a few seconds after a deliberate tap; a seat the host hands to another phone
moves only once its own phone agrees, and the new phone sees nothing before that.

Screenshots for a human go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.screens import new_table_console

pytestmark = [pytest.mark.browser]

REMINDER = {
    "zh": {"loyalist": "忠", "rebel": "反", "renegade": "内"},
    "en": {"loyalist": "Loy", "rebel": "Reb", "renegade": "Ren"},
}
PEEK_WORD = {"zh": "看一眼", "en": "Peek"}


def seat_phones(
    display_context: BrowserContext, new_phone: ContextFactory, langs: list[str]
) -> tuple[Page, list[Page]]:
    """A host console and one phone per language given, seated; identities dealt."""
    host = display_context.new_page()
    host.goto(new_table_console(display_context))
    code = host.locator(".big-code").inner_text().strip()
    phones = []
    for n, lang in enumerate(langs):
        page = new_phone(locale="en-US" if lang == "en" else "zh-CN").new_page()
        page.goto(f"/j/{code}/")
        page.locator("#name").fill(f"P{n + 1}")
        page.locator("form:has(#name) button[type=submit]").click()
        expect(page).to_have_url(re.compile(r"/p/[A-Za-z0-9_-]{22,}/$"))
        phones.append(page)
    for page in phones:
        expect(page.locator("#table-state .seat")).to_have_count(len(langs))
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    for page in phones:
        expect(page.locator("#table-state")).to_have_attribute("data-status", "dealt")
    return host, phones


def identity_of(page: Page) -> str:
    card = page.locator("#my-seat .identity-card")
    found = re.search(r"\bidn-(lord|loyalist|rebel|renegade)\b", card.get_attribute("class") or "")
    assert found
    return found.group(1)


def test_the_reminder_shows_only_while_held_or_for_a_moment_after_a_tap(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    langs = ["zh", "en", "zh", "en", "zh"]
    _host, phones = seat_phones(display_context, new_phone, langs)
    checked = set()
    for lang, page in zip(langs, phones, strict=True):
        identity = identity_of(page)
        if identity == "lord":
            expect(page.locator("#my-seat [data-peek]")).to_have_count(0)
            continue
        card = page.locator("#my-seat .identity-card")
        peek = page.locator("#my-seat [data-peek]")
        word = peek.locator(".peek-secret")
        # Covered: the chip beside "shield the screen" says only "Peek"; a glance reads nothing.
        expect(card.locator(".secret")).to_be_hidden()
        expect(peek).to_be_visible()
        expect(peek.locator(".peek-cover")).to_have_text(PEEK_WORD[lang])
        expect(word).to_be_hidden()
        assert REMINDER[lang][identity] not in page.locator("#my-seat").inner_text()
        box = box_of(peek)
        assert box and box["height"] >= 44 and box["width"] >= 44, box
        if lang not in checked:
            page.evaluate("window.scrollTo(0, 0)")
            screenshot(page, f"secrets-{lang}-covered")
        # A deliberate tap: the reminder shows, then covers itself again after a few seconds.
        peek.tap()
        tapped = time.monotonic()
        expect(word).to_be_visible()
        expect(word).to_have_text(REMINDER[lang][identity])
        expect(peek.locator(".peek-cover")).to_be_hidden()
        if lang not in checked:
            screenshot(page, f"secrets-{lang}-peeking")
        expect(word).to_be_hidden(timeout=8000)
        shown_for = time.monotonic() - tapped
        assert 2.0 <= shown_for <= 7.5, shown_for
        expect(peek.locator(".peek-cover")).to_be_visible()
        # Holding the card shows the identity, only while held.
        held = box_of(card)
        assert held
        point = {"x": held["x"] + held["width"] / 2, "y": held["y"] + held["height"] / 2}
        touch = page.context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        expect(card.locator(".secret")).to_be_visible()
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(card.locator(".secret")).to_be_hidden()
        touch.detach()
        # A tap shows it again, and a new fragment (another tap at the table) comes covered.
        peek.tap()
        expect(word).to_be_visible()
        checked.add(lang)
    assert checked == {"zh", "en"}


def test_a_seat_the_host_moves_waits_for_its_own_phone(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    host, phones = seat_phones(display_context, new_phone, ["zh", "zh", "en", "zh"])
    old = next(p for p in phones if identity_of(p) != "lord")
    identity = identity_of(old)
    name = old.locator("#my-seat .me-name").inner_text().strip()
    others = [p for p in phones if p is not old]
    # The host console: ⋯ on that seat, then "hand seat to another phone".
    row = host.locator("#host-panel .host-seats > li", has_text=name)
    row.locator("details.more summary").click()
    row.locator("form[hx-post='act/handover'] button").click()
    dialog = host.locator("#dialog .dialog")
    expect(dialog.locator("svg.qr")).to_be_visible()
    link = dialog.locator(".url").inner_text().strip()
    assert re.fullmatch(r"http://[^/]+/n/[A-Za-z0-9_-]{22,}/", link), link
    assert "/p/" not in dialog.inner_html()
    screenshot(host, "secrets-zh-host-handover-dialog")
    # Every phone is told; the old phone is asked, the others may object.
    banner = old.locator("#table-state .banner-handover")
    expect(banner).to_be_visible()
    expect(banner.locator("button", has_text="同意")).to_be_visible()
    expect(banner.locator(".timer")).to_have_text(re.compile(r"\d:\d\d"))
    for page in others:
        other_banner = page.locator("#table-state .banner-handover")
        expect(other_banner).to_contain_text(name)
        expect(other_banner.locator(".handover-other")).to_be_visible()
        expect(other_banner.locator("form.handover-own")).to_be_hidden()
    old.evaluate("window.scrollTo(0, 0)")
    screenshot(old, "secrets-zh-handover-asked", full_page=True)
    screenshot(others[1], "secrets-en-handover-announced", full_page=True)
    # The new phone waits and sees nothing of the seat.
    new = new_phone().new_page()
    new.goto(link)
    claim = new.locator("#claim")
    expect(claim).to_have_attribute("data-state", "pending")
    expect(claim).to_contain_text(name)
    expect(claim.locator(".timer")).to_have_text(re.compile(r"\d:\d\d"))
    expect(new.locator(".identity-card")).to_have_count(0)
    screenshot(new, "secrets-zh-claim-waiting")
    # The old phone agrees: it stops working, and the new phone lands on the seat.
    banner.locator("form.handover-own button").click()
    expect(old.locator("#conn")).to_have_attribute("data-state", "gone")
    expect(new).to_have_url(re.compile(r"/p/[A-Za-z0-9_-]{22,}/$"), timeout=15_000)
    expect(new.locator("#my-seat .me-name")).to_have_text(name)
    assert identity_of(new) == identity
    for page in others:
        expect(page.locator("#table-state .banner-handover")).to_have_count(0)
    # The link is spent.
    again = new_phone().new_page()
    again.goto(link)
    expect(again.locator("#claim")).to_have_attribute("data-state", "claimed")
