"""Scoring sessions, the writes (RULES §8): a session opened with the first game dealt, a game
scored when it ends, a new session or a tournament started, a finished game corrected.

Writes follow companion/actions: one short transaction, the table row locked, one Event, the
version bumped, the change announced after the commit. What the screens show of sessions is
read in companion.sessions.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    _already,
    _record,
    _require_host,
    _seat_of,
    action,
)
from companion.actions.inputs import mode_of
from companion.models import Game, Seat, Session, Table
from companion.rules.identities import (
    Identity,
    IdentityOptions,
    deal_identities,
    deal_identities_fixed_lord,
)
from companion.rules.scoring import (
    BASE,
    FINAL_DUEL,
    KILL_LORD,
    KILL_LOYALIST,
    KILL_REBEL,
    KILL_RENEGADE,
    LOYALISTS_ALIVE,
    PLAYERS,
    REBELS_ALIVE,
    Breakdown,
    GameRecord,
    PlayerResult,
    ScoreLine,
    record_game,
    tournament_lords,
)
from companion.rules.victory import SeatStatus, Side

log = logging.getLogger(__name__)

# Event kinds written here, and every kind after which the session panel must be sent again.
SESSION_STARTED = "session_started"
GAME_CORRECTED = "game_corrected"
PANEL_KINDS = frozenset(
    {SESSION_STARTED, GAME_CORRECTED, "game_over", "identities_dealt", "identities_redealt"}
)
LINE_CODES = (
    BASE,
    LOYALISTS_ALIVE,
    REBELS_ALIVE,
    PLAYERS,
    FINAL_DUEL,
    KILL_LORD,
    KILL_LOYALIST,
    KILL_REBEL,
    KILL_RENEGADE,
)
IDENTITIES = tuple(identity.value for identity in Identity)
TIE_BREAK = gettext_lazy(
    "Ties: more games won, then more kills, then fewer games played; players still equal "
    "share a rank."
)


# ---------------------------------------------------------------------------------------------
# Scoring a finished game


def player_result(entry: Mapping[str, Any]) -> PlayerResult:
    """A seat's line of `Game.results` as the scoring rules read it."""
    return PlayerResult(
        identity=Identity(entry["identity"]),
        alive_at_end=bool(entry["alive"]),
        died_in_final_duel=bool(entry.get("final_duel")) and not entry["alive"],
        kills=tuple(Identity(i) for i in entry.get("kill_identities", [])),
    )


def score_results(results: Sequence[Mapping[str, Any]], winner: str) -> dict[str, dict[str, Any]]:
    """Scores of a finished game, keyed by seat id (as text, like JSON keys).

    Each value holds the identity, whether the seat won, its number of kills, the breakdown
    lines (code, points, count, total) and the total.
    """
    players = {str(entry["seat"]): player_result(entry) for entry in results}
    records = record_game(players, Side(winner))
    return {
        key: {
            "identity": record.identity.value,
            "won": record.won,
            "kills": record.kills,
            "lines": [
                {"code": line.code, "points": line.points, "count": line.count, "total": line.total}
                for line in record.breakdown.lines
            ],
            "total": record.breakdown.total,
        }
        for key, record in records.items()
    }


def game_record(score: Mapping[str, Any]) -> GameRecord:
    """A stored score back as the rules' GameRecord, for standings()."""
    lines = tuple(ScoreLine(ln["code"], ln["points"], ln["count"]) for ln in score["lines"])
    return GameRecord(
        Identity(score["identity"]), bool(score["won"]), Breakdown(lines), score["kills"]
    )


# ---------------------------------------------------------------------------------------------
# Hooks called by companion/actions (the deal and the end of a game)


def _next_number(table: Table) -> int:
    return (table.sessions.aggregate(top=Max("number"))["top"] or 0) + 1


def _open_session(table: Table, seats: Sequence[Seat]) -> Session:
    """The session the next game belongs to: the table's, or a new one if it has none or ended."""
    session = table.session
    if session is None or session.ended_at is not None:
        session = Session.objects.create(table=table, number=_next_number(table))
        table.session = session
        table.save(update_fields=["session"])
    names = {str(s.pk): s.name for s in seats}
    if any(session.players.get(key) != name for key, name in names.items()):
        session.players = {**session.players, **names}
        session.save(update_fields=["players"])
    return session


def _finished_count(session: Session) -> int:
    return session.games.filter(ended_at__isnull=False).count()


def _tournament_lord_index(session: Session, seats: Sequence[Seat]) -> int | None:
    """The index in seats of this game's lord in a tournament; None outside tournaments."""
    if not session.tournament or not session.lord_order:
        return None
    ids = [s.pk for s in seats]
    order = [int(pk) for pk in session.lord_order]
    done = _finished_count(session)
    if done == 0 and order[0] in ids:
        # Seats may have been rearranged since the tournament was set up: the lord passes round
        # the seating as it is when the first game is dealt.
        first = ids.index(order[0])
        order = [ids[i] for i in tournament_lords(len(ids), first)]
        if order != session.lord_order:
            session.lord_order = order
            session.save(update_fields=["lord_order"])
    if sorted(order) != sorted(ids):
        raise ActionError(
            gettext_lazy(
                "The players have changed since the tournament began; start a new session."
            ),
            status=409,
            code="tournament_players",
        )
    if done >= len(order):
        raise ActionError(
            gettext_lazy("This tournament is over; start a new session."),
            status=409,
            code="tournament_over",
        )
    return ids.index(order[done])


def deal_for_table(table: Table, seats: Sequence[Seat], options: IdentityOptions) -> list[Identity]:
    """Deal identities for the table's next game (or a re-deal), in seat order.

    Attaches the table to its session (starting one if needed). In a tournament the lord is the
    session's next lord and the other identities are random among the rest.
    """
    session = _open_session(table, seats)
    lord_index = _tournament_lord_index(session, seats)
    if lord_index is None:
        return deal_identities(len(seats), options)
    return deal_identities_fixed_lord(len(seats), lord_index, options)


def game_finished(table: Table, game: Game) -> None:
    """Score a game that has just ended; close a tournament once everyone has been lord."""
    if game.session_id is None:
        game.session = table.session or _open_session(table, list(table.seats.all()))
    try:
        game.scores = score_results(game.results, game.winner)
    except (KeyError, ValueError):
        # Never let scoring stop the end of a game; a correction can score it later.
        log.exception("game %s of table %s could not be scored", game.number, table.pk)
        game.scores = {}
    game.save(update_fields=["session", "scores"])
    session = game.session
    if session is not None and session.tournament and session.ended_at is None:
        if _finished_count(session) >= len(session.lord_order):
            session.ended_at = game.ended_at or timezone.now()
            session.save(update_fields=["ended_at"])


# ---------------------------------------------------------------------------------------------
# Services


@action
def session_new(
    actor: Actor,
    *,
    tournament: bool = False,
    first_lord: Any = None,
    action_id: str | None = None,
) -> Change:
    """Start a new session (host only, before a deal or after a game ends).

    A tournament needs the first lord (a seat); the lord then passes to the next seat each game.
    A session without games yet is set up again instead of leaving an empty one behind.
    """
    table = actor.table
    _require_host(actor)
    if table.status not in (Table.Status.LOBBY, Table.Status.FINISHED):
        raise ActionError(
            gettext_lazy(
                "A new session starts before identities are dealt or once a game is over."
            ),
            status=409,
            code="in_game",
        )
    seats = list(table.seats.order_by("position", "slot"))
    lord_order: list[int] = []
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
        first = _seat_of(table, first_lord)
        index = [s.pk for s in seats].index(first.pk)
        lord_order = [seats[i].pk for i in tournament_lords(len(seats), index)]
    current = table.session
    previous = None
    if current is not None and current.ended_at is None and not current.games.exists():
        session = current
    else:
        if current is not None and current.ended_at is None:
            current.ended_at = timezone.now()
            current.save(update_fields=["ended_at"])
            previous = current.number
        session = Session(table=table, number=_next_number(table))
    session.tournament = bool(tournament)
    session.lord_order = lord_order
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
    return _record(
        actor,
        table,
        kind=SESSION_STARTED,
        public=public,
        after={"session": session.pk, "lord_order": lord_order},
        action_id=action_id,
    )


def _finished_game(table: Table, game_number: Any) -> Game:
    try:
        number = int(game_number)
    except (TypeError, ValueError):
        raise NotFound() from None
    game = Game.objects.filter(table=table, number=number).select_related("session").first()
    if game is None:
        raise NotFound()
    if game.ended_at is None or not game.results:
        raise ActionError(
            gettext_lazy("That game is not over yet."), status=409, code="not_finished"
        )
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
    _require_host(actor)
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
        if duel and (entry["alive"] or entry["identity"] != Identity.RENEGADE):
            raise ActionError(
                gettext_lazy("Only a Renegade who died can have lost the final duel."),
                code="final_duel",
            )
        change(pk, "final_duel", bool(entry.get("final_duel")), duel)
    if not changes:
        return _already(table, action_id)
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
    game.scores = score_results(results, side.value)
    game.save(update_fields=["results", "winner", "scores"])
    private: set[int] = set()
    if game.number == table.game_number and table.status == Table.Status.FINISHED:
        # The end screen shows the seats of the game just finished: keep them in step.
        for seat in table.seats.filter(pk__in=by_seat):
            entry = by_seat[seat.pk]
            if seat.alive != bool(entry["alive"]):
                # A seat's own page shows whether it is alive, not who killed it (issue 19).
                private.add(seat.pk)
            seat.alive = bool(entry["alive"])
            seat.killer_id = entry.get("killer")
            seat.final_duel = bool(entry.get("final_duel"))
            seat.save(update_fields=["alive", "killer", "final_duel"])
        table.winner = side.value
    return _record(
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
