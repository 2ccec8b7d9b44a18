"""Seat distance, attack range and trick reach (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatView:
    """What distance needs to know about one seat."""

    alive: bool = True
    weapon_range: int | None = None
    plus_horse: bool = False
    minus_horse: bool = False
    horsemanship: bool = False
    qicai: bool = False

    def __post_init__(self) -> None:
        """Reject a weapon range below 1."""
        if self.weapon_range is not None and self.weapon_range < 1:
            raise ValueError(f"weapon range must be at least 1: {self.weapon_range!r}")

    @property
    def outgoing_reduction(self) -> int:
        """How much this seat's -1 horse and 马术 shorten its distance to others."""
        # 马术 acts as a -1 horse and stacks with an equipped one (docs/rules.md §4).
        return int(self.minus_horse) + int(self.horsemanship)

    @property
    def incoming_increase(self) -> int:
        """How much this seat's +1 horse lengthens others' distance to it."""
        return int(self.plus_horse)


def _check_pair(seats: Sequence[SeatView], source: int, target: int) -> None:
    """Raise ValueError unless source and target are distinct alive seats."""
    for role, index in (("source", source), ("target", target)):
        if not 0 <= index < len(seats):
            raise ValueError(f"{role} seat {index} out of range 0..{len(seats) - 1}")
        if not seats[index].alive:
            raise ValueError(f"{role} seat {index} is dead")
    if source == target:
        raise ValueError("source and target are the same seat")


def ring_distance(seats: Sequence[SeatView], source: int, target: int) -> int:
    """Seats between two alive players the shorter way round the ring of alive players."""
    _check_pair(seats, source, target)
    ring = [index for index, seat in enumerate(seats) if seat.alive]
    steps = (ring.index(target) - ring.index(source)) % len(ring)
    return min(steps, len(ring) - steps)


def seat_distance(seats: Sequence[SeatView], source: int, target: int) -> int:
    """Distance source→target with horses and 马术 applied, never below 1."""
    base = ring_distance(seats, source, target)
    adjusted = base + seats[target].incoming_increase - seats[source].outgoing_reduction
    return max(adjusted, 1)


def attack_range(seat: SeatView) -> int:
    """The equipped weapon's range, else 1."""
    return seat.weapon_range if seat.weapon_range is not None else 1


def can_attack(seats: Sequence[SeatView], source: int, target: int) -> bool:
    """Whether source may 杀 target: distance within source's attack range."""
    return attacks_at(seats[source], seat_distance(seats, source, target))


def attacks_at(source: SeatView, distance: int) -> bool:
    """`can_attack` for a target at a known distance from source."""
    return distance <= attack_range(source)


def in_trick_reach(seats: Sequence[SeatView], source: int, target: int) -> bool:
    """Whether 顺手牵羊 / 兵粮寸断 from source reach target (distance ≤ 1; 奇才: always)."""
    return trick_reaches_at(seats[source], seat_distance(seats, source, target))


def trick_reaches_at(source: SeatView, distance: int) -> bool:
    """`in_trick_reach` for a target at a known distance from source."""
    # 奇才: the user's tricks have no distance limit; weapons never count for tricks.
    return source.qicai or distance <= 1


def distance_matrix(seats: Sequence[SeatView]) -> dict[tuple[int, int], int]:
    """Distance for every ordered pair of distinct alive seats."""
    alive = [index for index, seat in enumerate(seats) if seat.alive]
    return {
        (source, target): seat_distance(seats, source, target)
        for source in alive
        for target in alive
        if source != target
    }
