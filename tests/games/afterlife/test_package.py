"""The afterlife lives in its package: its two options (rebirth, dark souls) are declared by it
for the identity game only, with their words and why they are refused, and the core and the
other games name them nowhere, but for the one clash another package declares with dark souls
by its name (the protection of the first out is the rule for tables without them). The rebirth's
draw from the box is the package's, and its rules join the page's and the display's stylesheets
in their games' slots, after the rules they refine."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from companion.actions.variants import refusal_message
from companion.infra.staticstorage import joined_text
from companion.rules import box, damage, modes
from tests.support.packages import ROOT, assert_identity_variant, naming_files

PACKAGE = "companion/games/afterlife"

# The option "rebirth" as a name.
NAMES = re.compile(r"""dark_souls|["']rebirth["']""")
# Its words anywhere: the rebirth, the package's name.
WORDS = re.compile(r"rebirth|dark_souls|afterlife", re.IGNORECASE)
# Its souls and 罗汉's point prevented in a damage's steps.
SOULS = re.compile(r"luohan|xuanwu|zhuyou|罗汉|玄武|祝由|暗魂|转世", re.IGNORECASE)


def test_no_file_outside_its_package_names_its_options() -> None:
    assert naming_files("afterlife", NAMES) == ["companion/games/protection/rules.py"]


def test_no_file_outside_its_package_speaks_of_it() -> None:
    """Not the rebirth's draw from the box, nor its rules in the core's stylesheets: only the
    protection's clause on tables without dark souls."""
    assert naming_files("afterlife", WORDS) == ["companion/games/protection/rules.py"]


def test_no_file_outside_its_package_names_its_souls_or_their_step() -> None:
    """Not the core's damage steps (a game's own modifier is `rules.damage.game_modifier`), nor
    another game's words for them (`words.history.change`)."""
    assert naming_files("afterlife", SOULS) == []


def test_luohans_step_is_the_packages_own_modifier_with_its_words() -> None:
    from companion.games.afterlife.rules import souls
    from companion.games.maneuvering.words import change_words

    assert "luohan_prevented" not in {m.value for m in damage.Modifier}
    assert souls.LUOHAN_PREVENTED is damage.game_modifier("luohan_prevented")
    with translation.override("zh-hans"):
        words = change_words(["luohan_prevented", 1, 0])
    assert words == "罗汉在伤害生效前防止 1 点：1 → 0"


def test_its_options_are_the_identity_games_from_its_registration_with_its_refusals() -> None:
    assert_identity_variant("rebirth")
    assert_identity_variant("dark_souls")
    with pytest.raises(modes.OptionsRefused) as caught:
        modes.options_of("identity", {"rebirth": True, "first_game_mode": True})
    with translation.override("zh-hans"):
        words = str(refusal_message(caught.value.refusal))
    assert words and words != caught.value.refusal.reason


def sheet(name: str) -> str:
    return (ROOT / PACKAGE / name).read_text(encoding="utf-8")


def test_the_rebirth_draw_is_the_packages_from_the_boxs_unused_heroes() -> None:
    """The core's box offers its unused heroes; the first of the dead hero's kingdom among them,
    flipped, is the package's rule."""
    from companion.games.afterlife.rules import draw

    assert not hasattr(box, "rebirth_hero") and not hasattr(box, "first_of_kingdom")
    held = {"WEI001", "SHU001"}
    pile = box.unused(box.Box(), {*held, "WU002"})
    random.Random(3).shuffle(pile)
    expected = next(h for h in pile if h.kingdom == "wu")
    reborn = draw.rebirth_hero(box.Box(), old_hero="WU002", held=held, rng=random.Random(3))
    assert reborn == expected


def test_its_rules_join_each_sheet_after_the_rules_they_refine() -> None:
    app, display = joined_text("css/app.css"), joined_text("css/display.css")
    last_core = (ROOT / "static/css/app/modes.css").read_text(encoding="utf-8")
    assert app.count(sheet("app-last.css")) == 1
    assert app.index(last_core) < app.index(sheet("app-last.css"))
    core = (ROOT / "static/css/display/display.css").read_text(encoding="utf-8")
    assert display.count(sheet("display.css")) == 1
    assert display.index(core) < display.index(sheet("display.css"))
