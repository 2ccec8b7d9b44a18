"""鬼才's wait in a real browser at 390x844 and 360x640, in both languages: while 鬼才 may
still replace a judgement card, the judged player's pinned button waits for 司马懿 and says so
(no primary "Let it take effect" where Next phase usually is), the server refuses the judged
player's confirm, and only 司马懿's "No, let it take effect" lets the result take effect.

Screenshots go to test-artifacts/big-judge-*.png.
"""

from __future__ import annotations

import urllib.error

import pytest
from playwright.sync_api import Browser, expect

from companion.rules.box import heroes_needed
from companion.rules.heroes import STANDARD_HEROES
from tests.browser import tables
from tests.browser.conftest import AppServer, screenshot
from tests.browser.test_big_tables import PHONE, POOLS, SMALL, in_screen, open_page

pytestmark = [pytest.mark.browser]

SIMA_YI = "WEI002"


def with_sima_yi(base_url: str, names: list[str]) -> tuple[tables.HttpTable, tables.HttpSeat]:
    """A table in play with 司马懿 on a seat. Its box holds just the heroes the deal needs, him
    among them: the lord's offer and the others' candidates then share them all, so he is offered
    to somebody, who takes him."""
    box = [h.id for h in STANDARD_HEROES if h.lord_skill] + [SIMA_YI]
    others_needed = heroes_needed(len(names)) - len(box)
    box += [h.id for h in STANDARD_HEROES if h.id not in box][:others_needed]
    table = tables.seated(base_url, names, box=tables.standard_box(box))
    tables.deal(table)
    table.host.act("start")
    lord = table.seat_by_identity("lord")
    others = [s for s in table.seats if s is not lord]
    sima: tables.HttpSeat | None = None
    for seat in [lord, *others]:
        offer = tables.HERO_RE.findall(seat.device.page())
        assert offer, seat.name
        if SIMA_YI in offer:
            sima = seat
        seat.device.act("pick", hero=SIMA_YI if seat is sima else offer[0])
    assert sima is not None, "司马懿 was offered to nobody"
    return table, sima


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_only_sima_yi_lets_the_judgement_take_effect(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table, sima = with_sima_yi(app_server.base_url, POOLS[lang][:4])
    judged = next(s for s in table.seats if s is not sima)
    # The judged player's judgement phase, 乐不思蜀 in the zone, the card flipped: ♠5.
    table.host.act("turnset", seat=str(judged.id), phase="judgement")
    table.host.act("trick", seat=str(judged.id), name="乐不思蜀")
    judged.device.act("judge", check="indulgence", suit="spade", rank="5", trick="乐不思蜀")
    # The server refuses the judged player's confirm while 鬼才 may act.
    with pytest.raises(urllib.error.HTTPError) as refused:
        judged.device.act("confirm")
    assert refused.value.code == 409
    for size in (PHONE, SMALL):
        where = f"{lang} {size[0]}x{size[1]}"
        page = open_page(browser, app_server, judged.device.url, size, lang)
        expect(page.locator("body.my-turn.my-judged")).to_have_count(1)
        bar = page.locator("#table-state .turn-bar .turn-only")
        wait = bar.locator(".judge-wait")
        expect(wait).to_be_disabled()
        expect(wait).to_contain_text(sima.name)
        expect(wait).to_contain_text("鬼才")
        in_screen(page, "#table-state .turn-bar .judge-wait", where)
        expect(bar.locator(".btn-primary")).to_have_count(0)
        expect(bar.locator("form[hx-post='act/confirm']")).to_have_count(0)
        # 司马懿's question is in the public fragment too, shown on his phone only.
        visible = "#table-state form[hx-post='act/confirm'] button:visible"
        expect(page.locator(visible)).to_have_count(0)
        # The result is on the judged phone's screen too.
        in_screen(page, "#table-state .banner-judge .playing-card", where)
        screenshot(page, f"big-judge-{lang}-{size[0]}-judged")
        if size == SMALL:
            judged_page = page
        else:
            page.context.close()
    sima_page = open_page(browser, app_server, sima.device.url, SMALL, lang)
    # His question and its buttons are in his strip (the sheet keeps the card and the result).
    passing = "#now-strip .now-wait form[hx-post='act/confirm'] button"
    in_screen(sima_page, passing, f"{lang} 司马懿")
    screenshot(sima_page, f"big-judge-{lang}-sima")
    sima_page.locator(passing).click()
    for page in (judged_page, sima_page):
        expect(page.locator("#table-state .banner-judge")).to_have_count(0)
    expect(judged_page.locator("#table-state .turn-bar .judge-wait")).to_have_count(0)
    expect(
        judged_page.locator("#table-state .turn-bar form[hx-post='act/next'] button")
    ).to_be_visible()
    line = judged_page.locator("#table-state > .history .events li").first
    expect(line).to_contain_text("♠5")
