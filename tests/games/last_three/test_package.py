"""The last three lives in its package: its option is declared by it for the identity game
only, with its words, and occurs in no file of the core or of another game."""

from __future__ import annotations

import re

from tests.support.packages import assert_identity_variant, naming_files

NAMES = re.compile("last_three")


def test_no_file_outside_its_package_names_it() -> None:
    assert naming_files("last_three", NAMES) == []


def test_its_option_is_the_identity_games_from_its_registration() -> None:
    assert_identity_variant("last_three")
