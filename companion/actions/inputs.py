"""Stored rows turned into the rules' inputs (companion.rules takes plain data, never a model), and
what several actions read alike: the seats in play order, the mode's leader, a whole number sent
in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError
from companion.models import Seat, Table
from companion.rules import modes
from companion.rules.cards import equipment_by_name
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
            weapon_range = equipment_by_name(weapon, maneuvering=True).range
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


def mode_of(table: Table) -> modes.Mode:
    """The way this table plays (companion.rules.modes)."""
    return modes.get(table.mode)


def refuse_card(table: Table, name: str) -> None:
    """ActionError when the table's mode plays without this card (3 vs 3: 闪电), whatever the
    dialogs offer: a request made by hand is refused the same way."""
    if mode_of(table).card_refused(name):
        raise ActionError(_("This game is played without that card."), 409, "card_refused")


def statuses(seats: Iterable[Seat]) -> list[SeatStatus]:
    """What the mode's flow needs of the seats, in table order: identity and alive."""
    return [SeatStatus(Identity(s.identity), s.alive) for s in seats]


def _ordered(table: Table) -> list[Seat]:
    return list(table.seats.order_by("position", "slot"))


def _leader(table: Table, seats: list[Seat]) -> Seat:
    """The seat the mode makes known to all, who chooses a hero first (the identity game's
    lord)."""
    index = mode_of(table).leader(statuses(seats))
    assert index is not None, "a mode with a hero choice has a first chooser"
    return seats[index]


def _int(value: Any, message: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ActionError(message) from None
