"""Seat rows as the rules' inputs (companion.rules takes plain data, never a model): what the
distance rules and the modes' flow need of a seat."""

from __future__ import annotations

from collections.abc import Iterable

from companion.models import Seat
from companion.rules.cards import equipment_by_name, every_expansion
from companion.rules.distance import SeatView
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus

# Heroes whose skill changes a distance (docs/rules.md §4): 马术 and 奇才.
MA_CHAO, HUANG_YUEYING = "SHU006", "SHU007"


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
