"""3 vs 3's rules (plain Python): its seats and the draft's plan (`seats`), the go that decides
whose turn it is (`go`), and the mode the core reaches through the registry (`mode`)."""

from companion.games.threes.rules.go import FIRST_SIDE, WHO_ACTS, Act, Go, acts_open
from companion.games.threes.rules.mode import NO_LIGHTNING, WIN, ThreesMode
from companion.games.threes.rules.seats import (
    COMMANDER_SEATS,
    PLAN,
    SEATS,
    TEAM_SIZE,
    Colour,
    Role,
    colour,
    heroes_for_seats,
    is_commander,
    layout,
    place_of,
    swap_colours,
)

__all__ = [
    "COMMANDER_SEATS",
    "FIRST_SIDE",
    "NO_LIGHTNING",
    "PLAN",
    "SEATS",
    "TEAM_SIZE",
    "WHO_ACTS",
    "WIN",
    "Act",
    "Colour",
    "Go",
    "Role",
    "ThreesMode",
    "acts_open",
    "colour",
    "heroes_for_seats",
    "is_commander",
    "layout",
    "place_of",
    "swap_colours",
]
