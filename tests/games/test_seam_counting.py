"""The hooks by which a game changes what the core counts (companion.hooks): a game defined here,
registered for one test only, prevents part of a damage before it lands (`HpChange.change`),
counts a living seat as dead for the end of the game (`statuses`) and shows that seat's identity
to every screen (`identity_shown`); the core's HP tap, victory and public state follow it
without naming it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest

from companion import actions, hooks
from companion.models import Event, Game, Seat, Table
from companion.read.state import public_state
from companion.rules.victory import SeatStatus
from tests.support.game import by_identity, fresh, kill, picked_all

KEY = "seamcount"

pytestmark = pytest.mark.django_db


class Counting(hooks.Game):
    """Prevents 1 point of every damage to `shielded`; counts `ghost` as dead although alive."""

    key: ClassVar[str] = KEY
    shielded: ClassVar[set[int]] = set()
    ghost: ClassVar[set[int]] = set()

    def is_on(self, table: Table) -> bool:
        return True

    def hp_change(self, ctx: hooks.HpChange) -> None:
        if ctx.kind == "damage" and ctx.seat.pk in self.shielded and ctx.change < 0:
            ctx.change += 1
            ctx.hp += 1
            ctx.public["seamcount_prevented"] = 1

    def statuses(
        self, table: Table, seats: list[Seat], found: list[SeatStatus]
    ) -> list[SeatStatus]:
        return [
            SeatStatus(s.identity, s.alive, reborn=s.alive and seat.pk in self.ghost)
            for s, seat in zip(found, seats, strict=True)
        ]

    def identity_shown(self, table: Table, seats: list[Seat]) -> set[int]:
        return {s.pk for s in seats if s.pk in self.ghost}


@pytest.fixture
def counting() -> Iterator[type[Counting]]:
    hooks.register(Counting())
    try:
        yield Counting
    finally:
        hooks.unregister(KEY)
        Counting.shielded = set()
        Counting.ghost = set()


def test_a_game_prevents_part_of_a_damage_and_the_tap_records_what_lands(
    counting: type[Counting],
) -> None:
    table, _ = picked_all(5)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    counting.shielded = {rebel.pk}
    hp = fresh(rebel).hp
    actions.seat_change_hp(token=table.host_token, seat_id=rebel.pk, delta=-2, source=lord.pk)
    assert fresh(rebel).hp == hp - 1
    event = Event.objects.filter(table=table, kind="damage").latest("version")
    assert event.public["amount"] == 1 and event.public["seamcount_prevented"] == 1


def test_a_game_counts_a_living_seat_dead_for_the_end_and_shows_its_identity(
    counting: type[Counting],
) -> None:
    table, _ = picked_all(5)
    lord = by_identity(table, "lord")[0]
    ghost, other = by_identity(table, "rebel")
    renegade = by_identity(table, "renegade")[0]
    counting.ghost = {ghost.pk}
    shown = {s.id: s.identity for s in public_state(Table.objects.get(pk=table.pk)).seats}
    assert shown[ghost.pk] == "rebel" and not shown[other.pk]
    kill(table, other, lord)
    kill(table, renegade, lord)
    # The ghost rebel is alive, and counted dead: the lord's side has won.
    table.refresh_from_db()
    assert fresh(ghost).alive and table.status == Table.Status.FINISHED and table.winner == "lord"
    results = {r["seat"]: r for r in Game.objects.get(table=table).results}
    assert results[ghost.pk]["alive"] is False and results[ghost.pk]["reborn"] is True
