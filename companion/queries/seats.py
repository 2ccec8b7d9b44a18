"""Seat rows as the rules' inputs (companion.rules takes plain data, never a model): what the
distance rules and the modes' flow need of a seat."""

from __future__ import annotations

from collections.abc import Iterable

from companion.infra import fastrows
from companion.models import Seat, Table
from companion.rules.cards import equipment_by_name, every_expansion
from companion.rules.distance import SeatView
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus

# Heroes whose skill changes a distance (docs/rules.md §4): 马术 and 奇才.
MA_CHAO, HUANG_YUEYING = "SHU006", "SHU007"


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in play order (`table.seats.order_by("position", "slot")`), each knowing
    its table (`seat.table` is `table`, as the related manager leaves it): one statement,
    without the ORM's building of it, which cost a third of an HP tap."""
    seats = fastrows.read_all(Seat, f"{_TABLE_ID} = %s", [table.pk], order_by=("position", "slot"))
    for seat in seats:
        seat._state.fields_cache["table"] = table
    return seats


_TABLE_ID = f"{Seat._meta.db_table}.table_id"


def seat_view(seat: Seat) -> SeatView:
    """What the distance rules need of a seat: alive, its weapon's range, its horses, its
    distance skills."""
    weapon = seat.equipment.get("weapon")
    weapon_range = None
    if weapon:
        try:
            weapon_range = equipment_by_name(weapon, **every_expansion()).range
        except KeyError:
            weapon_range = None
    return SeatView(
        alive=seat.alive,
        weapon_range=weapon_range,
        plus_horse=bool(seat.equipment.get("plus_horse")),
        minus_horse=bool(seat.equipment.get("minus_horse")),
        horsemanship=seat.hero == MA_CHAO,
        qicai=seat.hero == HUANG_YUEYING,
    )


def statuses(seats: Iterable[Seat]) -> list[SeatStatus]:
    """What the mode's flow needs of the seats, in table order: identity and alive."""
    return [SeatStatus(Identity(s.identity), s.alive) for s in seats]
