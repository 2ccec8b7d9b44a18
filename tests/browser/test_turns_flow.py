"""A full round of turns at a 4-player table in a real browser: equipment, the distance helper,
a 乐不思蜀 and a 闪电 on the table, judgements through the judgement helper, and the phases
advanced from the current player's phone, with every screen agreeing at every step.

Six screens: the host console and the public display (1280x800) and four phones, one of which
switches to English once the game is on. First-game mode skips the hero picks. Screenshots go to
test-artifacts/. The steps (the table as every screen shows it, equipping, judging) are in
turns_steps.py.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.turns_steps import (
    PHASES,
    Player,
    Table,
    advance,
    equip,
    expect_history,
    flip,
    judge_dialog,
    place,
    show_result,
    tap_suit,
)

pytestmark = [pytest.mark.browser]

NAMES = ["阿强", "小美", "老李", "Sam"]
# The real deck's cards used below (companion/rules/cards equipment_catalogue).
QINGGANG = ("青釭剑", 2)
KYLIN_BOW = ("麒麟弓", 5)
CHITU = "赤兔"  # a -1 horse
INDULGENCE = "乐不思蜀"
LIGHTNING = "闪电"


# ---------------------------------------------------------------------------------------------


def test_a_round_of_turns(display_context: BrowserContext, new_phone: ContextFactory) -> None:
    # The host opens a table on the laptop; the public display follows along.
    host = display_context.new_page()
    host.goto("/")
    host.locator("form[action='/new/'] button").click()
    expect(host).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    join_url = host.locator(".join-url").inner_text().strip()
    code = join_url.rstrip("/").rsplit("/", 1)[-1]
    display = display_context.new_page()
    display.goto(f"/t/{code}/")
    expect(display.locator("#conn")).to_have_attribute("data-state", "open")

    # Four phones join.
    players: list[Player] = []
    for name in NAMES:
        page = new_phone().new_page()
        page.goto(join_url)
        page.locator("#name").fill(name)
        page.locator("form:has(#name) button[type=submit]").click()
        expect(page.locator("#my-seat .me-name")).to_have_text(name)
        seat = page.locator("#my-seat").get_attribute("data-seat") or ""
        assert seat
        players.append(Player(name, page, seat))
    for player in players:
        expect(player.page.locator("#table-state .seat-name")).to_have_text(NAMES)
        expect(player.page.locator("#conn")).to_have_attribute("data-state", "open")

    # First-game mode (no hero picks), deal identities, start the game.
    first_game = host.locator("#host-panel input[name=first_game_mode]")
    first_game.check()
    expect(host.locator("#host-panel input[name=first_game_mode]")).to_be_checked()
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    lord_seat = host.locator("#table-state .seat.is-lord").get_attribute("data-seat") or ""
    started = int(host.locator("#table-state").get_attribute("data-version") or 0)

    table = Table(host, display, players, lord=lord_seat, version=started, turn=lord_seat)
    table.agree(0)
    # In play order from the lord: the lord, the second player, the third, the fourth.
    ids = [p.seat for p in players]
    order = [table.player(ids[(ids.index(lord_seat) + k) % 4]) for k in range(4)]
    lord, second, third, fourth = order
    opposite = third  # two seats away from the lord on a ring of four

    # The fourth player switches their phone to English (the page reloads, same seat).
    fourth.page.locator(".topbar .lang button[value=en]").click()
    expect(fourth.page.locator("html")).to_have_attribute("lang", "en")
    expect(fourth.page.locator("#my-seat")).to_have_attribute("data-seat", fourth.seat)
    expect(fourth.page.locator("#conn")).to_have_attribute("data-state", "open")
    fourth.english = True
    table.agree(0)

    # Before anything is equipped: the lord reaches only the neighbours.
    lord_card = lord.page.locator("#table-state .dist-card.mine")
    expect(lord_card).to_be_visible()
    expect(lord.page.locator("#table-state .dist-card")).to_have_count(4)
    expect(lord.page.locator("#table-state .matrix")).to_be_hidden()
    expect(display.locator("#table-state .matrix")).to_be_visible()
    expect(display.locator("#table-state .dist-card")).to_have_count(4)
    for card in display.locator("#table-state .dist-card").all():
        expect(card).to_be_hidden()
    opposite_row = lord_card.locator("tbody tr", has_text=opposite.name)
    expect(opposite_row.locator("td")).to_have_text([opposite.name, "2", "2", "", ""])

    # Round 1, the lord: start → judgement (nothing to judge) → draw → play.
    advance(table)
    expect(lord.page.locator("#table-state .turn-bar .phase-note .chip")).to_have_count(0)
    advance(table)
    advance(table)
    assert table.phase == "play"

    # In the play phase the lord equips a weapon, replaces it (confirmed), adds a -1 horse;
    # every phone's distance helper and the display's matrix follow live.
    equip(lord, QINGGANG[0])
    table.equipment.setdefault(lord.seat, {})["weapon"] = QINGGANG
    table.agree()
    expect(opposite_row.locator("td")).to_have_text([opposite.name, "2", "2", "✓", ""])
    equip(lord, KYLIN_BOW[0], replace=QINGGANG[0])
    table.equipment[lord.seat]["weapon"] = KYLIN_BOW
    table.agree()
    equip(lord, CHITU)
    table.equipment[lord.seat]["minus_horse"] = (CHITU, None)
    table.agree()
    expect(opposite_row.locator("td")).to_have_text([opposite.name, "1", "2", "✓", "✓"])
    expect(
        opposite.page.locator("#table-state .dist-card.mine tbody tr", has_text=lord.name).locator(
            "td"
        )
    ).to_have_text([lord.name, "2", "1", "", ""])
    lord_card.evaluate("card => { card.scrollIntoView(); window.scrollBy(0, -64); }")
    screenshot(lord.page, "turns-zh-phone-distances")

    # The lord plays 乐不思蜀 on the second player and 闪电 on himself, from the seat dialogs.
    place(table, lord, second.seat, INDULGENCE)
    place(table, lord, lord.seat, LIGHTNING)
    advance(table)  # discard
    advance(table)  # end
    advance(table)  # the second player's turn
    assert table.turn == second.seat

    # The second player: start → judgement of 乐不思蜀 through the judgement helper.
    advance(table)
    assert table.phase == "judgement"
    expect(second.page.locator("#table-state .turn-bar .phase-note .chip.trick")).to_have_text(
        [INDULGENCE]
    )
    dialog = judge_dialog(table, INDULGENCE, "indulgence")
    screenshot(second.page, "turns-zh-phone-judge-dialog")
    tap_suit(table, dialog, "spade")
    # ♠5 is no heart: the play phase is skipped, on every screen.
    table.zones[second.seat].remove(INDULGENCE)
    table.skips.add("play")
    table.agree()
    expect_history(table, "♠", INDULGENCE)
    for page in table.screens:
        expect(page.locator("#table-state .turn-bar .phase.skipped")).to_have_count(1)
    advance(table)  # draw
    advance(table)  # play is skipped: discard
    assert table.phase == "discard"
    screenshot(display, "turns-zh-display-play")
    screenshot(host, "turns-zh-host-play")
    advance(table)  # end
    advance(table)  # the third player's turn

    # The third and the fourth player: nothing to judge, every phase in turn.
    for player in (third, fourth):
        assert table.turn == player.seat
        for _phase in PHASES:
            advance(table)
            if table.phase == "play" and player.english:
                bar = player.page.locator("#table-state .turn-bar")
                expect(bar.locator(".phase.current")).to_have_text("Play")
                expect(bar.locator(".turn-name")).to_have_text(f"{player.name}'s turn")
                bar.evaluate("bar => { bar.scrollIntoView(); window.scrollBy(0, -110); }")
                screenshot(player.page, "turns-en-phone-play")
    # Back to the lord: round 2.
    assert table.turn == lord.seat and table.round == 2

    # The lord judges the 闪电: ♠10 does not strike, so it moves to the next living seat.
    advance(table)
    dialog = judge_dialog(table, LIGHTNING, "lightning")
    flip(dialog, "spade", 10)
    show_result(table, dialog)
    table.zones[lord.seat].remove(LIGHTNING)
    table.zones.setdefault(second.seat, []).append(LIGHTNING)
    table.agree()
    expect_history(table, "♠10", LIGHTNING, second.name)
    advance(table)  # draw: the lord goes on
    assert table.phase == "draw"
