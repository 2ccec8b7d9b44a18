"""What a game package keeps to itself: the files of the core and of the other games that name
it (its templates are in its package; the locale, the migrations and the list of games in the
settings aside), and the options it declares for a mode (`companion.rules.modes.add_option`)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.rules import modes
from companion.words.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = (".py", ".html", ".js", ".css", ".txt", ".json", ".csv")


def naming_files(package: str, names: re.Pattern[str], also: tuple[str, ...] = ()) -> list[str]:
    """The files outside `companion/games/<package>` (and the packages `also`: the draft kit a
    drafted mode shares) that match `names`."""
    packages = [Path("companion/games") / p for p in (package, *also)]
    found = []
    for folder in ("companion", "templates", "static/js", "static/css"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT)
            if (
                not path.is_file()
                or path.suffix not in SUFFIXES
                or any(relative.is_relative_to(own) for own in packages)
                or {"migrations", "locale", "__pycache__"} & set(relative.parts)
                or relative == Path("companion/settings.py")
            ):
                continue
            if names.search(path.read_text(encoding="utf-8", errors="ignore")):
                found.append(str(relative))
    return found


def assert_identity_variant(name: str) -> None:
    """`name` is a variant of the identity game only, declared by its package: on the identity
    game's form among the variants, with its words; no option of another mode, which refuses it
    as unknown; off by default, and read with `flag` where it is set."""
    identity = modes.get("identity").options_type
    assert name in modes.game_options()
    assert name in identity.names() and name in identity.variants()
    assert name not in identity.own_names(), "the identity game's class does not name it"
    assert name in VARIANTS
    assert not modes.options_of("identity", {}).flag(name)
    assert modes.options_of("identity", {name: True}).flag(name)
    for key in modes.keys():
        if key == "identity":
            continue
        assert name not in modes.get(key).options_type.names(), key
        try:
            modes.get(key).options({name: True})
        except modes.OptionsError as error:
            assert "unknown options" in str(error), key
        else:
            raise AssertionError(f"{key} took {name}")
