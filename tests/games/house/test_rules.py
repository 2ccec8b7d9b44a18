"""Seed 003's house rules (docs/rules.md §1, §2, §9.6), one test per sentence.

docs/rules.md §9.6: "`003`'s house rules, as table options: rebels know each other (each rebel sees the
other rebels from the deal); the lord starts with one card more (5)." docs/rules.md §1: "Default: they
don't." docs/rules.md §2: "`003`'s "lord draws one more" is not official: at most an option."
"""

from __future__ import annotations

import random

import pytest

from companion.games.house import rules as house
from companion.rules import modes
from companion.rules.identities import Identity

LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)


@pytest.mark.parametrize("count", range(5, 11))
@pytest.mark.parametrize("seed", range(5))
def test_each_rebel_sees_the_other_rebels_from_the_deal(count: int, seed: int) -> None:
    """ "rebels know each other (each rebel sees the other rebels from the deal)"; nobody else
    learns anything."""
    mode = modes.get("identity")
    options = mode.options({"rebels_know_each_other": True})
    dealt = mode.deal(count, options, rng=random.Random(seed))
    known = house.known_identities(dealt, rebels_know_each_other=True)
    plain = house.known_identities(dealt, rebels_know_each_other=False)
    rebels = {i for i, identity in enumerate(dealt) if identity == REBEL}
    lord = dealt.index(LORD)
    for viewer, seen in enumerate(known):
        if dealt[viewer] == REBEL:
            assert set(seen) == rebels | {lord}
            assert all(seen[i] == REBEL for i in rebels)
        else:
            assert seen == plain[viewer] == {viewer: dealt[viewer], lord: LORD}


def test_by_default_they_dont() -> None:
    """docs/rules.md §1: "Default: they don't"."""
    dealt = [LORD, REBEL, REBEL, LOYALIST, RENEGADE]
    known = house.known_identities(dealt, rebels_know_each_other=False)
    assert known[1] == {0: LORD, 1: REBEL}
    assert not modes.get("identity").options({}).rebels_know_each_other  # type: ignore[attr-defined]


def test_the_dead_and_the_end_of_the_game_show_as_always() -> None:
    dealt = [LORD, REBEL, REBEL, LOYALIST, RENEGADE]
    known = house.known_identities(
        dealt, alive=[True, True, True, False, True], rebels_know_each_other=True
    )
    assert known[4] == {0: LORD, 3: LOYALIST, 4: RENEGADE}
    assert known[2] == {0: LORD, 1: REBEL, 2: REBEL, 3: LOYALIST}
    over = house.known_identities(dealt, game_over=True, rebels_know_each_other=False)
    assert all(seen == dict(enumerate(dealt)) for seen in over)
    with pytest.raises(ValueError):
        house.known_identities(dealt, alive=[True], rebels_know_each_other=True)


def test_the_lord_starts_with_one_card_more() -> None:
    """ "the lord starts with one card more (5)"; off by default (docs/rules.md §2)."""
    for identity in Identity:
        expected = 5 if identity == LORD else 4
        assert house.starting_cards(identity, lord_five_cards=True) == expected
        assert house.starting_cards(identity, lord_five_cards=False) == 4
    assert not modes.get("identity").options({}).lord_five_cards  # type: ignore[attr-defined]


def test_rebels_see_each_other_only_with_the_option() -> None:
    """The option is about rebels only: a rebel sees the other rebels through it, nobody else
    sees a rebel and a rebel sees no loyalist or renegade."""
    assert house.sees_fellow(REBEL, REBEL, rebels_know_each_other=True)
    assert not house.sees_fellow(REBEL, REBEL, rebels_know_each_other=False)
    for viewer in (LOYALIST, RENEGADE, LORD, None):
        assert not house.sees_fellow(viewer, REBEL, rebels_know_each_other=True)
    for target in (LOYALIST, RENEGADE):
        assert not house.sees_fellow(REBEL, target, rebels_know_each_other=True)
