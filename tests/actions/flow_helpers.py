"""Helpers of the game-flow tests (test_flow_*.py): whose turn it is, the turn's state, the seat
so many places after another, a turn moved on to a phase, and the public page as rendered.
"""

from __future__ import annotations

from companion import actions
from companion.live import broadcast
from companion.models import Seat, Table
from companion.read.state import public_state


def holder_of(table: Table) -> Seat:
    table.refresh_from_db()
    return Seat.objects.get(pk=table.turn_seat_id)


def turn_of(table: Table) -> tuple[int | None, str, int, list[str]]:
    table.refresh_from_db()
    return table.turn_seat_id, table.phase, table.round, list(table.phase_skips)


def after(seats: list[Seat], seat: Seat, steps: int = 1) -> Seat:
    ids = [s.pk for s in seats]
    return seats[(ids.index(seat.pk) + steps) % len(seats)]


def to_phase(table: Table, phase: str) -> None:
    while holder_of(table) and table.phase != phase:
        actions.turn_advance(token=table.host_token)


def public_html(table: Table, lang: str = "zh-hans") -> str:
    table.refresh_from_db()
    return broadcast.render_public(public_state(table), lang)
