"""A session's wins by side and by team (plain data): a mode whose seats play sides (its draft's
sides, `Mode.draft_side`) counts each player's wins by the side he played (`side_wins`), and a
mode whose players form teams counts each team's games and wins, by side (`team_standings`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from companion.rules.identities import Identity
from companion.rules.scoring import GameRecord

K = TypeVar("K", bound=Hashable)
T = TypeVar("T", bound=Hashable)


@dataclass
class TeamStanding(Generic[T]):
    """A team's games and wins over a session, and its wins by the side it played."""

    team: T
    games: int = 0
    wins: int = 0
    wins_by_side: dict[str, int] = field(default_factory=dict)


def team_standings(
    games: Sequence[Mapping[K, GameRecord]],
    team_of: Mapping[K, T],
    side_of: Callable[[Identity], str],
) -> list[TeamStanding[T]]:
    """Each team's games and wins (a team wins a game when its players do), by the side it
    played (`side_of` a player's identity), most wins first."""
    table: dict[T, TeamStanding[T]] = {}
    for game in games:
        teams: dict[T, GameRecord] = {}
        for player, record in game.items():
            teams.setdefault(team_of[player], record)
        for team, record in teams.items():
            standing = table.setdefault(team, TeamStanding(team=team))
            standing.games += 1
            if record.won:
                standing.wins += 1
                side = side_of(record.identity)
                standing.wins_by_side[side] = standing.wins_by_side.get(side, 0) + 1
    return sorted(table.values(), key=lambda s: -s.wins)


def side_wins(
    games: Sequence[Mapping[K, GameRecord]], side_of: Callable[[Identity], str]
) -> dict[K, dict[str, int]]:
    """Each player's wins by the side he played."""
    wins: dict[K, dict[str, int]] = {}
    for game in games:
        for player, record in game.items():
            mine = wins.setdefault(player, {})
            if record.won:
                side = side_of(record.identity)
                mine[side] = mine.get(side, 0) + 1
    return wins
