"""军争 lives in its package: its option, its event kinds and its name occur in no file of the core
or of another game (its templates, the locale, the migrations and the list of games in the
settings aside), and the core reaches what is its own (its option, its cards, its questions in
the help, its kinds in a seat's HP history and in the other games' clauses) through the
registries its app fills when ready."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from companion import hooks
from companion.games.maneuvering.rules import KEY
from companion.rules import help as rules_help
from companion.rules import modes
from companion.rules.cards import expansions, load_deck
from companion.words.history import describe

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = Path("companion/games/maneuvering")
# Its option and expansion key, its name, its own taps' event kinds but the two that are the
# names of the Seat columns the core keeps for it ("chained", "wine").
NAMES = re.compile(r"maneuver|军争|damage_resolved|chain_continued", re.IGNORECASE)
SUFFIXES = (".py", ".html", ".js", ".txt", ".json", ".csv")


def naming_files(root: Path) -> list[str]:
    """The files of the core and of the other games under `root` that name 军争."""
    found = []
    for folder in ("companion", "templates", "static/js"):
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root)
            if (
                not path.is_file()
                or path.suffix not in SUFFIXES
                or relative.is_relative_to(PACKAGE)
                or {"migrations", "locale", "__pycache__"} & set(relative.parts)
                or relative == Path("companion/settings.py")
            ):
                continue
            if NAMES.search(path.read_text(encoding="utf-8", errors="ignore")):
                found.append(str(relative))
    return found


def test_no_file_outside_its_package_names_it() -> None:
    assert naming_files(ROOT) == []


def test_its_option_and_cards_come_from_its_registration() -> None:
    assert KEY in modes.game_options()
    for key in modes.keys():
        assert KEY in modes.get(key).options_type.names(), key
        assert modes.options_of(key, {KEY: True}).flag(KEY), key
    assert [e.key for e in expansions()] == [KEY]
    assert len(load_deck(ex=True, **{KEY: True})) == len(load_deck(ex=True)) + 52
    faqs = {e.key for e in rules_help.faq_entries() if e.expansion == KEY}
    assert {"faq:dying-wine", "faq:chain", "faq:supply"} <= faqs


def test_its_kinds_join_the_hp_history_and_the_clauses_on_a_worked_damage() -> None:
    assert {"damage_resolved", "chain_continued"} <= hooks.hp_kinds()
    # The protection of the first out adds its clause to every damage the rules worked out.
    with translation.override("en"):
        line = describe("chain_continued", {"steps": [], "protected": True})
    assert "protected: the last game's first out keeps their last HP" in line["text"]
