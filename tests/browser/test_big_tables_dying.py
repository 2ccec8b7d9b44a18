"""Dying at a big table (10 players, long names, a 360x640 phone), in a real browser, in both
languages (12, 13 of test_big_tables.py's list): while someone is dying the current player's
buttons wait, with the reason; the dying seat shows 0 HP and the 桃 it needs (1 - HP) on the
phones and the display; a dead seat shows no HP anywhere, and the history never a negative HP.

Screenshots go to test-artifacts/big-*-dying-*.png and big-*-dead-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import tables
from tests.browser.conftest import AppServer, screenshot
from tests.browser.test_big_tables import POOLS, SMALL, WIDEST, in_screen, open_page

pytestmark = [pytest.mark.browser]


def _hp_of(table: tables.HttpTable, seat: tables.HttpSeat) -> tuple[int, int]:
    html = table.host.page()
    found = re.search(
        rf'data-seat="{seat.id}" data-i=.*?<span class="hp-num">(\d+)/(\d+)</span>', html, re.S
    )
    assert found, seat.name
    return int(found.group(1)), int(found.group(2))


NEED = {"zh": "需 {n} 桃", "en": "needs {n} Peach"}
WAIT = {"zh": "濒死", "en": "is dying"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_dying_holds_the_turn_and_shows_the_peaches_needed(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    names = POOLS[lang][:10]
    table = tables.playing(app_server.base_url, names, box=WIDEST)
    lord = table.seat_by_identity("lord")
    victim = next(s for s in table.seats if s is not lord)
    hp, max_hp = _hp_of(table, victim)
    holder = open_page(browser, app_server, lord.device.url, SMALL, lang)
    dying = open_page(browser, app_server, victim.device.url, SMALL, lang)
    display = open_page(browser, app_server, table.display_path, (1280, 800), lang)
    expect(holder.locator("#table-state .turn-bar form[hx-post='act/next'] button")).to_be_visible()
    # Down to HP -1: dying, two 桃 needed.
    while hp > -1:
        blow = min(3, hp + 1)
        table.host.act("hp", seat=str(victim.id), delta=str(-blow), source=str(lord.id))
        hp -= blow
    need = NEED[lang].format(n=1 - hp)
    seat = f"#table-state .ring .seat[data-seat='{victim.id}']"
    for page, where in ((holder, "holder"), (dying, "dying"), (display, "display")):
        expect(page.locator(f"{seat}.dying")).to_have_count(1)
        expect(page.locator(f"{seat} .hp-num")).to_have_text(f"0/{max_hp}")
        expect(page.locator(f"{seat} .peach-need")).to_contain_text(need)
        text = page.locator("#table-state").inner_text()
        assert not re.search(r"[-−]\d+\s*/\s*\d", text), f"{lang} {where}: a negative HP"
    for page in (holder, dying):
        expect(page.locator("#now-strip .now-dying .peach-need")).to_contain_text(need)
    expect(display.locator("#table-state .banner-dying .peach-need")).to_contain_text(need)
    expect(dying.locator("#my-seat #my-hp .hp-big")).to_have_text(f"0/{max_hp}")
    expect(dying.locator("#my-seat #my-hp .peach-need")).to_contain_text(need)
    # The current player's buttons wait, saying why, where Next phase was.
    wait = holder.locator("#table-state .turn-bar .dying-wait")
    expect(wait).to_be_disabled()
    expect(wait).to_contain_text(victim.name)
    expect(wait).to_contain_text(WAIT[lang])
    in_screen(holder, "#table-state .turn-bar .dying-wait", f"{lang} holder")
    expect(holder.locator("#table-state .turn-bar form[hx-post='act/next']")).to_have_count(0)
    expect(holder.locator("#table-state .turn-bar form[hx-post='act/endturn']")).to_have_count(0)
    screenshot(holder, f"big-{lang}-dying-holder")
    screenshot(dying, f"big-{lang}-dying-self")
    screenshot(display, f"big-{lang}-dying-display")
    # The death: no HP for that seat anywhere, the buttons come back.
    table.host.act("die", seat=str(victim.id))
    for page, where in ((holder, "holder"), (dying, "dead"), (display, "display")):
        expect(page.locator(f"{seat}.dead")).to_have_count(1)
        expect(page.locator(f"{seat} .seat-hp")).to_have_count(0)
        expect(page.locator(f"{seat} .peach-need")).to_have_count(0)
        text = page.locator("#table-state").inner_text()
        assert not re.search(r"[-−]\d+\s*/\s*\d", text), f"{lang} {where}: a negative HP"
        assert not re.search(r"(HP|体力) ?[-−]\d", text), f"{lang} {where}: history, HP < 0"
    expect(dying.locator("#my-seat .hp-big")).to_have_count(0)
    expect(holder.locator("#table-state .turn-bar form[hx-post='act/next'] button")).to_be_visible()
    expect(holder.locator("#table-state .turn-bar .dying-wait")).to_have_count(0)
    screenshot(display, f"big-{lang}-dead-display")
    screenshot(dying, f"big-{lang}-dead-self")
