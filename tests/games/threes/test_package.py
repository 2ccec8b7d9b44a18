"""3 vs 3 lives in its package and the draft kit it shares with the other drafted mode: no file of
the core or of another game names it, and its own rules of the drafted modes' stylesheet join
that sheet after the kit's."""

from __future__ import annotations

import re

from companion.infra.staticstorage import joined_text
from tests.support.packages import ROOT, naming_files

PACKAGE = "companion/games/threes"
NAMES = re.compile(r"threes|3 ?vs ?3|3v3", re.IGNORECASE)


def test_no_file_outside_its_package_and_the_draft_kit_names_it() -> None:
    assert naming_files("threes", NAMES, also=("draft",)) == []


def test_its_rules_join_the_drafted_modes_sheet_after_the_kits() -> None:
    """The display in play keeps of its board only what the table waits for: its own rule, after
    the kit's rules on the same board (which place the go's question and the draw in it)."""
    own = (ROOT / PACKAGE / "modes.css").read_text(encoding="utf-8")
    kit = (ROOT / "companion/games/draft/modes.css").read_text(encoding="utf-8")
    joined = joined_text("css/modes.css")
    assert joined.count(own) == 1 and joined.index(kit) < joined.index(own)
    assert ".mode-board.mode-threes" in own
    assert NAMES.search(joined_text("css/app.css")) is None
    assert NAMES.search(joined_text("css/display.css")) is None
