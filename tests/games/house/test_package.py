"""The house rules and the lord pack live in their package: their options are declared by it for
the identity game only, with their words and why they are refused, and occur in no file of the
core or of another game; the pack's draw from the box, `lord_pack_offer`, is the package's (the
box's page names the pack in its words only, where it tells the host what the lord heroes are
for)."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.rules import box, modes
from tests.support.packages import assert_identity_variant, naming_files

OPTIONS = ("lord_pack", "rebels_know_each_other", "lord_five_cards")
NAMES = re.compile(r"\b(lord_pack|rebels_know_each_other|lord_five_cards)\b")
# The pack anywhere, its draw's name among them.
PACK = re.compile(r"lord[ _]pack", re.IGNORECASE)


def test_no_file_outside_its_package_names_its_options() -> None:
    assert naming_files("house", NAMES) == []


def test_no_file_outside_its_package_draws_or_speaks_of_the_pack() -> None:
    assert naming_files("house", PACK) == ["templates/companion/box.html"]


def test_the_packs_draw_is_the_packages_three_heroes_then_a_lord() -> None:
    from companion.games.house.rules import lord_pack_offer

    assert not hasattr(box, "lord_pack_offer")
    hero_box = box.Box()
    offer = lord_pack_offer(hero_box, random.Random(5))
    lords = {h.id for h in hero_box.lord_heroes()}
    assert len(set(offer)) == 4 and offer[3] in lords and not lords & set(offer[:3])


def test_its_options_are_the_identity_games_from_its_registration_with_its_refusals() -> None:
    for name in OPTIONS:
        assert_identity_variant(name)
    with pytest.raises(modes.OptionsRefused) as caught:
        modes.options_of("identity", {"lord_pack": True, "first_game_mode": True})
    (one_rebel,) = modes.options_of("identity", {"rebels_know_each_other": True}).refusals(4)
    with translation.override("zh-hans"):
        for refusal in (caught.value.refusal, one_rebel):
            words = str(refusal_message(refusal))
            assert words and words != refusal.reason, refusal.code
