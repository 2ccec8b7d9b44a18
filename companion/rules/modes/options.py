"""The options every table has (plain Python): a frozen dataclass per mode, checked once.

`parse` checks a stored or submitted mapping against the mode's options class (unknown names and
non-flags refused), so a table's options are validated once and read as typed attributes
everywhere; `flag` reads a game's own option by its name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

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
class TableOptions:
    """Options of every table, whatever its mode: 军争 is an expansion of the deck
    (docs/rules.md §9.9), not a mode; referee mode is a rule about who may act (anyone seated may
    adjust anyone)."""

    maneuvering: bool = False
    referee_mode: bool = False

    # Options a host may still change once a game is in play.
    LIVE: ClassVar[frozenset[str]] = frozenset({"referee_mode"})
    # The options that are variants or house rules (docs/rules.md §9), in the form's order: none
    # for a plain table.
    VARIANTS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option of this type, in the order the host's form lists them."""
        return tuple(f.name for f in dataclasses.fields(cls))

    def flag(self, name: str) -> bool:
        """Whether the option `name` is on: how a game package reads its own option, which only
        its mode's options declare (False at a table of another mode)."""
        return name in _declared(type(self)) and bool(getattr(self, name))

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
        return cls(**values)

    def stored(self) -> dict[str, bool]:
        """The mapping kept in the table's one options field."""
        return dataclasses.asdict(self)

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
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names
