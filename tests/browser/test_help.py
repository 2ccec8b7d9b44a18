"""The rules help in a real browser, phones at 390x844 in both languages: a card's
entry opened and closed from the ring's equipment, the history, the HP dialog, 军争's damage
dialog and the judgement helper without losing what was chosen in the dialog; the identity tips
shown with the peeked identity; the phase hint of a first game switched off; the help page's
search; the first-game path for 5 players to the first turn (and its first step on the display).
Screenshots: test-artifacts/help-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.phone_page import phone_table

pytestmark = [pytest.mark.browser]

LOCALES = {"en": "en-US", "zh": "zh-CN"}


def pop_opens(page: Page, title: str) -> None:
    pop = page.locator("#help-pop")
    expect(pop).to_be_visible()
    expect(pop.locator(".help-title")).to_contain_text(title)


def pop_closes(page: Page) -> None:
    page.locator("#help-pop [data-help-close]").click()
    expect(page.locator("#help-pop")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_entry_opens_in_place_from_the_equipment_and_the_damage_dialog(
    display_context, new_phone: ContextFactory, lang: str
) -> None:
    locale = LOCALES[lang]
    table = phone_table(
        display_context, new_phone, 4, maneuvering=True, locales=dict.fromkeys(range(4), locale)
    )
    phone = next(p for p in table.phones if p.seat != _lord(table))
    page = phone.open()
    expect(page.locator("html")).to_have_attribute("data-lang", "en" if lang == "en" else "zh-hans")

    # The identity tips come with the peeked identity, and go with it.
    tips = page.locator("#my-seat .role-tips")
    expect(tips).to_be_hidden()
    page.locator("#my-seat [data-peek]").click()
    expect(tips).to_be_visible()
    expect(tips.locator(".role-goal")).not_to_be_empty()
    screenshot(page, f"help-{lang}-role-tips")
    expect(tips).to_be_hidden(timeout=6000)

    # The phase hint of a first game, under the strip; switched off on this phone.
    hint = page.locator("#now-strip .phase-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Start" if lang == "en" else "回合开始")

    # Equip the Eight Diagram from the phone's own equipment dialog.
    page.locator("#my-seat button[hx-get^='equip/']").click()
    page.locator("#dialog form[hx-post='act/equip']:has(input[value='八卦阵']) button").click()
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)
    chip = page.locator(
        f"#table-state .seat[data-seat='{phone.seat}'] .chip[data-help='card:八卦阵']"
    )
    expect(chip).to_be_visible()

    # From the ring: one tap opens the entry in place, one tap closes it; no seat dialog.
    chip.click()
    pop_opens(page, "八卦阵")
    if lang == "en":
        expect(page.locator("#help-pop")).to_contain_text("Eight Diagram")
        expect(page.locator("#help-pop")).to_contain_text("red counts as a Dodge")
    else:
        expect(page.locator("#help-pop")).to_contain_text("红色则视为你使用或打出了一张闪")
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)
    pop_closes(page)
    # From the table's history: the line that says it was equipped names it, one tap away.
    line = page.locator("#table-state .history .events [data-help='card:八卦阵']").first
    line.click()
    pop_opens(page, "八卦阵")
    pop_closes(page)

    # From the damage dialog: what was chosen there stays chosen.
    page.locator("#my-hp .hp-minus").click()
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    dialog.locator("label", has=page.locator("input[name=delta][value='-2']")).click()
    expect(dialog.locator("input[name=delta][value='-2']")).to_be_checked()
    max_hp = dialog.locator("input[name=max_hp]")
    max_hp.fill("6")
    dialog.locator(".chip[data-help='card:八卦阵']").click()
    pop_opens(page, "八卦阵")
    screenshot(page, f"help-{lang}-entry-over-damage-dialog")
    # A tap on the backdrop closes it too.
    page.mouse.click(5, 5)
    expect(page.locator("#help-pop")).to_be_hidden()
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=delta][value='-2']")).to_be_checked()
    expect(max_hp).to_have_value("6")
    # 军争's damage dialog: the card and the source chosen there stay chosen under the entry.
    dialog.locator(".damage-open").click()
    damage = page.locator("#dialog .damage-dialog")
    expect(damage).to_be_visible()
    damage.locator("button[name=card][value='火杀']").click()
    lord = _lord(table)
    damage.locator(f"button[name=source][value='{lord}']").click()
    expect(damage.locator(".damage-preview")).to_be_visible()
    damage.locator(".damage-card[data-help='card:火杀']").click()
    pop_opens(page, "火杀")
    expect(page.locator("#help-pop")).to_contain_text("Dodge" if lang == "en" else "闪")
    screenshot(page, f"help-{lang}-entry-over-maneuver-damage")
    pop_closes(page)
    expect(damage.locator(".damage-card")).to_contain_text("火杀")
    expect(damage.locator(".damage-source")).to_be_visible()
    expect(damage.locator(".damage-preview")).to_be_visible()
    expect(damage.locator(".damage-apply button")).to_be_visible()
    # A delayed trick in the ring (the host places it): the same one tap.
    damage.locator("[data-close-dialog]").first.click()
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)
    host = table.host
    host.locator(f"#table-state .seat[data-seat='{phone.seat}'] .seat-open").click()
    host.locator("#dialog form[hx-post='act/trick']:has(input[value='闪电']) button").click()
    expect(host.locator("#dialog [role=dialog]")).to_have_count(0)
    zone = page.locator(
        f"#table-state .seat[data-seat='{phone.seat}'] .chip[data-help='card:闪电']"
    )
    zone.click()
    pop_opens(page, "闪电")
    expect(page.locator("#help-pop")).to_contain_text("♠A")
    pop_closes(page)

    # The judgement helper: a first tap on a judgement's name chooses it (no entry opens: the
    # modal entry would stop the suit's tap below); a tap on the chosen name opens its entry,
    # and what was chosen stays chosen.
    page.locator("#my-seat button[hx-get^='judge/']").click()
    judge = page.locator("#dialog .judge-form")
    # 闪电: its rank is asked, so the suit's tap chooses it and the dialog stays.
    eight = judge.locator("input[name=check][value=lightning]")
    name = judge.locator(".check-choice:has(input[value=lightning]) [data-help='card:闪电']")
    name.click()
    expect(eight).to_be_checked()
    judge.locator(".rank-asked .suits label:has(input[value=heart])").click()
    expect(page.locator("#help-pop")).to_be_hidden()
    name.click()
    pop_opens(page, "闪电")
    screenshot(page, f"help-{lang}-entry-over-judge-dialog")
    pop_closes(page)
    expect(eight).to_be_checked()
    expect(judge.locator("input[name=suit][value=heart]")).to_be_checked()
    page.locator("#dialog [data-close-dialog]").first.click()
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)

    hint.locator("[data-phase-hint-off]").click()
    expect(hint).to_be_hidden()
    page.reload()
    expect(page.locator("#now-strip .phase-hint")).to_be_hidden()
    # The lord's identity is public: a tap on it shows his goal and tips, another hides them.
    lord = next(p for p in table.phones if p.seat == _lord(table)).open()
    lord_tips = lord.locator("#my-seat .role-tips")
    expect(lord_tips).to_be_hidden()
    lord.locator("#my-seat [data-role-toggle]").click()
    expect(lord_tips.locator(".role-goal")).to_be_visible()
    lord.locator("#my-seat [data-role-toggle]").click()
    expect(lord_tips).to_be_hidden()
    # And on again from the help page.
    help_page = page.context.new_page()
    help_page.goto("/help/")
    help_page.locator("[data-phase-hint-on]").click()
    help_page.close()
    page.reload()
    expect(page.locator("#now-strip .phase-hint")).to_be_visible()


def _lord(table) -> str:
    return table.host.locator("#table-state .seat.is-lord").get_attribute("data-seat") or ""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_page_and_its_search(new_phone: ContextFactory, lang: str) -> None:
    page = new_phone(locale=LOCALES[lang]).new_page()
    page.goto("/")
    page.locator("a[href='/help/']").last.click()
    expect(page).to_have_url(re.compile(r"/help/$"))
    expect(page.locator("[data-entry='faq:priority']")).to_have_count(1)
    screenshot(page, f"help-{lang}-page")
    search = page.locator("#help-q")
    for query, first in (("bagua", "card:八卦阵"), ("sha", "card:杀"), ("guicai", "skill:guicai")):
        search.fill(query)
        expect(page.locator("#help-results [data-entry]").first).to_have_attribute(
            "data-entry", first
        )
    search.fill("bagua")
    expect(page.locator("#help-results [data-entry]").first).to_have_attribute(
        "data-entry", "card:八卦阵"
    )
    screenshot(page, f"help-{lang}-search")
    # A hero's skills open in place from its entry.
    search.fill("caocao")
    expect(page.locator("#help-results [data-entry]").first).to_have_attribute(
        "data-entry", "hero:WEI001"
    )
    page.locator("#help-results [data-entry='hero:WEI001'] [data-help='skill:hujia']").click()
    pop_opens(page, "护驾")
    expect(page.locator("#help-pop")).to_contain_text(
        "only while this hero is the lord" if lang == "en" else "身为主公时"
    )
    pop_closes(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_game_path_for_five_players(
    new_phone: ContextFactory, new_context: ContextFactory, lang: str
) -> None:
    page = new_phone(locale=LOCALES[lang]).new_page()
    page.goto("/")
    page.locator(".fg-start").click()
    screenshot(page, f"help-{lang}-first-game-count")
    page.locator("a[data-players='5']").click()
    expected = ["反贼", "", "主公", "杀"]
    for step in range(4):
        card = page.locator(".first-game")
        expect(card).to_have_attribute("data-step", str(step))
        expect(page.locator(".fg-dots li.on")).to_have_text(str(step + 1))
        expect(card.locator(".fg-checklist li").first).to_be_visible()
        if expected[step]:
            expect(card.locator(".fg-cards").first).to_contain_text(expected[step])
        if step == 0:
            expect(card).to_contain_text("26")
            assert card.locator(".fg-picture").nth(1).locator(".fg-card").count() == 14
            assert card.locator(".fg-picture").nth(2).locator(".fg-card").count() == 26
            card.locator(".fg-checklist input").first.check()
        screenshot(page, f"help-{lang}-first-game-step{step + 1}", full_page=True)
        if step < 3:
            page.locator(".fg-next").click()
    expect(page.locator(".fg-done")).to_be_visible()
    expect(page.locator(".first-game")).to_contain_text("End turn" if lang == "en" else "结束回合")
    # The same path on the table's display (1280x800): the box step, its checklist and cards.
    display = new_context(kind="display", locale=LOCALES[lang]).new_page()
    display.goto(page.url.split("?")[0] + "?n=5&step=0")
    expect(display.locator(".first-game")).to_have_attribute("data-step", "0")
    expect(display.locator(".fg-checklist li")).to_have_count(5)
    screenshot(display, f"help-{lang}-first-game-display-step1", full_page=True)
