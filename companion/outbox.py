"""A committed change, announced: the one way a write tells the screens.

An action records its change (companion.actions.core.record) and announces it here; the
announcement goes out only once its transaction has committed, so no screen ever sees a change
that was rolled back (Zulip's `send_event_on_commit`). Delivery (companion.live.broadcast) listens
to `change_committed`; this module imports nothing above the models, so the writes never import
what renders or delivers them.
"""

from __future__ import annotations

import functools
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from companion.models import Seat, Table

# Sent once per committed transaction and table, with `change`: what the transaction changed
# there (its changes `combined` into one when it recorded several). Its receivers must not raise
# for expected faults (Redis away): the change stands whatever happens to its frames.
change_committed = Signal()
# Sent after `change_committed`, for each change of the transaction that is not a delta (a
# delta, such as an HP tap or the turn moving, never deals, ends or corrects a game): what listens
# for those alone, such as a group's history, is then not entered by the taps that are most of a
# game, and hears a game's end at its own version.
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
    # The first version of the changes one transaction made, when this change stands for them
    # all (`combined`): the standings panel rides along if any of them touched the scores.
    since: int | None = None

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
    outside one). Robust: a receiver's fault is logged, and the commit stands.

    The changes one transaction records (the last hero pick: the pick, then the reveal) go out
    together, as one change per table (`combined`): both would read the table as committed, so
    every screen would get the same final state twice. Each change still has its own commit
    callback, so a savepoint rolled back drops exactly its own changes; changes are gathered only
    with those recorded under the same savepoints, which are kept or dropped together, and the
    last of them to be called back sends them all."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        _send(change)
        return
    under = tuple(conn.savepoint_ids)
    batch: _Batch | None = getattr(_open, "batch", None)
    if batch is None or batch.sent or batch.under != under:
        # A batch whose transaction was rolled back is never called back: it is left behind.
        batch = _open.batch = _Batch(under)
    batch.changes.append(change)
    conn.on_commit(functools.partial(_arrived, batch, change), robust=True)


class _Batch:
    """The changes recorded under the same savepoints of one transaction, in order."""

    __slots__ = ("changes", "committed", "sent", "under")

    def __init__(self, under: tuple[str | None, ...]) -> None:
        self.under = under
        self.changes: list[Change] = []
        self.committed: list[Change] = []
        self.sent = False


# The batch being recorded on this thread (a database connection is a thread's own).
_open = threading.local()


def _arrived(batch: _Batch, change: Change) -> None:
    if change is not batch.changes[-1]:
        batch.committed.append(change)
        return
    batch.sent = True
    if batch.committed:
        batch.committed.append(change)
        _send_all(batch.committed)
    else:  # alone (every HP tap)
        _send(change)


def combined(changes: list[Change]) -> Change:
    """One table's changes of one transaction as one change, at the last one's version: the
    whole state (a delta is on top of the version just before it), every private part any of
    them redraws (a seat whose HP tracker a delta carried included), the tap's action id."""
    if len(changes) == 1:
        return changes[0]
    last = changes[-1]
    private: set[int] = set()
    for change in changes:
        private |= change.private_seats
        if change.delta_seats is not None and "hp" in change.parts:
            private.update(s.pk for s in change.delta_seats)
    return Change(
        last.table_id,
        max(c.version for c in changes),
        since=min(c.version for c in changes),
        action_id=next((c.action_id for c in changes if c.action_id), None),
        private_seats=private,
        revoked=[r for c in changes for r in c.revoked],
        access_changed=any(c.access_changed for c in changes),
        applied=any(c.applied for c in changes),
        merged=all(c.merged for c in changes),
        host_panel=any(c.host_panel for c in changes),
    )


def _send(change: Change) -> None:
    _deliver(change, [change])


def _send_all(changes: list[Change]) -> None:
    tables: dict[int, list[Change]] = {}
    for change in changes:
        tables.setdefault(change.table_id, []).append(change)
    for together in tables.values():
        _deliver(combined(together), together)


def _deliver(change: Change, together: list[Change]) -> None:
    """`change` (standing for `together`, one table's changes of one transaction) to every
    receiver, whatever another one does; a receiver's own fault is a bug."""
    for receiver, result in change_committed.send_robust(sender=Change, change=change):
        if isinstance(result, Exception):
            log.error(
                "a receiver of change %s failed: %r", change.version, receiver, exc_info=result
            )
    # What listens for whole changes hears each of them (a game ended at its own version).
    for one in together:
        if one.delta_seats is not None or not one.applied:
            continue
        for receiver, result in whole_change_committed.send_robust(sender=Change, change=one):
            if isinstance(result, Exception):
                log.error(
                    "a receiver of change %s failed: %r", one.version, receiver, exc_info=result
                )
