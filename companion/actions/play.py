"""What the actions of a game in play share: the checks that a game is in play and a seat
alive, and a change sent as a delta of the seats it touched."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, seat_of
from companion.models import Seat, Table


def _all(seats: list[Seat]) -> set[int]:
    return {s.pk for s in seats}


def require_playing(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise ActionError(
            _("That is only possible while a game is being played."), 409, "not_playing"
        )


def living_seat(table: Table, seat_id: Any, among: list[Seat] | None = None) -> Seat:
    seat = seat_of(table, seat_id, among=among)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    return seat


def dying_seat(
    actor: Actor, seat_id: Any, not_dying: Any, among: list[Seat] | None = None
) -> tuple[Table, Seat]:
    """The table in play and its dying seat `seat_id`; `not_dying` is the refusal when that seat
    is not dying (or dead). `among`: the table's seats, when read already (`seat_of`)."""
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Nobody is dying now."), status=409, code="not_playing")
    seat = seat_of(table, seat_id, among=among)
    if not seat.alive or not seat.dying:
        raise ActionError(not_dying, status=409, code="not_dying")
    return table, seat


# A change sent as a delta of the seats it touched is built by the change itself (the outbox's
# `Change.delta`, beside the fields it fills): every tap that sends a delta announces it there.
delta_change = Change.delta
