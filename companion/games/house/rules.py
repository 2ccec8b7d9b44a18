"""Seed 003's house rules (docs/rules.md §1, §2, §9.6), table options, off by default.

- Rebels know each other: from the deal, each rebel's phone shows the other rebels. Nobody else
  learns anything (the public screens, the lord, loyalists and renegades see what they would).
- The lord starts with five cards, one more than everybody's four.

And seed 004's lord pack: the lord chooses from 3 heroes and 1 lord hero drawn from the box
(`lord_pack_offer`, offered through the hooks).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.rules import box, chance, modes
from companion.rules.identities import Identity, can_see_identity

LORD_PACK_OTHERS = 3  # the lord pack: 3 random non-lord heroes and one lord hero
START_CARDS = 4
LORD_START_CARDS = 5

# Its options (docs/rules.md §9.5, §9.6).
LORD_PACK = "lord_pack"
REBELS = "rebels_know_each_other"
LORD_FIVE = "lord_five_cards"
# The mode they belong to, and its option the lord pack does not go with (names: data).
MODE = "identity"
FIRST_GAME = "first_game_mode"
CLASH_FIRST_GAME = "lord_pack_first_game"
ONE_REBEL = "rebels_know_one_rebel"


def sees_fellow(viewer: Identity | None, target: Identity, *, rebels_know_each_other: bool) -> bool:
    """Whether the house rule shows `target`'s identity to `viewer` where the rules would not:
    a rebel sees the other rebels, with the option on. Seed 003 only; official texts say
    nothing, so it is an opt-in table option."""
    return rebels_know_each_other and viewer == Identity.REBEL and target == Identity.REBEL


def known_identities(
    identities: Sequence[Identity],
    *,
    alive: Sequence[bool] | None = None,
    game_over: bool = False,
    rebels_know_each_other: bool,
) -> list[dict[int, Identity]]:
    """For each seat (index i is the i-th seat round the table), the identities its phone may
    show, by seat index: its own, the lord's, the dead's (all once the game is over), and with
    the option on, to a rebel, the other rebels."""
    living = [True] * len(identities) if alive is None else list(alive)
    if len(living) != len(identities):
        raise ValueError("one alive flag per seat")
    return [
        {
            target: identity
            for target, identity in enumerate(identities)
            if can_see_identity(
                viewer_is_target=viewer == target,
                viewer_identity=identities[viewer],
                target_identity=identity,
                target_alive=living[target],
                game_over=game_over,
            )
            or sees_fellow(
                identities[viewer], identity, rebels_know_each_other=rebels_know_each_other
            )
        }
        for viewer in range(len(identities))
    ]


def starting_cards(identity: Identity, *, lord_five_cards: bool) -> int:
    """The cards a player draws from the real deck at the start (the app only reminds): four;
    the lord five with the option on."""
    return LORD_START_CARDS if lord_five_cards and identity == Identity.LORD else START_CARDS


def two_rebels(options: modes.TableOptions, seat_count: int) -> modes.OptionRefusal | None:
    """Rebels who know each other need two rebels: refused where the deal of `seat_count`
    players has one (at 4); nothing for a count the mode deals no game to (the deal says so)."""
    mode = modes.get(options.MODE)
    if not mode.seats_allowed(seat_count):
        return None
    if mode.identity_counts(seat_count, options).get(Identity.REBEL, 0) >= 2:
        return None
    return modes.OptionRefusal(
        REBELS, ONE_REBEL, "Rebels who know each other need two rebels or more; this deal has one."
    )


def declare() -> None:
    """Declare its options for the identity game, last among its variants."""
    modes.add_option(
        LORD_PACK,
        modes=(MODE,),
        variant=True,
        place=50,
        clashes=(
            modes.Clash(
                FIRST_GAME,
                CLASH_FIRST_GAME,
                "The lord pack offers heroes, and first-game mode plays without heroes.",
            ),
        ),
    )
    modes.add_option(REBELS, modes=(MODE,), variant=True, place=60, seats=two_rebels)
    modes.add_option(LORD_FIVE, modes=(MODE,), variant=True, place=70)


def lord_pack_offer(hero_box: box.Box, rng: random.Random | None = None) -> list[str]:
    """The lord pack (docs/rules.md §9.5, 004): 3 random non-lord heroes, then one drawn from the
    box's lord heroes (the last of the four). ValueError if the box has no lord hero or too few
    others."""
    rng = chance.given_or_source(rng)
    lords = [h.id for h in hero_box.lord_heroes()]
    others = [h.id for h in hero_box.heroes() if not h.lord]
    if not lords:
        raise ValueError("the box has no lord hero")
    if len(others) < LORD_PACK_OTHERS:
        raise ValueError(f"the box has fewer than {LORD_PACK_OTHERS} non-lord heroes")
    return [*rng.sample(others, LORD_PACK_OTHERS), rng.choice(lords)]
