"""Teams formed in the lobby and a session's wins by team and by side (plain data).

3 vs 3 (docs/rules.md §9.7) seats two teams of three, each with a commander: the players pick their
team and each team its commander (`Teams`), and the table is seated team by team with each
commander in the middle of his team (`Teams.seating`). A session counts wins per team, and per
player by the side each played (`team_standings`, `side_wins`): a mode names a seat's side
from its identity (`Mode.draft_side`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from companion.rules.errors import Refused
from companion.rules.identities import Identity
from companion.rules.scoring import GameRecord

P = TypeVar("P", bound=Hashable)
K = TypeVar("K", bound=Hashable)
T = TypeVar("T", bound=Hashable)


class TeamError(Refused):
    """A team change the lobby refuses; nothing changed."""


@dataclass(frozen=True)
class Teams(Generic[P]):
    """Two teams of `size` forming in the lobby (`members[0]`, `members[1]`, in joining order)
    and each team's commander. Refused, changing nothing: a member too many, a commander from
    outside the team, seating before both teams are full with a commander."""

    size: int
    members: tuple[tuple[P, ...], tuple[P, ...]] = ((), ())
    commanders: tuple[P | None, P | None] = (None, None)

    def team_of(self, player: P) -> int | None:
        for team, members in enumerate(self.members):
            if player in members:
                return team
        return None

    def join(self, player: P, team: int) -> Teams[P]:
        """`player` joins `team` (0 or 1), leaving the other team (and its command) if in it."""
        if team not in (0, 1):
            raise TeamError("bad_team", f"team {team!r}")
        if self.team_of(player) == team:
            return self
        if len(self.members[team]) >= self.size:
            raise TeamError("team_full", f"team {team} has {self.size} players")
        left = self.leave(player)
        members = list(left.members)
        members[team] = (*members[team], player)
        return replace(left, members=(members[0], members[1]))

    def leave(self, player: P) -> Teams[P]:
        """`player` leaves his team (and its command)."""
        first, second = (tuple(p for p in team if p != player) for team in self.members)
        one, two = (None if c == player else c for c in self.commanders)
        return replace(self, members=(first, second), commanders=(one, two))

    def make_commander(self, player: P) -> Teams[P]:
        """`player` becomes his team's commander."""
        team = self.team_of(player)
        if team is None:
            raise TeamError("not_in_team", f"{player!r} is in no team")
        commanders = list(self.commanders)
        commanders[team] = player
        return replace(self, commanders=(commanders[0], commanders[1]))

    @property
    def ready(self) -> bool:
        return all(len(m) == self.size for m in self.members) and None not in self.commanders

    def seating(self) -> list[P]:
        """Every player in seat order: team one, then team two, each commander in the middle of
        his team (3 vs 3: vanguard, commander, vanguard; the commanders at indexes 1 and 4)."""
        if not self.ready:
            raise TeamError("teams_not_ready", "two full teams, each with a commander, first")
        seats: list[P] = []
        middle = self.size // 2
        for members, commander in zip(self.members, self.commanders, strict=True):
            others = [p for p in members if p != commander]
            assert commander is not None
            seats.extend((*others[:middle], commander, *others[middle:]))
        return seats

    def as_data(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "members": [list(m) for m in self.members],
            "commanders": list(self.commanders),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Teams[Any]:
        first, second = (tuple(m) for m in data["members"])
        one, two = data["commanders"]
        return cls(size=int(data["size"]), members=(first, second), commanders=(one, two))


# A session ---------------------------------------------------------------------------------


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
