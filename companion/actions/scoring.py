"""Scoring a finished game (docs/rules.md §8) as its table's mode scores it (`Mode.score`): its
scores when it ends, a tournament closed once everyone has been the leader, and the stored scores
read back for the standings."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from companion.actions.inputs import mode_of
from companion.actions.session_deal import finished_count, open_session
from companion.models import Game, Table
from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.scoring import PlayerResult
from companion.rules.victory import Side

log = logging.getLogger(__name__)

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


def score_results(
    mode: modes.Mode, results: Sequence[Mapping[str, Any]], winner: str
) -> dict[str, dict[str, Any]]:
    """Scores of a finished game of this mode, keyed by seat id (as text, like JSON keys).

    Each value holds the identity, whether the seat won, its number of kills, the breakdown
    lines (code, points, count, total) and the total.
    """
    players = {str(entry["seat"]): player_result(entry) for entry in results}
    records = mode.score(players, Side(winner))
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


def game_finished(table: Table, game: Game) -> None:
    """Score a game that has just ended; close a tournament once everyone has been the
    leader (`Session.lord_order`, the stored name of the leaders' order)."""
    if game.session_id is None:
        game.session = table.session or open_session(table, list(table.seats.all()))
    try:
        game.scores = score_results(mode_of(table), game.results, game.winner)
    except (KeyError, ValueError):
        # Never let scoring stop the end of a game; a correction can score it later.
        log.exception("game %s of table %s could not be scored", game.number, table.pk)
        game.scores = {}
    game.save(update_fields=["session", "scores"])
    session = game.session
    if session is not None and session.tournament and session.ended_at is None:
        if finished_count(session) >= len(session.lord_order):
            session.ended_at = game.ended_at or timezone.now()
            session.save(update_fields=["ended_at"])
