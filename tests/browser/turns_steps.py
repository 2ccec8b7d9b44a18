"""Steps of a round of turns in a real browser, for test_turns_flow.py: the players, and the
table as the test expects it (seats, distances, attack ranges, phases) with the check that every
screen shows exactly that; the Next phase tap, equipping (a replacement asks first), a tap on a
seat, placing a trick, the judgement helper (flip, result) and the newest history line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Dialog, Locator, Page, Request, expect

from tests.browser.conftest import socket_taps, start_tap_log

PHASES = ("start", "judgement", "draw", "play", "discard", "end")
SLOT_ORDER = ("weapon", "armor", "plus_horse", "minus_horse")
PERCENT_RE = re.compile(r"^(\d{1,3})%$")

SNAPSHOT_JS = """() => {
    const state = document.getElementById('table-state');
    const bar = state.querySelector('.turn-bar');
    const text = el => el ? el.textContent.trim() : '';
    const own = el => el ? Array.from(el.childNodes)
        .filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('').trim() : '';
    const seen = el => el.checkVisibility();
    const next = bar && bar.querySelector("form[hx-post='act/next'] button");
    const mine = Array.from(state.querySelectorAll('.dist-card')).filter(seen);
    const matrix = state.querySelector('.matrix');
    return {
        version: state.getAttribute('data-version'),
        status: state.getAttribute('data-status'),
        turn: bar ? bar.getAttribute('data-turn-seat') : null,
        round: bar ? (text(bar.querySelector('.turn-head .pill')).match(/\\d+/) || [''])[0] : '',
        turnName: bar ? text(bar.querySelector('.turn-name')) : '',
        phases: bar ? Array.from(bar.querySelectorAll('.phases > .phase')).map(
            li => Array.from(li.classList).filter(c => c !== 'phase').join(' ')) : [],
        skippedMarks: bar ? bar.querySelectorAll('.phase.skipped small').length : 0,
        nextVisible: !!(next && seen(next)),
        seats: Array.from(state.querySelectorAll('.ring > .seat')).map(s => ({
            id: s.getAttribute('data-seat'),
            name: text(s.querySelector('.seat-name')),
            hasTurn: s.classList.contains('has-turn'),
            equipment: Array.from(s.querySelectorAll('.equip .chip.eq')).map(
                c => own(c) + text(c.querySelector('small'))),
            zone: Array.from(s.querySelectorAll('.zone .chip.trick')).map(own),
        })),
        distCards: mine.map(card => card.getAttribute('data-dist')),
        distRows: mine.length === 1 ? Array.from(mine[0].querySelectorAll('tbody tr')).map(
            tr => Array.from(tr.cells).map(text)) : [],
        matrixVisible: !!(matrix && seen(matrix)),
        matrix: matrix ? Array.from(matrix.querySelectorAll('tr')).map(
            tr => Array.from(tr.cells).map(text)) : [],
    };
}"""


@dataclass
class Player:
    name: str
    page: Page
    seat: str = ""
    english: bool = False


@dataclass
class Table:
    """What the test expects the table to be; every screen must show exactly this."""

    host: Page
    display: Page
    players: list[Player]  # in seat order
    lord: str = ""
    version: int = 0
    turn: str = ""
    round: int = 1
    phase: str = "start"
    skips: set[str] = field(default_factory=set)
    equipment: dict[str, dict[str, tuple[str, int | None]]] = field(default_factory=dict)
    zones: dict[str, list[str]] = field(default_factory=dict)

    @property
    def screens(self) -> list[Page]:
        return [self.host, self.display, *(p.page for p in self.players)]

    def player(self, seat: str) -> Player:
        return next(p for p in self.players if p.seat == seat)

    def after(self, seat: str) -> str:
        """The next seat in play order (everybody is alive in this test)."""
        ids = [p.seat for p in self.players]
        return ids[(ids.index(seat) + 1) % len(ids)]

    # docs/rules.md §4 on a ring of four living players.
    def distance(self, a: str, b: str) -> int:
        ids = [p.seat for p in self.players]
        gap = abs(ids.index(a) - ids.index(b))
        base = min(gap, len(ids) - gap)
        minus = 1 if "minus_horse" in self.equipment.get(a, {}) else 0
        plus = 1 if "plus_horse" in self.equipment.get(b, {}) else 0
        return max(1, base - minus + plus)

    def attack_range(self, seat: str) -> int:
        weapon = self.equipment.get(seat, {}).get("weapon")
        return (weapon[1] or 1) if weapon else 1

    def dist_rows(self, me: str) -> list[list[str]]:
        rows = []
        for other in self.players:
            if other.seat == me:
                continue
            to = self.distance(me, other.seat)
            rows.append(
                [
                    other.name,
                    str(to),
                    str(self.distance(other.seat, me)),
                    "✓" if to <= self.attack_range(me) else "",
                    "✓" if to <= 1 else "",
                ]
            )
        return rows

    def matrix(self) -> list[list[str]]:
        # Columns are seat numbers (readable from across the table); rows "number name".
        rows = [["", *[str(i + 1) for i in range(len(self.players))]]]
        for i, a in enumerate(self.players):
            cells = ["—" if a is b else str(self.distance(a.seat, b.seat)) for b in self.players]
            rows.append([f"{i + 1} {a.name}", *cells])
        return rows

    def phase_states(self) -> list[str]:
        current = PHASES.index(self.phase)
        states = []
        for i, phase in enumerate(PHASES):
            if phase in self.skips:
                states.append("skipped")
            elif i < current:
                states.append("done")
            elif i == current:
                states.append("current")
            else:
                states.append("upcoming")
        return states

    def seats_shown(self) -> list[dict[str, Any]]:
        shown = []
        for p in self.players:
            kit = self.equipment.get(p.seat, {})
            shown.append(
                {
                    "id": p.seat,
                    "name": p.name,
                    "hasTurn": p.seat == self.turn,
                    "equipment": [
                        f"{kit[slot][0]}{kit[slot][1] or ''}" for slot in SLOT_ORDER if slot in kit
                    ],
                    "zone": list(self.zones.get(p.seat, [])),
                }
            )
        return shown

    def agree(self, steps: int = 1) -> None:
        """After `steps` more changes, every screen shows this version and this table."""
        self.version += steps
        for page in self.screens:
            expect(page.locator("#table-state")).to_have_attribute(
                "data-version", str(self.version)
            )
        holder = self.player(self.turn)
        for page in self.screens:
            where = page.url
            got = page.evaluate(SNAPSHOT_JS)
            assert got["status"] == "playing", where
            assert got["turn"] == self.turn, f"{where}: turn on {got['turn']}"
            assert got["round"] == str(self.round), f"{where}: round {got['round']}"
            assert holder.name in got["turnName"], f"{where}: {got['turnName']!r}"
            assert got["phases"] == self.phase_states(), f"{where}: phases {got['phases']}"
            assert got["skippedMarks"] == len(self.skips), where
            assert got["seats"] == self.seats_shown(), f"{where}: seats {got['seats']}"
            phone = next((p for p in self.players if p.page is page), None)
            if phone is None:
                # The display and the host console: the whole matrix, no phone's own card.
                assert got["distCards"] == [], f"{where}: a phone's distance card is shown"
                assert got["matrixVisible"], f"{where}: no distance matrix"
                assert got["matrix"] == self.matrix(), f"{where}: matrix {got['matrix']}"
                # Next phase: the host may advance; the public display never.
                assert got["nextVisible"] == (page is self.host and self.needs_next()), where
            else:
                # A phone: its own distances only, no matrix.
                assert got["distCards"] == [phone.seat], f"{where}: cards {got['distCards']}"
                assert got["distRows"] == self.dist_rows(phone.seat), (
                    f"{phone.name}: distances {got['distRows']}"
                )
                assert not got["matrixVisible"], f"{phone.name}: the matrix is shown"
                mine = phone.seat == self.turn and self.needs_next()
                assert got["nextVisible"] == mine, f"{phone.name}: Next phase shown={not mine}"

    def needs_next(self) -> bool:
        """The Next phase button is offered unless delayed tricks wait to be judged."""
        return not (self.phase == "judgement" and self.zones.get(self.turn))


def next_button(page: Page) -> Locator:
    return page.locator("#table-state .turn-bar form[hx-post='act/next'] button")


def advance(table: Table) -> None:
    """The current player taps Next phase on their phone; the model follows the rules."""
    button = next_button(table.player(table.turn).page)
    expect(button).to_be_in_viewport()  # pinned under the thumb, wherever the page is
    button.click()
    index = PHASES.index(table.phase) + 1
    while index < len(PHASES) and PHASES[index] in table.skips:
        index += 1
    if index == len(PHASES):
        table.turn = table.after(table.turn)
        table.phase = "start"
        table.skips = set()
        if table.turn == table.lord:  # a round ends when play comes back to the lord
            table.round += 1
    else:
        table.phase = PHASES[index]
    table.agree()


def equip(player: Player, name: str, *, replace: str = "") -> None:
    """The phone opens its Equipment… dialog and taps a card. Replacing a card asks first: the
    test says no once (nothing may be sent), then yes."""
    page = player.page
    posts: list[str] = []

    def sent(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/act/equip"):
            posts.append(request.url)

    page.on("request", sent)
    start_tap_log(page)
    page.locator("#my-seat button[hx-get^='equip/']").click()
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    if replace:
        expect(dialog.locator("h3", has_text=replace)).to_have_count(1)
    button = dialog.locator(
        f"form[hx-post='act/equip']:has(input[name=name][value='{name}']) button"
    )
    asked: list[str] = []

    def answer(accept: bool) -> Any:
        def handle(box: Dialog) -> None:
            asked.append(box.message)
            if accept:
                box.accept()
            else:
                box.dismiss()

        return handle

    if replace:
        page.once("dialog", answer(False))
        button.click()
        expect(dialog).to_be_visible()
        page.once("dialog", answer(True))
    button.click()
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)
    page.remove_listener("request", sent)
    sent_taps = len(posts) + socket_taps(page, "equip")
    assert sent_taps == 1, f"{sent_taps} equip taps sent ({len(posts)} over HTTP)"
    if replace:
        assert len(asked) == 2, f"confirmations: {asked}"
        assert all(replace in m and name in m for m in asked), f"confirm asked {asked}"


def open_seat(page: Page, seat: str) -> Locator:
    """Tap a seat in the ring: its dialog."""
    page.locator(f"#table-state .ring .seat[data-seat='{seat}'] .seat-open").click()
    dialog = page.locator("#dialog [role=dialog]")
    expect(dialog).to_be_visible()
    return dialog


def place(table: Table, by: Player, seat: str, trick: str) -> None:
    dialog = open_seat(by.page, seat)
    dialog.locator(
        f"form[hx-post='act/trick']:has(input[name=name][value='{trick}']) button"
    ).click()
    expect(by.page.locator("#dialog [role=dialog]")).to_have_count(0)
    table.zones.setdefault(seat, []).append(trick)
    table.agree()


def judge_dialog(table: Table, trick: str, check: str) -> Locator:
    """The current phone opens the judgement helper from the turn bar for its next trick."""
    page = table.player(table.turn).page
    open_judge = page.locator("#table-state .turn-bar .turn-only button[hx-get^='judge/']")
    expect(open_judge).to_be_visible()
    expect(open_judge).to_contain_text(trick)
    open_judge.click()
    dialog = page.locator("#dialog .judge-form")
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=trick]")).to_have_value(trick)
    chosen = dialog.locator(f"input[name=check][value='{check}']")
    expect(chosen).to_be_checked()
    # The odds of each outcome are shown before the flip, and add up to the whole deck.
    odds = dialog.locator(".check-choice", has=page.locator(f"input[value='{check}']")).locator(
        ".odds b"
    )
    expect(odds).to_have_count(2)
    expect(odds.first).to_be_visible()
    shares = [PERCENT_RE.match(t.strip()) for t in odds.all_inner_texts()]
    assert all(shares), f"odds {odds.all_inner_texts()}"
    assert 99 <= sum(int(m.group(1)) for m in shares if m) <= 101
    return dialog


def flip(dialog: Locator, suit: str, rank: int) -> None:
    dialog.locator(f".suits label:has(input[value='{suit}'])").click()
    dialog.locator(f".ranks label:has(input[value='{rank}'])").click()
    expect(dialog.locator(f"input[name=suit][value='{suit}']")).to_be_checked()
    expect(dialog.locator(f"input[name=rank][value='{rank}']")).to_be_checked()


def tap_suit(table: Table, dialog: Locator, suit: str) -> None:
    """A judgement the suit decides: no rank is asked, the suit's button shows the result."""
    expect(dialog.locator(".ranks")).to_be_hidden()
    dialog.locator(f".suit-taps button[value='{suit}']").click()
    expect(table.player(table.turn).page.locator("#dialog [role=dialog]")).to_have_count(0)


def show_result(table: Table, dialog: Locator) -> None:
    page = table.player(table.turn).page
    dialog.locator("button.btn-primary").click()
    expect(page.locator("#dialog [role=dialog]")).to_have_count(0)


def expect_history(table: Table, *parts: str) -> None:
    """Every screen's newest public history line says the judgement's result."""
    for page in table.screens:
        line = page.locator("#table-state > .history .events li").first
        for part in parts:
            expect(line).to_contain_text(part)
