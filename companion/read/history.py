"""The history lines a screen shows: one event each, its text made in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.models import Event, Table
from companion.words.history import describe

HISTORY_LENGTH = 15


@dataclass(frozen=True)
class HistoryLine:
    """One event as a screen shows it; the text is made when the template renders it, so each
    language's rendering of one change says it in that language."""

    kind: str
    public: dict[str, Any]
    version: int
    game: int
    undone: bool = False

    @property
    def text(self) -> str:
        """The line in the active language."""
        return describe(self.kind, self.public)["text"]

    @property
    def important(self) -> bool:
        """Lines worth an announcement on every screen."""
        if self.kind == "trick_nullified":
            return True
        if self.kind in ("hero_picked", "hero_repicked"):
            return False
        if self.kind.startswith("seat_hand"):
            # A move the host asked for is announced on every screen.
            return self.kind != "seat_handed_over" or bool(self.public.get("by_host"))
        return self.kind.startswith(("identities", "hero", "died", "game_over", "judgement"))

    @property
    def reveal(self) -> bool:
        """Lines that name a dead player's identity (public by then)."""
        return self.kind in ("died", "game_over", "game_corrected")


def history_lines(
    table: Table, limit: int | None = HISTORY_LENGTH, **filters: Any
) -> list[HistoryLine]:
    rows = (
        Event.objects.filter(table=table, **filters)
        .order_by("-version", "-pk")
        .values("version", "kind", "public", "game_number", "undone_by")
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        HistoryLine(
            e["kind"], e["public"], e["version"], e["game_number"], e["undone_by"] is not None
        )
        for e in rows
    ]
