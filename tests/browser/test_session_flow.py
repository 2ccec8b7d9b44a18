"""A scoring session in a real browser: two first-game-mode games at a 4-player table, each ended
from the host console's seat dialogs, then the score breakdown, the standings and the charts on
the public display and on a phone.

Game 1: the rebel kills the lord (the rebels win). Game 2 (new game with the same players): the
lord kills the renegade, then the rebel (the lord and the loyalist win). Every figure is worked
out here from docs/rules.md §8 and the identities the end screen shows. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser import tables
from tests.browser.boxes import box_of
from tests.browser.conftest import AppServer, ContextFactory, screenshot

pytestmark = [pytest.mark.browser]

NAMES = ["阿强", "小美", "老李", "Sam"]
IDENTITIES = ("lord", "loyalist", "rebel", "renegade")
IDN_RE = re.compile(r"\bidn-(lord|loyalist|rebel|renegade)\b")


@dataclass
class Seat:
    name: str
    device: tables.Device
    seat: str
    page: Page | None = None  # a phone opened in the browser; the others are read over HTTP
    identity: str = ""
    alive: bool = True
    killer: str = ""  # the seat id of the killer


def expected_scores(seats: list[Seat], winner: str) -> dict[str, int]:
    """docs/rules.md §8 for one finished game (no final duel happens in these games)."""
    n = len(seats)
    loyal = sum(1 for s in seats if s.identity == "loyalist" and s.alive)
    rebels = sum(1 for s in seats if s.identity == "rebel" and s.alive)
    by_id = {s.seat: s for s in seats}
    scores: dict[str, int] = {}
    for s in seats:
        victims = [by_id[v.seat].identity for v in seats if v.killer == s.seat]
        if s.identity == "lord":
            base = {"lord": 4 + 2 * loyal, "rebels": 0, "renegade": 1}[winner]
        elif s.identity == "loyalist":
            base = 5 + loyal if winner == "lord" else 0
        elif s.identity == "rebel":
            base = 3 * rebels if winner == "rebels" else 0
        else:  # renegade; a final duel would give N on a lord-side win: not played here
            base = {"lord": 0, "rebels": 1 if s.alive else 0, "renegade": 4 + 2 * n}[winner]
        bonus = 0
        if s.identity in ("lord", "loyalist") and winner == "lord":
            bonus = sum(1 for v in victims if v in ("rebel", "renegade"))
        elif s.identity == "rebel":
            bonus = sum(1 for v in victims if v in ("loyalist", "renegade"))
            bonus += sum(2 for v in victims if v == "lord")
        scores[s.name] = base + bonus
    return scores


def open_seat(page: Page, seat: str) -> Locator:
    page.locator(f"#table-state .ring .seat[data-seat='{seat}'] .seat-open").click()
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    return dialog


def dialog_closed(page: Page) -> None:
    """A tap that records something closes its dialog by itself (js/live.js)."""
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)


def kill(host: Page, victim: Seat, killer: Seat) -> None:
    """The host taps the victim's seat, deals −3 from the killer until dying, then 'dies'."""
    ring_seat = host.locator(f"#table-state .ring .seat[data-seat='{victim.seat}']")
    for _blow in range(5):
        if "dying" in (ring_seat.get_attribute("class") or "").split():
            break
        version = host.locator("#table-state").get_attribute("data-version")
        dialog = open_seat(host, victim.seat)
        dialog.locator(".damage-form label:has(input[name=delta][value='-3'])").click()
        expect(dialog.locator("input[name=delta][value='-3']")).to_be_checked()
        dialog.locator(f".damage-form button[name=source][value='{killer.seat}']").click()
        expect(host.locator("#table-state")).not_to_have_attribute("data-version", str(version))
        dialog_closed(host)
    expect(ring_seat).to_have_class(re.compile(r"\bdying\b"))
    dialog = open_seat(host, victim.seat)
    dialog.locator("form[hx-post='act/die'] button").click()  # confirm() accepted
    expect(ring_seat).to_have_class(re.compile(r"\bdead\b"))
    dialog_closed(host)
    victim.alive = False
    victim.killer = killer.seat


def start_game(host: Page, seats: list[Seat], *, first: bool) -> dict[str, Seat]:
    """Deal (or deal again from the end screen), start, read every phone's own identity."""
    state = host.locator("#table-state")
    if first:
        host.locator("#host-panel input[name=first_game_mode]").check()
        expect(host.locator("#host-panel input[name=first_game_mode]")).to_be_checked()
        host.locator("#host-panel form[hx-post='act/deal'] button").click()
    else:
        new_game = host.locator("#host-panel form[hx-post='act/deal'] button.btn-big")
        expect(new_game).to_be_visible()
        new_game.click()
    expect(state).to_have_attribute("data-status", "dealt")
    host.locator("#host-panel form[hx-post='act/start'] button").click()
    expect(state).to_have_attribute("data-status", "playing")
    by_identity: dict[str, Seat] = {}
    for s in seats:
        s.alive, s.killer = True, ""
        if s.page is None:
            html = s.device.page()
            assert 'data-status="playing"' in html, s.name
            found = tables.IDENTITY_RE.search(html)
        else:
            expect(s.page.locator("#table-state")).to_have_attribute("data-status", "playing")
            card = s.page.locator("#my-seat .identity-card")
            expect(card).to_have_class(IDN_RE)
            found = IDN_RE.search(card.get_attribute("class") or "")
        assert found, f"{s.name}: no identity on the phone"
        s.identity = found.group(1)
        by_identity[s.identity] = s
    assert sorted(by_identity) == sorted(IDENTITIES), by_identity
    return by_identity


def check_end_screen(page: Page, seats: list[Seat], winner: str) -> dict[str, int]:
    """The identities, fates and the score breakdown on one screen; returns the totals."""
    result = page.locator("#table-state .result")
    expect(result).to_be_visible()
    expect(result.locator("h2.winner")).to_have_class(re.compile(rf"\bwinner-{winner}\b"))
    rows = result.locator("table.results tbody tr")
    expect(rows).to_have_count(len(seats))
    by_name = {s.name: s for s in seats}
    for i in range(len(seats)):
        row = rows.nth(i)
        name = row.locator("td").nth(0).inner_text().strip()
        seat = by_name[name]
        ident = IDN_RE.search(row.locator("td").nth(1).get_attribute("class") or "")
        assert ident and ident.group(1) == seat.identity, f"{page.url}: {name} {ident}"
        if seat.killer:
            killer = next(s for s in seats if s.seat == seat.killer)
            expect(row.locator("td").nth(3)).to_contain_text(killer.name)
    want = expected_scores(seats, winner)
    if page.locator("body.page-display").count():
        # The display shows this game's scores in the result table itself (one TV screen).
        shown = {
            rows.nth(i).locator("td").nth(0).inner_text().strip(): int(
                rows.nth(i).locator("td.res-score strong").inner_text().strip()
            )
            for i in range(len(seats))
        }
        assert shown == want, f"{page.url}: scores {shown}, docs/rules.md §8 says {want}"
        return want
    score = result.locator(".score-result")
    expect(score).to_be_visible()
    lines = score.locator("table.breakdown tbody tr")
    expect(lines).to_have_count(len(seats))
    got: dict[str, int] = {}
    for i in range(len(seats)):
        row = lines.nth(i)
        expect(row.locator("ul.lines li").first).to_be_visible()
        got[row.locator(".pname").inner_text().strip()] = int(
            row.locator("td.total").inner_text().strip()
        )
    assert got == want, f"{page.url}: scores {got}, docs/rules.md §8 says {want}"
    return want


def shoot(page: Page, target: str, name: str) -> None:
    """Scroll `target` just under the sticky top bar, dismiss the 5-second announcement toast
    (it is shown over the bottom of the screen right after the game ends), take a screenshot."""
    page.locator(target).evaluate(
        "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64)"
    )
    page.evaluate(
        "() => { const t = document.getElementById('toast'); if (t) t.classList.remove('show'); }"
    )
    expect(page.locator("#toast.show")).to_have_count(0)
    screenshot(page, name)


def check_standings(page: Page, totals: dict[str, int], games: int) -> None:
    panel = page.locator("#session-panel")
    expect(panel).to_be_visible()
    rows = panel.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(totals))
    expect(rows.locator("td:nth-child(4)")).to_have_text([str(games)] * len(totals))
    got = {
        rows.nth(i).locator("td.pname").inner_text().strip(): int(
            rows.nth(i).locator("td.total").inner_text().strip()
        )
        for i in range(len(totals))
    }
    assert got == totals, f"{page.url}: standings {got}, expected {totals}"
    shown = [int(t) for t in rows.locator("td.total").all_inner_texts()]
    assert shown == sorted(shown, reverse=True), f"{page.url}: not ranked by total {shown}"
    for chart in ("svg.chart-line", "svg.chart-bars"):
        svg = panel.locator(chart)
        expect(svg).to_have_count(1)
        expect(svg).to_be_visible()
        box = box_of(svg)
        assert box and box["width"] > 150 and box["height"] > 80, f"{page.url}: {chart} {box}"
        viewport = page.viewport_size or {"width": 0}
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1, (
            f"{page.url}: {chart} overflows the screen {box}"
        )


# ---------------------------------------------------------------------------------------------


def test_a_session_of_two_games(
    app_server: AppServer,
    display_context: BrowserContext,
    new_context: ContextFactory,
    new_phone: ContextFactory,
) -> None:
    # The table and its seats are taken with plain requests (opening a table and joining by
    # tapping are tests/browser/test_table_flow_whole.py's); the phones whose screens are not
    # checked stay pages fetched over HTTP.
    table = tables.seated(app_server.base_url, NAMES)
    # The host console and the public display are two laptop windows (two contexts: a second tab
    # of one context is a background tab, and Chromium throttles its animation frames, which
    # makes every tap on the host console wait seconds for Playwright's stability check).
    host = display_context.new_page()
    host.on("dialog", lambda d: d.accept())
    host.goto(table.host.url)
    display = new_context(kind="display").new_page()
    display.goto(table.display_path)
    expect(display.locator("#conn")).to_have_attribute("data-state", "open")

    seats = [Seat(s.name, s.device, str(s.id)) for s in table.seats]
    page = new_phone().new_page()
    page.goto(seats[0].device.url)
    expect(page.locator("#my-seat .me-name")).to_have_text(seats[0].name)
    expect(page.locator("#my-seat")).to_have_attribute("data-seat", seats[0].seat)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    expect(host.locator("#conn")).to_have_attribute("data-state", "open")
    seats[0].page = page
    phone = page
    screens = [display, phone]

    # Game 1: the rebel kills the lord; the rebels win.
    who = start_game(host, seats, first=True)
    kill(host, who["lord"], who["rebel"])
    expect(host.locator("#table-state")).to_have_attribute("data-status", "finished")
    totals: dict[str, int] = {}
    for page in screens:
        expect(page.locator("#table-state")).to_have_attribute("data-status", "finished")
        game1 = check_end_screen(page, seats, "rebels")
    for name, n in game1.items():
        totals[name] = totals.get(name, 0) + n
    assert game1[who["rebel"].name] == 3 * 1 + 2
    check_standings(display, totals, 1)
    shoot(phone, "#table-state .score-result", "session-zh-phone-breakdown")

    # Game 2, same players: the lord kills the renegade, then the rebel; the lord side wins.
    who = start_game(host, seats, first=False)
    kill(host, who["renegade"], who["lord"])
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    kill(host, who["rebel"], who["lord"])
    expect(host.locator("#table-state")).to_have_attribute("data-status", "finished")
    for page in screens:
        expect(page.locator("#table-state")).to_have_attribute("data-status", "finished")
        game2 = check_end_screen(page, seats, "lord")
    for name, n in game2.items():
        totals[name] = totals.get(name, 0) + n

    # The standings add up both games, on the display and on a phone, with both charts.
    for page in screens:
        check_standings(page, totals, 2)
    shoot(display, "#session-panel", "session-zh-display-standings")
    shoot(phone, "#session-panel .charts", "session-zh-phone-charts")
