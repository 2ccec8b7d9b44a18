"""The ways to play, by key: the only way into a mode from outside this package.

    mode = modes.get(table.mode)
    options = mode.options(table.options)

A mode lives in its game package (`companion/games/<key>/`), whose app registers it when ready
(`register`).
"""

from __future__ import annotations

from companion.rules.modes.base import (
    Mode,
    OptionRefusal,
    OptionsError,
    OptionsRefused,
    TableOptions,
)

DEFAULT = "identity"

_MODES: dict[str, Mode] = {}


def register(mode: Mode) -> None:
    """Make `mode` reachable by its key (a game package's `AppConfig.ready()`); registering a
    key again replaces it (Django may call ready() twice in tests)."""
    _MODES[mode.key] = mode


def get(key: str) -> Mode:
    """The mode of this key; KeyError for an unknown one."""
    return _MODES[key]


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
    "Mode",
    "OptionRefusal",
    "OptionsError",
    "OptionsRefused",
    "TableOptions",
    "get",
    "keys",
    "option_names",
    "register",
    "score_codes",
]
