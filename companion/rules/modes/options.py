"""The options every table has (plain Python): a frozen dataclass per mode, checked once.

`parse` checks a stored or submitted mapping against the mode's options class (unknown names and
non-flags refused, two options that exclude each other refused with the reason), so a table's
options are validated once and read as typed attributes everywhere; `flag` reads a game's own
option by its name. An option of a game package (an expansion of the deck, every mode's; a
variant, one mode's) is declared by the package that plays it (`add_option`, when its app is
ready) with its place in the form, whether it may change in play and what it does not go with:
no options class names it, and packages name each other's options only as data (a `Clash`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
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


@dataclass(frozen=True)
class Clash:
    """An option this one does not go with (`other`, by name: its package is never imported),
    refused with `code` (stable, for the screens to translate) and `reason` (the English)."""

    other: str
    code: str
    reason: str


# A rule about the number of players an option has, asked at the deal with the option on: the
# refusal, or None where it fits.
SeatCheck = Callable[["TableOptions", int], OptionRefusal | None]


@dataclass(frozen=True)
class GameOption:
    """An option a game package declares (`add_option`): the modes that have it (None: every
    mode), its place in the host's form (`variant`: among the variants and house rules, the
    header's list; `place`: lower first, in its part of the form), whether a host may still
    change it once a game is in play (`live`), the options it does not go with (`clashes`) and
    its rule about the number of players (`seats`)."""

    name: str
    modes: frozenset[str] | None = None
    variant: bool = False
    place: int = 100
    live: bool = False
    clashes: tuple[Clash, ...] = ()
    seats: SeatCheck | None = None

    def of(self, mode: str) -> bool:
        """Whether the options of `mode` have it."""
        return self.modes is None or mode in self.modes


# The options game packages declare (`add_option`), in the order they were declared.
_GAME_OPTIONS: dict[str, GameOption] = {}
# The field holding which of them are set (no option itself).
_SET = "games_set"
_GENERATION = 0


def add_option(
    name: str,
    *,
    modes: Collection[str] | None = None,
    variant: bool = False,
    place: int = 100,
    live: bool = False,
    clashes: Sequence[Clash] = (),
    seats: SeatCheck | None = None,
) -> None:
    """An option, off by default, declared by the game package that plays it (from its
    `AppConfig.ready()`): of the options of `modes` (keys; None: every mode's, as an expansion
    of the deck). The forms, the parse, `flag` and the stored mapping take it as an option of
    those options classes (`TableOptions.MODE`); see `GameOption` for the rest. Declaring a
    name again replaces its declaration."""
    if isinstance(modes, str):
        raise TypeError(f"the modes of option {name} are keys, not one string: ({modes!r},)")
    _GAME_OPTIONS[name] = GameOption(
        name,
        None if modes is None else frozenset(modes),
        variant,
        place,
        live,
        tuple(clashes),
        seats,
    )
    _changed()


def remove_option(name: str) -> None:
    """Withdraw a declared option (a test's own, once the test is over)."""
    _GAME_OPTIONS.pop(name, None)
    _changed()


def generation() -> int:
    """How many times the declared options have changed: options parsed before another are
    parsed again (`modes.options_of`)."""
    return _GENERATION


def _changed() -> None:
    global _GENERATION  # noqa: PLW0603 - the one count of changes
    _GENERATION += 1
    _OF_TYPE.clear()


def game_options() -> tuple[str, ...]:
    """The options the game packages declared (`add_option`), whatever their modes."""
    return tuple(_GAME_OPTIONS)


@dataclass(frozen=True)
class TableOptions:
    """Options of every table, whatever its mode: referee mode is a rule about who may act
    (anyone seated may adjust anyone), and those the game packages declare for every mode or
    for this class's mode (`add_option`: an expansion of the deck, a variant), read as
    `opts.flag(name)` (or `opts.<name>`)."""

    referee_mode: bool = False
    # Which of the game packages' options are set.
    games_set: frozenset[str] = field(default=frozenset(), repr=False)

    # The key of the mode whose options these are (a mode's own class names it; `register`
    # checks): the options declared for that mode only join them. "": every mode's only.
    MODE: ClassVar[str] = ""
    # The class's own options a host may still change once a game is in play (`live()` adds the
    # game packages' that may).
    LIVE: ClassVar[frozenset[str]] = frozenset({"referee_mode"})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option of this type, in the order the host's form lists them: the mode's own,
        the game packages' (their variants, then their other options), then every table's."""
        return _of_type(cls).names

    @classmethod
    def own_names(cls) -> tuple[str, ...]:
        """The options this class declares itself (its fields), in their order."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.name != _SET)

    @classmethod
    def variants(cls) -> tuple[str, ...]:
        """The options that are variants or house rules (docs/rules.md §9), in the form's order:
        those the game packages declare as such for this mode."""
        return _of_type(cls).variants

    @classmethod
    def live(cls) -> frozenset[str]:
        """The options a host may still change once a game is in play."""
        return _of_type(cls).live

    def flag(self, name: str) -> bool:
        """Whether the option `name` is on: how a game package reads its own option, which only
        its mode's options have (False at a table of another mode)."""
        if name in _GAME_OPTIONS:
            return name in self.games_set
        return name in _fields_of(type(self)) and bool(getattr(self, name))

    if not TYPE_CHECKING:  # the type checker sees the declared fields only

        def __getattr__(self, name: str) -> bool:
            # A game package's option read as an attribute, as the declared ones are.
            if name in _GAME_OPTIONS:
                return name in self.games_set
            raise AttributeError(name)

    def variants_on(self) -> tuple[str, ...]:
        """The names of the variants switched on, in the form's order (the header's list)."""
        return tuple(name for name in self.variants() if name in self.games_set)

    @classmethod
    def parse(cls: type[O], raw: Mapping[str, Any]) -> O:
        """The options a mapping names (missing ones at their defaults); OptionsError for an
        unknown name or a value that is not a flag, OptionsRefused (naming the option and why)
        for two options that exclude each other."""
        declared = _of_type(cls)
        unknown = sorted(set(raw) - declared.known)
        if unknown:
            raise OptionsError(f"unknown options: {', '.join(unknown)}")
        values: dict[str, bool] = {}
        for name, value in raw.items():
            if not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {value!r}")
            values[name] = value
        games = frozenset(o.name for o in declared.options if values.pop(o.name, False))
        options = cls(**values, games_set=games)
        if games:
            refused = options.refusals()
            if refused:
                raise OptionsRefused(refused[0])
        return options

    def stored(self) -> dict[str, bool]:
        """The mapping kept in the table's one options field."""
        return {
            name: name in self.games_set if name in _GAME_OPTIONS else bool(getattr(self, name))
            for name in self.names()
        }

    def refusals(self, seat_count: int | None = None) -> tuple[OptionRefusal, ...]:
        """What does not fit in these options: two that exclude each other (the clashes the game
        packages declare, each named by the one of the two first in the form's order, its own
        option where the other is the mode's); with `seat_count`, also what does not fit a game
        of that many players (checked when the game is dealt)."""
        declared = _of_type(type(self))
        found: list[tuple[int, int, OptionRefusal]] = []
        for option in declared.options:
            if option.name not in self.games_set:
                continue
            for clash in option.clashes:
                if not self.flag(clash.other):
                    continue
                named = option.name
                other = declared.place.get(clash.other)
                if other is not None and other < declared.place[named]:
                    named = clash.other
                found.append(
                    (
                        declared.place[named],
                        len(found),
                        OptionRefusal(named, clash.code, clash.reason),
                    )
                )
        refused = [refusal for _place, _order, refusal in sorted(found, key=lambda f: f[:2])]
        if seat_count is not None:
            for option in declared.options:
                if option.seats is not None and option.name in self.games_set:
                    refusal = option.seats(self, seat_count)
                    if refusal is not None:
                        refused.append(refusal)
        return tuple(refused)

    def with_changes(self: O, changes: Mapping[str, Any]) -> O:
        """These options with some changed, validated as `parse` does."""
        return type(self).parse({**self.stored(), **changes})


@dataclass(frozen=True)
class _Declared:
    """What an options class has of the game packages' options: those it has in the form's
    order, every option name in that order, the same as a set, the variants, the live ones, and
    each game option's place in the form."""

    options: tuple[GameOption, ...]
    names: tuple[str, ...]
    known: frozenset[str]
    variants: tuple[str, ...]
    live: frozenset[str]
    place: dict[str, int]


# Per options class (read on every parse; emptied when a package declares an option).
_OF_TYPE: dict[type[TableOptions], _Declared] = {}
# Every table's own options (the base class's fields), last in the form.
_EVERY_TABLE = ("referee_mode",)


def _of_type(cls: type[TableOptions]) -> _Declared:
    found = _OF_TYPE.get(cls)
    if found is not None:
        return found
    mine = [o for o in _GAME_OPTIONS.values() if o.of(cls.MODE)]
    # Stable: options of the same place stay in the order they were declared.
    options = (
        *sorted((o for o in mine if o.variant), key=lambda o: o.place),
        *sorted((o for o in mine if not o.variant), key=lambda o: o.place),
    )
    own = cls.own_names()
    names = (
        *(n for n in own if n not in _EVERY_TABLE),
        *(o.name for o in options),
        *(n for n in own if n in _EVERY_TABLE),
    )
    found = _OF_TYPE[cls] = _Declared(
        options=options,
        names=names,
        known=frozenset(names),
        variants=tuple(o.name for o in options if o.variant),
        live=cls.LIVE | {o.name for o in options if o.live},
        place={o.name: names.index(o.name) for o in options},
    )
    return found


# Each options class's field names, for `flag` (read on every tap: dataclasses.fields() each
# time would build them again).
_FIELDS: dict[type[TableOptions], frozenset[str]] = {}


def _fields_of(cls: type[TableOptions]) -> frozenset[str]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(cls.own_names())
    return names
