"""What several actions read alike: the table's mode, the seats in play order, the mode's leader,
a whole number sent in, a card the mode plays without (the seats as the rules' inputs:
companion.queries.seats)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError
from companion.models import Seat, Table
from companion.queries.seats import statuses, table_seats
from companion.rules import modes


def mode_of(table: Table) -> modes.Mode:
    """The way this table plays (companion.rules.modes)."""
    return modes.get(table.mode)


def refuse_card(table: Table, name: str) -> None:
    """ActionError when the table's mode plays without this card (its `Mode` says which),
    whatever the dialogs offer: a request made by hand is refused the same way."""
    if mode_of(table).card_refused(name):
        raise ActionError(_("This game is played without that card."), 409, "card_refused")


def ordered_seats(table: Table) -> list[Seat]:
    return table_seats(table)


def leader_seat(table: Table, seats: list[Seat]) -> Seat:
    """The seat the mode makes known to all, who chooses a hero first (the identity game's
    lord)."""
    index = mode_of(table).leader(statuses(seats))
    assert index is not None, "a mode with a hero choice has a first chooser"
    return seats[index]


def whole_number(value: Any, message: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ActionError(message) from None
