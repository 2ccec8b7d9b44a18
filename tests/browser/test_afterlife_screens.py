"""Rebirth 转世 and dark souls 暗魂 on real screens, in both languages: the
phones at 390×844 and the display at 1280×800.

- Rebirth (5 players, 3 cards): a living player gives the dead rebel a card from his phone, a
  second gift the same turn is refused with the reason; the dead rebel's phone and the display
  count his cards; at 3 he is reborn (the display says so); the lord then kills everybody else
  and wins, the reborn rebel still alive.
- Dark souls (6 players): the dead loyalist chooses the lord on his phone (罗汉), the lord's
  phone shows the effect; its next damage is 1 less, before it lands; a dead rebel's 玄武 is
  used from the haunted renegade's phone; a dead renegade's 祝由 from the lord's phone in his
  play phase. Each soul once.

Screenshots: test-artifacts/afterlife-*-{zh,en}.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.tables import HttpSeat, HttpTable, deal, kill, pick_heroes, seated

pytestmark = [pytest.mark.browser]

LANGS = [("zh-CN", "zh"), ("en-US", "en")]

WORDS = {
    "zh": {
        "count1": "转世牌 1/3",
        "give": "献祭一张手牌",
        "again": "每名玩家每回合只能献祭一张牌",
        "reborn": "已转世",
        "lord_wins": "主公和忠臣获胜",
        "dead_for_victory": "已转世：胜负判定时算阵亡",
        "haunt": "选择要附体的存活玩家",
        "haunts_you": "附体于你",
        "luohan": "罗汉",
        "before": "伤害生效前",
        "xuanwu": "玄武",
        "zhuyou": "祝由",
    },
    "en": {
        "count1": "1 of 3 cards to rebirth",
        "give": "one hand card",
        "again": "One gift per player per turn",
        "reborn": "Reborn",
        "lord_wins": "The Lord and the Loyalists win",
        "dead_for_victory": "Reborn: dead for victory",
        "haunt": "Choose the living player to haunt",
        "haunts_you": "haunts you",
        "luohan": "Luohan 罗汉",
        "before": "before it lands",
        "xuanwu": "Xuanwu 玄武",
        "zhuyou": "Zhuyou 祝由",
    },
}


def table_with(base_url: str, names: list[str], option: str) -> HttpTable:
    table = seated(base_url, names)
    table.host.act("options", fields=option, **{option: "1"})
    deal(table)
    pick_heroes(table)
    return table


def phone_of(new_context: ContextFactory, locale: str, seat: HttpSeat) -> Page:
    page = new_context(kind="phone", locale=locale).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(seat.device.url)
    return page


def show(page: Page, selector: str) -> None:
    page.locator(selector).first.evaluate(
        "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120)"
    )


def fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def on_screen(page: Page, selector: str) -> None:
    """The display shows it without scrolling (1280×800)."""
    box = box_of(page.locator(selector).first)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1280
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box


@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_a_rebirth_and_a_game_won_beside_a_reborn_rebel(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    words = WORDS[lang]
    table = table_with(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"], "rebirth")
    lord = table.seat_by_identity("lord")
    rebels = [s for s in table.seats if s.identity == "rebel"]
    rebel, other_rebel = rebels
    loyalist = table.seat_by_identity("loyalist")
    renegade = table.seat_by_identity("renegade")
    kill(table, rebel, lord)

    display = new_context(kind="display", locale=locale).new_page()
    display.goto(table.display_path)
    waiting = display.locator(f'.rebirth-waiting[data-rebirth-seat="{rebel.id}"]')
    expect(waiting).to_be_visible()
    expect(display.locator(".gift-form")).to_be_hidden()  # no buttons on the display

    giver = phone_of(new_context, locale, loyalist)
    button = giver.locator(f'.gift-form input[value="{rebel.id}"] ~ button')
    expect(button).to_be_visible()
    expect(button).to_contain_text(words["give"])
    button.click()
    expect(waiting).to_contain_text(words["count1"])
    dead = phone_of(new_context, locale, rebel)
    expect(dead.locator(".rebirth-waiting")).to_contain_text(words["count1"])
    expect(dead.locator(".gift-form")).to_be_hidden()  # he does not give to himself
    expect(dead.locator(".rebirth-own")).to_be_visible()
    show(dead, ".afterlife")
    fits(dead, 390)
    screenshot(dead, f"afterlife-rebirth-dead-{lang}")
    # A second gift in the same turn: refused, with the reason.
    giver.locator(f'.gift-form input[value="{rebel.id}"] ~ button').click()
    expect(giver.locator("#toast")).to_contain_text(words["again"])
    show(giver, ".afterlife")
    fits(giver, 390)
    screenshot(giver, f"afterlife-rebirth-giver-{lang}")
    on_screen(display, ".afterlife")
    screenshot(display, f"afterlife-rebirth-display-{lang}")

    other_rebel.device.act("give", seat=str(rebel.id))
    renegade.device.act("give", seat=str(rebel.id))
    reborn = display.locator(f'.rebirth-reborn[data-reborn-seat="{rebel.id}"]')
    expect(reborn).to_contain_text(words["reborn"])
    expect(display.locator(f'.ring > li[data-seat="{rebel.id}"]')).not_to_have_class("dead")
    expect(dead.locator("#my-seat .hp-tracker")).to_be_visible()
    on_screen(display, ".rebirth-reborn")
    screenshot(display, f"afterlife-reborn-display-{lang}")

    for victim in (loyalist, renegade, other_rebel):
        kill(table, victim, lord)
    expect(display.locator(".winner")).to_have_text(words["lord_wins"])
    expect(display.locator(".result .reborn-dead")).to_have_text(words["dead_for_victory"])
    expect(display.locator(".rebirth-waiting")).to_have_count(0)
    screenshot(display, f"afterlife-reborn-end-display-{lang}")


@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_each_dark_soul_is_used_once(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    words = WORDS[lang]
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    table = table_with(app_server.base_url, names, "dark_souls")
    lord = table.seat_by_identity("lord")
    loyalist = table.seat_by_identity("loyalist")
    renegade = table.seat_by_identity("renegade")
    rebels = [s for s in table.seats if s.identity == "rebel"]

    # 罗汉: the dead loyalist chooses the lord on his phone.
    kill(table, loyalist, rebels[0])
    display = new_context(kind="display", locale=locale).new_page()
    display.goto(table.display_path)
    soul_phone = phone_of(new_context, locale, loyalist)
    form = soul_phone.locator(".haunt-form")
    expect(form).to_be_visible()
    expect(form).to_contain_text(words["haunt"])
    show(soul_phone, ".afterlife")
    fits(soul_phone, 390)
    screenshot(soul_phone, f"afterlife-souls-choose-{lang}")
    form.locator(f'button[value="{lord.id}"]').click()
    luohan = display.locator(f'.soul-luohan[data-soul-owner="{loyalist.id}"]')
    expect(luohan).to_contain_text(words["luohan"])
    lord_phone = phone_of(new_context, locale, lord)
    expect(lord_phone.locator(".soul-on-me")).to_contain_text(words["haunts_you"])
    expect(lord_phone.locator(".soul-use")).to_have_count(0)  # 罗汉 is never a tap
    expect(soul_phone.locator(".soul-luohan .soul-use")).to_have_count(0)
    show(lord_phone, ".afterlife")
    fits(lord_phone, 390)
    screenshot(lord_phone, f"afterlife-souls-haunted-{lang}")
    # The damage dialog says, before anything is applied, that 罗汉 prevents 1 point.
    lord_phone.locator(f'.ring > li[data-seat="{lord.id}"] .seat-open').click()
    note = lord_phone.locator("#dialog .luohan-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text(loyalist.name)
    expect(note).to_contain_text(words["before"])
    note.scroll_into_view_if_needed()
    screenshot(lord_phone, f"afterlife-souls-damage-dialog-{lang}")
    lord_phone.locator("#dialog [data-close-dialog]").first.click()
    hp_before = display.locator(f'.ring > li[data-seat="{lord.id}"] .hp-num').inner_text()
    table.host.act("hp", seat=str(lord.id), delta="-2", source=str(rebels[0].id))
    expect(luohan).to_have_count(0)  # used by the damage itself: 1 of 2 lands
    hp_after = display.locator(f'.ring > li[data-seat="{lord.id}"] .hp-num')
    expect(hp_after).to_have_text(f"{int(hp_before.split('/')[0]) - 1}/{hp_before.split('/')[1]}")
    expect(display.locator("#table-state .events li").first).to_contain_text(loyalist.name)

    # 玄武: a dead rebel haunts the renegade, who uses it from his phone.
    kill(table, rebels[0], lord)
    rebels[0].device.act("haunt", seat=str(renegade.id))
    xuanwu = display.locator(f'.soul-xuanwu[data-soul-owner="{rebels[0].id}"]')
    expect(xuanwu).to_contain_text(words["xuanwu"])
    on_screen(display, ".afterlife")
    screenshot(display, f"afterlife-souls-display-{lang}")
    renegade_phone = phone_of(new_context, locale, renegade)
    renegade_phone.locator(".soul-xuanwu .soul-use button").click()
    expect(xuanwu).to_have_count(0)

    # 祝由: the dead renegade haunts the lord, used in the lord's play phase.
    kill(table, renegade, rebels[1])
    renegade.device.act("haunt", seat=str(lord.id))
    zhuyou = display.locator(f'.soul-zhuyou[data-soul-owner="{renegade.id}"]')
    expect(zhuyou).to_contain_text(words["zhuyou"])
    table.host.act("turnset", seat=str(lord.id), phase="play")
    button = lord_phone.locator(".soul-zhuyou .soul-use button")
    expect(button).to_be_visible()
    show(lord_phone, ".soul-zhuyou")
    screenshot(lord_phone, f"afterlife-souls-zhuyou-{lang}")
    button.click()
    expect(zhuyou).to_have_count(0)
    expect(display.locator(".afterlife")).to_have_count(0)
