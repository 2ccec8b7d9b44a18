"""A session's exports, CSV and JSON (never a token, never an event's private before/after)."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from django.utils import timezone

from companion.models import SESSION_STARTED, Event, Session
from companion.queries.scores import line_codes
from companion.read.session_games import GameSummary
from companion.read.sessions import game_events, summarize

_HEAD = (
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
    "role",  # `Mode.role`: the side and place played; empty where the identity says it
    "hero",
    "hero_name",
    "alive",
    "killer",
    "kills",
    "killed",
    "died_in_final_duel",
    "won",
)
_TAIL = ("total", "cumulative")


def csv_columns() -> tuple[str, ...]:
    """The CSV's columns: every mode's score line codes between the player's and the totals
    (asked each time: the modes register when their apps are ready)."""
    return (*_HEAD, *line_codes(), *_TAIL)


def __getattr__(name: str) -> Any:
    # The module's columns as attributes, read when asked (after every mode has registered).
    if name == "CSV_COLUMNS":
        return csv_columns()
    if name == "LINE_CODES":
        return line_codes()
    raise AttributeError(name)


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
    codes = line_codes()
    writer.writerow((*_HEAD, *codes, *_TAIL))
    for game in summary.games:
        for p in game.players:
            by_code = dict.fromkeys(codes, 0)
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
                        p.role,
                        p.hero,
                        card.name_zh if card else "",
                        int(p.alive),
                        p.killer_name,
                        len(p.kills),
                        ";".join(v.name for v in p.kills),
                        int(p.final_duel),
                        int(p.won),
                        *(by_code[c] for c in codes),
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
        events = game_events(table, game.number)
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
                        "role": p.role,
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
                "variants": [v.name for v in game.variants],
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
