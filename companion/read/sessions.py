"""Scoring sessions (docs/rules.md §8): games grouped per table, scores, standings, tournaments,
history, corrections and exports.

A session groups the games one table plays in an evening. It starts with the first game dealt
(or when the host starts a new one, possibly as a tournament, 推广版计分赛) and, for a tournament,
ends by itself once every player has been lord once. Every finished game is scored by
companion.rules.scoring from `Game.results` and the scores are kept in `Game.scores`; standings
are always recomputed from the finished games, so a correction changes them at once.

Writes follow companion/actions: one short transaction, the table row locked, one Event, the
version bumped, the broadcast after the commit. Everything read here comes from finished games
(whose identities are public) plus the lord of the game being dealt (public at once): nothing
depends on a living non-lord player's identity in a game in play.

Here: a session's summary, a finished game, timelines and the live panel; one finished game's
rows and breakdowns are in session_games.py, the standings and charts in standings.py, the CSV
and JSON exports in session_export.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from companion.actions.core import ActionError, NotFound
from companion.models import GAME_CORRECTED, Event, Game, Session, Table
from companion.queries.scores import game_record
from companion.queries.sessions import NOT_OVER, PANEL_KINDS, game_numbered, is_over
from companion.read.session_games import GameSummary, correction_counts, game_summary, scored
from companion.read.standings import SessionSummary, StandingRow, TeamRow
from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.scoring import GameRecord, standings
from companion.rules.sides import side_wins, team_standings
from companion.words import charts
from companion.words.history import describe as describe_event

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# Reading: what the screens, the history and the exports show


def summarize(session: Session) -> SessionSummary:
    """Everything a screen shows about a session, from its finished games only."""
    table = session.table
    all_games = list(session.games.select_related("session").order_by("number"))
    games = scored(all_games)
    corrections = correction_counts(table) if games else {}
    running: dict[int, int] = {}
    mode = modes.get(table.mode)
    summaries = tuple(game_summary(mode, g, running, corrections.get(g.number, 0)) for g in games)
    names: dict[int, str] = {int(k): v for k, v in session.players.items()}
    for game in games:
        names.update({int(e["seat"]): e["name"] for e in game.results})
    records = [
        {int(key): game_record(score) for key, score in _in_seat_order(game).items()}
        for game in games
    ]
    ranked = standings(records)
    colours = player_colours(names)
    sides: tuple[str, ...] = ()
    by_side: dict[int, dict[str, int]] = {}
    team_rows: tuple[TeamRow, ...] = ()
    plan = mode.draft_plan()
    if plan is not None:
        # Two drafting sides (a mode's colours, or its first and second player): wins per
        # side, where the identity game counts wins per identity.
        sides = plan.sides
        by_side = side_wins(records, _side_of(mode))
    if mode.team_size and plan is not None:
        team_rows = _team_rows(mode, records, names)
    rows = tuple(
        StandingRow(
            rank=s.rank,
            seat=s.player,
            name=names.get(s.player, "?"),
            total=s.total,
            games=s.games,
            wins=s.wins,
            kills=s.kills,
            wins_by_identity=tuple((i.value, s.wins_by_identity[i]) for i in Identity),
            colour=colours.get(s.player, ""),
            wins_by_side=tuple((side, by_side.get(s.player, {}).get(side, 0)) for side in sides),
        )
        for s in ranked
    )
    in_play = next(
        (g.number for g in all_games if g.ended_at is None and g.number == table.game_number),
        None,
    )
    return SessionSummary(
        table_code=table.code,
        number=session.number,
        started_at=session.started_at,
        ended_at=session.ended_at,
        tournament=session.tournament,
        lord_order=tuple((int(pk), names.get(int(pk), "?")) for pk in session.lord_order),
        games=summaries,
        standings=rows,
        in_play=in_play,
        numbers=tuple(table.sessions.order_by("number").values_list("number", flat=True)),
        teams=team_rows,
        sides=sides,
    )


def _side_of(mode: modes.Mode) -> Callable[[Identity], str]:
    return lambda identity: mode.draft_side(identity) or ""


def _team_rows(
    mode: modes.Mode, records: list[dict[int, GameRecord]], names: Mapping[int, str]
) -> tuple[TeamRow, ...]:
    """A mode with teams: each team's games and wins by colour. A team is the players who shared
    a colour in a game (the same players in another game are the same team, whatever their
    colour)."""
    keyed: list[dict[tuple[int, int], GameRecord]] = []
    team_of: dict[tuple[int, int], tuple[int, ...]] = {}
    side_of = _side_of(mode)
    for number, game in enumerate(records):
        by_colour: dict[str, list[int]] = {}
        for seat, record in game.items():
            by_colour.setdefault(side_of(record.identity), []).append(seat)
        for members in by_colour.values():
            for seat in members:
                team_of[(number, seat)] = tuple(sorted(members))
        keyed.append({(number, seat): record for seat, record in game.items()})
    plan = mode.draft_plan()
    sides = plan.sides if plan is not None else ()
    return tuple(
        TeamRow(
            names=tuple(names.get(pk, "?") for pk in t.team),
            games=t.games,
            wins=t.wins,
            wins_by_side=tuple((side, t.wins_by_side.get(side, 0)) for side in sides),
        )
        for t in team_standings(keyed, team_of, side_of)
    )


def player_colours(players: Iterable[int]) -> dict[int, str]:
    """Each player's chart colour, by seat in the order the seats were taken (not by rank), so a
    player keeps one colour in every chart and after every game; a seat taken later gets the
    next colour and changes nobody else's."""
    return {pk: charts.colour(i) for i, pk in enumerate(sorted(set(players)))}


def _in_seat_order(game: Game) -> dict[str, Any]:
    order = [str(e["seat"]) for e in sorted(game.results, key=lambda e: e.get("position", 0))]
    return {key: game.scores[key] for key in order if key in game.scores}


def current_summary(table: Table) -> SessionSummary | None:
    """The table's current session (the last one, if it has ended), or None before any."""
    session = table.session or table.sessions.order_by("-number").first()
    return summarize(session) if session is not None else None


def session_of(table: Table, number: Any = None) -> Session:
    """A session of this table by number (the current one without a number), or NotFound."""
    if number in (None, ""):
        session = table.session or table.sessions.order_by("-number").first()
    else:
        try:
            session = table.sessions.filter(number=int(number)).first()
        except (TypeError, ValueError):
            session = None
    if session is None:
        raise NotFound()
    return session


def finished_game(table: Table, number: Any) -> GameSummary:
    """A finished game of this table with its breakdowns and cumulative session totals."""
    game = game_numbered(table, number)
    if game is None:
        raise NotFound()
    if not is_over(game):
        raise ActionError(NOT_OVER, status=409, code="not_finished")
    if not game.scores:
        raise NotFound()
    running: dict[int, int] = {}
    mode = modes.get(table.mode)
    if game.session is not None:
        for earlier in scored(game.session.games.filter(number__lt=game.number)):
            game_summary(mode, earlier, running)
    return game_summary(mode, game, running, correction_counts(table).get(game.number, 0))


# Timelines --------------------------------------------------------------------------------------


def describe(kind: str, public: Mapping[str, Any]) -> str:
    """A history line for an event, from its public part only (this module's kinds too)."""
    return str(describe_event(kind, dict(public))["text"])


@dataclass(frozen=True)
class TimelineLine:
    """One public event of a game's timeline."""

    kind: str
    public: dict[str, Any]
    version: int
    undone: bool = False

    @property
    def text(self) -> str:
        """The line in the active language."""
        return describe(self.kind, self.public)

    @property
    def important(self) -> bool:
        """Lines worth standing out."""
        return self.kind.startswith(("identities", "died", "game_over", "game_corrected"))

    @property
    def reveal(self) -> bool:
        """Lines that name identities (public once the game is over or the player is dead)."""
        return self.kind in ("died", "game_over", GAME_CORRECTED)


def game_events(table: Table, number: int) -> list[Event]:
    events = list(
        Event.objects.filter(table=table, game_number=number, private_to__isnull=True).order_by(
            "version", "pk"
        )
    )
    corrections = [
        e
        for e in Event.objects.filter(table=table, kind=GAME_CORRECTED, private_to__isnull=True)
        if int(e.public.get("game", 0)) == number and e.game_number != number
    ]
    return sorted([*events, *corrections], key=lambda e: e.version)


def timeline(table: Table, number: int) -> list[TimelineLine]:
    """A finished game's public timeline, corrections of it included (never a private event)."""
    events = game_events(table, number)
    undone = {e.after.get("undoes") for e in events if e.kind == "undo"}
    return [
        TimelineLine(e.kind, dict(e.public), e.version, undone=e.version in undone) for e in events
    ]


# ---------------------------------------------------------------------------------------------
# The live panel


def render_panel(
    table: Table, lang: str, action_id: str | None = None, summary: SessionSummary | None = None
) -> str:
    """The session panel (standings and charts) as a live fragment for the table's group."""
    if summary is None:
        summary = current_summary(table)
    with translation.override(lang):
        return render_to_string(
            "companion/session.html#panel",
            {"summary": summary, "version": table.version, "action_id": action_id, "oob": True},
        )


def panel_fragments(
    table: Table,
    version: int,
    action_id: str | None,
    langs: Sequence[str],
    since: int | None = None,
) -> dict[str, str]:
    """The panel per language when the change at `version` (or any from `since` to it: one
    transaction's) touched the scores, else nothing."""
    events = Event.objects.filter(table=table, private_to__isnull=True)
    if since is None:
        events = events.filter(version=version)
    else:
        events = events.filter(version__range=(since, version))
    kinds = set(events.values_list("kind", flat=True))
    if not kinds & PANEL_KINDS:
        return {}
    summary = current_summary(table)
    return {lang: render_panel(table, lang, action_id, summary) for lang in langs}
