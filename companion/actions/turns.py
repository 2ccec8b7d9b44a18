"""Turns and phases: the first turn, moving on a phase, ending a turn, the host's correction,
the turn timer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    _already,
    _record,
    _require_host,
    _seat_public,
    action,
)
from companion.actions.inputs import _ordered, mode_of, statuses
from companion.actions.play import _delta, _in_play, _living
from companion.models import Seat, Table
from companion.rules.flow import DYING, TurnBlocked, advance_blocker, end_turn_route
from companion.rules.maneuvering import at_turn_end
from companion.rules.turns import PHASE_ORDER, Phase, next_phase

TIMER_CHOICES = (0, 30, 60, 90, 120, 180)


def begin_turns(table: Table, seats: list[Seat]) -> None:
    """The first turn: the start phase in round 1 of the seat the mode names (the identity
    game: the lord, RULES.md §3)."""
    first = seats[mode_of(table).first_turn(statuses(seats))]
    now = timezone.now()
    table.turn_seat = first
    table.round = 1
    table.phase = Phase.START.value
    table.phase_skips = []
    table.turn_started_at = now
    table.phase_started_at = now
    table.pending_judgement = {}


def _turn_to_move(actor: Actor) -> Seat:
    """The seat whose turn the actor moves on (its own, or any as host), once nothing holds the
    turn up: the game is in play, nobody is dying and no judgement waits."""
    table = actor.table
    _in_play(table)
    current = table.turn_seat
    if current is None:
        raise ActionError(_("Nobody has the turn."), 409, "no_turn")
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == current.pk):
        raise ActionError(_("It is not your turn."), status=403, code="not_your_turn")
    _refuse_while_dying(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    return current


@action
def turn_advance(actor: Actor, *, action_id: str | None = None) -> Change:
    """The current player moves on to the next phase (skipped phases are passed over)."""
    table = actor.table
    current = _turn_to_move(actor)
    phase = Phase(table.phase)
    if phase is Phase.JUDGEMENT and current.alive and current.judgement_zone:
        raise ActionError(
            _("Judge the delayed tricks first (last placed first)."), 409, "tricks_left"
        )
    before = {"seat": current.pk, "phase": phase.value, "round": table.round, **_turn_extra(table)}
    skipped: list[str] = []
    seats = _ordered(table)
    nxt = next_phase(phase) if current.alive else None
    while nxt is not None and nxt.value in table.phase_skips:
        skipped.append(nxt.value)
        nxt = next_phase(nxt)
    now = timezone.now()
    if nxt is None:
        _pass_turn(table, seats, current, now)
        kind = "turn"
    else:
        table.phase = nxt.value
        kind = "phase"
    table.phase_started_at = now
    holder = table.turn_seat
    assert holder is not None  # a game in play always has a turn
    return _record(
        actor,
        table,
        kind=kind,
        public={
            **_seat_public(holder),
            "phase": table.phase,
            "round": table.round,
            "skipped": skipped,
        },
        before=before,
        after={"seat": holder.pk, "phase": table.phase, "round": table.round},
        subject=holder,
        action_id=action_id,
        change=_delta(table, [current, holder], "strip", "turn", host_panel=True),
    )


def _refuse_while_dying(table: Table) -> None:
    """Nothing moves on while a player is dying: a 桃 or the death comes first (RULES §6)."""
    dying = table.seats.filter(alive=True, dying=True).values_list("name", flat=True).first()
    if advance_blocker(someone_dying=dying is not None, judgement_pending=False) == DYING:
        raise ActionError(
            _("%(name)s is dying: give a Peach or record the death first.") % {"name": dying},
            409,
            "dying",
        )


def _turn_extra(table: Table) -> dict[str, Any]:
    """What an undo of a phase or turn change needs beyond seat, phase and round."""
    started = table.turn_started_at
    return {
        "skips": list(table.phase_skips),
        "turn_started_at": started.isoformat() if started else "",
    }


def _turn_now(table: Table) -> dict[str, Any]:
    return {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}


def _pass_turn(table: Table, seats: list[Seat], current: Seat, now: datetime) -> Seat:
    """The turn passes from `current` to the next living seat's start phase; a round begins
    when it comes back to the lord (rules.flow.pass_turn, RULES §3). Returns the new holder."""
    index = next(i for i, s in enumerate(seats) if s.pk == current.pk)
    if current.wine:  # 酒 lasts one turn (rules.maneuvering.at_turn_end)
        current.wine = at_turn_end(current.wine).value
        current.save(update_fields=["wine"])
    passed = mode_of(table).next_turn(statuses(seats), index)
    holder = seats[passed.seat]
    table.round += 1 if passed.new_round else 0
    table.turn_seat = holder
    table.phase = Phase.START.value
    table.phase_skips = []
    table.turn_started_at = now
    return holder


@action
def turn_end(actor: Actor, *, action_id: str | None = None) -> Change:
    """One tap ends the turn: through the phases left (skipped ones and an empty judgement
    passed over) to the end, and the turn passes to the next living player's start phase."""
    table = actor.table
    current = _turn_to_move(actor)
    try:
        route = end_turn_route(
            Phase(table.phase), table.phase_skips, current.judgement_zone if current.alive else []
        )
    except TurnBlocked:
        raise ActionError(
            _("Judge the delayed tricks first (last placed first)."), 409, "tricks_left"
        ) from None
    before = {
        "seat": current.pk,
        "phase": table.phase,
        "round": table.round,
        **_turn_extra(table),
    }
    now = timezone.now()
    holder = _pass_turn(table, _ordered(table), current, now)
    table.phase_started_at = now
    return _record(
        actor,
        table,
        kind="turn_ended",
        public={
            **_seat_public(holder),
            "from": current.pk,
            "from_name": current.name,
            "through": [p.value for p in route],
            "skipped": [p.value for p in PHASE_ORDER if p.value in before["skips"]],
            "phase": table.phase,
            "round": table.round,
        },
        before=before,
        after={"seat": holder.pk, "phase": table.phase, "round": table.round},
        subject=holder,
        action_id=action_id,
        change=_delta(table, [current, holder], "strip", "turn", host_panel=True),
    )


@action
def turn_set(
    actor: Actor,
    *,
    seat_id: Any,
    phase: str,
    round_number: Any = None,
    action_id: str | None = None,
) -> Change:
    """The host corrects whose turn and which phase it is."""
    table = actor.table
    _require_host(actor)
    _in_play(table)
    seat = _living(table, seat_id)
    if phase not in [p.value for p in PHASE_ORDER]:
        raise ActionError(_("No such phase."), code="bad_phase")
    before = {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}
    if seat.pk != table.turn_seat_id:
        table.phase_skips = []
        table.turn_started_at = timezone.now()
    if round_number not in (None, ""):
        try:
            value = int(round_number)
        except (TypeError, ValueError):
            raise ActionError(_("No such round.")) from None
        if not 1 <= value <= 999:
            raise ActionError(_("No such round."))
        table.round = value
    table.turn_seat = seat
    table.phase = phase
    table.phase_started_at = timezone.now()
    return _record(
        actor,
        table,
        kind="turn_set",
        public={**_seat_public(seat), "phase": phase, "round": table.round},
        before=before,
        after={"seat": seat.pk, "phase": phase, "round": table.round},
        subject=seat,
        action_id=action_id,
    )


@action
def timer_set(actor: Actor, *, seconds: Any, action_id: str | None = None) -> Change:
    """Turn the reminder timer on (seconds per turn) or off (0). Host only."""
    table = actor.table
    _require_host(actor)
    try:
        value = int(seconds)
    except (TypeError, ValueError):
        raise ActionError(_("Choose a timer length.")) from None
    if value not in TIMER_CHOICES:
        raise ActionError(_("Choose a timer length."))
    if value == table.timer_seconds:
        return _already(table, action_id)
    before = table.timer_seconds
    table.timer_seconds = value
    if value and table.turn_seat_id:
        # The countdown runs from now, not from the start of the turn under way (which may have
        # begun long ago): the timer's deadline is turn_started_at + timer_seconds.
        table.turn_started_at = timezone.now()
    return _record(
        actor,
        table,
        kind="timer",
        public={"seconds": value},
        before={"seconds": before},
        after={"seconds": value},
        action_id=action_id,
    )
