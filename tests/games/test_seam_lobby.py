"""The hooks a game package reaches the lobby by (companion.hooks): the seats' order before a
deal (`seating`, as 3 vs 3 seats its teams) and a seat the host removes (`seat_left`, as a
player leaves his team), through a game defined here and registered for these tests only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest

from companion import actions, hooks
from companion.models import Seat, Table
from tests.support.factories import make_table
from tests.support.game import fresh

KEY = "seamlobby"


class LobbyProbe(hooks.Game):
    """Seats the players in the reverse of their order, and notes who left."""

    key: ClassVar[str] = KEY

    def __init__(self) -> None:
        self.left: list[int] = []

    def is_on(self, table: Table) -> bool:
        return True

    def seating(self, table: Table, seats: list[Seat]) -> list[Seat]:
        arranged = list(reversed(seats))
        for position, seat in enumerate(arranged):
            seat.position = position
            seat.save(update_fields=["position"])
        return arranged

    def seat_left(self, table: Table, seat: Seat) -> None:
        self.left.append(seat.pk)


@pytest.fixture
def probe() -> Iterator[LobbyProbe]:
    game = LobbyProbe()
    hooks.register(game)
    try:
        yield game
    finally:
        hooks.unregister(KEY)


@pytest.mark.django_db
def test_a_game_seats_the_players_before_the_deal(probe: LobbyProbe) -> None:
    table, seats = make_table(5)
    assert [s.position for s in seats] == [0, 1, 2, 3, 4]
    actions.identities_deal(token=table.host_token)
    assert [fresh(s).position for s in seats] == [4, 3, 2, 1, 0]
    assert all(fresh(s).identity for s in seats)


@pytest.mark.django_db
def test_a_removed_seat_leaves_the_game(probe: LobbyProbe) -> None:
    table, seats = make_table(4)
    actions.seat_remove(token=table.host_token, seat_id=seats[3].pk)
    assert probe.left == [seats[3].pk]
