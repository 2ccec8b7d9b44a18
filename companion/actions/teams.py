"""Teams in the lobby and the go (3 vs 3; docs/modes.md): a player joins a team, a team member
becomes its commander, the deal seats the teams (`seat_teams`), and the commander asked by the
go answers it (`flow_answer`: which side acts first, commander or vanguards).

The teams are `companion.rules.teams.Teams` over seat ids, kept in `Table.mode_state["teams"]`;
the go is the mode's flow state (`Table.mode_state["flow"]`, companion.actions.turns). Nothing
here is secret: teams, commanders and the go are public at the table.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    already_applied,
    may_act_on,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.inputs import mode_of, ordered_seats, whole_number
from companion.actions.play import require_playing
from companion.actions.turns import apply_flow, flow_state, turn_extra, turn_now
from companion.models import Seat, Table
from companion.queries.seats import statuses
from companion.rules.errors import Refused
from companion.rules.teams import Teams

TEAM_REFUSALS: dict[str, Any] = {
    "team_full": _("That team is full."),
    "bad_team": _("No such team."),
    "not_in_team": _("Join a team first."),
    "teams_not_ready": _("Two full teams, each with a commander, first."),
}

GO_REFUSALS: dict[str, Any] = {
    "no_question": _("Nothing is being asked."),
    "not_chooser": _("The commander asked answers that."),
    "bad_answer": _("That is not one of the answers."),
}


def teams_of(table: Table) -> Teams[int]:
    """The table's teams (empty ones before anybody joins)."""
    size = mode_of(table).team_size
    if not size:
        raise ActionError(_("This game is not played in teams."), 409, "no_teams")
    data = table.mode_state.get("teams")
    return Teams.from_data(data) if data else Teams(size=size)


def _team_refused(error: Refused) -> ActionError:
    return ActionError(
        TEAM_REFUSALS.get(error.code, _("That is not possible now.")), 409, error.code
    )


def _lobby_seat(actor: Actor, seat_id: Any) -> tuple[Table, Seat]:
    table = actor.table
    if table.status != Table.Status.LOBBY:
        raise ActionError(_("Teams are formed before the deal."), 409, "not_lobby")
    if seat_id in (None, ""):
        if actor.seat is None:
            raise ActionError(_("Say which player."))
        return table, actor.seat
    seat = seat_of(table, seat_id, actor.seat)
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("Only the player or the host can do that."), 403, "not_yours")
    return table, seat


@action
def team_join(
    actor: Actor, *, team: Any, seat_id: Any = None, action_id: str | None = None
) -> Change:
    """A player joins team 0 or 1 (leaving the other, and its command). Host: any player."""
    table, seat = _lobby_seat(actor, seat_id)
    teams = teams_of(table)
    number = whole_number(team, TEAM_REFUSALS["bad_team"])
    try:
        joined = teams.join(seat.pk, number)
    except Refused as error:
        raise _team_refused(error) from None
    if joined == teams:
        return already_applied(table, action_id)
    table.mode_state = {**table.mode_state, "teams": joined.as_data()}
    return record_change(
        actor,
        table,
        kind="team_joined",
        public={**seat_public(seat), "team": number},
        before={"teams": teams.as_data()},
        after={"teams": joined.as_data()},
        subject=seat,
        action_id=action_id,
        # Each phone shows its own team and command (modes/draft.html#controls).
        change=Change(table.pk, table.version, private_seats=_all_seats(table)),
    )


@action
def team_commander(actor: Actor, *, seat_id: Any = None, action_id: str | None = None) -> Change:
    """A team member becomes his team's commander. Host: any member."""
    table, seat = _lobby_seat(actor, seat_id)
    teams = teams_of(table)
    try:
        made = teams.make_commander(seat.pk)
    except Refused as error:
        raise _team_refused(error) from None
    if made == teams:
        return already_applied(table, action_id)
    table.mode_state = {**table.mode_state, "teams": made.as_data()}
    return record_change(
        actor,
        table,
        kind="team_commander",
        public={**seat_public(seat), "team": made.team_of(seat.pk)},
        before={"teams": teams.as_data()},
        after={"teams": made.as_data()},
        subject=seat,
        action_id=action_id,
        # Each phone shows its own team and command (modes/draft.html#controls).
        change=Change(table.pk, table.version, private_seats=_all_seats(table)),
    )


def seat_teams(table: Table, seats: list[Seat]) -> list[Seat]:
    """Before a mode with teams deals its first game: the seats in the teams' order (each
    commander in the middle of his team), positions renumbered; refused until both teams are
    full with a commander. Other modes: the seats as they are."""
    if not mode_of(table).team_size or table.status != Table.Status.LOBBY:
        return seats
    teams = teams_of(table)
    by_id = {s.pk: s for s in seats}
    try:
        order = teams.seating()
    except Refused as error:
        raise _team_refused(error) from None
    if sorted(order) != sorted(by_id):
        raise ActionError(TEAM_REFUSALS["teams_not_ready"], 409, "teams_not_ready")
    arranged = [by_id[pk] for pk in order]
    for position, seat in enumerate(arranged):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    return arranged


def _all_seats(table: Table) -> set[int]:
    return set(table.seats.values_list("pk", flat=True))


def forget_team(table: Table, seat_pk: int) -> None:
    """A seat leaves the table: it leaves its team too."""
    data = table.mode_state.get("teams")
    if data:
        left = Teams.from_data(data).leave(seat_pk)
        table.mode_state = {**table.mode_state, "teams": left.as_data()}


# The go ---------------------------------------------------------------------------------------


@action
def flow_answer(actor: Actor, *, answer: str, action_id: str | None = None) -> Change:
    """The seat the mode's flow asks answers (3 vs 3: the cold commander which side acts first;
    the commander with the go, his commander or his vanguards); the turn it names begins."""
    table = actor.table
    require_playing(table)
    seat = actor.seat
    if seat is None:
        raise ActionError(_("The commander asked answers that."), 403, "not_chooser")
    seats = ordered_seats(table)
    index = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    mode = mode_of(table)
    asked = mode.flow_pending(statuses(seats), flow_state(table))
    before = {**turn_now(table), **turn_extra(table)}
    try:
        step = mode.flow_answer(statuses(seats), flow_state(table), index, str(answer))
    except Refused as error:
        message = GO_REFUSALS.get(error.code, _("That is not possible now."))
        status = 403 if error.code == "not_chooser" else 409
        raise ActionError(message, status, error.code) from None
    now = timezone.now()
    pks = {s.pk for s in seats}
    holder = apply_flow(table, seats, step, now)
    table.phase_started_at = now
    return record_change(
        actor,
        table,
        kind="flow_answered",
        public={
            **seat_public(seat),
            "question": asked.question if asked else "",
            "answer": str(answer),
            "turn_to": holder.pk if holder else None,
            "turn_name": holder.name if holder else "",
            "round": table.round,
        },
        before=before,
        after=turn_now(table),
        subject=holder or seat,
        action_id=action_id,
        change=Change(table.pk, table.version, host_panel=True, private_seats=set(pks)),
    )
