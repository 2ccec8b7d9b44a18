"""Identity mode (身份局): how many of each identity, dealing them, and who may see them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from companion.rules import chance

MIN_PLAYERS = 4
MAX_PLAYERS = 10


class Identity(StrEnum):
    """The four identity cards."""

    LORD = "lord"
    LOYALIST = "loyalist"
    REBEL = "rebel"
    RENEGADE = "renegade"


@dataclass(frozen=True)
class IdentityOptions:
    """Table options that change the identity distribution."""

    six_two_renegades: bool = False
    eight_two_renegades: bool = False


# docs/rules.md §1: (loyalists, rebels, renegades) by player count; there is always exactly one
# lord.
_DEFAULT_TABLE: dict[int, tuple[int, int, int]] = {
    4: (1, 1, 1),
    5: (1, 2, 1),
    6: (1, 3, 1),
    7: (2, 3, 1),
    8: (2, 4, 1),
    9: (3, 4, 1),
    10: (3, 4, 2),
}


def check_player_count(player_count: int) -> None:
    """Raise ValueError unless identity mode supports this many players (4 to 10)."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise ValueError(
            f"identity mode needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {player_count}"
        )


def distribution(
    player_count: int, options: IdentityOptions = IdentityOptions()
) -> dict[Identity, int]:
    """Return how many players get each identity at this player count."""
    check_player_count(player_count)
    loyalists, rebels, renegades = _DEFAULT_TABLE[player_count]
    if player_count == 6 and options.six_two_renegades:
        loyalists, rebels, renegades = 1, 2, 2
    if player_count == 8 and options.eight_two_renegades:
        loyalists, rebels, renegades = 2, 3, 2
    return {
        Identity.LORD: 1,
        Identity.LOYALIST: loyalists,
        Identity.REBEL: rebels,
        Identity.RENEGADE: renegades,
    }


def _identity_pool(player_count: int, options: IdentityOptions) -> list[Identity]:
    return [
        identity
        for identity, count in distribution(player_count, options).items()
        for _ in range(count)
    ]


def deal_identities(
    player_count: int,
    options: IdentityOptions = IdentityOptions(),
    rng: random.Random | None = None,
) -> list[Identity]:
    """Deal identities uniformly at random; index i is the i-th seat in seat order."""
    rng = chance.given_or_source(rng)
    cards = _identity_pool(player_count, options)
    rng.shuffle(cards)
    return cards


def deal_identities_fixed_lord(
    player_count: int,
    lord_index: int,
    options: IdentityOptions = IdentityOptions(),
    rng: random.Random | None = None,
) -> list[Identity]:
    """Deal with the lord at lord_index and the other identities at random (tournament)."""
    check_player_count(player_count)
    if not 0 <= lord_index < player_count:
        raise ValueError(f"lord_index {lord_index} outside 0..{player_count - 1}")
    rng = chance.given_or_source(rng)
    others = _identity_pool(player_count, options)
    others.remove(Identity.LORD)
    rng.shuffle(others)
    return [*others[:lord_index], Identity.LORD, *others[lord_index:]]


def can_see_identity(
    *,
    viewer_is_target: bool,
    viewer_identity: Identity | None,
    target_identity: Identity,
    target_alive: bool,
    game_over: bool,
) -> bool:
    """Return whether the viewer (None: a public display) may see the target's identity."""
    if viewer_is_target or game_over or not target_alive:
        return True
    # The rules show the lord only; a game package may show more to some viewers.
    return target_identity == Identity.LORD
