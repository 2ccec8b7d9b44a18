"""1 vs 1's game: on at its tables, it drafts its heroes with the draft kit, and a seat whose
hero falls plays its next one (`actions.hero_fall`); a seat whose last hero fell dies, its fall
counted, and the death's undo counts it again."""

from __future__ import annotations

from typing import Any, ClassVar

from companion import hooks
from companion.games.draft.hooks import DraftingGame
from companion.games.duel.actions import FELL, hero_fall, undo_death, undo_fall
from companion.models import Event, Seat, Table


class DuelGame(DraftingGame):
    key: ClassVar[str] = "duel"
    event_kinds: ClassVar[frozenset[str]] = frozenset({FELL})
    host_undoes: ClassVar[frozenset[str]] = frozenset({FELL})
    # Every screen shows the draw of a hero come in (its new hand), as the draft's reveal's.
    draw_starts: ClassVar[frozenset[str]] = DraftingGame.draw_starts | {FELL}

    def hero_fell(
        self, actor: Any, table: Table, seats: list[Seat], seat: Seat, action_id: str | None
    ) -> Any:
        return hero_fall(actor, table, seats, seat, action_id)

    def after_death(self, ctx: hooks.Death) -> None:
        # The count of fallen heroes as it was before the last one fell (its undo's).
        if "fallen" in ctx.table.mode_state:
            ctx.before["fallen"] = ctx.state_before.get("fallen", {})

    def undo(self, table: Table, event: Event) -> set[int]:
        if event.kind == "died":
            return undo_death(table, event)
        return undo_fall(table, event) if event.kind == FELL else set()
