"""The afterlife lives in its package: its two options (rebirth, dark souls) are declared by it
for the identity game only, with their words and why they are refused, and the core and the
other games name them nowhere, but for the one clash another package declares with dark souls
by its name (the protection of the first out is the rule for tables without them)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.rules import modes
from tests.support.packages import assert_identity_variant, naming_files

# The option "rebirth" as a name (the word is also the hero box's draw, which is the box's).
NAMES = re.compile(r"""dark_souls|["']rebirth["']""")


def test_no_file_outside_its_package_names_its_options() -> None:
    assert naming_files("afterlife", NAMES) == ["companion/games/protection/rules.py"]


def test_its_options_are_the_identity_games_from_its_registration_with_its_refusals() -> None:
    assert_identity_variant("rebirth")
    assert_identity_variant("dark_souls")
    with pytest.raises(modes.OptionsRefused) as caught:
        modes.options_of("identity", {"rebirth": True, "first_game_mode": True})
    with translation.override("zh-hans"):
        words = str(refusal_message(caught.value.refusal))
    assert words and words != caught.value.refusal.reason
