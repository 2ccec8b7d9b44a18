"""A session's games as stored: a game found by the number a page or a tap sent, whether it is
over, and the event kinds after which a session's panel is sent again."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from companion.models import GAME_CORRECTED, SESSION_STARTED, Game, Table

# Every kind after which the session panel must be sent again.
PANEL_KINDS = frozenset(
    {SESSION_STARTED, GAME_CORRECTED, "game_over", "identities_dealt", "identities_redealt"}
)

# The refusal of a game that is still being played (its page, its correction).
NOT_OVER = gettext_lazy("That game is not over yet.")


def game_numbered(table: Table, number: Any) -> Game | None:
    """The game of this table with this number (sent as text or a number), its session read
    with it; None when there is none."""
    try:
        wanted = int(number)
    except (TypeError, ValueError):
        return None
    return Game.objects.filter(table=table, number=wanted).select_related("session").first()


def is_over(game: Game) -> bool:
    """Whether the game has ended and kept its results (only such a game is shown or corrected)."""
    return game.ended_at is not None and bool(game.results)
