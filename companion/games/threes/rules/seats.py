"""3 vs 3's seats (docs/rules.md §9.7): the two colours, each team's places round its commander,
the identities a deal or a next game gives the six seats, and the draft's plan with the heroes
each seat plays once both commanders have placed (plain Python)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from companion.games.draft.rules import DraftPlan, Placement
from companion.rules.errors import Refused
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus, Side

SEATS = 6
TEAM_SIZE = 3
COMMANDER_SEATS = (1, 4)


class Colour(StrEnum):
    WARM = "warm"
    COLD = "cold"


class Role(StrEnum):
    COMMANDER = "commander"
    VANGUARD_A = "vanguard_a"
    VANGUARD_B = "vanguard_b"


COLOUR_OF: dict[Identity, Colour] = {
    Identity.LORD: Colour.WARM,
    Identity.LOYALIST: Colour.WARM,
    Identity.RENEGADE: Colour.COLD,
    Identity.REBEL: Colour.COLD,
}
COMMANDER_OF: dict[Colour, Identity] = {Colour.WARM: Identity.LORD, Colour.COLD: Identity.RENEGADE}
VANGUARD_OF: dict[Colour, Identity] = {Colour.WARM: Identity.LOYALIST, Colour.COLD: Identity.REBEL}
SIDE_OF: dict[Colour, Side] = {Colour.WARM: Side.LORD, Colour.COLD: Side.RENEGADE}
COLOUR_OF_SIDE: dict[Side, Colour] = {side: colour for colour, side in SIDE_OF.items()}

# The ring, from cold vanguard A (docs/rules.md §9.7).
RING: tuple[tuple[Colour, Role], ...] = (
    (Colour.COLD, Role.VANGUARD_A),
    (Colour.COLD, Role.COMMANDER),
    (Colour.COLD, Role.VANGUARD_B),
    (Colour.WARM, Role.VANGUARD_B),
    (Colour.WARM, Role.COMMANDER),
    (Colour.WARM, Role.VANGUARD_A),
)

PLAN = DraftPlan(
    sides=(Colour.WARM.value, Colour.COLD.value),
    pool_size=16,
    face_down=0,
    steps=(1, 2, 2, 2, 2, 2, 2, 2, 1),
    slots=(Role.COMMANDER.value, Role.VANGUARD_A.value, Role.VANGUARD_B.value),
    first_side=None,
    first_chooser=Colour.WARM.value,
    reveal_all=True,
)


def colour(identity: Identity) -> Colour:
    """The colour a seat of this identity plays."""
    return COLOUR_OF[Identity(identity)]


def is_commander(identity: Identity) -> bool:
    return Identity(identity) in (Identity.LORD, Identity.RENEGADE)


# Seats and colours -----------------------------------------------------------------------


def layout(warm_commander: int) -> list[Identity]:
    """The identities of the six seats when the warm commander sits at `warm_commander` (1 or
    4): each commander's team round him."""
    if warm_commander not in COMMANDER_SEATS:
        raise Refused("not_a_commander_seat", f"the commanders sit at {COMMANDER_SEATS}")
    warm = [Identity.LOYALIST, Identity.LORD, Identity.LOYALIST]
    cold = [Identity.REBEL, Identity.RENEGADE, Identity.REBEL]
    return [*warm, *cold] if warm_commander == 1 else [*cold, *warm]


def swap_colours(identities: Sequence[Identity]) -> list[Identity]:
    """The next game's deal at the same table: each team takes the other colour."""
    check_layout(identities)
    swapped = {
        Identity.LORD: Identity.RENEGADE,
        Identity.RENEGADE: Identity.LORD,
        Identity.LOYALIST: Identity.REBEL,
        Identity.REBEL: Identity.LOYALIST,
    }
    return [swapped[Identity(i)] for i in identities]


def check_layout(identities: Sequence[Identity]) -> None:
    if [Identity(i) for i in identities] not in (layout(1), layout(4)):
        raise Refused("bad_layout", "not a 3 vs 3 table's identities")


def _cold_commander(identities: Sequence[Identity]) -> int:
    return [Identity(i) for i in identities].index(Identity.RENEGADE)


def place_of(identities: Sequence[Identity], seat: int) -> tuple[Colour, Role]:
    """The colour and place of a seat (its position in the ring from cold vanguard A)."""
    check_layout(identities)
    if not 0 <= seat < SEATS:
        raise Refused("bad_seat", f"seat {seat}")
    return RING[(seat - _cold_commander(identities) + 1) % SEATS]


def heroes_for_seats(identities: Sequence[Identity], placement: Placement) -> list[str]:
    """Each seat's hero once both commanders have placed: a side's commander place to its
    commander, its vanguard places to its vanguards."""
    if not placement.revealed:
        raise Refused("not_revealed", "both sides place before the heroes are known")
    heroes = []
    for seat in range(SEATS):
        side, role = place_of(identities, seat)
        heroes.append(placement.lineup(side.value)[PLAN.slots.index(role.value)])
    return heroes


def seat_of(seats: Sequence[SeatStatus], identity: Identity) -> int:
    """The seat (index) holding this identity card."""
    return next(i for i, s in enumerate(seats) if s.identity == identity)


def other(side: Colour) -> Colour:
    """The other colour."""
    return Colour.COLD if side is Colour.WARM else Colour.WARM
