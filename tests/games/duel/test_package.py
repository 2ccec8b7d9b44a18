"""1 vs 1 lives in its package and the draft kit it shares with the other drafted mode: no file of
the core or of another game names it, and its rules join the page's, the display's and the
drafted modes' stylesheets in their games' slots, after the rules they refine."""

from __future__ import annotations

import re

from companion.infra.staticstorage import joined_text
from tests.support.packages import ROOT, naming_files

PACKAGE = "companion/games/duel"
# Its key as a value or a module, its name, the class of its board and of its orders.
NAMES = re.compile(r"[\"']duel[\"']|games\.duel|1 ?vs ?1|1v1|mode-duel|duel-order", re.IGNORECASE)


def sheet(name: str) -> str:
    return (ROOT / PACKAGE / name).read_text(encoding="utf-8")


def test_no_file_outside_its_package_and_the_draft_kit_names_it() -> None:
    assert naming_files("duel", NAMES, also=("draft",)) == []


def test_its_rules_join_each_sheet_after_the_rules_they_refine() -> None:
    app, display, modes = (joined_text(f"css/{n}.css") for n in ("app", "display", "modes"))
    # Its orders' pills: after every core part (the last games' slot).
    last_core = (ROOT / "static/css/app/modes.css").read_text(encoding="utf-8")
    assert app.count(sheet("app-last.css")) == 1
    assert app.index(last_core) < app.index(sheet("app-last.css"))
    # Its board on the display: after the display's own rules.
    core = (ROOT / "static/css/display/display.css").read_text(encoding="utf-8")
    assert display.count(sheet("display.css")) == 1
    assert display.index(core) < display.index(sheet("display.css"))
    # Its pool on the display: after the draft kit's rules.
    kit = (ROOT / "companion/games/draft/modes.css").read_text(encoding="utf-8")
    assert modes.count(sheet("modes.css")) == 1
    assert modes.index(kit) < modes.index(sheet("modes.css"))
