"""军争 markers on a seat: its chain (铁索连环) and its 酒, each a tap of its own with its own
undo."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    already_applied,
    may_act_on,
    record_change,
    seat_public,
)
from companion.actions.play import delta_change, living_seat, require_playing
from companion.games.maneuvering.actions.preview import require_maneuvering
from companion.games.maneuvering.rules.cards import WineMarker, drink
from companion.infra import fastsql
from companion.models import Event, Seat
from companion.rules.turns import Phase

SEAT_STATE_KINDS = ("chained", "wine")


def _may_act_on(actor: Actor, seat: Seat) -> None:
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")


@action
def seat_set_chained(
    actor: Actor, *, seat_id: Any, chained: Any, action_id: str | None = None
) -> Change:
    """铁索连环: chain a seat or set it free (the card's user taps it for each target)."""
    table = actor.table
    require_playing(table)
    require_maneuvering(table)
    seat = living_seat(table, seat_id)
    # The seat itself, the host, referee mode, or the player whose turn it is (who uses the card).
    user = actor.seat is not None and actor.seat.pk == table.turn_seat_id
    if not (may_act_on(actor, seat.pk) or user):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    value = chained in (True, 1, "1", "true", "on", "yes")
    if seat.chained == value:
        return already_applied(table, action_id)
    seat.chained = value
    fastsql.update(seat, ["chained"])
    return record_change(
        actor,
        table,
        kind="chained",
        public={**seat_public(seat), "chained": value},
        before={"chained": not value},
        after={"chained": value},
        subject=seat,
        action_id=action_id,
        undoable=True,
        change=delta_change(table, [seat], "hp", "strip"),
    )


@action
def seat_drink_wine(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """酒 in one's own play phase: the next 杀 this turn deals +1; once a turn (001:431-433).
    A dying player's 酒 is a rescue (actions.hp.seat_rescue, kind "wine")."""
    table = actor.table
    require_playing(table)
    require_maneuvering(table)
    seat = living_seat(table, seat_id)
    _may_act_on(actor, seat)
    if seat.dying:
        raise ActionError(
            _("A dying player drinks Wine as a rescue."), status=409, code="dying_rescue"
        )
    own_play = table.turn_seat_id == seat.pk and table.phase == Phase.PLAY.value
    result = drink(WineMarker(seat.wine), dying=False, own_play_phase=own_play)
    if result.refusal is not None:
        message = (
            _("Wine only once a turn.")
            if result.refusal.value == "once_per_turn"
            else _("Wine is drunk in one's own play phase.")
        )
        raise ActionError(message, status=409, code=result.refusal.value)
    before = seat.wine
    seat.wine = result.marker.value
    fastsql.update(seat, ["wine"])
    return record_change(
        actor,
        table,
        kind="wine",
        public={**seat_public(seat), "wine": seat.wine},
        before={"wine": before},
        after={"wine": seat.wine},
        subject=seat,
        action_id=action_id,
        undoable=True,
        change=delta_change(table, [seat], "hp"),
    )


def undo_seat_state(seat: Seat, target: Event) -> None:
    """Undo a chain or 酒 change on its seat, while the seat is still as it left it."""
    field = target.kind
    if getattr(seat, field) != target.after[field]:
        raise ActionError(
            _("That change cannot be undone: the table has changed since."), 409, "changed"
        )
    setattr(seat, field, target.before[field])
