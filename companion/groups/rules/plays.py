"""A group's finished games as the rules read them, and the filters of the group page."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple


class Result(NamedTuple):
    """One player's part in one finished game (a tuple: a thousand games are five thousand of
    these, built on every read of the group page)."""

    player: int
    identity: str
    # The mode's own name for the seat's role (Mode.role), or "" where the identity says it.
    role: str
    # Seats sharing a team win or lose together (the rating's teams).
    team: str
    leader: bool
    hero: str
    alive: bool
    won: bool
    kills: int
    points: int
    # The player's rating after this game as stored (companion.groups.ratings), None where the
    # game rated nobody or the rows were read without it.
    mu: float | None = None
    sigma: float | None = None

    @property
    def place(self) -> str:
        """What the seat played, for the win rates: the mode's role, else the identity."""
        return self.role or self.identity


@dataclass(frozen=True)
class Play:
    """One finished game of the group: `key` names it for the records' links."""

    key: int
    mode: str
    started_at: datetime
    ended_at: datetime
    winner: str
    results: tuple[Result, ...]

    @property
    def seconds(self) -> int:
        """How long the game took, from the deal to the end."""
        return max(0, round((self.ended_at - self.started_at).total_seconds()))

    @property
    def player_count(self) -> int:
        return len(self.results)


PERIODS = ("all", "year", "month")


def period_start(period: str, now: datetime) -> datetime | None:
    """The first moment of this period ("month", "year"), None for "all"."""
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


def select(
    plays: Iterable[Play], *, since: datetime | None = None, players: int | None = None
) -> list[Play]:
    """The plays ended since `since` with `players` players (None: any), in order."""
    return [
        p
        for p in plays
        if (since is None or p.ended_at >= since) and (players is None or p.player_count == players)
    ]


def by_mode(plays: Sequence[Play]) -> dict[str, list[Play]]:
    """The plays of each way to play, in the order the modes were first played."""
    found: dict[str, list[Play]] = {}
    for play in plays:
        found.setdefault(play.mode, []).append(play)
    return found
