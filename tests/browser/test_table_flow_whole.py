"""A whole table in a real browser: a host display and five phones, every screen agreeing at
every step, secrets kept, a reload and an offline phone that catch up.

Screenshots for a human go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from companion.infra.qr import qr_svg
from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.screens import (
    CJK,
    ZH,
    Phone,
    check_frames_secrecy,
    check_page_secrecy,
    expect_screens_agree,
)

pytestmark = [pytest.mark.browser]
EN = {"lord": "Lord", "loyalist": "Loyalist", "rebel": "Rebel", "renegade": "Renegade"}
# docs/rules.md §1 for five players.
FIVE_PLAYERS = {"lord": 1, "loyalist": 1, "rebel": 2, "renegade": 1}

NAMES = ["刘备", "<b>x</b>", "诸葛亮", "Guan Yunchang 关羽", "小乔"]
CODE_RE = r"[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{5}"
HOLD_MS = 800  # longer than a long-press, which must not end the hold


def expect_names_escaped(page: Page) -> None:
    """The `<b>x</b>` player is shown as text everywhere, never as markup."""
    # (The page's own <b> elements, such as the variants' names, are fine: none holds "x".)
    expect(page.locator("main b", has_text=re.compile(r"^x$"))).to_have_count(0)
    expect(page.locator("#table-state .seat-name", has_text="<b>x</b>")).to_have_count(1)


def hold_with_mouse(page: Page, card: Any, secret: Any) -> None:
    box = box_of(card)
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(secret).to_be_visible()
    page.mouse.up()
    expect(secret).to_be_hidden()


# ---------------------------------------------------------------------------------------------
# The whole flow


def test_whole_table_flow(
    app_server: AppServer,
    display_context: BrowserContext,
    new_phone: ContextFactory,
) -> None:
    base = app_server.base_url

    # The host opens the start page on the laptop and taps "New table".
    host = display_context.new_page()
    host.goto("/")
    expect(host.locator("html")).to_have_attribute("lang", "zh-CN")
    new_table = host.locator("form[action='/new/'] button")
    expect(new_table).to_have_text(CJK)
    new_table.click()
    expect(host).to_have_url(re.compile(rf"^{re.escape(base)}/h/[A-Za-z0-9_-]{{22,}}/$"))

    # The host console: a large QR code of the join address, and the table code.
    qr = host.locator(".join-box .qr-box svg.qr")
    expect(qr).to_be_visible()
    box = box_of(qr)
    assert box and box["width"] >= 240, f"QR code too small to scan across a table: {box}"
    join_url = host.locator(".join-url").inner_text().strip()
    match = re.fullmatch(rf"{re.escape(base)}/j/({CODE_RE})/", join_url)
    assert match, f"unexpected join address {join_url!r}"
    code = match.group(1)
    expect(host.locator(".big-code")).to_have_text(code)
    expect(host.locator(".topbar .code-chip")).to_have_text(code)
    # The QR encodes exactly the address printed under it.
    expected_path = re.search(r' d="([^"]+)"', str(qr_svg(join_url)))
    assert expected_path
    assert qr.locator("path").first.get_attribute("d") == expected_path.group(1)

    # The public table display (a tablet in the middle of the table) follows along.
    display = display_context.new_page()
    display.goto(f"/t/{code}/")
    expect(display.locator("#table-state")).to_have_attribute("data-code", code)
    expect(display.locator("#host-panel")).to_have_count(0)

    # Five phones scan the QR code and take seats.
    phones: list[Phone] = []
    for index, name in enumerate(NAMES):
        context = new_phone()
        page = context.new_page()
        phone = Phone(name=name, context=context, page=page)
        page.on("websocket", phone.listen)
        page.goto(join_url)
        expect(page.locator("h1")).to_contain_text(code)
        page.locator("#name").fill(name)
        if index == len(NAMES) - 1:
            expect(page.locator(".chips li")).to_have_text(NAMES[:index])
            expect(page.locator(".chips b")).to_have_count(0)
            screenshot(page, "zh-join")
        submit = page.locator("form:has(#name) button[type=submit]")
        expect(submit).to_have_text(CJK)
        submit.click()
        expect(page).to_have_url(re.compile(rf"^{re.escape(base)}/p/[A-Za-z0-9_-]{{22,}}/$"))
        phone.url = page.url
        expect(page.locator("#my-seat .me-name")).to_have_text(name)
        phone.seat = page.locator("#my-seat").get_attribute("data-seat") or ""
        assert phone.seat
        assert page.title().startswith(name)
        phones.append(phone)
        expect_screens_agree(
            [host, display, *(p.page for p in phones)], NAMES[: index + 1], "lobby"
        )

    assert len({p.url for p in phones}) == len(phones)

    # A sixth phone picks a name already taken (in another case): a clear message, no seat.
    late = new_phone().new_page()
    late.goto(join_url)
    late.locator("#name").fill("<B>X</B>")
    late.locator("form:has(#name) button[type=submit]").click()
    expect(late.locator("main .error")).to_have_text(CJK)
    expect(late).to_have_url(join_url)
    pages = [p.page for p in phones]
    screens = [host, display, *pages]
    version = expect_screens_agree(screens, NAMES, "lobby")
    for page in screens:
        expect_names_escaped(page)
    for phone in phones:
        expect(phone.page.locator("#table-state .seat.me .seat-name")).to_have_text(phone.name)
        expect(phone.page.locator("#host-panel:not([hidden])")).to_have_count(0)

    # The host moves the third player up one seat, to match where people really sit.
    order = [NAMES[0], NAMES[2], NAMES[1], *NAMES[3:]]
    host_rows = host.locator("#host-panel .host-seats > li")
    expect(host_rows.locator(".seat-name")).to_have_text(NAMES)
    host_rows.nth(2).locator("button", has_text="↑").click()
    expect(host_rows.locator(".seat-name")).to_have_text(order)
    moved = expect_screens_agree(screens, order, "lobby")
    assert moved > version
    expect(display.locator("#table-state .events li").first).to_contain_text(NAMES[2])
    host.evaluate("window.scrollTo(0, 0)")
    screenshot(host, "zh-host-lobby", full_page=True)

    # The host deals identities.
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    dealt = expect_screens_agree(screens, order, "dealt")
    assert dealt > moved
    lords = set()
    for page in screens:
        lord_seat = page.locator("#table-state .seat.is-lord")
        expect(lord_seat).to_have_count(1)
        expect(lord_seat.locator(".idn")).to_have_text(ZH["lord"])
        expect(page.locator("#table-state .seat:not(.is-lord) .idn.idn-hidden")).to_have_count(4)
        expect(page.locator("#table-state .seat:not(.is-lord) .idn")).to_have_text(["?"] * 4)
        lords.add(lord_seat.locator(".seat-name").inner_text())
    assert len(lords) == 1
    lord_name = lords.pop()
    expect(display.locator("#table-state .events li.important").first).to_contain_text(lord_name)

    # Each phone: the lord's card is open; everybody else's is covered until held.
    for phone in phones:
        card = phone.page.locator("#my-seat .identity-card")
        if phone.name == lord_name:
            phone.identity = "lord"
            expect(card).to_have_class(re.compile(r"\bidn-lord\b"))
            expect(card).to_contain_text(ZH["lord"])
            expect(phone.page.locator("#my-seat [data-hold]")).to_have_count(0)
            continue
        expect(card).to_have_class(re.compile(r"\bholdable\b"))
        found = re.search(r"\bidn-(loyalist|rebel|renegade)\b", card.get_attribute("class") or "")
        assert found, f"{phone.name}: no identity on the card"
        phone.identity = found.group(1)
        secret = card.locator(".secret")
        cover = card.locator(".cover")
        expect(secret).to_be_hidden()
        expect(cover).to_be_visible()
        expect(cover).to_have_text(CJK)
        expect(secret).to_have_text(ZH[phone.identity])
        hold_with_mouse(phone.page, card, secret)
        expect(cover).to_be_visible()
    assert Counter(p.identity for p in phones) == FIVE_PLAYERS

    # Screenshots: a phone covered, then held down with a finger (long enough for a long-press).
    shown = next(p for p in phones if p.identity != "lord")
    card = shown.page.locator("#my-seat .identity-card")
    secret = card.locator(".secret")
    screenshot(shown.page, "zh-phone-dealt-covered", full_page=True)
    box = box_of(card)
    assert box
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = shown.context.new_cdp_session(shown.page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    expect(secret).to_be_visible()
    shown.page.wait_for_timeout(HOLD_MS)
    expect(secret).to_be_visible()
    screenshot(shown.page, "zh-phone-dealt-holding")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(secret).to_be_hidden()
    touch.detach()
    screenshot(display, "zh-display-dealt")

    # No screen holds another living non-lord player's identity, in its page or its frames;
    # and the check can see a secret: the phone's own identity is on its page.
    with pytest.raises(AssertionError):
        check_page_secrecy(shown.page, None, "self-check")
    check_page_secrecy(host, None, "host console")
    check_page_secrecy(display, None, "display")
    for phone in phones:
        check_page_secrecy(phone.page, phone.identity, phone.name)
        check_frames_secrecy(phone)

    non_lords = [p for p in phones if p.identity != "lord"]

    # One phone reloads: same seat, same identity.
    reloaded = non_lords[0]
    reloaded.page.reload()
    expect(reloaded.page).to_have_url(reloaded.url)
    expect(reloaded.page.locator("#my-seat")).to_have_attribute("data-seat", reloaded.seat)
    expect(reloaded.page.locator("#my-seat .me-name")).to_have_text(reloaded.name)
    expect(reloaded.page.locator("#my-seat .identity-card")).to_have_class(
        re.compile(rf"\bidn-{reloaded.identity}\b")
    )
    expect(reloaded.page.locator("#table-state .seat.me .seat-name")).to_have_text(reloaded.name)
    assert expect_screens_agree(screens, order, "dealt") == dealt

    # Another scans the join QR again: back to the same seat, not a new one.
    rescan = non_lords[1]
    rescan.page.goto(join_url)
    expect(rescan.page).to_have_url(rescan.url)
    expect(rescan.page.locator("#my-seat")).to_have_attribute("data-seat", rescan.seat)

    # The `<b>x</b>` player finds the table again from the start page.
    tricky = next(p for p in phones if p.name == "<b>x</b>")
    tricky.page.goto("/")
    back = tricky.page.locator(".links a", has_text=f"{code} · <b>x</b>")
    expect(back).to_have_count(1)
    expect(tricky.page.locator("main b")).to_have_count(0)
    back.click()
    expect(tricky.page).to_have_url(tricky.url)
    assert expect_screens_agree(screens, order, "dealt") == dealt

    # A third phone loses the network while the host starts the game, then catches up by
    # itself: no reload.
    offline = non_lords[2]
    offline.page.evaluate("window.__samePage = true")
    sockets_before = offline.sockets
    sent_before = len(offline.sent)
    offline.context.set_offline(True)
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    # Whatever comes after dealing (play, or a phase before it), every screen must agree.
    expect(host.locator("#table-state")).not_to_have_attribute("data-status", "dealt")
    status = host.locator("#table-state").get_attribute("data-status") or ""
    others = [page for page in screens if page is not offline.page]
    started = expect_screens_agree(others, order, status)
    assert started > dealt
    expect(offline.page.locator("#table-state")).to_have_attribute("data-status", "dealt")
    offline.context.set_offline(False)
    expect(offline.page.locator("#table-state")).to_have_attribute(
        "data-status", status, timeout=10_000
    )
    assert offline.page.evaluate("window.__samePage === true"), "the page was reloaded"
    asked = any('"sync"' in frame for frame in offline.sent[sent_before:])
    assert asked or offline.sockets > sockets_before, "caught up without asking the server"
    assert expect_screens_agree(screens, order, status) == started
    expect(offline.page.locator("#my-seat .identity-card")).to_have_class(
        re.compile(rf"\bidn-{offline.identity}\b")
    )

    for phone in phones:
        check_page_secrecy(phone.page, phone.identity, phone.name)
        check_frames_secrecy(phone)
    check_page_secrecy(display, None, "display")
    check_page_secrecy(host, None, "host console")

    # The same seat link opened on a phone set to English: English UI, same seat and identity.
    english = non_lords[0]
    context = new_phone(locale="en-US")
    page = context.new_page()
    page.goto(english.url)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#my-seat")).to_have_attribute("data-seat", english.seat)
    card = page.locator("#my-seat .identity-card")
    expect(card).to_have_class(re.compile(rf"\bidn-{english.identity}\b"))
    expect(card.locator(".cover")).to_have_text("Press and hold to see your identity")
    expect(page.locator("#table-state .status-line")).to_contain_text("5 players")
    expect(page.locator("#table-state .status-line")).not_to_have_text(CJK)
    expect(page.locator("#table-state .seat.is-lord .idn")).to_have_text("Lord")
    expect(page.locator(".topbar .lang button")).to_have_text("中文")
    expect(page.locator("#table-state .seat-name")).to_have_text(order)
    screenshot(page, "en-phone-started", full_page=True)
    secret = card.locator(".secret")
    expect(secret).to_have_text(EN[english.identity])
    hold_with_mouse(page, card, secret)
    check_page_secrecy(page, english.identity, f"{english.name} (English)")
    # Chinese phones stayed Chinese.
    expect(english.page.locator("#my-seat .cover")).not_to_have_text(
        "Press and hold to see your identity"
    )
