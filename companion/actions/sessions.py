"""Scoring sessions, the writes (docs/rules.md §8): a new session or a tournament started, a
finished game corrected. The session a deal belongs to is in companion.actions.session_deal, the
scoring of a game in companion.actions.scoring.

Writes follow companion/actions: one short transaction, the table row locked, one Event, the
version bumped, the change announced after the commit. What the screens show of sessions is
read in companion.read.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    action,
    already_applied,
    record_change,
    require_host,
    seat_of,
)
from companion.actions.inputs import mode_of
from companion.actions.scoring import score_results
from companion.actions.session_deal import next_session_number
from companion.models import GAME_CORRECTED, SESSION_STARTED, Game, Seat, Session, Table
from companion.queries.sessions import NOT_OVER, game_numbered, is_over
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus


@action
def session_new(
    actor: Actor,
    *,
    tournament: bool = False,
    first_lord: Any = None,
    action_id: str | None = None,
) -> Change:
    """Start a new session (host only, before a deal or after a game ends).

    A tournament needs the first leader (a seat: the identity game's lord, hence the argument's
    name `first_lord`, also the form's field); the leader then passes round the seats as the mode
    rotates it (`Mode.leader_rotation`), one game each.
    A session without games yet is set up again instead of leaving an empty one behind.
    """
    table = actor.table
    require_host(actor)
    if table.status not in (Table.Status.LOBBY, Table.Status.FINISHED):
        raise ActionError(
            gettext_lazy(
                "A new session starts before identities are dealt or once a game is over."
            ),
            status=409,
            code="in_game",
        )
    seats = list(table.seats.order_by("position", "slot"))
    leaders: list[int] = []
    first: Seat | None = None
    if tournament:
        mode = mode_of(table)
        if not mode.seats_allowed(len(seats)):
            raise ActionError(
                gettext_lazy("A tournament needs %(min)d to %(max)d players.")
                % {"min": mode.min_players, "max": mode.max_players},
                status=409,
                code="player_count",
            )
        if first_lord in (None, ""):
            raise ActionError(gettext_lazy("Choose the first Lord."), code="first_lord")
        first = seat_of(table, first_lord)
        index = [s.pk for s in seats].index(first.pk)
        if index not in mode.leader_seats(len(seats)):
            raise ActionError(
                gettext_lazy(
                    "That seat cannot lead the first game in this mode: "
                    "choose one of the seats offered."
                ),
                code="first_lord_seat",
            )
        leaders = [seats[i].pk for i in mode.leader_rotation(len(seats), index)]
    current = table.session
    previous = None
    if current is not None and current.ended_at is None and not current.games.exists():
        session = current
    else:
        if current is not None and current.ended_at is None:
            current.ended_at = timezone.now()
            current.save(update_fields=["ended_at"])
            previous = current.number
        # The hero box carries over to the new session.
        session = Session(
            table=table, number=next_session_number(table), box=current.box if current else {}
        )
    session.tournament = bool(tournament)
    session.lord_order = leaders  # the stored name of the leaders' order
    session.players = {str(s.pk): s.name for s in seats}
    session.save()
    table.session = session
    table.save(update_fields=["session"])
    public = {
        "session": session.number,
        "tournament": session.tournament,
        "first_lord": first.pk if first else None,
        "first_lord_name": first.name if first else "",
        "ended": previous,
    }
    return record_change(
        actor,
        table,
        kind=SESSION_STARTED,
        public=public,
        after={"session": session.pk, "lord_order": leaders},
        action_id=action_id,
    )


def _finished_game(table: Table, game_number: Any) -> Game:
    game = game_numbered(table, game_number)
    if game is None:
        raise NotFound()
    if not is_over(game):
        raise ActionError(NOT_OVER, status=409, code="not_finished")
    return game


def _not_in_game() -> ActionError:
    return ActionError(
        gettext_lazy("That player was not in that game."), status=400, code="not_in_game"
    )


def _seat_or_none(value: Any, seats: Mapping[int, Any]) -> int | None:
    """A seat of the game, or none ("" or "none": nobody)."""
    if value in (None, "", "none"):
        return None
    return _seat_in_game(value, seats)


def _seat_in_game(value: Any, seats: Mapping[int, Any]) -> int:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise _not_in_game() from None
    if pk not in seats:
        raise _not_in_game()
    return pk


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "on", "true", "yes"}
    return bool(value)


@action
def game_correct(
    actor: Actor,
    *,
    game_number: Any,
    killers: Mapping[Any, Any] | None = None,
    alive: Mapping[Any, Any] | None = None,
    final_duel: Mapping[Any, Any] | None = None,
    action_id: str | None = None,
) -> Change:
    """Correct a finished game's records (host only); its scores and the standings follow.

    killers: victim seat -> killer seat (or None: no source, e.g. lightning); alive: seat ->
    alive at the end; final_duel: seat -> a renegade who died in the final duel. Only seats of
    that game may be named. The winner is worked out again from who is alive; a correction
    after which nobody would have won is refused. The correction is kept as an Event.
    """
    table = actor.table
    require_host(actor)
    game = _finished_game(table, game_number)
    results = copy.deepcopy(game.results)
    by_seat = {int(entry["seat"]): entry for entry in results}
    names = {pk: entry["name"] for pk, entry in by_seat.items()}
    changes: list[dict[str, Any]] = []

    def change(pk: int, what: str, before: Any, after: Any) -> None:
        if before != after:
            by_seat[pk][what] = after
            item = {"seat": pk, "name": names[pk], "what": what, "was": before, "now": after}
            if what == "killer":
                item["was_name"] = names.get(before, "") if before is not None else ""
                item["now_name"] = names.get(after, "") if after is not None else ""
            changes.append(item)

    wanted_alive = {_seat_in_game(k, by_seat): _flag(v) for k, v in (alive or {}).items()}
    wanted_killers = {
        _seat_in_game(k, by_seat): _seat_or_none(v, by_seat) for k, v in (killers or {}).items()
    }
    wanted_duel = {_seat_in_game(k, by_seat): _flag(v) for k, v in (final_duel or {}).items()}
    for pk, now_alive in wanted_alive.items():
        entry = by_seat[pk]
        change(pk, "alive", bool(entry["alive"]), now_alive)
        if now_alive:
            change(pk, "killer", entry.get("killer"), None)
            change(pk, "final_duel", bool(entry.get("final_duel")), False)
            entry["died_version"] = None
    for pk, killer in wanted_killers.items():
        entry = by_seat[pk]
        if entry["alive"] and killer is not None:
            raise ActionError(
                gettext_lazy("%(name)s was alive at the end, so nobody killed them.")
                % {"name": names[pk]},
                code="alive_killer",
            )
        change(pk, "killer", entry.get("killer"), killer)
    for pk, duel in wanted_duel.items():
        entry = by_seat[pk]
        if duel and (
            entry["alive"] or not mode_of(table).may_lose_final_duel(Identity(entry["identity"]))
        ):
            raise ActionError(
                gettext_lazy("Only a Renegade who died can have lost the final duel."),
                code="final_duel",
            )
        change(pk, "final_duel", bool(entry.get("final_duel")), duel)
    if not changes:
        return already_applied(table, action_id)
    for entry in results:
        victims = [v for v in results if v.get("killer") == entry["seat"]]
        entry["kills"] = [v["seat"] for v in victims]
        entry["kill_identities"] = [v["identity"] for v in victims]
    side = mode_of(table).victory(
        [SeatStatus(Identity(e["identity"]), bool(e["alive"])) for e in results]
    )
    if side is None:
        raise ActionError(
            gettext_lazy("With these changes nobody has won, so the game would not be over."),
            status=409,
            code="no_winner",
        )
    before = {"results": game.results, "scores": game.scores, "winner": game.winner}
    winner_before = game.winner
    game.results = results
    game.winner = side.value
    game.scores = score_results(mode_of(table), results, side.value)
    game.save(update_fields=["results", "winner", "scores"])
    private: set[int] = set()
    if game.number == table.game_number and table.status == Table.Status.FINISHED:
        # The end screen shows the seats of the game just finished: keep them in step.
        for seat in table.seats.filter(pk__in=by_seat):
            entry = by_seat[seat.pk]
            if seat.alive != bool(entry["alive"]):
                # A seat's own page shows whether it is alive, not who killed it.
                private.add(seat.pk)
            seat.alive = bool(entry["alive"])
            seat.killer_id = entry.get("killer")
            seat.final_duel = bool(entry.get("final_duel"))
            seat.save(update_fields=["alive", "killer", "final_duel"])
        table.winner = side.value
    return record_change(
        actor,
        table,
        kind=GAME_CORRECTED,
        public={
            "game": game.number,
            "session": game.session.number if game.session else None,
            "winner_before": winner_before,
            "winner": side.value,
            "changes": changes,
        },
        before=before,
        after={"results": results, "scores": game.scores, "winner": side.value},
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=private),
    )
