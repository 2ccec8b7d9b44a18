"""Offers drawn from the box: the lord's, the others' candidates, and the heroes no seat holds
(what a game's own offer or draw from the box takes from)."""

from __future__ import annotations

import random
from collections.abc import Collection

from companion.rules import chance, heroes
from companion.rules.box.contents import Box
from companion.rules.box.hero import LORD_OFFER_SIZE, BoxHero


def _rng(rng: random.Random | None) -> random.Random:
    return chance.given_or_source(rng)


def heroes_needed(player_count: int) -> int:
    """How many heroes a deal needs: the lord's choice, then every other player's candidates
    (docs/rules.md §2), so a box smaller than this cannot deal to this many players."""
    return 1 + heroes.candidates_per_player(player_count) * (player_count - 1)


def lord_offer(box: Box, rng: random.Random | None = None) -> list[str]:
    """The lord's five (docs/rules.md §2): the standard lord heroes in the box (曹操, 刘备, 孙权)
    and others at random to make five, shuffled."""
    rng = _rng(rng)
    lords = [h.id for h in box.heroes() if h.standard and h.lord]
    others = [h.id for h in box.heroes() if h.id not in lords]
    count = min(LORD_OFFER_SIZE - len(lords), len(others))
    offer = [*lords, *rng.sample(others, max(count, 0))]
    rng.shuffle(offer)
    return offer


def deal_candidates(
    box: Box,
    *,
    taken: Collection[str],
    player_count: int,
    count: int,
    rng: random.Random | None = None,
) -> list[list[str]]:
    """The other players' candidates from the box (docs/rules.md §2): the heroes not taken,
    shuffled, three each (two at ten players), disjoint."""
    per_player = heroes.candidates_per_player(player_count)
    pool = [h.id for h in box.heroes() if h.id not in taken]
    if per_player * count > len(pool):
        raise ValueError(f"{per_player * count} candidates needed, only {len(pool)} heroes left")
    rng = _rng(rng)
    rng.shuffle(pool)
    return [pool[i * per_player : (i + 1) * per_player] for i in range(count)]


def unused(box: Box, held: Collection[str]) -> list[BoxHero]:
    """The heroes of the box no seat holds (`held`: a game's draw says whose heroes count)."""
    return [h for h in box.heroes() if h.id not in held]
