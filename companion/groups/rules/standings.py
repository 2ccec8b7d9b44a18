"""All-time standings of one way to play: games, wins, win rates per place, points, kills and
the leader's games (docs/rules.md §8's points, as each game was scored)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.groups.rules.plays import Play


def rate(wins: int, games: int) -> float:
    """Wins over games, 0 for none."""
    return wins / games if games else 0.0


@dataclass
class Tally:
    """Games and wins of one kind (a place, or as leader)."""

    games: int = 0
    wins: int = 0

    @property
    def rate(self) -> float:
        return rate(self.wins, self.games)


@dataclass
class Row:
    """One player's totals over the plays."""

    player: int
    games: int = 0
    wins: int = 0
    points: int = 0
    kills: int = 0
    places: dict[str, Tally] = field(default_factory=dict)
    leader: Tally = field(default_factory=Tally)
    rank: int = 0

    @property
    def rate(self) -> float:
        return rate(self.wins, self.games)

    @property
    def per_game(self) -> float:
        """Points per game."""
        return self.points / self.games if self.games else 0.0

    def sort_key(self) -> tuple[int, int, int, int]:
        """Higher points, then more wins, more kills, fewer games (the session's order)."""
        return (-self.points, -self.wins, -self.kills, self.games)


def standings(plays: Sequence[Play]) -> list[Row]:
    """Every player of these plays ranked, best first; equal players share a rank (1, 1, 3)."""
    rows: dict[int, Row] = {}
    for play in plays:
        for r in play.results:
            row = rows.setdefault(r.player, Row(r.player))
            row.games += 1
            row.wins += r.won
            row.points += r.points
            row.kills += r.kills
            tally = row.places.setdefault(r.place, Tally())
            tally.games += 1
            tally.wins += r.won
            if r.leader:
                row.leader.games += 1
                row.leader.wins += r.won
    ordered = sorted(rows.values(), key=Row.sort_key)
    for i, row in enumerate(ordered):
        before = ordered[i - 1] if i else None
        row.rank = before.rank if before and before.sort_key() == row.sort_key() else i + 1
    return ordered


def places(plays: Sequence[Play]) -> tuple[str, ...]:
    """The places played in these plays, in the order first seen (the table's columns)."""
    seen: dict[str, None] = {}
    for play in plays:
        seen.update(dict.fromkeys(r.place for r in play.results))
    return tuple(seen)
