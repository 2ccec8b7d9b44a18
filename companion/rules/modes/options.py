"""The options every table has (plain Python): a frozen dataclass per mode, checked once.

`parse` checks a stored or submitted mapping against the mode's options class (unknown names and
non-flags refused), so a table's options are validated once and read as typed attributes
everywhere; `flag` reads a game's own option by its name. An option every table has whatever its
mode (an expansion of the deck) is declared by the game package that plays it (`add_option`, when
its app is ready): no options class names it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

O = TypeVar("O", bound="TableOptions")  # noqa: E741


class OptionsError(ValueError):
    """Options that do not fit the mode: an unknown name, or a value that is not a flag."""


@dataclass(frozen=True)
class OptionRefusal:
    """Why an option does not fit (two options that exclude each other, or the number of
    players): `code` is stable, for the screens to translate; `reason` is the English text."""

    option: str
    code: str
    reason: str


class OptionsRefused(OptionsError):
    """Flags that parse but do not fit together; `refusal` says which option and why."""

    def __init__(self, refusal: OptionRefusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


# The options every table has that game packages declare (`add_option`), in their order.
_GAME_OPTIONS: dict[str, None] = {}
# The field holding which of them are set (no option itself).
_SET = "games_set"


def add_option(name: str) -> None:
    """An option every table has whatever its mode, off by default, declared by the game package
    that plays it (an expansion of the deck; from its `AppConfig.ready()`): the forms, the
    parse, `flag` and the stored mapping take it as an option of every options class. Declaring
    a name again changes nothing."""
    _GAME_OPTIONS[name] = None


def game_options() -> tuple[str, ...]:
    """The options the game packages declared (`add_option`), in their order."""
    return tuple(_GAME_OPTIONS)


@dataclass(frozen=True)
class TableOptions:
    """Options of every table, whatever its mode: referee mode is a rule about who may act
    (anyone seated may adjust anyone), and those the game packages declare (`add_option`: an
    expansion of the deck is no mode), read as `opts.flag(name)` (or `opts.<name>`)."""

    referee_mode: bool = False
    # Which of the game packages' options are set.
    games_set: frozenset[str] = field(default=frozenset(), repr=False)

    # Options a host may still change once a game is in play.
    LIVE: ClassVar[frozenset[str]] = frozenset({"referee_mode"})
    # The options that are variants or house rules (docs/rules.md §9), in the form's order: none
    # for a plain table.
    VARIANTS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option of this type, in the order the host's form lists them: the game
        packages' first, then the class's own."""
        return (*_GAME_OPTIONS, *cls.own_names())

    @classmethod
    def own_names(cls) -> tuple[str, ...]:
        """The options this class declares itself (its fields), in their order."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.name != _SET)

    def flag(self, name: str) -> bool:
        """Whether the option `name` is on: how a game package reads its own option, which only
        its mode's options declare (False at a table of another mode)."""
        if name in _GAME_OPTIONS:
            return name in self.games_set
        return name in _declared(type(self)) and bool(getattr(self, name))

    if not TYPE_CHECKING:  # the type checker sees the declared fields only

        def __getattr__(self, name: str) -> bool:
            # A game package's option read as an attribute, as the declared ones are.
            if name in _GAME_OPTIONS:
                return name in self.games_set
            raise AttributeError(name)

    def variants_on(self) -> tuple[str, ...]:
        """The names of the variants switched on, in the form's order (the header's list)."""
        return tuple(name for name in self.VARIANTS if getattr(self, name))

    @classmethod
    def parse(cls: type[O], raw: Mapping[str, Any]) -> O:
        """The options a mapping names (missing ones at their defaults); OptionsError for an
        unknown name or a value that is not a flag."""
        known = set(cls.names())
        unknown = sorted(set(raw) - known)
        if unknown:
            raise OptionsError(f"unknown options: {', '.join(unknown)}")
        values: dict[str, bool] = {}
        for name, value in raw.items():
            if not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {value!r}")
            values[name] = value
        games = frozenset(name for name in _GAME_OPTIONS if values.pop(name, False))
        return cls(**values, games_set=games)

    def stored(self) -> dict[str, bool]:
        """The mapping kept in the table's one options field."""
        own = {name: bool(getattr(self, name)) for name in self.own_names()}
        return {**{name: name in self.games_set for name in _GAME_OPTIONS}, **own}

    def refusals(self, seat_count: int | None = None) -> tuple[OptionRefusal, ...]:
        """What does not fit in these options (none for a plain table); with `seat_count`, also
        what does not fit a game of that many players (checked when the game is dealt)."""
        return ()

    def with_changes(self: O, changes: Mapping[str, Any]) -> O:
        """These options with some changed, validated as `parse` does."""
        return type(self).parse({**self.stored(), **changes})


# Each options class's field names, for `flag` (read on every tap: dataclasses.fields() each
# time would build them again).
_FIELDS: dict[type[TableOptions], frozenset[str]] = {}


def _declared(cls: type[TableOptions]) -> frozenset[str]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(cls.own_names())
    return names
