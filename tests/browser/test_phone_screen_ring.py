"""The phone page at 390x844: the first screen (identity, HP, the
moment's actions; the hero card folded away; a dead player's page) and the seats as a ring seen
from one's own seat.

Tables are set up by plain requests where only a seat is needed; screenshots for a human go to
test-artifacts/phone-*.png.
"""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import ARTIFACTS, ContextFactory, screenshot
from tests.browser.phone_page import (
    VIEWPORT,
    bring_down,
    in_viewport,
    lord_seat,
    not_scrolled,
    phone_table,
)

pytestmark = [pytest.mark.browser]

BOXES_JS = """() => Array.from(document.querySelectorAll('#table-state .ring > .seat')).map(s => {
    const r = s.getBoundingClientRect();
    return {id: s.getAttribute('data-seat'), x: r.x, y: r.y + window.scrollY, w: r.width,
            h: r.height, me: s.classList.contains('me')};
})"""


# ---------------------------------------------------------------------------------------------
# 3. The first screen


FIRST_SCREEN = [
    "#now-strip",
    "#my-seat .identity-card",
    "#my-seat .hp-minus",
    "#my-seat .hp-plus",
    "#my-seat .hp-big",
    "#my-seat button[hx-get^='equip/']",
    "#my-seat button[hx-get^='judge/']",
    "#my-seat form[hx-post='act/undo'] button",
]


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_first_screen_holds_what_a_player_uses_every_turn(
    display_context: BrowserContext, new_phone: ContextFactory, locale: str
) -> None:
    table = phone_table(display_context, new_phone, 5, locales={i: locale for i in range(5)})
    lord = lord_seat(table)
    order = table.order()
    lang = "zh" if locale == "zh-CN" else "en"
    for who, seat in (("lord", lord), ("other", order[(order.index(lord) + 1) % 5])):
        page = table.by_seat(seat).open()
        not_scrolled(page)
        for selector in FIRST_SCREEN:
            in_viewport(page, selector)
        if who == "lord":
            # The current player's Next phase is on the first screen too.
            in_viewport(page, "#table-state .turn-bar form[hx-post='act/next'] button")
        assert page.evaluate("() => window.scrollY") == 0
        screenshot(page, f"phone-{lang}-first-screen-{who}")
    # No hero in first-game mode: a game with heroes shows the fold (checked below).


def test_the_hero_card_folds_away_in_play(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 4, play=False)
    host = table.host
    host.locator("#host-panel form[hx-post='act/deal'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "heroes")
    pages = [p.open() for p in table.phones]
    # The lord picks first, then the others; each takes its first candidate.
    lord = table.by_seat(lord_seat(table)).open()
    lord.locator("#my-seat .hero-choices .choice button").first.click()
    others = [p for p in pages if p is not lord]
    for i, page in enumerate(others):
        page.locator("#my-seat .hero-choices .choice button").first.click()
        if i < len(others) - 1:
            expect(page.locator("#my-seat .hero-choices .choice.picked")).to_have_count(1)
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    for page in pages:
        fold = page.locator("#my-seat details.hero-fold")
        expect(fold).to_have_count(1)
        expect(fold).not_to_have_attribute("open", "")
        expect(fold.locator(".hero-card")).to_be_hidden()
        expect(fold.locator("summary .hero-name")).to_be_visible()
        not_scrolled(page)
        for selector in FIRST_SCREEN:
            in_viewport(page, selector)
    page = pages[0]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#my-seat").screenshot(path=str(ARTIFACTS / "phone-zh-hero-folded.png"))
    page.locator("#my-seat details.hero-fold > summary").click()
    expect(page.locator("#my-seat .hero-fold .hero-card")).to_be_visible()
    expect(page.locator("#my-seat .hero-fold .take-hero")).to_be_visible()
    page.locator("#my-seat").screenshot(path=str(ARTIFACTS / "phone-zh-hero-open.png"))
    # Opened, it stays open when the seat's part is sent again (here: the whole state, which
    # a phone asks for when it wakes up).
    before = page.locator("#my-seat").evaluate("el => { el.dataset.old = '1'; return 1; }")
    assert before == 1
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#my-seat[data-old]")).to_have_count(0)
    expect(page.locator("#my-seat .hero-fold .hero-card")).to_be_visible()


def test_a_dead_players_page_shows_what_is_left_to_do(
    display_context: BrowserContext, new_phone: ContextFactory
) -> None:
    table = phone_table(display_context, new_phone, 5)
    lord = lord_seat(table)
    order = table.order()
    dead = table.by_seat(order[(order.index(lord) + 1) % 5])
    page = dead.open()
    bring_down(table, dead.seat)
    page.once("dialog", lambda d: d.accept())
    page.locator("#my-seat .dying-panel form[hx-post='act/die'] button").click()
    expect(page.locator("#my-seat .dead-mark")).to_be_visible()
    # No HP tracker, no HP or equipment buttons; the identity (public now) and the watch link.
    expect(page.locator("#my-seat .hp-tracker")).to_be_hidden()
    expect(page.locator("#my-seat .hp-btn")).to_have_count(0)
    expect(page.locator("#my-seat button[hx-get^='equip/']")).to_have_count(0)
    not_scrolled(page)
    in_viewport(page, "#my-seat .identity-card.open")
    in_viewport(page, "#my-seat .dead-watch a[href='#table-state']")
    in_viewport(page, "#now-strip")
    screenshot(page, "phone-zh-dead")
    page.locator("#my-seat .dead-watch a").click()
    assert page.evaluate("() => window.scrollY") > 100


# ---------------------------------------------------------------------------------------------
# 4. The ring


def _angle(box: dict[str, float], cx: float, cy: float) -> float:
    """Counterclockwise on the screen from the bottom, in degrees [0, 360)."""
    x = box["x"] + box["w"] / 2 - cx
    y = box["y"] + box["h"] / 2 - cy
    return (90 - math.degrees(math.atan2(y, x))) % 360


@pytest.mark.parametrize("count", [4, 7, 10])
def test_the_ring_shows_the_seats_in_play_order_from_my_seat(
    display_context: BrowserContext, new_phone: ContextFactory, count: int
) -> None:
    locales = {2: "en-US"} if count == 10 else None
    table = phone_table(display_context, new_phone, count, locales=locales)
    order = table.order()
    if count == 10:
        # A dying seat (its mark makes the card taller) among them.
        lord = lord_seat(table)
        bring_down(table, order[(order.index(lord) + 4) % count])
    for me in (table.phones[2], table.phones[-1]):
        page = me.open()
        page.locator("#table-state .ring").evaluate("el => el.scrollIntoView({block: 'center'})")
        boxes = page.evaluate(BOXES_JS)
        assert [b["id"] for b in boxes] == order
        # No two seats overlap, all fit the screen's width, each a large target.
        for i, a in enumerate(boxes):
            assert a["x"] >= 0 and a["x"] + a["w"] <= VIEWPORT["width"], a
            assert a["w"] >= 100 and a["h"] >= 56, a
            for b in boxes[i + 1 :]:
                apart = (
                    a["x"] + a["w"] <= b["x"] + 0.5
                    or b["x"] + b["w"] <= a["x"] + 0.5
                    or a["y"] + a["h"] <= b["y"] + 0.5
                    or b["y"] + b["h"] <= a["y"] + 0.5
                )
                assert apart, (count, a, b)
        # My seat at the bottom, in the middle; going counterclockwise from it (the next seat
        # at the bottom right), the seats come in play order.
        mine = next(b for b in boxes if b["me"])
        assert mine["id"] == me.seat
        assert all(mine["y"] >= b["y"] + b["h"] - 0.5 for b in boxes if b is not mine)
        left = min(b["x"] for b in boxes)
        right = max(b["x"] + b["w"] for b in boxes)
        top = min(b["y"] for b in boxes)
        bottom = max(b["y"] + b["h"] for b in boxes)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        assert abs(mine["x"] + mine["w"] / 2 - cx) < 2
        around = sorted(boxes, key=lambda b: _angle(b, cx, cy))
        start = order.index(me.seat)
        assert [b["id"] for b in around] == [order[(start + k) % count] for k in range(count)]
        angles = [_angle(b, cx, cy) for b in around]
        assert len(set(round(a, 3) for a in angles)) == count, angles
        # Next seat to the right of mine, the previous one to the left.
        nxt = next(b for b in boxes if b["id"] == order[(start + 1) % count])
        prev = next(b for b in boxes if b["id"] == order[(start - 1) % count])
        assert nxt["x"] > mine["x"] and prev["x"] < mine["x"]
        # Each seat still opens its dialog.
        page.locator(f"#table-state .seat[data-seat='{nxt['id']}'] .seat-open").click()
        expect(page.locator("#dialog .dialog")).to_have_count(1)
        page.locator("#dialog [data-close-dialog]").first.click()
        expect(page.locator("#dialog .dialog")).to_have_count(0)
        lang = "en" if me is table.phones[2] and count == 10 else "zh"
        ARTIFACTS.mkdir(exist_ok=True)
        name = f"phone-{lang}-ring-{count}-seat{table.phones.index(me)}.png"
        page.locator("#table-state .ring").screenshot(path=str(ARTIFACTS / name))
