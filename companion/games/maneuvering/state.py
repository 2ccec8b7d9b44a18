"""What 军争 adds to every screen: the chain paused for a seat it left dying (docs/rules.md
§9.9), with who it waits for and who is next."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.maneuvering.actions import paused_chain
from companion.models import Seat, Table


@dataclass(frozen=True)
class ChainPause:
    """A chain paused (docs/rules.md §9.9): who it left dying, whether he still is, who is next."""

    dying_name: str
    waiting: bool
    rest_names: list[str]


def chain_pause(table: Table, seats: list[Seat]) -> ChainPause | None:
    """The chain waiting for the seat it left dying, if any (a game in play only)."""
    if table.status != Table.Status.PLAYING:
        return None
    pause = paused_chain(table)
    if pause is None:
        return None
    return ChainPause(
        dying_name=pause.get("dying_name", ""),
        waiting=any(s.alive and s.dying for s in seats),
        rest_names=list(pause.get("rest_names", [])),
    )
