"""Rebirth and dark souls live in their package: no file of the core or of another game names
them (the identity game's list of its variants aside, which moves out on its own), the rebirth's
draw from the box is the package's, and its rules join the page's and the display's stylesheets
in their games' slots, after the rules they refine."""

from __future__ import annotations

import random
import re

from companion.infra.staticstorage import joined_text
from companion.rules import box
from tests.games.package_names import ROOT, naming_files

PACKAGE = "companion/games/afterlife"
NAMES = re.compile(r"rebirth|dark_souls|afterlife", re.IGNORECASE)


def sheet(name: str) -> str:
    return (ROOT / PACKAGE / name).read_text(encoding="utf-8")


def test_no_file_outside_its_package_names_it() -> None:
    assert naming_files(NAMES, [PACKAGE, "companion/games/identity"]) == []


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
