"""The protection of the first out lives in its package: its option is declared by it for the
identity game only, with its words and why it is refused, and neither it nor the package's name
occurs in a file of the core or of another game; its screens' rules are its own stylesheet's,
joined at the end of the page's, after the core's rules they refine."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.infra.staticstorage import joined_text
from companion.rules import modes
from tests.support.packages import ROOT, assert_identity_variant, naming_files

NAMES = re.compile("protection", re.IGNORECASE)
# Its screens' classes (templates/games/protection/).
CLASSES = re.compile(r"protect-(mark|note|me)")


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


def test_no_file_outside_its_package_styles_its_screens() -> None:
    assert naming_files("protection", CLASSES) == []


def test_its_rules_join_the_pages_sheet_after_the_core_rules() -> None:
    own = (ROOT / "companion/games/protection/app-last.css").read_text(encoding="utf-8")
    last_core = (ROOT / "static/css/app/modes.css").read_text(encoding="utf-8")
    app = joined_text("css/app.css")
    assert ".protect-me .strike" in own and app.count(own) == 1
    assert app.index(last_core) < app.index(own)
