"""Turns and phases: the first turn, moving on a phase, ending a turn, the host's correction,
the turn timer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    already_applied,
    record_change,
    require_host,
    seat_public,
)
from companion.actions.inputs import mode_of, ordered_seats
from companion.actions.play import delta_change, living_seat, require_playing
from companion.models import Seat, Table
from companion.queries.seats import statuses
from companion.rules.errors import Refused
from companion.rules.flow import DYING, TurnBlocked, advance_blocker, end_turn_route
from companion.rules.modes.base import FlowStep
from companion.rules.turns import PHASE_ORDER, Phase, next_phase

TIMER_CHOICES = (0, 30, 60, 90, 120, 180)


def begin_turns(table: Table, seats: list[Seat]) -> None:
    """The first turn: the start phase in round 1 of the seat the mode names (the identity
    game: the lord, docs/rules.md §3), or the mode's first question (which side acts first;
    nobody has the turn until it is answered)."""
    table.round = 0
    table.pending_judgement = {}
    apply_flow(table, seats, mode_of(table).flow_begin(statuses(seats)), timezone.now())
    table.phase_started_at = table.turn_started_at


def flow_state(table: Table) -> dict[str, Any]:
    """The mode's flow state (the identity game: none)."""
    return dict(table.mode_state.get("flow", {}))


def apply_flow(table: Table, seats: list[Seat], step: FlowStep, now: datetime) -> Seat | None:
    """Keep the flow state a mode's flow hook returned and follow it: a turn starts (its start
    phase; `new_round` counts a round), or the game waits for a question (nobody has the turn),
    or the turn stays. Returns the seat holding the turn then (None while a question waits)."""
    if step.state or "flow" in table.mode_state:
        table.mode_state = {**table.mode_state, "flow": step.state}
    if step.turn is not None:
        holder = seats[step.turn.seat]
        table.round += 1 if step.turn.new_round else 0
        table.turn_seat = holder
        table.phase = Phase.START.value
        table.phase_skips = []
        table.turn_started_at = now
        return holder
    if step.choice is not None:
        table.turn_seat = None
        table.phase = ""
        table.phase_skips = []
        table.turn_started_at = now
        return None
    return table.turn_seat


def _turn_to_move(actor: Actor) -> tuple[Seat, list[Seat]]:
    """The seat whose turn the actor moves on (its own, or any as host), once nothing holds the
    turn up: the game is in play, nobody is dying and no judgement waits; and the table's seats
    in play order (read once: the seat is one of them)."""
    table = actor.table
    require_playing(table)
    if table.turn_seat_id is None:
        raise ActionError(_("Nobody has the turn."), 409, "no_turn")
    seats = ordered_seats(table)
    current = next(s for s in seats if s.pk == table.turn_seat_id)
    table.turn_seat = current
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == current.pk):
        raise ActionError(_("It is not your turn."), status=403, code="not_your_turn")
    _refuse_while_dying(seats)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    return current, seats


@action
def turn_advance(actor: Actor, *, action_id: str | None = None) -> Change:
    """The current player moves on to the next phase (skipped phases are passed over)."""
    table = actor.table
    current, seats = _turn_to_move(actor)
    phase = Phase(table.phase)
    if phase is Phase.JUDGEMENT and current.alive and current.judgement_zone:
        raise ActionError(
            _("Judge the delayed tricks first (last placed first)."), 409, "tricks_left"
        )
    before = {"seat": current.pk, "phase": phase.value, "round": table.round, **turn_extra(table)}
    skipped: list[str] = []
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
    games = _turn_hooks(table, seats, before)
    return record_change(
        actor,
        table,
        kind=kind,
        public={
            **_holder_public(table, holder),
            "phase": table.phase,
            "round": table.round,
            "skipped": skipped,
            **games.public,
        },
        before=games.before,
        after=games.after,
        subject=holder or current,
        action_id=action_id,
        change=_games_change(table, games, current, holder),
    )


def _turn_hooks(table: Table, seats: list[Seat], before: dict[str, Any]) -> hooks.TurnEnd:
    """The turn moved: the games on at the table see it (a round's end), and add
    to its event's `before`, `after` and public part."""
    games = hooks.TurnEnd(
        table=table,
        seats=seats,
        round_before=before["round"],
        before=dict(before),
        after=turn_now(table),
    )
    for game in hooks.on(table):
        game.turn_passed(games)
    return games


def _games_change(table: Table, games: hooks.TurnEnd, current: Seat, holder: Seat | None) -> Change:
    """The turn's frame (`_turn_change`), unless a game asked for every screen: every screen
    redrawn; the phones the games named too."""
    if games.whole_page:
        return Change(table.pk, table.version, host_panel=True, private_seats=games.private_seats)
    change = _turn_change(table, current, holder, games.seats)
    if games.private_seats:
        change.private_seats = {*change.private_seats, *games.private_seats}
    return change


def _refuse_while_dying(seats: list[Seat]) -> None:
    """Nothing moves on while a player is dying: a 桃 or the death comes first
    (docs/rules.md §6). The refusal names the first dying seat to have joined."""
    first = min((s for s in seats if s.alive and s.dying), key=lambda s: s.pk, default=None)
    dying = first.name if first is not None else None
    if advance_blocker(someone_dying=dying is not None, judgement_pending=False) == DYING:
        raise ActionError(
            _("%(name)s is dying: give a Peach or record the death first.") % {"name": dying},
            409,
            "dying",
        )


def turn_extra(table: Table) -> dict[str, Any]:
    """What an undo of a phase or turn change needs beyond seat, phase and round (and a mode's
    flow state, when it keeps one)."""
    started = table.turn_started_at
    extra: dict[str, Any] = {
        "skips": list(table.phase_skips),
        "turn_started_at": started.isoformat() if started else "",
    }
    if "flow" in table.mode_state:
        extra["flow"] = flow_state(table)
    return extra


def turn_now(table: Table) -> dict[str, Any]:
    return {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}


def _pass_turn(table: Table, seats: list[Seat], current: Seat, now: datetime) -> Seat | None:
    """The turn passes from `current` as the mode's flow says (the identity game: the next
    living seat's start phase; a round begins when it comes back to the lord, rules.flow.
    pass_turn, docs/rules.md §3). Returns the new holder, None while the mode asks a question."""
    index = next(i for i, s in enumerate(seats) if s.pk == current.pk)
    hooks.turn_ending(table, current)  # what lasts one turn ends with it
    try:
        step = mode_of(table).flow_after_turn(statuses(seats), flow_state(table), index)
    except Refused as refused:
        raise ActionError(_("The turn cannot pass now."), 409, refused.code) from None
    return apply_flow(table, seats, step, now)


def _turn_change(table: Table, current: Seat, holder: Seat | None, seats: list[Seat]) -> Change:
    """The frame of a turn passed: a delta of both seats (`seats`: every seat, the two among
    them), or the whole state while a question waits (no turn to show)."""
    if holder is None:
        # The question's answer buttons are on the chooser's own page: every phone is redrawn.
        every = {s.pk for s in seats}
        return Change(table.pk, table.version, host_panel=True, private_seats=every)
    return delta_change(
        table, [current, holder], "strip", "turn", host_panel=True, every_seat=seats
    )


def _holder_public(table: Table, holder: Seat | None) -> dict[str, Any]:
    """Who holds the turn now, for an event; while a question waits, what is asked of whom."""
    if holder is not None:
        return seat_public(holder)
    asking = mode_of(table).flow_pending(statuses(ordered_seats(table)), flow_state(table))
    return {"seat": None, "name": "", "asking": asking.question if asking else ""}


@action
def turn_end(actor: Actor, *, action_id: str | None = None) -> Change:
    """One tap ends the turn: through the phases left (skipped ones and an empty judgement
    passed over) to the end, and the turn passes to the next living player's start phase."""
    table = actor.table
    current, seats = _turn_to_move(actor)
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
        **turn_extra(table),
    }
    now = timezone.now()
    holder = _pass_turn(table, seats, current, now)
    table.phase_started_at = now
    games = _turn_hooks(table, seats, before)
    return record_change(
        actor,
        table,
        kind="turn_ended",
        public={
            **_holder_public(table, holder),
            "from": current.pk,
            "from_name": current.name,
            "through": [p.value for p in route],
            "skipped": [p.value for p in PHASE_ORDER if p.value in before["skips"]],
            "phase": table.phase,
            "round": table.round,
            **games.public,
        },
        before=games.before,
        after=games.after,
        subject=holder or current,
        action_id=action_id,
        change=_games_change(table, games, current, holder),
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
    require_host(actor)
    require_playing(table)
    seat = living_seat(table, seat_id)
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
    return record_change(
        actor,
        table,
        kind="turn_set",
        public={**seat_public(seat), "phase": phase, "round": table.round},
        before=before,
        after={"seat": seat.pk, "phase": phase, "round": table.round},
        subject=seat,
        action_id=action_id,
    )


@action
def timer_set(actor: Actor, *, seconds: Any, action_id: str | None = None) -> Change:
    """Turn the reminder timer on (seconds per turn) or off (0). Host only."""
    table = actor.table
    require_host(actor)
    try:
        value = int(seconds)
    except (TypeError, ValueError):
        raise ActionError(_("Choose a timer length.")) from None
    if value not in TIMER_CHOICES:
        raise ActionError(_("Choose a timer length."))
    if value == table.timer_seconds:
        return already_applied(table, action_id)
    before = table.timer_seconds
    table.timer_seconds = value
    if value and table.turn_seat_id:
        # The countdown runs from now, not from the start of the turn under way (which may have
        # begun long ago): the timer's deadline is turn_started_at + timer_seconds.
        table.turn_started_at = timezone.now()
    return record_change(
        actor,
        table,
        kind="timer",
        public={"seconds": value},
        before={"seconds": before},
        after={"seconds": value},
        action_id=action_id,
    )
