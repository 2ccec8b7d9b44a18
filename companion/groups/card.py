"""The display's end-of-evening card: the evening's best player and the group's all-time
leader (the best rating), from the group's own rows."""

from __future__ import annotations

from dataclasses import dataclass

from companion.groups import read
from companion.groups.models import Evening
from companion.groups.rules.rating import rate
from companion.groups.rules.standings import standings


@dataclass(frozen=True)
class EveningCard:
    group: str
    games: int
    best: read.Person | None
    best_points: int
    best_wins: int
    leader: read.Person | None
    leader_rating: float


def evening_card(evening: Evening) -> EveningCard | None:
    """The card, or None before the evening has a finished game."""
    plays, games, names = read.load(evening.group)
    people = read.colours(plays, names)
    tonight = [p for p in plays if games[p.key].evening_id == evening.pk]
    if not tonight:
        return None
    best = standings(tonight)[0]
    rated = rate(plays).table
    top = rated[0] if rated else None
    return EveningCard(
        group=evening.group.name,
        games=len(tonight),
        best=people[best.player],
        best_points=best.points,
        best_wins=best.wins,
        leader=people[top.player] if top else None,
        leader_rating=top.value if top else 0.0,
    )
