"""A whole 1 vs 1 game on two phones (390×844) and the table display (1280×800), in both
languages: the table created with the mode from the start page, the draft and the
order by real taps on both phones, the heroes brought down by HTTP taps, to a winner and into
the session's standings. The display and the other phone never show a face-down hero nor a
player's order beyond the heroes revealed. Screenshots: test-artifacts/duel-*-{zh,en}.png."""

from __future__ import annotations

import re
import urllib.parse

import pytest
from playwright.sync_api import Page, expect

from companion.rules.heroes import STANDARD_HEROES
from tests.browser import tables
from tests.browser.conftest import AppServer, ContextFactory, screenshot
from tests.browser.game_steps import place_heroes
from tests.browser.tables import NAMES_EN, NAMES_ZH, Device, HttpTable, deal, join

pytestmark = [pytest.mark.browser]

ZHOU_YU = "WU005"

# The draft's steps, 1-2-2-2-2-1, the lord side first.
SIDES = ["lord", "renegade", "renegade", "lord", "lord", "renegade", "renegade", "lord", "lord"]
SIDES.append("renegade")

WORDS = {
    "zh": {
        "draw_one": "摸 1 张牌。",
        "fewer": "少摸一张：先行一方的第一个摸牌阶段。",
        "to_come": "还有 2 名武将待上场",
        "one_to_come": "还有 1 名武将待上场",
        "in": "登场：弃置其所有牌并摸四张牌",
        "wins": "{name}获胜",
    },
    "en": {
        "draw_one": "Draw 1 card.",
        "fewer": "One card fewer: the side that moves first, in its first draw phase.",
        "to_come": "2 heroes to come",
        "one_to_come": "1 hero to come",
        "in": "comes in: discard its cards and draw 4",
        "wins": "{name} wins",
    },
}


# A player's name as a page may hold it: the history links the names of heroes in it, tags
# between its characters (欧阳诸葛<span data-help="hero:WEI002">司马懿</span>仲).
PLAYER_NAMES = re.compile(
    "|".join("(?:<[^>]*>)*".join(re.escape(c) for c in name) for name in NAMES_ZH)
)


def _secret_absent(pages: list[Page], secret: str, where: str) -> None:
    """The hero's name is nowhere on these pages, but inside a player's name (欧阳诸葛司马懿仲
    holds 司马懿: which hero is drawn face down is left to chance)."""
    for page in pages:
        assert secret not in PLAYER_NAMES.sub("", page.content()), (where, page.url)


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("en-US", "en")])
def test_a_duel_on_two_phones_to_a_winner_and_the_standings(
    app_server: AppServer, new_context: ContextFactory, locale: str, lang: str
) -> None:
    words = WORDS[lang]
    base = app_server.base_url
    display = new_context(kind="display", locale=locale).new_page()
    # Creating a table offers the mode.
    display.goto("/")
    display.locator("input[name='mode'][value='duel']").check()
    display.locator("form[action='/new/'] button").click()
    expect(display).to_have_url(re.compile(r"/h/[A-Za-z0-9_-]{22,}/$"))
    code = re.search(r'data-code="([A-Z0-9]+)"', display.content())
    assert code
    host = Device(base)
    host.url = urllib.parse.urlsplit(display.url).path
    table = HttpTable(base, host, code.group(1))
    # The draft draws from the box without 周瑜, whose 英姿 draws one card more: the first draw
    # phase draws 1 card whichever heroes come.
    tables.import_box(
        table, tables.standard_box([h.id for h in STANDARD_HEROES if h.id != ZHOU_YU])
    )
    for name in (NAMES_ZH if lang == "zh" else NAMES_EN)[:2]:
        join(table, name)
    deal(table)  # the lord and renegade cards decide the sides
    assert sorted(s.identity for s in table.seats) == ["lord", "renegade"]
    table.host.act("start")
    display.goto(table.display_path)
    seats = {s.identity: s for s in table.seats}
    phones: dict[str, Page] = {}
    for side, seat in seats.items():
        phones[side] = new_context(kind="phone", locale=locale).new_page()
        phones[side].goto(seat.device.url)
    lord, renegade = phones["lord"], phones["renegade"]

    # The draft, by taps on both phones; each side's first pick is a face-down hero.
    taken = display.locator("#mode-board .pool-card.taken")
    expect(display.locator("#mode-board .pool-card")).to_have_count(10)
    expect(display.locator("#mode-board .pool-card.face-down")).to_have_count(4)
    hidden: dict[str, str] = {}
    for i, side in enumerate(SIDES):
        page = phones[side]
        choices = page.locator("#mode-controls .hero-choices form.choice")
        expect(choices).to_have_count(10 - i)
        if i < 2:
            down = display.locator("#mode-board .pool-card.face-down:not(.taken)").first
            position = down.get_attribute("data-position")
            choices.filter(has=page.locator(f"input[value='{position}']")).locator("button").click()
        else:
            if i == 2:
                page.locator("#mode-controls form.choice-down").first.scroll_into_view_if_needed()
                screenshot(page, f"duel-pick-phone-{lang}")
            choices.first.locator("button").click()
        expect(taken).to_have_count(i + 1)
        if i < 2:
            held = page.locator("#mode-controls p.held .hero-name [lang='zh-CN']")
            expect(held).to_have_count(1)
            hidden[side] = held.inner_text()
            other = renegade if side == "lord" else lord
            _secret_absent([display, other], hidden[side], f"face-down pick {i}")
        if i == 1:
            screenshot(display, f"duel-draft-display-{lang}")
            screenshot(lord, f"duel-draft-phone-{lang}")
    # The order: the lord keeps his face-down hero for second; the renegade plays his first.
    form = lord.locator("form.placement")
    expect(form).to_be_visible()
    cards = form.locator(".place-card")
    expect(cards).to_have_count(5)
    texts = [cards.nth(k).locator("summary").inner_text() for k in range(5)]
    secret = next(k for k, t in enumerate(texts) if hidden["lord"] in t)
    rest = [k for k in range(5) if k != secret]
    place_heroes(lord, [rest[0], secret, rest[1]])
    form.locator(".place-confirm").click()
    expect(form).to_have_count(0)
    expect(lord.locator("#mode-controls")).to_contain_text(hidden["lord"])
    screenshot(lord, f"duel-order-phone-{lang}")
    _secret_absent([display, renegade], hidden["lord"], "the lord's order")
    place_heroes(renegade)
    renegade.locator("form.placement .place-confirm").click()

    # Both first heroes revealed together; the display: each order's heroes so far.
    lines = display.locator("#mode-board .duel-order")
    expect(lines).to_have_count(2)
    expect(lines.first).to_contain_text(words["to_come"])
    expect(lines.last).to_contain_text(words["to_come"])
    expect(lord.locator(".my-order .order-to_come")).to_have_count(2)
    expect(lord.locator(".my-order")).to_contain_text(hidden["lord"])
    _secret_absent([display, renegade], hidden["lord"], "revealed")
    assert hidden["renegade"] in display.content(), "his face-down first hero is in play"

    # The renegade side moves first and draws one card fewer.
    bar = renegade.locator(".turn-bar")
    expect(bar).to_be_visible()
    # The reminder in the strip at the top of the phone, from the start of his first turn.
    strip = renegade.locator("#now-strip .now-draw-change")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text(words["fewer"])
    for _phase in range(2):  # start → judgement → draw
        note = bar.locator(".phase-note").inner_text()
        bar.locator("form[hx-post='act/next'] button").click()
        expect(bar.locator(".phase-note")).not_to_have_text(note)
    expect(bar.locator(".phase-note")).to_contain_text(words["draw_one"])
    expect(bar.locator(".phase-note .draw-change")).to_have_text(words["fewer"])
    expect(strip).to_contain_text(words["draw_one"])
    screenshot(renegade, f"duel-first-draw-phone-{lang}")

    # The lord's first hero falls: the face-down second comes in, with the reminder.
    renegade.locator(".turn-bar form[hx-post='act/next'] button").click()  # to the play phase
    expect(strip).to_have_count(0)
    tables.kill(table, seats["lord"], seats["renegade"])
    expect(lord.locator(".my-order .order-fell")).to_have_count(1)
    expect(lord.locator(".my-order .order-in_play")).to_contain_text(hidden["lord"])
    lord_line = display.locator(f"#mode-board .duel-order[data-seat='{seats['lord'].id}']")
    expect(lord_line).to_contain_text(hidden["lord"])
    expect(lord_line).to_contain_text(words["one_to_come"])
    expect(display.locator("body")).to_contain_text(words["in"])
    expect(lord.locator("body")).to_contain_text(words["in"])
    screenshot(lord, f"duel-next-hero-phone-{lang}")
    screenshot(display, f"duel-next-hero-display-{lang}")

    # Two more falls: the lord's third hero dies and the renegade wins.
    tables.kill(table, seats["lord"], seats["renegade"])
    tables.kill(table, seats["lord"], seats["renegade"])
    winner = words["wins"].format(name=seats["renegade"].name)
    expect(display.locator(".result h2.winner")).to_have_text(winner)
    expect(lord.locator(".result h2.winner")).to_have_text(winner)
    standings = display.locator("#session-panel .standings")
    expect(standings.locator(f"tr[data-seat='{seats['renegade'].id}'] .wins .num")).to_have_text(
        "1"
    )
    expect(standings.locator(f"tr[data-seat='{seats['lord'].id}'] .wins .num")).to_have_text("0")
    screenshot(display, f"duel-end-display-{lang}")
    screenshot(renegade, f"duel-end-phone-{lang}")
