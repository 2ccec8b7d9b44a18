"""3 vs 3's game: on at its tables, it drafts its heroes with the draft kit."""

from __future__ import annotations

from typing import ClassVar

from companion.games.draft.hooks import DraftingGame


class ThreesGame(DraftingGame):
    key: ClassVar[str] = "threes"
