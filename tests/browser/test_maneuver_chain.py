"""军争 in a real browser, at 390×844 in both languages: a 火杀 with 酒 from a 古锭刀
holder on a chained, empty-handed 藤甲 seat, spreading to a chained 白银狮子 seat. The dialog shows
the result in words before anything is applied; every screen shows the chains and the HP; one
undo restores them all."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import tables
from tests.browser.conftest import ContextFactory, screenshot

pytestmark = [pytest.mark.browser]


def hp_of(page: Page, seat: int) -> str:
    return page.locator(f"#table-state .ring > li[data-seat='{seat}'] .hp-num").inner_text()


def ring_seat(page: Page, seat: int):
    return page.locator(f"#table-state .ring > li[data-seat='{seat}']")


def scene(base_url: str, names: list[str]) -> tuple[tables.HttpTable, int, int, int]:
    """Four players, 军争 on: A (the turn, play phase) holds 古锭刀 and drank 酒; B wears 藤甲 at
    6 HP, C wears 白银狮子; B and C are chained."""
    table = tables.seated(base_url, names)
    table.host.act("options", fields="maneuvering", maneuvering="1")
    tables.deal(table, first_game=True)
    table.host.act("start")
    html = table.host.page()
    turn = re.search(r'class="turn-bar" data-turn-seat="(\d+)"', html)
    assert turn
    ids = [s.id for s in table.seats]
    order = [int(x) for x in re.findall(r'<li class="seat[^"]*" data-seat="(\d+)"', html)]
    assert sorted(order) == sorted(ids)
    a = int(turn.group(1))
    b = order[(order.index(a) + 1) % 4]
    c = order[(order.index(a) + 2) % 4]
    host = table.host
    host.act("turnset", seat=str(a), phase="play")
    for seat, card in ((a, "古锭刀"), (b, "藤甲"), (c, "白银狮子")):
        host.act("equip", seat=str(seat), name=card, replace="1")
    host.act("maxhp", seat=str(b), max_hp="6")
    page = host.page()
    now = re.search(rf'data-seat="{b}".*?<span class="hp-num">(\d+)/6</span>', page, flags=re.S)
    assert now
    if int(now.group(1)) != 6:
        host.act("hp", seat=str(b), delta=str(6 - int(now.group(1))))
    for seat in (b, c):
        host.act("chain", seat=str(seat), chained="1")
    source = next(s for s in table.seats if s.id == a)
    source.device.act("wine", seat=str(a))
    return table, a, b, c


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_a_fire_slash_along_a_chain_on_every_screen_and_one_undo(
    new_phone: ContextFactory, display_context: BrowserContext, app_server, locale: str
) -> None:
    english = locale.startswith("en")
    names = (tables.NAMES_EN if english else tables.NAMES_ZH)[:4]
    table, a, b, c = scene(app_server.base_url, names)
    by_id = {s.id: s for s in table.seats}
    lang = "en" if english else "zh"

    screens: list[Page] = []
    for seat in (a, b, c):
        page = new_phone(locale=locale).new_page()
        page.goto(by_id[seat].device.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        screens.append(page)
    display = display_context.new_page()
    display.goto(table.display_path)
    expect(display.locator("#conn")).to_have_attribute("data-state", "open")
    screens.append(display)
    phone = screens[0]

    # Every screen shows the chains (the ring and the strip) and the 酒 on A.
    before = {seat: hp_of(display, seat) for seat in (a, b, c)}
    for screen in screens:
        for seat in (b, c):
            expect(ring_seat(screen, seat).locator(".chain-mark")).to_be_visible()
        expect(screen.locator("#now-strip .now-chain")).to_contain_text(by_id[b].name)
        expect(ring_seat(screen, a).locator(".wine-mark")).to_be_visible()

    # The dialog: the card, then the source, then the result in words; nothing applied yet.
    ring_seat(phone, b).locator(".seat-open").click()
    expect(phone.locator("#dialog .chain-toggle")).to_be_visible()
    screenshot(phone, f"maneuver-seat-dialog-{lang}")
    phone.locator("#dialog .damage-open").click()
    dialog = phone.locator("#dialog .damage-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("button[name=card][value='火杀']").click()
    expect(dialog.locator(".damage-sources")).to_be_visible()
    dialog.locator(f"button[name=source][value='{a}']").click()
    hand = dialog.locator("input[type=checkbox][name=target_hand_empty]")
    expect(hand).to_be_visible()
    expect(dialog.locator("input[name=weapon_skill]")).to_have_count(0)
    hand.check()
    preview = dialog.locator(".damage-preview")
    colon = ": " if english else "："
    expect(preview).to_contain_text("酒 +1")
    expect(preview).to_contain_text(f"藤甲{colon}3 → 4")
    expect(preview).to_contain_text(f"白银狮子{colon}3 → 1")
    expect(preview.locator(".damage-chain")).to_contain_text(by_id[c].name)
    expect(preview.locator(".damage-pause")).to_have_count(0)
    apply = dialog.locator(".damage-apply button")
    apply.scroll_into_view_if_needed()
    expect(apply).to_be_in_viewport()
    screenshot(phone, f"maneuver-damage-preview-{lang}")
    for screen in screens:
        assert hp_of(screen, b) == before[b]
    apply.click()
    expect(phone.locator("#dialog .damage-dialog")).to_have_count(0)

    # One change: every screen shows both HPs and no chain any more.
    b_hp, b_max = (int(x) for x in before[b].split("/"))
    c_hp, c_max = (int(x) for x in before[c].split("/"))
    for screen in screens:
        expect(ring_seat(screen, b).locator(".hp-num")).to_have_text(f"{b_hp - 4}/{b_max}")
        expect(ring_seat(screen, c).locator(".hp-num")).to_have_text(f"{c_hp - 1}/{c_max}")
        for seat in (b, c):
            expect(ring_seat(screen, seat).locator(".chain-mark")).to_have_count(0)
        expect(screen.locator("#now-strip .now-chain")).to_have_count(0)
    # Each damaged phone's own HP tracker moved with the ring.
    expect(screens[1].locator("#my-hp .hp-big")).to_contain_text(str(b_hp - 4))
    expect(screens[2].locator("#my-hp .hp-big")).to_contain_text(str(c_hp - 1))
    screenshot(display, f"maneuver-after-chain-display-{lang}")
    screenshot(screens[1], f"maneuver-after-chain-phone-{lang}")

    # One undo restores them all, on every screen.
    phone.locator("#my-seat form[hx-post='act/undo'] button").click()
    for screen in screens:
        expect(ring_seat(screen, b).locator(".hp-num")).to_have_text(before[b])
        expect(ring_seat(screen, c).locator(".hp-num")).to_have_text(before[c])
        for seat in (b, c):
            expect(ring_seat(screen, seat).locator(".chain-mark")).to_be_visible()
        expect(ring_seat(screen, a).locator(".wine-active")).to_be_visible()
    expect(screens[1].locator("#my-hp .hp-big")).to_contain_text(str(b_hp))
    screenshot(phone, f"maneuver-after-undo-phone-{lang}")
