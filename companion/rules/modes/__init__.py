"""The ways to play, by key: the only way into a mode from outside this package.

    mode = modes.get(table.mode)
    options = mode.options(table.options)

A mode lives in its game package (`companion/games/<key>/`), whose app registers it when ready
(`register`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.modes.base import (
    Mode,
    OptionRefusal,
    OptionsError,
    OptionsRefused,
    TableOptions,
)
from companion.rules.modes.options import (
    Clash,
    GameOption,
    add_option,
    game_options,
    generation,
    remove_option,
)

DEFAULT = "identity"

_MODES: dict[str, Mode] = {}


def register(mode: Mode) -> None:
    """Make `mode` reachable by its key (a game package's `AppConfig.ready()`); registering a
    key again replaces it (Django may call ready() twice in tests). Its options class names it
    (`TableOptions.MODE`): the options declared for this mode only are that class's."""
    if mode.options_type.MODE != mode.key:
        raise ValueError(f"the options of mode {mode.key} name mode {mode.options_type.MODE!r}")
    _MODES[mode.key] = mode


def get(key: str) -> Mode:
    """The mode of this key; KeyError for an unknown one."""
    return _MODES[key]


# Options parsed before, by (mode, its options type, the stored flags): the few sets of options a
# process's tables use, each parsed once (every tap loads its table afresh and reads them).
# Emptied when full, so a process that meets every combination stays small.
_PARSED: dict[tuple[str, type[TableOptions], frozenset[tuple[str, bool]]], TableOptions] = {}
_PARSED_MAX = 256
# The declared options `_PARSED` was parsed with (`options.generation`).
_PARSED_WITH = [generation()]
_FLAG = frozenset({bool})


def options_of(key: str, raw: Mapping[str, Any] | None) -> TableOptions:
    """`get(key).options(raw)`, the frozen options shared by every table that stores the same."""
    mode = get(key)
    raw = raw or {}
    # Flags only: a 1 or a 0 equals True or False, and must still be refused by the parse.
    if not _FLAG.issuperset(map(type, raw.values())):
        return mode.options(raw)
    if _PARSED_WITH[0] != generation():
        _PARSED.clear()
        _PARSED_WITH[0] = generation()
    cache_key = (key, mode.options_type, frozenset(raw.items()))
    parsed = _PARSED.get(cache_key)
    if parsed is None:
        parsed = mode.options(raw)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[cache_key] = parsed
    return parsed


def _in_order() -> list[Mode]:
    """The modes, the default first (the create form's first choice), then as registered."""
    return sorted(_MODES.values(), key=lambda mode: mode.key != DEFAULT)


def keys() -> tuple[str, ...]:
    return tuple(mode.key for mode in _in_order())


def option_names() -> tuple[str, ...]:
    """Every option name of every mode, each once, in the modes' own order."""
    names: dict[str, None] = {}
    for mode in _in_order():
        names.update(dict.fromkeys(mode.options_type.names()))
    return tuple(names)


def score_codes() -> tuple[str, ...]:
    """Every score line code of every mode, each once, in the modes' own order (an export's
    columns)."""
    codes: dict[str, None] = {}
    for mode in _in_order():
        codes.update(dict.fromkeys(mode.score_codes))
    return tuple(codes)


__all__ = [
    "DEFAULT",
    "Clash",
    "GameOption",
    "Mode",
    "OptionRefusal",
    "OptionsError",
    "OptionsRefused",
    "TableOptions",
    "add_option",
    "game_options",
    "get",
    "keys",
    "option_names",
    "options_of",
    "register",
    "remove_option",
    "score_codes",
]
