"""The game flow at phone size (390x844) in a real browser: one tap ends a turn, damage from a
source takes two taps (− then the source), HP loss is its own button in the same dialog, and
"Undo my last change" marks the undone line in every screen's history.

Five screens: the host console (1280x800, also the table's display) and four phones in first-game
mode, one of which reads English. Screenshots (both languages) go to test-artifacts/flow-*.png.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import ContextFactory, screenshot, socket_taps, start_tap_log

pytestmark = [pytest.mark.browser]

NAMES = ["阿强", "小美", "老李", "Sam"]


@dataclass
class Player:
    name: str
    page: Page
    seat: str


def version(page: Page) -> int:
    return int(page.locator("#table-state").get_attribute("data-version") or 0)


def all_at(screens: list[Page], at: int) -> None:
    for page in screens:
        expect(page.locator("#table-state")).to_have_attribute("data-version", str(at))


def turn_on(screens: list[Page], seat: str) -> None:
    for page in screens:
        bar = page.locator("#table-state .turn-bar")
        expect(bar).to_have_attribute("data-turn-seat", seat)
        expect(bar.locator(".phase.current")).to_have_count(1)
        expect(bar.locator(".phases .phase").first).to_have_class(re.compile(r"\bcurrent\b"))


def test_one_tap_turn_two_tap_damage_and_undo_marks_history(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    host = display_context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()

    players: list[Player] = []
    for name in NAMES:
        page = new_phone().new_page()
        page.goto(join_url)
        page.locator("#name").fill(name)
        page.locator("form:has(#name) button[type=submit]").click()
        expect(page.locator("#my-seat .me-name")).to_have_text(name)
        players.append(Player(name, page, page.locator("#my-seat").get_attribute("data-seat")))
    host.locator("#host-panel input[name=first_game_mode]").check()
    expect(host.locator("#host-panel input[name=first_game_mode]")).to_be_checked()
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    lord_seat = host.locator("#table-state .seat.is-lord").get_attribute("data-seat")
    ids = [p.seat for p in players]
    lord, second, third, _fourth = (
        next(p for p in players if p.seat == ids[(ids.index(lord_seat) + k) % 4]) for k in range(4)
    )
    # The second player reads English (the page reloads on the same seat).
    second.page.locator(".topbar .lang button[value=en]").click()
    expect(second.page.locator("html")).to_have_attribute("lang", "en")
    expect(second.page.locator("#conn")).to_have_attribute("data-state", "open")
    screens = [host, *(p.page for p in players)]
    at = version(host)
    all_at(screens, at)
    turn_on(screens, lord.seat)

    # 10. One tap ends the lord's whole turn: End turn sits under the thumb beside Next phase.
    end = lord.page.locator("#table-state .turn-bar .turn-only form[hx-post='act/endturn'] button")
    step = lord.page.locator("#table-state .turn-bar .turn-only form[hx-post='act/next'] button")
    expect(end).to_be_in_viewport()
    expect(step).to_be_in_viewport()
    expect(end).to_have_text("结束回合")
    box = box_of(end)
    assert box and box["height"] >= 48 and box["width"] >= 150, box
    screenshot(lord.page, "flow-end-turn-zh")
    host.locator("#table-state .turn-bar").scroll_into_view_if_needed()
    screenshot(host, "flow-host-turn-bar")
    for player in players:
        start_tap_log(player.page)
    end.click()
    at += 1
    all_at(screens, at)
    turn_on(screens, second.seat)
    assert socket_taps(lord.page, "endturn") == 1 and socket_taps(lord.page, "next") == 0
    expect(host.locator("#table-state > .history .events li").first).to_contain_text(
        f"{lord.name} 结束了回合"
    )
    en_end = second.page.locator("#table-state .turn-bar .turn-only form[hx-post='act/endturn']")
    expect(en_end).to_be_in_viewport()
    expect(en_end).to_have_text("End turn")
    expect(second.page.locator("#table-state > .history .events li").first).to_contain_text(
        f"{lord.name} ended the turn"
    )
    screenshot(second.page, "flow-end-turn-en")
    # The lord's phone no longer offers the turn's buttons.
    expect(lord.page.locator("#table-state .turn-bar .turn-only")).to_be_hidden()

    # 15. Damage from a source: two taps, − then the source.
    page = third.page
    hp = page.locator(f"#table-state .seat[data-seat='{third.seat}'] .hp-num")
    expect(hp).to_have_text("4/4")
    taps = 0
    page.locator("#my-hp .hp-minus").click()
    taps += 1
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    lose = dialog.locator(".lose-hp button[name=lose]")
    expect(lose).to_have_text("失去体力")
    screenshot(page, "flow-damage-dialog-zh")
    dialog.locator(".source-grid button[name=source]", has_text=lord.name).click()
    taps += 1
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)
    at += 1
    all_at(screens, at)
    for screen in screens:
        expect(
            screen.locator(f"#table-state .seat[data-seat='{third.seat}'] .hp-num")
        ).to_have_text("3/4")
    assert taps == 2 and socket_taps(page, "hp") == 1
    damage_line = host.locator("#table-state > .history .events li").first
    expect(damage_line).to_contain_text(f"{third.name} 受到 {lord.name} 造成的 1 点伤害")

    # HP loss: the same dialog, its own button; no source in the line.
    en = second.page
    en.locator("#my-hp .hp-minus").click()
    en_dialog = en.locator("#dialog [role=dialog]")
    expect(en_dialog.locator(".lose-hp button[name=lose]")).to_have_text("Lose HP (失去体力)")
    expect(en_dialog.locator(".lose-hp p")).to_contain_text("no damage skills")
    screenshot(en, "flow-damage-dialog-en")
    en_dialog.locator(".lose-hp button[name=lose]").click()
    expect(en.locator("#dialog [role=dialog]")).to_have_count(0)
    at += 1
    all_at(screens, at)
    expect(en.locator("#table-state > .history .events li").first).to_have_text(
        re.compile(rf"{second.name} lost 1 HP \(HP 3\)$")
    )

    # 11. Undo my last change: the damage line is struck through and labelled on every screen.
    page.locator("#my-seat form[hx-post='act/undo'] button").click()
    at += 1
    all_at(screens, at)
    expect(hp).to_have_text("4/4")
    for screen in screens:
        undone = screen.locator("#table-state > .history .events li.undone")
        expect(undone).to_have_count(1)
        expect(undone).to_contain_text(third.name)
        mark = undone.locator(".undone-mark")
        expect(mark).to_have_text("undone" if screen is en else "已撤销")
        expect(mark).to_have_css("text-decoration-line", "none")
        expect(undone.locator("xpath=..").locator("li").first).not_to_have_class(
            re.compile(r"\bundone\b")
        )
    for screen, name in ((page, "flow-undone-zh"), (en, "flow-undone-en")):
        history = screen.locator("#table-state > .history")
        history.scroll_into_view_if_needed()
        screenshot(screen, name)
    # The second player, whose turn it is, still ends it in one tap (and may undo that too).
    en.locator("#table-state .turn-bar .turn-only form[hx-post='act/endturn'] button").click()
    at += 1
    all_at(screens, at)
    turn_on(screens, third.seat)
