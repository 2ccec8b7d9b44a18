"""Template tags for the session partials (templates/companion/session.html).

The live fragments are rendered from `PublicState` only; these tags add what the session
partials need, read from finished games (public by then) and the session itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from companion.actions import ActionError
from companion.models import Table
from companion.read import sessions

register = template.Library()


@dataclass(frozen=True)
class GameResult:
    """The end screen's part: this game's scores and, when it closed a session, the ranking."""

    game: sessions.GameSummary
    session: sessions.SessionSummary | None


@register.simple_tag
def session_summary(table: Any) -> sessions.SessionSummary | None:
    """The table's current session (a Table, or anything with a `code`)."""
    if not isinstance(table, Table):
        table = Table.objects.filter(code=getattr(table, "code", "")).first()
    return sessions.current_summary(table) if table is not None else None


@register.simple_tag
def game_result(state: Any) -> GameResult | None:
    """The scores of the game a finished public state shows; None while a game is on."""
    if getattr(state, "status", "") != Table.Status.FINISHED:
        return None
    table = Table.objects.filter(code=state.code).first()
    if table is None:
        return None
    try:
        game = sessions.finished_game(table, state.game_number)
    except ActionError:
        return None
    summary = sessions.current_summary(table)
    if summary is not None and game.session != summary.number:
        summary = None
    return GameResult(game=game, session=summary)
