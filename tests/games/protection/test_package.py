"""The protection of the first out lives in its package: its option is declared by it for the
identity game only, with its words and why it is refused, and neither it nor the package's name
occurs in a file of the core or of another game."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.rules import modes
from tests.support.packages import assert_identity_variant, naming_files

NAMES = re.compile("protection", re.IGNORECASE)


def test_no_file_outside_its_package_names_it() -> None:
    assert naming_files("protection", NAMES) == []


def test_its_option_is_the_identity_games_from_its_registration_with_its_refusal() -> None:
    assert_identity_variant("first_out_protection")
    with pytest.raises(modes.OptionsRefused) as caught:
        modes.options_of("identity", {"first_out_protection": True, "dark_souls": True})
    assert caught.value.refusal.code == "protection_dark_souls"
    with translation.override("zh-hans"):
        words = str(refusal_message(caught.value.refusal))
    assert words and words != caught.value.refusal.reason
