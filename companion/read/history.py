"""The history lines a screen shows: one event each, its text made in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.infra import fastrows
from companion.models import Event, Seat, Table
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
    table: Table,
    limit: int | None = HISTORY_LENGTH,
    *,
    private_to: Seat | None = None,
    game_number: int | None = None,
) -> list[HistoryLine]:
    """The table's last `limit` lines (None: all), newest first: the public ones, or those only
    `private_to` sees; of one game only with `game_number`. One plain statement: a dying seat's
    or a 桃's frame reads its phone's own lines."""
    where = _PRIVATE_TO if private_to is not None else _PUBLIC
    params: list[Any] = [table.pk] + ([private_to.pk] if private_to is not None else [])
    if game_number is not None:
        where += _OF_GAME
        params.append(game_number)
    rows = fastrows.read_columns(Event, _LINE_FIELDS, where, params, ("-version", "-id"), limit)
    return [
        HistoryLine(kind, public, version, game, undone_by is not None)
        for version, kind, public, game, undone_by in rows
    ]


_LINE_FIELDS = ("version", "kind", "public", "game_number", "undone_by")
_EVENTS = Event._meta.db_table
_PUBLIC = f"{_EVENTS}.table_id = %s AND {_EVENTS}.private_to_id IS NULL"
_PRIVATE_TO = f"{_EVENTS}.table_id = %s AND {_EVENTS}.private_to_id = %s"
_OF_GAME = f" AND {_EVENTS}.game_number = %s"
