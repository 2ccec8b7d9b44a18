"""What the table waits on, in a real browser, at 360x640 and 390x844 in both languages: a
judgement the suit decides is 3 taps (the helper, the check, the suit: no rank asked); the
phone the table waits on (司马懿's 鬼才) vibrates and decides from its strip; and the 军争 damage
dialog never applies what it does not show (a slowed preview).

Screenshots for a human go to test-artifacts/wait-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.phone_page import ALERT_STUB, in_viewport
from tests.browser.tables import HttpSeat, deal, kill, pick_heroes, playing, seated
from tests.browser.test_judge_skill_wait import with_sima_yi

pytestmark = [pytest.mark.browser]

SIZES = [(360, 640), (390, 844)]
LANGS = [("zh-CN", "zh"), ("en-US", "en")]


def phone(new_phone: ContextFactory, seat: HttpSeat, locale: str, size: tuple[int, int]) -> Page:
    page = new_phone(locale=locale).new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(seat.device.url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_a_judgement_the_suit_decides_is_three_taps(
    app_server: AppServer, new_phone: ContextFactory, locale: str, lang: str, size: tuple[int, int]
) -> None:
    table = playing(app_server.base_url, ["Ann", "Bo", "Cy", "Dee"], heroes=False)
    lord = table.seat_by_identity("lord")
    page = phone(new_phone, lord, locale, size)
    page.locator("#my-seat button[hx-get^='judge/']").click()  # tap 1: the helper
    form = page.locator("#dialog form.judge-form")
    form.locator("label.check-choice:has(input[value=eight_trigrams])").click()  # tap 2
    expect(form.locator("fieldset.ranks")).to_be_hidden()
    hearts = form.locator(".suit-taps button[value=heart]")
    hearts.scroll_into_view_if_needed()
    screenshot(page, f"wait-judge-suit-{lang}-{size[0]}")
    hearts.click()  # tap 3: the suit shows the result
    expect(page.locator("#dialog form.judge-form")).to_have_count(0)
    line = page.locator("#table-state .events li").first
    expect(line).to_contain_text("♥")
    expect(line).to_contain_text("八卦阵")
    # 闪电 still asks its rank (♠2-9 strikes): the suit alone does not show the result.
    page.locator("#my-seat button[hx-get^='judge/']").click()
    form.locator("label.check-choice:has(input[value=lightning])").click()
    expect(form.locator("fieldset.ranks")).to_be_visible()
    expect(form.locator(".suit-taps")).to_be_hidden()
    form.locator(".rank-asked fieldset.suits label:has(input[value=spade])").click()
    expect(form).to_be_visible()
    form.locator("fieldset.ranks label:has(input[value='5'])").click()
    screenshot(page, f"wait-judge-rank-{lang}-{size[0]}")
    form.locator(".rank-asked button.btn-primary").click()
    expect(page.locator("#dialog form.judge-form")).to_have_count(0)
    expect(page.locator("#table-state .events li").first).to_contain_text("♠5")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_the_damage_dialog_applies_only_the_preview_it_shows(
    app_server: AppServer, new_phone: ContextFactory, locale: str, lang: str, size: tuple[int, int]
) -> None:
    """A slowed preview (the route holds it): while the new choice is worked out, the old
    preview is dimmed and its Apply is off; once the new one is in, Apply applies it."""
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee"])
    table.host.act("options", fields="maneuvering", maneuvering="1")
    deal(table, first_game=True)
    table.host.act("start")
    source, target = table.seats[0], table.seats[1]
    table.host.act("equip", seat=str(source.id), name="古锭刀")
    page = phone(new_phone, source, locale, size)
    held: list[Route] = []

    def hold(route: Route) -> None:
        if "target_hand_empty=1" in route.request.url:
            held.append(route)
        else:
            route.continue_()

    page.route("**/damage/*", hold)
    page.locator(f"#table-state .seat[data-seat='{target.id}']").click()
    page.locator("#dialog .damage-open").click()
    page.locator("#dialog .damage-cards button[value='杀']").click()
    page.locator(f"#dialog .damage-sources button[value='{source.id}']").click()
    preview = page.locator("#dialog .damage-preview")
    expect(preview).to_contain_text("4 → 3")
    apply = page.locator("#dialog form.damage-apply button")
    expect(apply).to_be_enabled()
    page.locator("#dialog input[name=target_hand_empty]").check()
    pick = page.locator("#dialog form.damage-pick")
    expect(pick).to_have_class(re.compile(r"\bhtmx-request\b"))  # dimmed (app.css)
    expect(apply).to_be_disabled()
    for _ in range(200):  # the route handler runs when Playwright dispatches its events
        if held:
            break
        page.wait_for_timeout(25)
    assert len(held) == 1
    screenshot(page, f"wait-damage-stale-{lang}-{size[0]}")
    apply.click(force=True)  # a tap on the stale Apply does nothing
    held[0].continue_()
    expect(page.locator("#dialog form.damage-pick")).not_to_have_class(
        re.compile(r"\bhtmx-request\b")
    )
    expect(page.locator("#dialog .damage-preview")).to_contain_text("4 → 2")
    hp = page.locator(f"#table-state .seat[data-seat='{target.id}'] .hp-num")
    expect(hp).to_have_text("4/4")
    screenshot(page, f"wait-damage-fresh-{lang}-{size[0]}")
    page.locator("#dialog form.damage-apply button").click()
    expect(hp).to_have_text("2/4")


@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_sima_yi_s_phone_is_told_and_decides_from_its_strip(
    app_server: AppServer, new_phone: ContextFactory, locale: str, lang: str
) -> None:
    """The table waits on 司马懿 (鬼才): his phone vibrates once, its strip asks the question
    with the buttons, on the first screen at 360x640 and 390x844 whatever the scroll, and the
    strip's pass lets the result take effect."""
    names = ["Ann", "Bo", "Cy", "Dee"]
    table, sima = with_sima_yi(app_server.base_url, names)
    judged = next(s for s in table.seats if s is not sima)
    context = new_phone(locale=locale)
    context.add_init_script(ALERT_STUB)
    page = context.new_page()
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(sima.device.url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    expect(page.locator("#now-strip .now-wait")).to_have_count(0)
    table.host.act("turnset", seat=str(judged.id), phase="judgement")
    table.host.act("trick", seat=str(judged.id), name="乐不思蜀")
    judged.device.act("judge", check="indulgence", suit="spade", rank="", trick="乐不思蜀")
    wait = page.locator("#now-strip .now-wait")
    expect(wait).to_have_count(1)
    expect(wait.locator(".guicai-ask-title")).to_contain_text("鬼才")
    assert page.evaluate("() => window.__vibrations.length") == 1
    passing = "#now-strip .now-wait form[hx-post='act/confirm'] button"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        in_viewport(page, passing)
        in_viewport(page, "#now-strip .now-wait button[hx-get='replace']")
        screenshot(page, f"wait-guicai-{lang}-{width}")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        in_viewport(page, passing)
    # A re-render of the strip (the next change) does not alert again.
    assert page.evaluate("() => window.__vibrations.length") == 1
    page.locator(passing).click()
    expect(page.locator("#table-state .banner-judge")).to_have_count(0)
    expect(page.locator("#now-strip .now-wait")).to_have_count(0)
    expect(page.locator("#table-state .events li").first).to_contain_text("♠")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_the_damage_dialog_says_luohan_prevents_before_it_lands(
    app_server: AppServer, new_phone: ContextFactory, locale: str, lang: str, size: tuple[int, int]
) -> None:
    """docs/rules.md §9.2: the haunted player's damage dialog says, before anything is applied, that
    罗汉 prevents 1 point before it lands; a damage of 1 then changes no HP."""
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"])
    table.host.act("options", fields="dark_souls", dark_souls="1")
    deal(table)
    pick_heroes(table)
    loyalist, rebel = table.seat_by_identity("loyalist"), table.seat_by_identity("rebel")
    kill(table, loyalist, rebel)
    loyalist.device.act("haunt", seat=str(rebel.id))
    page = phone(new_phone, rebel, locale, size)
    hp = page.locator(f"#table-state .seat[data-seat='{rebel.id}'] .hp-num")
    before = hp.inner_text()
    page.locator(f".ring > li[data-seat='{rebel.id}'] .seat-open").click()
    note = page.locator("#dialog .luohan-note")
    expect(note).to_contain_text(loyalist.name)
    expect(note).to_contain_text("伤害生效前" if lang == "zh" else "before it lands")
    note.scroll_into_view_if_needed()
    screenshot(page, f"wait-luohan-dialog-{lang}-{size[0]}")
    page.locator("#dialog .damage-form button[name=source][value='']").click()
    line = page.locator("#table-state .events li").first
    expect(line).to_contain_text(loyalist.name)
    expect(line).to_contain_text("罗汉")
    expect(hp).to_have_text(before)


@pytest.mark.parametrize(("locale", "lang"), LANGS)
def test_the_protected_player_tells_a_dodged_slash_and_may_strike_back(
    app_server: AppServer, new_phone: ContextFactory, locale: str, lang: str
) -> None:
    """docs/rules.md §9.3: a dodged 杀 is an attack all the same: from his phone the protected first out
    says who played it, and that player is one he may strike back at."""
    table = seated(app_server.base_url, ["Ann", "Bo", "Cy", "Dee", "Eve"])
    table.host.act("options", fields="first_out_protection", first_out_protection="1")
    deal(table)
    pick_heroes(table)
    first = next(s for s in table.seats if s.identity == "rebel")
    other_rebel = next(s for s in table.seats if s.identity == "rebel" and s is not first)
    kill(table, first, None)
    kill(table, table.seat_by_identity("lord"), other_rebel)
    deal(table)  # the session's next game: the first out of the last one is protected
    pick_heroes(table)
    attacker = next(s for s in table.seats if s is not first)
    page = phone(new_phone, first, locale, (360, 640))
    box = page.locator("#my-seat .protect-me details.dodged-from")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        box.locator("summary").click()
        expect(box.locator(f"form.dodged:has(input[value='{attacker.id}']) button")).to_be_visible()
        box.scroll_into_view_if_needed()
        screenshot(page, f"wait-dodged-{lang}-{width}")
        box.locator("summary").click()
    box.locator("summary").click()
    box.locator(f"form.dodged:has(input[value='{attacker.id}']) button").click()
    strike = page.locator(f"#my-seat .protect-me form.strike:has(input[value='{attacker.id}'])")
    expect(strike).to_contain_text(attacker.name)
    expect(page.locator("#table-state .events li").first).to_contain_text(attacker.name)
