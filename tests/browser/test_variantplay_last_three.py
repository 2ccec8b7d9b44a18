"""The protection of the first out and the last three on real screens (docs/rules.md
§9.3, §9.4), in both languages: the protected mark on the display (1280×800) and his phone's
explanation with "I attack X" (390×844); then three alive, the countdown on the display and a
phone, and the round's end taking 1 HP from each living player live on the display.
The game is driven by HTTP taps (tests/browser/tables.py). Screenshots:
test-artifacts/lastthree-{protected-display,protected-phone,countdown-phone,loss-display}-{lang}.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.tables import HttpSeat, HttpTable, deal, kill, pick_heroes, seated

pytestmark = [pytest.mark.browser]

WORDS = {
    "zh": {
        "protected": "受保护",
        "strike": "我攻击 {name}（我的保护结束）",
        "left": "最后三人：还剩 1 轮",
        "now": "最后三人：本轮结束时每人失去 1 点体力",
        "line": "每人失去 1 点体力",
    },
    "en": {
        "protected": "Protected",
        "strike": "I attack {name} (my protection ends)",
        "left": "Last three: 1 round left",
        "now": "Last three: everyone loses 1 HP at the end of this round",
        "line": "everyone loses 1 HP",
    },
}
HP_RE = re.compile(r"(\d+)/(\d+)")


def hp_on(page: Page, seat: HttpSeat) -> int:
    text = page.locator(f'.ring li.seat[data-seat="{seat.id}"] .hp-num').inner_text()
    found = HP_RE.search(text)
    assert found, text
    return int(found.group(1))


def round_of(table: HttpTable) -> int:
    found = re.search(r'class="pill now-round">[^<\d]*(\d+)', table.host.page())
    assert found
    return int(found.group(1))


def end_round(table: HttpTable) -> None:
    start = round_of(table)
    while round_of(table) == start:
        table.host.act("endturn")


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_the_protected_mark_then_the_last_three_count_down_and_take_hp(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    words = WORDS[lang]
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"])
    table.host.act("options", fields="first_out_protection", first_out_protection="1")
    table.host.act("options", fields="last_three", last_three="1")
    # Game 1: a rebel is the first out, then the lord dies.
    deal(table)
    pick_heroes(table)
    first = table.seat_by_identity("rebel")
    kill(table, first, None)
    kill(table, table.seat_by_identity("lord"), None)
    # Game 2 of the session: he is protected.
    deal(table)
    pick_heroes(table)
    attacker = next(s for s in table.seats if s is not first)
    table.host.act("hp", seat=str(first.id), delta="-1", source=str(attacker.id))

    display = new_context(kind="display", locale=locale).new_page()
    display.goto(table.display_path)
    marked = display.locator(".ring li.seat.protected")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-seat", str(first.id))
    expect(marked.locator(".protect-mark")).to_have_text(words["protected"])
    expect(display.locator(".protect-note")).to_contain_text(first.name)
    screenshot(display, f"lastthree-protected-display-{lang}")

    phone = new_context(kind="phone", locale=locale).new_page()
    phone.goto(first.device.url)
    note = phone.locator(".protect-me")
    expect(note).to_be_visible()
    strike = note.locator("form.strike button")
    expect(strike).to_have_text(words["strike"].format(name=attacker.name))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    note.scroll_into_view_if_needed()
    screenshot(phone, f"lastthree-protected-phone-{lang}")
    # His tap ends it, on every screen.
    strike.click()
    expect(note).to_be_hidden()
    expect(marked).to_have_count(0)

    # Three alive: the loyalist and the renegade are out.
    for identity in ("loyalist", "renegade"):
        kill(table, table.seat_by_identity(identity), None)
    living = [s for s in table.seats if s.identity in ("lord", "rebel")]
    for _ in range(3):
        end_round(table)
    # The countdown's last round, on a phone's now strip.
    lord = table.seat_by_identity("lord")
    lord_phone = new_context(kind="phone", locale=locale).new_page()
    lord_phone.goto(lord.device.url)
    countdown = lord_phone.locator("#now-strip .last-three")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text(words["left"])
    assert lord_phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(lord_phone, f"lastthree-countdown-phone-{lang}")
    # Then the round that ends with the loss, live on the phone and the display.
    end_round(table)
    expect(countdown).to_have_text(words["now"])
    display.reload()
    countdown = display.locator(".turn-bar .last-three")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(words["now"])
    before = {s.id: hp_on(display, s) for s in living}
    end_round(table)
    for seat in living:
        expect(display.locator(f'.ring li.seat[data-seat="{seat.id}"] .hp-num')).to_contain_text(
            f"{before[seat.id] - 1}/"
        )
    expect(display.locator(".history .events li").first).to_contain_text(words["line"])
    expect(countdown).to_have_text(words["now"])
    screenshot(display, f"lastthree-loss-display-{lang}")
