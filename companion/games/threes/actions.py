"""3 vs 3's teams in the lobby (docs/modes.md): a player joins a team, a team member becomes its
commander, and the first deal seats the teams (`seating`, each commander in the middle of his
team); a seat removed leaves its team (`forget_team`).

The teams are `rules.teams.Teams` over seat ids, kept in `Table.mode_state["teams"]`. Nothing
here is secret: teams and commanders are public at the table.
"""

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
    seat_of,
    seat_public,
)
from companion.actions.inputs import mode_of, whole_number
from companion.games.threes.rules.teams import Teams
from companion.models import Seat, Table
from companion.rules.errors import Refused

TEAM_REFUSALS: dict[str, Any] = {
    "team_full": _("That team is full."),
    "bad_team": _("No such team."),
    "not_in_team": _("Join a team first."),
    "teams_not_ready": _("Two full teams, each with a commander, first."),
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


def seating(table: Table, seats: list[Seat]) -> list[Seat]:
    """Before the first deal: the seats in the teams' order (each commander in the middle of
    his team), positions renumbered; refused until both teams are full with a commander. A new
    game at the same table: the seats as they are."""
    if table.status != Table.Status.LOBBY:
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
