"""The last three lives in its package: its option is declared by it for the identity game
only, with its words, and occurs in no file of the core or of another game; its countdown's
rules are its own stylesheet's, joined at the end of the page's, after the core's rules."""

from __future__ import annotations

import re

from companion.infra.staticstorage import joined_text
from tests.support.packages import ROOT, assert_identity_variant, naming_files

NAMES = re.compile("last_three")
# Its countdown's classes (templates/games/last_three/turn_bar.html).
CLASSES = re.compile("last-three")


def test_no_file_outside_its_package_names_it() -> None:
    assert naming_files("last_three", NAMES) == []


def test_its_option_is_the_identity_games_from_its_registration() -> None:
    assert_identity_variant("last_three")


def test_no_file_outside_its_package_styles_its_countdown() -> None:
    assert naming_files("last_three", CLASSES) == []


def test_its_rules_join_the_pages_sheet_after_the_core_rules() -> None:
    own = (ROOT / "companion/games/last_three/app-last.css").read_text(encoding="utf-8")
    last_core = (ROOT / "static/css/app/modes.css").read_text(encoding="utf-8")
    app = joined_text("css/app.css")
    assert ".last-three-now" in own and app.count(own) == 1
    assert app.index(last_core) < app.index(own)
