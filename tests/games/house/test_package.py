"""The house rules and the lord pack live in their package: their options are declared by it for
the identity game only, with their words and why they are refused, and occur in no file of the
core or of another game (the hero box's draw for the pack, `lord_pack_offer`, is the box's)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.rules import modes
from tests.support.packages import assert_identity_variant, naming_files

OPTIONS = ("lord_pack", "rebels_know_each_other", "lord_five_cards")
NAMES = re.compile(r"\b(lord_pack|rebels_know_each_other|lord_five_cards)\b")


def test_no_file_outside_its_package_names_its_options() -> None:
    assert naming_files("house", NAMES) == []


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
