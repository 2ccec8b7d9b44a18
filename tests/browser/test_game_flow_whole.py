"""A whole 4-player game in a real browser, in Chinese: a host console, the table display and
four phones. Identities, the hero pick (secret until the last pick), the HP tracker, dying,
rescue, death, undo, the end screen and the next game, with every screen agreeing at every step.

Screenshots for a human go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from companion.rules.heroes import LORD_HERO_IDS
from tests.browser.boxes import said
from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.game_steps import (
    HEROES,
    accept_next_dialog,
    assert_no_foreign_heroes,
    candidate_ids,
    deal_four,
    expect_pick_count,
    frames_between,
    hero_names,
    host_damage,
    open_seat,
    page_html,
    pick,
    tap,
)
from tests.browser.screens import CJK, ZH, check_frames_secrecy, check_page_secrecy

# The browser smoke of the second pass: one whole game over PostgreSQL and Redis, every screen
# agreeing at every step.
pytestmark = [pytest.mark.browser, pytest.mark.backend]
LORD_HEROES_ZH = {HEROES[i].name_zh for i in LORD_HERO_IDS}
PEACH_ZH = "桃"  # msgid "Peach 桃" in companion/locale/zh_Hans
GAME_2 = re.compile(r"^(第\s*2\s*局|Game 2)$")


def test_whole_four_player_game(
    display_context: BrowserContext,
    new_phone: ContextFactory,
) -> None:
    table, watcher = deal_four(display_context, new_phone)
    host, display, seats = table.host, table.display, table.seats
    lord = table.by_identity("lord")
    loyalist = table.by_identity("loyalist")
    rebel = table.by_identity("rebel")
    renegade = table.by_identity("renegade")
    others = [loyalist, rebel, renegade]

    # The host starts hero selection: only the lord's phone gets candidates, 5 of them.
    tap(host, "#host-panel form[hx-post='act/start'] button")
    lord_page = lord.phone.page
    expect(lord_page.locator("#my-seat .hero-choices .choice")).to_have_count(5)
    lord_ids = candidate_ids(lord_page)
    assert len(set(lord_ids)) == 5
    assert LORD_HEROES_ZH <= set(hero_names(lord_page, "#my-seat .hero-choices"))
    for seat in others:
        expect(seat.phone.page.locator("#my-seat .hero-choices")).to_have_count(0)
    table.agree(1, "heroes", heroes=False)
    expect(display.locator("#table-state .banner")).to_have_text(CJK)
    for screen, where in [
        (host, "host"),
        (display, "display"),
        *((s.phone.page, s.name) for s in others),
    ]:
        assert_no_foreign_heroes(page_html(screen), set(), where)

    # The lord takes 刘备: every screen shows it at once, with no lord bonus (4 players).
    lord.hero = "SHU001"
    assert lord.hero in lord_ids
    pick(lord_page, lord.hero)
    for page in table.screens:
        expect(page.locator("#table-state .seat.is-lord .seat-hero [lang='zh-CN']")).to_have_text(
            "刘备"
        )
    table.agree(1, "heroes")
    picks_from = table.version
    expect(lord_page.locator("#my-seat .hero-choices")).to_have_count(0)
    expect(lord_page.locator("#my-seat .banner")).to_have_text(CJK)
    expect_pick_count(display, 0, 3)

    # Every other phone privately gets 3 candidates, never the same hero twice.
    offered: dict[str, list[str]] = {}
    for seat in others:
        page = seat.phone.page
        expect(page.locator("#my-seat .hero-choices .choice")).to_have_count(3)
        offered[seat.id] = candidate_ids(page)
        expect(page.locator("#my-seat .hero-choices .choice button")).to_contain_text(
            [HEROES[i].name_zh for i in offered[seat.id]]
        )
    dealt = [hero for hand in offered.values() for hero in hand]
    assert len(dealt) == len(set(dealt)) == 9, f"a hero on two phones: {offered}"
    assert lord.hero not in dealt
    screenshot(rebel.phone.page, "zh-phone-hero-pick")

    # Picks in secret: the rebel picks, then changes their mind; the display only counts.
    first, second = offered[rebel.id][0], offered[rebel.id][1]
    pick(rebel.phone.page, first)
    chosen = rebel.phone.page.locator("#my-seat .hero-choices .choice.picked input[name=hero]")
    expect(chosen).to_have_value(first)
    table.agree(1, "heroes")
    expect_pick_count(display, 1, 3)
    display.bring_to_front()
    screenshot(display, "zh-display-heroes")
    pick(rebel.phone.page, second)
    expect(chosen).to_have_value(second)
    table.agree(1, "heroes")
    expect_pick_count(display, 1, 3)
    # Picks stay off the model (and every screen) until the reveal.
    picks = {rebel.id: second, loyalist.id: offered[loyalist.id][2]}
    pick(loyalist.phone.page, picks[loyalist.id])
    table.agree(1, "heroes")
    expect_pick_count(display, 2, 3)

    # Before the reveal no screen names another phone's candidates or pick, in page or frames.
    allowed = {s.id: {lord.hero, *offered.get(s.id, [])} for s in seats}
    for screen, where in [(host, "host"), (display, "display")]:
        assert_no_foreign_heroes(page_html(screen), {lord.hero}, where)
    for frame in frames_between(watcher, 0, table.version + 1):
        assert_no_foreign_heroes(frame, {lord.hero}, "display (ws frame)")
    for seat in seats:
        assert_no_foreign_heroes(page_html(seat.phone.page), allowed[seat.id], seat.name)
        check_page_secrecy(seat.phone.page, seat.identity, seat.name)
        check_frames_secrecy(seat.phone)
        # The lord's own five candidates were on its phone before its pick: check after it.
        frames = frames_between(seat.phone, picks_from if seat is lord else 0, table.version + 1)
        assert frames
        for frame in frames:
            assert_no_foreign_heroes(frame, allowed[seat.id], f"{seat.name} (ws frame)")

    # The last pick reveals every hero at once; HP = the hero's HP (no lord bonus at 4).
    asked = {s.id: len(s.phone.sent) for s in seats}
    picks[renegade.id] = offered[renegade.id][0]
    pick(renegade.phone.page, picks[renegade.id])
    for seat in others:
        seat.hero = picks[seat.id]
    for seat in seats:
        seat.max_hp = seat.hp = HEROES[seat.hero].hp
    assert lord.max_hp == 4
    table.agree(2, "playing")
    for seat in seats:
        mine = seat.phone.page.locator("#my-seat")
        expect(mine.locator(".take-hero")).to_contain_text(HEROES[seat.hero].name_zh)
        expect(mine.locator(".hero-card .hero-name [lang='zh-CN']")).to_have_text(
            HEROES[seat.hero].name_zh
        )
        expect(mine.locator(".hp-plus")).to_be_disabled()
        check_page_secrecy(seat.phone.page, seat.identity, seat.name)
        check_frames_secrecy(seat.phone)
    check_page_secrecy(display, None, "display")
    check_page_secrecy(host, None, "host console")
    # The pick and the reveal came to every screen as one state, which no phone asked for again.
    for screen, name in [(watcher, "display"), *((s.phone, s.name) for s in seats)]:
        states = frames_between(screen, table.version - 1, table.version + 1)
        assert len([f for f in states if 'id="table-state"' in f]) == 1, name
    for seat in seats:
        assert not [f for f in seat.phone.sent[asked[seat.id] :] if '"sync"' in f], seat.name

    # Tapping a revealed hero on the display shows its card.
    dialog = open_seat(display, renegade)
    expect(dialog.locator(".hero-card .hero-name [lang='zh-CN']")).to_have_text(
        HEROES[renegade.hero].name_zh
    )
    expect(dialog.locator(".damage-form")).to_have_count(0)
    dialog.locator("[data-close-dialog]").click()
    expect(dialog).to_have_count(0)

    # The rebel takes 1 damage from the lord: big − button, then one tap on the source.
    rebel_page = rebel.phone.page
    rebel_page.locator("#my-seat .hp-minus").click()
    dialog = rebel_page.locator("#dialog .dialog")
    expect(dialog.locator(".damage-form .source-grid button")).to_have_count(5)
    screenshot(rebel_page, "zh-phone-damage-dialog")
    dialog.locator(f".damage-form .source-grid button[value='{lord.id}']").click()
    expect(dialog).to_have_count(0)
    rebel.hp -= 1
    table.agree(1, "playing")
    expect(rebel_page.locator("#my-seat .hp-plus")).to_be_enabled()
    screenshot(rebel_page, "zh-phone-hp")

    # ... and recovers with +.
    rebel_page.locator("#my-seat .hp-plus").click()
    rebel.hp += 1
    table.agree(1, "playing")
    expect(rebel_page.locator("#my-seat .hp-plus")).to_be_disabled()

    # The loyalist takes a hit from the renegade, then undoes it: back on every screen.
    loyalist_page = loyalist.phone.page
    loyalist_page.locator("#my-seat .hp-minus").click()
    loyalist_page.locator(
        f"#dialog .damage-form .source-grid button[value='{renegade.id}']"
    ).click()
    expect(loyalist_page.locator("#dialog .dialog")).to_have_count(0)
    loyalist.hp -= 1
    table.agree(1, "playing")

    # The same seat on a phone set to English, during play.
    english = new_phone(locale="en-US").new_page()
    english.goto(loyalist.phone.url)
    expect(english.locator("html")).to_have_attribute("lang", "en")
    expect(english.locator("#table-state")).to_have_attribute("data-version", str(table.version))
    expect(english.locator("#my-seat .hp-big")).to_have_text(f"{loyalist.hp}/{loyalist.max_hp}")
    expect(english.locator("#my-seat .hero-card .hero-name .en")).to_have_text(
        HEROES[loyalist.hero].name_en
    )
    expect(english.locator("#my-seat .hp-minus")).to_have_attribute("aria-label", "Take damage")
    expect(english.locator("#table-state .status-line")).not_to_have_text(CJK)
    screenshot(english, "en-phone-play")
    english.context.close()

    loyalist_page.locator("#my-seat form[hx-post='act/undo'] button").click()
    loyalist.hp += 1
    table.agree(1, "playing")

    # The host brings the rebel down to 0 (source: the lord): dying on every screen.
    host_damage(host, rebel, 2, lord)
    table.agree(1, "playing")
    host_damage(host, rebel, rebel.hp, lord)
    assert rebel.hp == 0 and rebel.dying
    table.agree(1, "playing")
    for page in table.screens:
        expect(page.locator("#table-state .seat.dying .dying-mark")).to_have_text("濒死")
        expect(page.locator("#table-state .banner-dying")).to_contain_text(rebel.name)
    # The banner's "I give a Peach" is for phones: the console records Peaches in the dialog.
    for page in (host, display):
        expect(page.locator("#table-state .banner-dying form")).to_be_hidden()
    # Phones have it in the strip at the top instead (the dying player's own: a self Peach).
    for seat in seats:
        expect(seat.phone.page.locator("#table-state .banner-dying")).to_be_hidden()
        expect(seat.phone.page.locator("#now-strip .strip-peach button")).to_be_visible()
    expect(rebel_page.locator("#my-seat .dying-panel")).to_be_visible()
    screenshot(rebel_page, "zh-phone-dying")
    display.bring_to_front()
    screenshot(display, "zh-display-dying")

    # The renegade gives a Peach: 0 + 1 = 1, saved.
    peach = renegade.phone.page.locator("#now-strip .strip-peach button")
    expect(peach).to_have_text(PEACH_ZH)
    peach.click()
    rebel.hp, rebel.dying = 1, False
    table.agree(1, "playing")

    # Down again to -1; one Peach (from the loyalist) is not enough: still dying at 0.
    host_damage(host, rebel, 2, lord)
    assert rebel.hp == -1
    table.agree(1, "playing")
    loyalist_page.locator("#now-strip .strip-peach button").click()
    rebel.hp = 0
    table.agree(1, "playing")

    # The rebel dies: identity revealed everywhere, the lord named as the killer.
    asked: list[str] = []
    accept_next_dialog(rebel_page, asked)
    rebel_page.locator("#my-seat .dying-panel form[hx-post='act/die'] button").click()
    rebel.alive, rebel.dying = False, False
    table.agree(1, "playing")
    assert asked and CJK.search(asked[0]), asked
    for page in table.screens:
        dead = page.locator(f"#table-state .seat[data-seat='{rebel.id}']")
        expect(dead.locator(".idn")).to_have_text(ZH["rebel"])
        expect(dead.locator(".dead-mark")).to_contain_text(lord.name)
        expect(page.locator("#table-state .events li").first).to_contain_text(lord.name)
    expect(rebel_page.locator("#my-seat .hp-minus")).to_have_count(0)

    # The host takes the renegade down (source: the loyalist) and records the death.
    while renegade.hp > 0:
        host_damage(host, renegade, min(3, renegade.hp), loyalist)
        table.agree(1, "playing")
    dialog = open_seat(host, renegade)
    expect(dialog.locator(".rescue-form .source-grid button")).to_have_count(3)
    screenshot(host, "zh-host-dying-dialog")
    accept_next_dialog(host, asked)
    dialog.locator("form[hx-post='act/die'] button").click()
    renegade.alive, renegade.dying = False, False
    # Death and game over: two changes. Every rebel and renegade is dead: the lord's side wins.
    table.agree(2, "finished")
    assert len(asked) == 2
    for page in table.screens:
        result = page.locator("#table-state .result")
        expect(result.locator(".winner")).to_have_class(re.compile(r"\bwinner-lord\b"))
        expect(result.locator(".winner")).to_have_text(CJK)
        rows = result.locator("table.results > tbody > tr")
        expect(rows).to_have_count(4)
        for index, seat in enumerate(seats):
            row = rows.nth(index)
            cells = row.locator("td")
            expect(cells.nth(0)).to_have_text(seat.name)
            expect(cells.nth(1)).to_have_class(f"idn-{seat.identity}")
            expect(cells.nth(1)).to_have_text(ZH[seat.identity])
            expect(cells.nth(2)).to_contain_text(HEROES[seat.hero].name_zh)
            if seat.alive:
                expect(cells.nth(3)).not_to_contain_text("击杀")
            else:
                expect(cells.nth(3)).to_contain_text(seat.killer)
            if seat.identity in ("lord", "loyalist"):
                expect(row).to_have_class(re.compile(r"\bwon\b"))
            else:
                expect(row).not_to_have_class(re.compile(r"\bwon\b"))
        expect(result.locator("details.history .events li")).not_to_have_count(0)
        # Said once: on a phone the strip above the status line has nothing to add.
        assert said(page, "游戏结束") == 1
    assert rebel.killer == lord.name and renegade.killer == loyalist.name
    screenshot(rebel_page, "zh-phone-end")
    display.bring_to_front()
    screenshot(display, "zh-display-end")

    # New game with the same players: a fresh deal on every screen, game 2.
    tap(host, "#host-panel form[hx-post='act/deal'] button")
    for seat in seats:
        seat.identity = ""
        seat.hero, seat.hp, seat.max_hp = "", 0, 0
        seat.alive, seat.dying, seat.killer = True, False, ""
    table.version += 1
    for page in table.screens:
        state = page.locator("#table-state")
        expect(state).to_have_attribute("data-version", str(table.version))
        expect(state).to_have_attribute("data-status", "dealt")
        expect(state.locator(".status-line .pill", has_text=GAME_2)).to_have_count(1)
        expect(state.locator(".seat.is-lord")).to_have_count(1)
        expect(state.locator(".seat .idn.idn-hidden")).to_have_count(3)
        expect(state.locator(".seat.dead, .seat-hero, .seat-hp, .result")).to_have_count(0)
    for seat in seats:
        mine = seat.phone.page.locator("#my-seat")
        expect(mine).to_have_attribute("data-version", str(table.version))
        expect(mine.locator(".identity-card")).to_have_class(
            re.compile(r"\bidn-(lord|loyalist|rebel|renegade)\b")
        )
        expect(mine.locator(".hp-tracker, .hero-card, .dying-panel")).to_have_count(0)
        found = re.search(
            r"\bidn-(\w+)\b", mine.locator(".identity-card").get_attribute("class") or ""
        )
        assert found
        seat.identity = seat.phone.identity = found.group(1)
    assert sorted(s.identity for s in seats) == ["lord", "loyalist", "rebel", "renegade"]
    # The last game's identities are public history now; the new ones are not.
    for page in table.screens:
        ring = str(page.locator("#table-state .ring").evaluate("el => el.outerHTML"))
        for identity in ("loyalist", "rebel", "renegade"):
            assert identity not in ring and ZH[identity] not in ring, f"{page.url}: {identity}"
