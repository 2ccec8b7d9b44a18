"""The hooks every drafted mode's game shares: its taps are the draft's, the game starts with the
draft when the deal is left, and the mode's view on every screen holds the draft's part. A mode's
package subclasses `DraftingGame` with its mode's key and registers it when its app is ready."""

from __future__ import annotations

from typing import Any, ClassVar

from companion import hooks
from companion.games.draft.actions import REVEALED, start_draft
from companion.games.draft.forms import FORMS
from companion.games.draft.read import draft_view
from companion.models import Seat, Table


class DraftingGame(hooks.Game):
    """A mode that drafts its heroes: on at the tables of that mode (`key`)."""

    forms: ClassVar[dict[str, type]] = dict(FORMS)
    draw_starts: ClassVar[frozenset[str]] = frozenset({REVEALED})

    def is_on(self, table: Table) -> bool:
        return table.mode == self.key

    def start_heroes(
        self, actor: Any, table: Table, seats: list[Seat], action_id: str | None, pool: str
    ) -> Any:
        return start_draft(actor, table, seats, action_id, pool)

    def mode_view(
        self, table: Table, seats: list[Seat], side: str | None, drafts: bool
    ) -> dict[str, Any]:
        return draft_view(table, seats, side, drafts)
