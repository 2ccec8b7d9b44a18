"""A thumb's target on a phone in play (test_tap_targets.py measures them): the names that open
a help entry, drawn a line of words tall, each answers taps a thumb tall (44px): the skills in
its opened hero card (the Chinese name and the English one), the turn bar's skill tags, the
equipment on the seats (inside the seat's button: a tap beside them still opens the seat).
Where they wrap onto a second row, each keeps its own box.

Screenshots: test-artifacts/targets-hero-card-*.png, targets-turn-skills-*.png,
targets-seat-equipment-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from companion.rules.skills import skills_in_phase
from tests.browser import tables
from tests.browser.conftest import AppServer, screenshot
from tests.browser.test_lan_pages import lan_page
from tests.browser.test_tap_targets import at_each_size, live

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_help_names_on_a_phone_in_play_take_a_thumb(
    browser: Browser, app_server: AppServer, lang: str
) -> None:
    table = tables.seated(app_server.base_url, tables.NAMES_EN[:5])
    tables.deal(table)
    table.host.act("start")
    # The lord takes the candidate with the most skills in the play phase (刘备 or 孙权, always
    # offered), the others their first: the turn bar shows his skills by the play phase.
    lord = table.seat_by_identity("lord")
    offered = tables.HERO_RE.findall(lord.device.page())
    hero = max(offered, key=lambda h: len(skills_in_phase(h, "play")))
    assert skills_in_phase(hero, "play"), offered
    lord.device.act("pick", hero=hero)
    for seat in table.seats:
        if seat is not lord:
            seat.device.act("pick", hero=tables.HERO_RE.findall(seat.device.page())[0])
    other = next(s for s in table.seats if s is not lord)
    # Two items on the lord's seat (a second row in English), one on another's (two lines).
    for seat, names in ((lord, ("赤兔", "八卦阵")), (other, ("诸葛连弩",))):
        for name in names:
            table.host.act("equip", seat=str(seat.id), name=name)
    page = lan_page(browser, app_server, lang, [])
    try:
        live(page, lord.device.url)
        # The lord's turn, on to the first phase with a skill of his hero's.
        tags = page.locator("#table-state .turn-bar .skills-now .tag")
        for _step in range(3):
            if tags.count():
                break
            page.locator("#table-state .turn-bar form[hx-post='act/next'] button").click()
            page.wait_for_timeout(300)
        page.locator("#my-seat details.hero-fold > summary").click()
        skills = page.locator("#my-seat .hero-fold .skills [data-help]")
        seats = page.locator("#table-state .ring .seat:has(.equip) .seat-open")
        expect(seats).to_have_count(2)
        small = at_each_size(
            page,
            {
                "hero card's skill": skills,
                "turn bar's skill tag": tags,
                "turn bar's button": page.locator("#table-state .turn-bar .btn"),
                "seat's equipment": page.locator("#table-state .ring .equip .chip"),
                "seat with equipment": seats,
            },
            tall=("hero card's skill", "turn bar's skill tag", "seat's equipment"),
        )
        skills.first.scroll_into_view_if_needed()
        screenshot(page, f"targets-hero-card-{lang}")
        tags.first.scroll_into_view_if_needed()
        screenshot(page, f"targets-turn-skills-{lang}")
        # The lord's seat, in the middle of the screen (the turn's buttons are fixed below).
        page.locator("#table-state .ring .equip").last.evaluate(
            "el => el.scrollIntoView({block: 'center'})"
        )
        screenshot(page, f"targets-seat-equipment-{lang}")
        assert small == []
    finally:
        page.context.close()
