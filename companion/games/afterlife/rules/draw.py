"""The rebirth's draw from the table's hero box (docs/rules.md §9.1): the unused heroes shuffled
and flipped, the first of the dead hero's kingdom. The box and its unused heroes are the core's
(`companion.rules.box`); which one a dead player is reborn as is this game's rule."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from companion.rules import chance
from companion.rules.box import THREE_KINGDOMS, Box, BoxHero, unused


def first_of_kingdom(kingdom: str, flipped: Sequence[BoxHero]) -> BoxHero | None:
    """The rebirth's hero from the unused heroes in the order they are flipped: the first of
    the dead hero's kingdom; for a hero of 群 or 神, the first flipped, whatever its kingdom
    (000: 如果是其他国家角色，将翻开的第一张牌作为他转世后的角色); None if none fits."""
    if kingdom not in THREE_KINGDOMS:
        return flipped[0] if flipped else None
    return next((h for h in flipped if h.kingdom == kingdom), None)


def rebirth_hero(
    box: Box, *, old_hero: str, held: Collection[str], rng: random.Random | None = None
) -> BoxHero | None:
    """The hero a dead player is reborn as (docs/rules.md §9.1): the unused heroes shuffled and
    flipped, the first of his old hero's kingdom (any, for 群 and 神). `held` is every seat's hero,
    his old one too: his old hero goes back among the unused only after the draw. None: no hero
    of his kingdom is left (he keeps his cards and takes no more gifts)."""
    kingdom = box.hero(old_hero).kingdom
    pile = unused(box, {*held, old_hero})
    chance.given_or_source(rng).shuffle(pile)
    return first_of_kingdom(kingdom, pile)
