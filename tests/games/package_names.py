"""The files of the core and of the other games that name a game: what a game's package test
asserts is empty (its templates, the locale, the migrations and the list of games in the settings
aside)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = (".py", ".html", ".js", ".css", ".txt", ".json", ".csv")
FOLDERS = ("companion", "templates", "static/js", "static/css")


def naming_files(names: re.Pattern[str], own: Iterable[str], root: Path = ROOT) -> list[str]:
    """The files under `root`'s core folders, outside the packages `own`, that match `names`."""
    packages = [Path(p) for p in own]
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root)
            if (
                not path.is_file()
                or path.suffix not in SUFFIXES
                or any(relative.is_relative_to(p) for p in packages)
                or {"migrations", "locale", "__pycache__"} & set(relative.parts)
                or relative == Path("companion/settings.py")
            ):
                continue
            if names.search(path.read_text(encoding="utf-8", errors="ignore")):
                found.append(str(relative))
    return found
