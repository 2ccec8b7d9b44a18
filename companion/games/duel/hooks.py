"""1 vs 1's game: on at its tables, it drafts its heroes with the draft kit, and a seat whose
hero falls plays its next one (`actions.hero_fall`)."""

from __future__ import annotations

from typing import Any, ClassVar

from companion.games.draft.hooks import DraftingGame
from companion.games.duel.actions import hero_fall
from companion.models import Seat, Table


class DuelGame(DraftingGame):
    key: ClassVar[str] = "duel"

    def hero_fell(
        self, actor: Any, table: Table, seats: list[Seat], seat: Seat, action_id: str | None
    ) -> Any:
        return hero_fall(actor, table, seats, seat, action_id)
