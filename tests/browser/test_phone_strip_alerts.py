"""The phone page at 390x844: the "now" strip at the top of every phone
(whose turn, which phase, who is dying, with the Peach right there) and the alerts (vibration,
an optional tone, the wake lock).

Tables are set up by plain requests where only a seat is needed; screenshots for a human go to
test-artifacts/phone-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Dialog, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.phone_page import (
    bring_down,
    host_damage,
    in_viewport,
    lord_seat,
    not_scrolled,
    phone_table,
)

pytestmark = [pytest.mark.browser]


# ---------------------------------------------------------------------------------------------
# 1. The strip


def test_the_strip_shows_the_turn_and_a_dying_player_with_a_peach_on_another_phone(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 5, maneuvering=True)
    lord = lord_seat(table)
    order = table.order()
    # The dying player: the seat after the lord's (not the lord, so 4 HP); the saviour: another.
    victim = table.by_seat(order[(order.index(lord) + 1) % 5])
    saviour = table.by_seat(order[(order.index(lord) + 2) % 5])
    lord_phone = table.by_seat(lord)
    pages = [p.open() for p in (victim, saviour, lord_phone)]
    for page in pages:
        not_scrolled(page)
        box = in_viewport(page, "#now-strip")
        assert box["y"] < 120, box
        expect(page.locator("#now-strip .now-phase")).to_have_text("回合开始")
    lord_name = lord_phone.name
    expect(saviour.page.locator("#now-strip .now-who")).to_have_text(
        f"{lord_name} 的回合", use_inner_text=True
    )
    expect(lord_phone.page.locator("#now-strip .now-who")).to_have_text(
        "轮到你了！", use_inner_text=True
    )

    bring_down(table, victim.seat)
    strip = saviour.page.locator("#now-strip")
    expect(strip.locator(".now-dying")).to_have_count(1)
    expect(strip.locator(".now-dying-name")).to_have_text(victim.name)
    peach = strip.locator(".now-dying .strip-peach button")
    expect(peach).to_have_text("桃")
    # Another phone: the Peach, not the dying player's Wine; all on the first screen.
    not_scrolled(saviour.page)
    in_viewport(saviour.page, "#now-strip .strip-peach button")
    expect(strip.locator(".strip-wine")).to_be_hidden()
    # The dying player's own phone: Peach and Wine in the strip, "I die" in the dying panel.
    mine = victim.page.locator("#now-strip")
    not_scrolled(victim.page)
    in_viewport(victim.page, "#now-strip .strip-peach button")
    in_viewport(victim.page, "#now-strip .strip-wine button")
    expect(mine.locator(".now-dying .for-me")).to_be_visible()
    in_viewport(victim.page, "#my-seat .dying-panel form[hx-post='act/die'] button")
    expect(victim.page.locator("#my-seat .dying-panel .self-rescue").first).to_be_hidden()
    # The old banner further down is gone from phones (the strip says it), not from the console.
    expect(saviour.page.locator("#table-state .banner-dying")).to_be_hidden()
    expect(table.host.locator("#table-state .banner-dying")).to_be_visible()
    expect(table.host.locator("#now-strip")).to_be_hidden()
    # Scrolled to the bottom of the page, the strip is still there, under the top bar.
    saviour.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert saviour.page.evaluate("() => window.scrollY") > 300
    box = in_viewport(saviour.page, "#now-strip")
    bar = box_of(saviour.page.locator(".topbar"))
    assert bar and abs(box["y"] - (bar["y"] + bar["height"])) < 2, (box, bar)
    screenshot(saviour.page, "phone-zh-strip-dying-scrolled")
    not_scrolled(saviour.page)
    screenshot(saviour.page, "phone-zh-strip-dying-other")
    screenshot(victim.page, "phone-zh-strip-dying-self")

    # In English (the phone switches language: the page reloads, same seat): the same strip,
    # the Chinese card name beside the English one.
    saviour.page.locator(".lang button").click()
    expect(saviour.page.locator("html")).to_have_attribute("lang", "en")
    expect(saviour.page.locator("#conn")).to_have_attribute("data-state", "open")
    strip = saviour.page.locator("#now-strip")
    peach = strip.locator(".now-dying .strip-peach button")
    expect(peach).to_have_text("Peach 桃")
    expect(strip.locator(".now-who")).to_have_text(f"{lord_name}'s turn", use_inner_text=True)
    not_scrolled(saviour.page)
    in_viewport(saviour.page, "#now-strip .strip-peach button")
    screenshot(saviour.page, "phone-en-strip-dying-other")

    # One tap on the other phone saves the dying player: 0 + 1 = 1 HP, no longer dying.
    peach.click()
    for page in pages:
        expect(page.locator("#now-strip .now-dying")).to_have_count(0)
    victim_seat = table.host.locator(f"#table-state .seat[data-seat='{victim.seat}']")
    expect(victim_seat.locator(".hp-num")).to_have_text("1/4")
    expect(victim_seat).not_to_have_class(re.compile(r"\bdying\b"))
    expect(table.host.locator("#table-state .events li").first).to_contain_text(saviour.name)


def test_a_dead_player_cannot_give_a_peach_from_the_strip(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4)
    lord = lord_seat(table)
    order = table.order()
    dead, dying = (table.by_seat(order[(order.index(lord) + k) % 4]) for k in (1, 2))
    page = dead.open()
    bring_down(table, dead.seat)
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.locator("#my-seat .dying-panel form[hx-post='act/die'] button").click()
    expect(page.locator("#table-state .seat.me")).to_have_class(re.compile(r"\bdead\b"))
    bring_down(table, dying.seat)
    expect(page.locator("#now-strip .now-dying")).to_have_count(1)
    expect(page.locator("#now-strip .strip-peach")).to_be_hidden()


# ---------------------------------------------------------------------------------------------
# 2. Alerts


def test_alerts_vibrate_on_my_turn_my_dying_and_a_save_and_sound_is_opt_in(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, alerts=True)
    lord = lord_seat(table)
    order = table.order()
    nxt = table.by_seat(order[(order.index(lord) + 1) % 4])
    other = table.by_seat(order[(order.index(lord) + 2) % 4])
    page = nxt.open()
    other_page = other.open()
    vibrations = "() => window.__vibrations"
    assert page.evaluate(vibrations) == [], "no alert on opening the page"
    assert page.evaluate("() => localStorage.getItem('sgs-sound')") is None
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    in_viewport(page, "#sound-toggle")

    # The host passes the turn to this phone: one vibration, no tone (sound is off).
    host = table.host
    host.bring_to_front()
    host.locator("#host-panel .turn-fix select[name=seat]").select_option(nxt.seat)
    host.locator("#host-panel .turn-fix button").click()
    expect(page.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))
    page.wait_for_function("() => window.__vibrations.length === 1")
    assert page.evaluate("() => window.__tones") == 0
    assert other_page.evaluate(vibrations) == []

    # Sound on (kept on this phone): a tone at once, and from now on with each alert.
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('sgs-sound')") == "1"
    page.wait_for_function("() => window.__tones > 0")
    tones = page.evaluate("() => window.__tones")

    # Someone else is dying: this phone (alive) may save them: a vibration and a tone; the
    # dying player's own phone vibrates (its own, longer pattern).
    bring_down(table, other.seat)
    page.wait_for_function("() => window.__vibrations.length === 2")
    page.wait_for_function(f"() => window.__tones > {tones}")
    other_page.wait_for_function("() => window.__vibrations.length === 1")
    dying_pattern = other_page.evaluate(vibrations)[0]
    save_pattern = page.evaluate(vibrations)[1]
    assert dying_pattern != save_pattern and sum(dying_pattern) > sum(save_pattern)
    # A change that is none of these (an HP change elsewhere) does not buzz again.
    host_damage(host, lord, 1)
    expect(page.locator(f"#table-state .seat[data-seat='{lord}'] .hp-num")).to_have_text("3/4")
    assert len(page.evaluate(vibrations)) == 2

    # After a reload the switch is still on.
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")


def test_the_wake_lock_is_taken_again_when_the_page_comes_back(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, alerts=True)
    phone = table.phones[0]
    page = phone.open()
    page.wait_for_function("() => window.__wakeLocks === 1")
    # Hidden: the browser releases the lock; visible again: taken again at once.
    taken = page.evaluate(
        """() => {
            window.__lastLock.release();
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
            document.dispatchEvent(new Event('visibilitychange'));
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
            WebSocket.prototype.send = function () {};  // no answer to the wake-up's sync
            document.dispatchEvent(new Event('visibilitychange'));
            return window.__wakeLocks;
        }"""
    )
    assert taken == 2, "the lock is asked for again as soon as the page is visible"
