"""A committed change, announced: the one way a write tells the screens.

An action records its change (companion.actions.core.record) and announces it here; the
announcement goes out only once its transaction has committed, so no screen ever sees a change
that was rolled back (Zulip's `send_event_on_commit`). Delivery (companion.live.broadcast) listens
to `change_committed`; this module imports nothing above the models, so the writes never import
what renders or delivers them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from companion.models import Seat, Table

# Sent once per committed change, with `change`. Its receivers must not raise for expected
# faults (Redis away): the change stands whatever happens to its frames.
change_committed = Signal()
# Sent after `change_committed` for a change that is not a delta (a delta, such as an HP tap or
# the turn moving, never deals, ends or corrects a game): what listens for those alone, such as a
# group's history, is then not entered by the taps that are most of a game.
whole_change_committed = Signal()
log = logging.getLogger(__name__)


@dataclass
class Change:
    """What one committed action changed, for the broadcast after commit."""

    table_id: int
    version: int
    action_id: str | None = None
    private_seats: set[int] = field(default_factory=set)
    revoked: list[tuple[int, str]] = field(default_factory=list)
    access_changed: bool = False
    applied: bool = True
    # Not applied because an identical tap of the same screen arrived just before (companion.taps).
    merged: bool = False
    # Whether the host's controls may show something new (HP taps never change them).
    host_panel: bool = True
    # What changed is what travels. Set when the change touched only these
    # seats (and the `parts` named): the screens get a delta on top of the previous version, not
    # the whole state. The rows are the ones the action committed, so the broadcast need not read
    # them again. `parts`: "strip" (the turn or who is dying: the now strip and the dying
    # banners), "distances" (horses and weapons), "turn" (the turn bar), "hp" (the seat's own HP
    # tracker rides along, so its phone needs no private frame).
    delta_seats: list[Seat] | None = None
    parts: frozenset[str] = frozenset()
    # Every seat of the table in play order, as the action left them, when it read them all (the
    # touched seats among them): the broadcast does not read them again.
    seats: list[Seat] | None = None
    table: Table | None = None
    # The event behind a delta, as (kind, public part, version, game number): the delivery
    # makes its history line.
    event: tuple[str, dict[str, Any], int, int] | None = None

    @classmethod
    def delta(
        cls,
        table: Table,
        seats: list[Seat],
        *parts: str,
        host_panel: bool = False,
        private_seats: set[int] | None = None,
        every_seat: list[Seat] | None = None,
    ) -> Change:
        """A change sent as a delta of these seats (each once) and `parts`: HP, equipment, a
        delayed trick, the turn moving; `private_seats` also get their private page.
        `every_seat`: the table's seats as the action read and changed them (`seats`)."""
        unique = list({s.pk: s for s in seats}.values())
        return cls(
            table.pk,
            table.version,
            private_seats=private_seats or set(),
            host_panel=host_panel,
            delta_seats=unique,
            parts=frozenset(parts),
            seats=every_seat,
        )


def announce(change: Change) -> None:
    """Send `change_committed` for this change once the current transaction commits (at once
    outside one). Robust: a receiver's fault is logged, and the commit stands."""
    transaction.on_commit(lambda: _send(change), robust=True)


def _send(change: Change) -> None:
    # Every receiver hears it, whatever another one does; a receiver's own fault is a bug.
    for receiver, result in change_committed.send_robust(sender=Change, change=change):
        if isinstance(result, Exception):
            log.error(
                "a receiver of change %s failed: %r", change.version, receiver, exc_info=result
            )
    if change.delta_seats is not None or not change.applied:
        return
    for receiver, result in whole_change_committed.send_robust(sender=Change, change=change):
        if isinstance(result, Exception):
            log.error(
                "a receiver of change %s failed: %r", change.version, receiver, exc_info=result
            )
