"""The phones' panels: how an app above the core that is no game (the groups app, on at every
table whatever its mode) shows something on one seat's own phone, without the core naming it.

The app adds its panel when it is ready (`add`: a key, a template, and what its panel shows the
phones of some seats). The core asks the apps only when it renders a phone's whole private part
(`companion.read.private.private_state`), once for every phone that render redraws, never for a
delta (an HP tap's redraws only the seat's HP tracker); the template is included at the top of
the seat's own section (`#my-seat`), with `panel` its value. What a panel shows goes into that
seat's private frames and page only: it is its own phone's, as its identity is.

Like companion.hooks, this module imports nothing above the models: every layer may ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from companion.models import Table

# What an app's panel shows the phones of `seat_ids` at `table`: seat id -> its value (a seat
# it leaves out shows nothing).
Values = Callable[[Table, Collection[int]], Mapping[int, Any]]

_PANELS: dict[str, tuple[str, Values]] = {}


@dataclass(frozen=True)
class Panel:
    """One app's panel on one phone: its `template`, rendered with `panel` = `value`."""

    key: str
    template: str
    value: Any


def add(key: str, template: str, values: Values) -> None:
    """Show `template` on the phones `values` names (an app's `ready()` calls this; a key added
    again is replaced)."""
    _PANELS[key] = (template, values)


def remove(key: str) -> None:
    """Remove the panel of `key` (a test's own, once the test is over)."""
    _PANELS.pop(key, None)


def registered() -> dict[str, tuple[str, Values]]:
    """The panels added, in order: key -> its template and what it shows."""
    return dict(_PANELS)


def for_seats(table: Table, seat_ids: Collection[int]) -> dict[int, tuple[Panel, ...]]:
    """The panels the apps show on the phones of `seat_ids` at `table`, each app asked once for
    them all: seat id -> its panels, in the order the apps were added (a seat with none is left
    out)."""
    if not _PANELS or not seat_ids:
        return {}
    found: dict[int, list[Panel]] = {}
    for key, (template, values) in _PANELS.items():
        for seat_id, value in values(table, seat_ids).items():
            if seat_id in seat_ids:
                found.setdefault(seat_id, []).append(Panel(key, template, value))
    return {seat_id: tuple(shown) for seat_id, shown in found.items()}
