"""Scoring sessions (RULES §8): games grouped per table, scores, standings, tournaments,
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
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion import charts
from companion.actions.core import (
    NotFound,
)
from companion.actions.sessions import (
    GAME_CORRECTED,
    IDENTITIES,
    LINE_CODES,
    PANEL_KINDS,
    SESSION_STARTED,
    TIE_BREAK,
    _finished_game,
    game_record,
)
from companion.models import Event, Game, Session, Table
from companion.rules.identities import (
    Identity,
)
from companion.rules.scoring import (
    BASE,
    FINAL_DUEL,
    KILL_CODES,
    KILL_LORD,
    KILL_LOYALIST,
    KILL_REBEL,
    KILL_RENEGADE,
    LOYALISTS_ALIVE,
    PLAYERS,
    REBELS_ALIVE,
    standings,
)
from companion.rules.victory import Side
from companion.texts import describe as describe_event
from companion.texts import hero_card, identity_label, side_label

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# Reading: what the screens, the history and the exports show


def _line_label(code: str) -> str:
    labels = {
        BASE: _("Base score"),
        LOYALISTS_ALIVE: _("Loyalists alive"),
        REBELS_ALIVE: _("Rebels alive"),
        PLAYERS: _("Players in the game"),
        FINAL_DUEL: _("Final duel"),
        KILL_LORD: _("Killed the Lord"),
        KILL_LOYALIST: _("Killed a Loyalist"),
        KILL_REBEL: _("Killed a Rebel"),
        KILL_RENEGADE: _("Killed a Renegade"),
    }
    return labels.get(code, code)


@dataclass(frozen=True)
class Victim:
    """A seat killed by a player in one game."""

    seat: int
    name: str
    identity: str


@dataclass(frozen=True)
class ScoreItem:
    """One line of a breakdown; a kill bonus names its victim."""

    code: str
    points: int
    count: int = 1
    victim: Victim | None = None

    @property
    def total(self) -> int:
        """The points this line adds."""
        return self.points * self.count

    @property
    def label(self) -> str:
        """The line's name in the active language; a counted line says what it counts and what
        each is worth ("3 rebels alive × 2 points")."""
        if self.victim is not None:
            return _("Killed %(name)s (%(identity)s)") % {
                "name": self.victim.name,
                "identity": identity_label(self.victim.identity),
            }
        counted = _counted_label(self.code, self.count)
        if counted is None:
            return _line_label(self.code)
        points = ngettext("%(p)s point", "%(p)s points", self.points) % {"p": self.points}
        return _("%(what)s × %(points)s") % {"what": counted, "points": points}

    @property
    def detail(self) -> str:
        """What the line adds: "+2", or for a counted line "= +6"."""
        sign = f"{self.total:+d}"
        return sign if _counted_label(self.code, self.count) is None else f"= {sign}"


def _counted_label(code: str, n: int) -> str | None:
    """What a line worth points per occurrence counts ("3 rebels alive"), or None."""
    if code == LOYALISTS_ALIVE:
        return ngettext("%(n)s loyalist alive", "%(n)s loyalists alive", n) % {"n": n}
    if code == REBELS_ALIVE:
        return ngettext("%(n)s rebel alive", "%(n)s rebels alive", n) % {"n": n}
    if code == PLAYERS:
        return ngettext("%(n)s player in the game", "%(n)s players in the game", n) % {"n": n}
    if code == FINAL_DUEL:
        return ngettext(
            "Final duel: %(n)s player in the game", "Final duel: %(n)s players in the game", n
        ) % {"n": n}
    return None


@dataclass(frozen=True)
class PlayerGame:
    """One player in one finished game: the record and the score."""

    seat: int
    name: str
    position: int
    identity: str
    hero: str
    alive: bool
    killer: int | None
    killer_name: str
    kills: tuple[Victim, ...]
    final_duel: bool
    won: bool
    items: tuple[ScoreItem, ...]
    total: int
    cumulative: int = 0
    winner: str = ""

    @property
    def identity_label(self) -> str:
        """The identity in the active language."""
        return identity_label(self.identity)

    @property
    def hero_card(self) -> Any:
        """The hero card (names, kingdom), or None in first-game mode."""
        return hero_card(self.hero)

    @property
    def note(self) -> str:
        """Why a renegade scored what he scored, when the table may wonder."""
        if self.identity != Identity.RENEGADE or self.winner != Side.LORD:
            return ""
        if self.final_duel:
            return _("Lost the final duel against the Lord: scores the number of players.")
        return _("Died before the final duel: no score.")


@dataclass(frozen=True)
class GameSummary:
    """A finished game as the history shows it."""

    number: int
    session: int | None
    started_at: datetime
    ended_at: datetime | None
    winner: str
    players: tuple[PlayerGame, ...]
    corrections: int = 0

    @property
    def duration(self) -> timedelta | None:
        """How long the game took, from the deal to the end."""
        return self.ended_at - self.started_at if self.ended_at else None

    @property
    def minutes(self) -> int:
        """The duration in whole minutes (at least 1)."""
        duration = self.duration
        return max(1, round(duration.total_seconds() / 60)) if duration else 0

    @property
    def duration_text(self) -> str:
        """The duration in words."""
        return ngettext("%(n)d minute", "%(n)d minutes", self.minutes) % {"n": self.minutes}

    @property
    def winner_label(self) -> str:
        """The winning side in words."""
        return side_label(self.winner)


@dataclass(frozen=True)
class StandingRow:
    """A player's place and totals over a session."""

    rank: int
    seat: int
    name: str
    total: int
    games: int
    wins: int
    kills: int
    wins_by_identity: tuple[tuple[str, int], ...]
    # The player's colour in the charts (SessionSummary.colours).
    colour: str = ""

    @property
    def win_parts(self) -> list[tuple[str, str, int]]:
        """Non-zero wins per identity: (identity, label, count)."""
        return [(i, identity_label(i), n) for i, n in self.wins_by_identity if n]


@dataclass(frozen=True)
class SessionSummary:
    """A session: its games, standings and tournament state."""

    table_code: str
    number: int
    started_at: datetime
    ended_at: datetime | None
    tournament: bool
    lord_order: tuple[tuple[int, str], ...]
    games: tuple[GameSummary, ...]
    standings: tuple[StandingRow, ...]
    in_play: int | None = None
    numbers: tuple[int, ...] = field(default_factory=tuple)

    @property
    def finished(self) -> bool:
        """Whether the session is over."""
        return self.ended_at is not None

    @property
    def tie_break(self) -> str:
        """How ties are broken, in words."""
        return str(TIE_BREAK)

    @property
    def tournament_games(self) -> int:
        """How many games a tournament has (one per player)."""
        return len(self.lord_order)

    @property
    def next_lord(self) -> str:
        """In a tournament: the lord of the game being played or dealt next."""
        done = len(self.games)
        if not self.tournament or self.finished or done >= len(self.lord_order):
            return ""
        return self.lord_order[done][1]

    @property
    def next_game(self) -> int:
        """In a tournament: the number (1..n) of the game being played or dealt next."""
        return len(self.games) + 1

    @property
    def line_chart(self) -> SafeString:
        """Each player's cumulative score after each game (SVG)."""
        series = []
        for row in self.standings:
            values = [0]
            for game in self.games:
                mine = next((p for p in game.players if p.seat == row.seat), None)
                values.append(mine.cumulative if mine else values[-1])
            series.append(charts.Series(row.name, tuple(values), row.colour))
        labels = [str(i) for i in range(len(self.games) + 1)]
        return charts.line_chart(
            series,
            labels,
            title=_("Cumulative score"),
            y_label=_("after each game of the session"),
        )

    @property
    def bar_chart(self) -> SafeString:
        """Each player's wins per identity (SVG)."""
        bars = [charts.Bar(row.name, row.wins_by_identity, row.colour) for row in self.standings]
        legend = [(i, identity_label(i), charts.IDENTITY_COLOURS[i]) for i in IDENTITIES]
        return charts.bar_chart(bars, legend, title=_("Wins per identity"))


def _game_summary(
    game: Game, running: dict[int, int] | None = None, corrections: int = 0
) -> GameSummary:
    """A finished game with its breakdowns; `running` carries cumulative totals across games."""
    results = sorted(game.results, key=lambda e: (e.get("position", 0), e["seat"]))
    names = {int(e["seat"]): e["name"] for e in results}
    idents = {int(e["seat"]): e["identity"] for e in results}
    players = []
    for entry in results:
        pk = int(entry["seat"])
        score = game.scores.get(str(pk), {})
        victims = tuple(
            Victim(int(v), names.get(int(v), ""), idents.get(int(v), ""))
            for v in entry.get("kills", [])
        )
        items: list[ScoreItem] = []
        for line in score.get("lines", []):
            code = line["code"]
            victim_identity = next((i for i, c in KILL_CODES.items() if c == code), None)
            if victim_identity is None:
                items.append(ScoreItem(code, line["points"], line["count"]))
                continue
            for victim in victims:
                if victim.identity == victim_identity:
                    items.append(ScoreItem(code, line["points"], 1, victim))
        total = int(score.get("total", 0))
        cumulative = total
        if running is not None:
            running[pk] = running.get(pk, 0) + total
            cumulative = running[pk]
        killer = entry.get("killer")
        players.append(
            PlayerGame(
                seat=pk,
                name=entry["name"],
                position=int(entry.get("position", 0)),
                identity=entry["identity"],
                hero=entry.get("hero", ""),
                alive=bool(entry["alive"]),
                killer=killer,
                killer_name=names.get(int(killer), "") if killer is not None else "",
                kills=victims,
                final_duel=bool(entry.get("final_duel")),
                won=bool(score.get("won")),
                items=tuple(items),
                total=total,
                cumulative=cumulative,
                winner=game.winner,
            )
        )
    return GameSummary(
        number=game.number,
        session=game.session.number if game.session else None,
        started_at=game.started_at,
        ended_at=game.ended_at,
        winner=game.winner,
        players=tuple(players),
        corrections=corrections,
    )


def _scored(games: Iterable[Game]) -> list[Game]:
    return [g for g in games if g.ended_at is not None and g.results and g.scores]


def _corrections(table: Table) -> dict[int, int]:
    counts: dict[int, int] = {}
    for public in Event.objects.filter(
        table=table, kind=GAME_CORRECTED, private_to__isnull=True
    ).values_list("public", flat=True):
        number = int(public.get("game", 0))
        counts[number] = counts.get(number, 0) + 1
    return counts


def summarize(session: Session) -> SessionSummary:
    """Everything a screen shows about a session, from its finished games only."""
    table = session.table
    all_games = list(session.games.select_related("session").order_by("number"))
    games = _scored(all_games)
    corrections = _corrections(table) if games else {}
    running: dict[int, int] = {}
    summaries = tuple(_game_summary(g, running, corrections.get(g.number, 0)) for g in games)
    names: dict[int, str] = {int(k): v for k, v in session.players.items()}
    for game in games:
        names.update({int(e["seat"]): e["name"] for e in game.results})
    ranked = standings(
        [
            {int(key): game_record(score) for key, score in _in_seat_order(game).items()}
            for game in games
        ]
    )
    colours = player_colours(names)
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
    game = _finished_game(table, number)
    if not game.scores:
        raise NotFound()
    running: dict[int, int] = {}
    if game.session is not None:
        for earlier in _scored(game.session.games.filter(number__lt=game.number)):
            _game_summary(earlier, running)
    return _game_summary(game, running, _corrections(table).get(game.number, 0))


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


def _game_events(table: Table, number: int) -> list[Event]:
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
    events = _game_events(table, number)
    undone = {e.after.get("undoes") for e in events if e.kind == "undo"}
    return [
        TimelineLine(e.kind, dict(e.public), e.version, undone=e.version in undone) for e in events
    ]


# ---------------------------------------------------------------------------------------------
# Exports (never a token, never an event's private before/after)

CSV_COLUMNS = (
    "session",
    "game",
    "started_at",
    "ended_at",
    "duration_seconds",
    "winner",
    "seat",
    "player",
    "position",
    "identity",
    "hero",
    "hero_name",
    "alive",
    "killer",
    "kills",
    "killed",
    "died_in_final_duel",
    "won",
    *LINE_CODES,
    "total",
    "cumulative",
)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _iso(moment: datetime | None) -> str:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else ""


def _seconds(game: GameSummary) -> int | str:
    duration = game.duration
    return round(duration.total_seconds()) if duration is not None else ""


def export_csv(session: Session) -> str:
    """The session as CSV: one row per player per finished game (UTF-8 with a BOM)."""
    summary = summarize(session)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for game in summary.games:
        for p in game.players:
            by_code = dict.fromkeys(LINE_CODES, 0)
            for item in p.items:
                by_code[item.code] = by_code.get(item.code, 0) + item.total
            card = p.hero_card
            writer.writerow(
                [
                    _cell(v)
                    for v in (
                        summary.number,
                        game.number,
                        _iso(game.started_at),
                        _iso(game.ended_at),
                        _seconds(game),
                        game.winner,
                        p.seat,
                        p.name,
                        p.position + 1,
                        p.identity,
                        p.hero,
                        card.name_zh if card else "",
                        int(p.alive),
                        p.killer_name,
                        len(p.kills),
                        ";".join(v.name for v in p.kills),
                        int(p.final_duel),
                        int(p.won),
                        *(by_code[c] for c in LINE_CODES),
                        p.total,
                        p.cumulative,
                    )
                ]
            )
    return out.getvalue()


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "version": event.version,
        "game": event.game_number,
        "kind": event.kind,
        "public": event.public,
        "at": _iso(event.created_at),
    }


def export_json(session: Session) -> dict[str, Any]:
    """The session as plain data: standings, every finished game and its public events."""
    summary = summarize(session)
    table = session.table
    games = []
    for game in summary.games:
        events = _game_events(table, game.number)
        games.append(
            {
                "number": game.number,
                "started_at": _iso(game.started_at),
                "ended_at": _iso(game.ended_at),
                "duration_seconds": _seconds(game),
                "winner": game.winner,
                "players": [
                    {
                        "seat": p.seat,
                        "name": p.name,
                        "position": p.position + 1,
                        "identity": p.identity,
                        "hero": p.hero,
                        "alive": p.alive,
                        "killer": p.killer,
                        "killer_name": p.killer_name,
                        "kills": [
                            {"seat": v.seat, "name": v.name, "identity": v.identity}
                            for v in p.kills
                        ],
                        "final_duel": p.final_duel,
                        "won": p.won,
                        "score": {
                            "lines": [
                                {
                                    "code": i.code,
                                    "points": i.points,
                                    "count": i.count,
                                    "total": i.total,
                                    **({"victim": i.victim.seat} if i.victim else {}),
                                }
                                for i in p.items
                            ],
                            "total": p.total,
                        },
                        "cumulative": p.cumulative,
                    }
                    for p in game.players
                ],
                "corrections": game.corrections,
                "events": [_event_json(e) for e in events],
            }
        )
    started = [
        _event_json(e)
        for e in Event.objects.filter(table=table, kind=SESSION_STARTED, private_to__isnull=True)
        if e.public.get("session") == session.number
    ]
    return {
        "format": "sgs-companion-session/1",
        "table": table.code,
        "exported_at": _iso(timezone.now()),
        "session": {
            "number": summary.number,
            "started_at": _iso(summary.started_at),
            "ended_at": _iso(summary.ended_at),
            "tournament": summary.tournament,
            "lord_order": [{"seat": pk, "name": name} for pk, name in summary.lord_order],
            "players": [{"seat": int(k), "name": v} for k, v in session.players.items()],
            "events": started,
        },
        "tie_break": "total, then games won, then kills, then fewer games played",
        "standings": [
            {
                "rank": r.rank,
                "seat": r.seat,
                "name": r.name,
                "total": r.total,
                "games": r.games,
                "wins": r.wins,
                "wins_by_identity": dict(r.wins_by_identity),
                "kills": r.kills,
            }
            for r in summary.standings
        ],
        "games": games,
    }


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
    table: Table, version: int, action_id: str | None, langs: Sequence[str]
) -> dict[str, str]:
    """The panel per language when the change at `version` touched the scores, else nothing."""
    kinds = set(
        Event.objects.filter(table=table, version=version, private_to__isnull=True).values_list(
            "kind", flat=True
        )
    )
    if not kinds & PANEL_KINDS:
        return {}
    summary = current_summary(table)
    return {lang: render_panel(table, lang, action_id, summary) for lang in langs}
