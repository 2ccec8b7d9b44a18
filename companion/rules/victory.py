"""End of the game (docs/rules.md §7) and the reward or penalty for a kill (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.rules.identities import Identity

DRAW_THREE = "draw3"
LORD_DISCARDS_ALL = "lord_discards_all"


class Side(StrEnum):
    """A winning side."""

    LORD = "lord"
    REBELS = "rebels"
    RENEGADE = "renegade"


@dataclass(frozen=True)
class SeatStatus:
    """One seat's identity and whether its player is alive; `reborn`: alive again (a game on at
    the table that brings the dead back says so), who still counts as dead for the end of the
    game, for scoring and for a killer's reward."""

    identity: Identity
    alive: bool
    reborn: bool = False


def _lord_index(seats: Sequence[SeatStatus]) -> int:
    lords = [i for i, seat in enumerate(seats) if seat.identity == Identity.LORD]
    if len(lords) != 1:
        raise ValueError(f"expected exactly one lord, found {len(lords)}")
    return lords[0]


def winning_side(seats: Sequence[SeatStatus]) -> Side | None:
    """Return the side that has won, or None while the game goes on."""
    lord = seats[_lord_index(seats)]
    alive = [seat for seat in seats if seat.alive]
    if not lord.alive:
        if len(alive) == 1 and alive[0].identity == Identity.RENEGADE:
            return Side.RENEGADE
        # 000/002: the rebels win, alive or dead (003's "loyalists win" reading is not followed).
        return Side.REBELS
    if all(seat.identity not in (Identity.REBEL, Identity.RENEGADE) for seat in alive):
        return Side.LORD
    return None


def winners(seats: Sequence[SeatStatus], side: Side) -> list[int]:
    """Return the indices of the winning seats for this side."""
    _lord_index(seats)
    if side == Side.LORD:
        return [
            i for i, seat in enumerate(seats) if seat.identity in (Identity.LORD, Identity.LOYALIST)
        ]
    if side == Side.REBELS:
        return [i for i, seat in enumerate(seats) if seat.identity == Identity.REBEL]
    # Only the surviving renegade wins; a second, dead renegade does not.
    return [i for i, seat in enumerate(seats) if seat.identity == Identity.RENEGADE and seat.alive]


def death_consequence(*, victim: Identity, killer: Identity | None) -> str | None:
    """Return the killer's reward or penalty: "draw3", "lord_discards_all" or None."""
    if killer is None:
        return None
    if victim == Identity.REBEL:
        return DRAW_THREE
    if victim == Identity.LOYALIST and killer == Identity.LORD:
        return LORD_DISCARDS_ALL
    return None


def for_victory(seats: Sequence[SeatStatus]) -> list[SeatStatus]:
    """The seats as the end of the game sees them: a player brought back (`reborn`) counts as
    dead (a lord, a rebel and a rebel brought back: the lord kills the rebel and wins).
    Unchanged when nobody is back."""
    return [replace(s, alive=False) if s.reborn else s for s in seats]


def counts_alive(seat: SeatStatus) -> bool:
    """Whether a seat counts as alive for the end of the game and for scoring (L and R)."""
    return seat.alive and not seat.reborn


def seat_death_consequence(victim: SeatStatus, killer: SeatStatus | None) -> str | None:
    """The killer's reward or penalty (docs/rules.md §6); none for a reborn victim
    (docs/rules.md §9.1)."""
    if victim.reborn:
        return None
    return death_consequence(victim=victim.identity, killer=killer.identity if killer else None)
