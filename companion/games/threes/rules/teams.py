"""3 vs 3's teams formed in the lobby (plain data; docs/rules.md §9.7).

Two teams of three, each with a commander: the players pick their team and each team its
commander (`Teams`), and the table is seated team by team with each commander in the middle of
his team (`Teams.seating`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from companion.rules.errors import Refused

P = TypeVar("P", bound=Hashable)


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
