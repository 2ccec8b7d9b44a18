"""3 vs 3's game: on at its tables, it drafts its heroes with the draft kit; in the lobby its
players form two teams (its taps `team` and `commander`), which the first deal seats, and every
screen's mode view shows them."""

from __future__ import annotations

from typing import Any, ClassVar

from companion.games.draft.hooks import DraftingGame
from companion.games.threes.actions import forget_team, seating
from companion.games.threes.forms import FORMS
from companion.games.threes.rules.teams import Teams
from companion.models import Seat, Table


class ThreesGame(DraftingGame):
    key: ClassVar[str] = "threes"
    forms: ClassVar[dict[str, type]] = {**DraftingGame.forms, **FORMS}

    def seating(self, table: Table, seats: list[Seat]) -> list[Seat]:
        return seating(table, seats)

    def seat_left(self, table: Table, seat: Seat) -> None:
        forget_team(table, seat.pk)

    def mode_view(
        self, table: Table, seats: list[Seat], side: str | None, drafts: bool
    ) -> dict[str, Any]:
        parts = super().mode_view(table, seats, side, drafts)
        data = (table.mode_state or {}).get("teams")
        if data:
            teams = Teams.from_data(data)
            parts.update(teams=[list(m) for m in teams.members], commanders=list(teams.commanders))
        return parts
