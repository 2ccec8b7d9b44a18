"""Recording one change (the event, the version, the announcement), and every write's frame."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connection, transaction

from companion import outbox
from companion.actions.core.actors import Actor
from companion.actions.core.credentials import actor_for, take_held, tap_mark
from companion.infra import fastsql
from companion.models import Event, Seat, Table
from companion.outbox import Change

R = TypeVar("R")


def record_change(
    actor: Actor | None,
    table: Table,
    *,
    kind: str,
    public: dict[str, Any],
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    subject: Seat | None = None,
    action_id: str | None = None,
    change: Change | None = None,
    undoable: bool = False,
) -> Change:
    """Bump the version, append the event and schedule the broadcast for after the commit.
    `undoable`: "undo my last change" may pick it (as every kind of UNDOABLE_KINDS; a game's own
    taps say so of theirs)."""
    table.version += 1
    fastsql.update(table, ["version", "updated_at", *dirty_table_fields(table)])
    event = Event(
        table_id=table.pk,
        version=table.version,
        game_number=table.game_number,
        kind=kind,
        actor=actor.label if actor else "system",
        actor_seat_id=actor.seat.pk if actor and actor.seat else None,
        subject_seat_id=subject.pk if subject else None,
        before=before or {},
        after=after or {},
        public=public,
        action_id=action_id or "",
        undoable=undoable or kind in UNDOABLE_KINDS,
    )
    mark = tap_mark.get()
    if mark is not None:
        event.tap_key, event.tapped_at = mark
    # Nobody needs the event's key: inside the dispatcher's batch the INSERT goes with the commit.
    fastsql.insert(event, key=False)
    change = change or Change(table_id=table.pk, version=table.version)
    change.version = table.version
    change.action_id = action_id
    if change.delta_seats is not None:
        change.table = table
        change.event = (kind, public, table.version, table.game_number)
    # The change is committed whatever happens to its broadcast (a Redis outage), so the tap is
    # still answered as applied; phones that missed the frame catch up (live.js heartbeat).
    outbox.announce(change)
    return change


# The changes "undo" may revert (companion.actions.undo.event_undo): HP, deaths, equipment,
# delayed tricks, phases and turns. Each is marked on its event when recorded, so finding a
# seat's last one is an index lookup (Event "event_undo_last"), not a scan of the history.
UNDOABLE_KINDS = frozenset(
    {
        "damage",
        "lose_hp",
        "recover",
        "max_hp",
        "rescue",
        "died",
        "equipped",
        "unequipped",
        "trick_placed",
        "trick_removed",
        "phase",
        "turn",
        "turn_ended",
    }
)


_TABLE_FIELDS = (
    "status",
    "locked",
    "game_number",
    "mode",
    "options",
    "host_token",
    "hero_stage",
    "winner",
    "turn_seat",
    "round",
    "phase",
    "phase_skips",
    "turn_started_at",
    "phase_started_at",
    "timer_seconds",
    "pending_judgement",
    "mode_state",
    "session",
)


def dirty_table_fields(table: Table) -> list[str]:
    """The fields the action changed since the row was read (all of them if unknown)."""
    loaded = getattr(table, "_loaded_values", None)
    if loaded is None:
        return list(_TABLE_FIELDS)
    missing = object()
    return [
        name
        for name, attname in _TABLE_ATTNAMES
        if getattr(table, attname) != loaded.get(attname, missing)
    ]


_TABLE_ATTNAMES = [
    (name, Table._meta.get_field(name).attname)  # type: ignore[union-attr]
    for name in _TABLE_FIELDS
]


def was_applied(table: Table, action_id: str | None) -> bool:
    """Whether this tap was applied already (a double tap, or a replay after reconnect)."""
    if not action_id:
        return False
    # Asked on every tap: plain SQL over the unique index, without the ORM's query building
    # (which cost more than the query itself). Same condition as Event's unique constraint.
    with connection.cursor() as cursor:
        cursor.execute(SEEN_SQL, [table.pk, action_id])
        return cursor.fetchone() is not None


# The condition repeats the unique index's own (Event.Meta "event_action_once") word for word:
# SQLite uses a partial index only then; otherwise it scans every event of the table.
SEEN_SQL = (
    f"SELECT 1 FROM {Event._meta.db_table} "  # noqa: S608 - a constant table name
    "WHERE table_id = %s AND action_id = %s "
    "AND NOT (action_id = '') AND private_to_id IS NULL LIMIT 1"
)


def already_applied(table: Table, action_id: str | None) -> Change:
    return Change(table_id=table.pk, version=table.version, action_id=action_id, applied=False)


def action(
    fn: Callable[..., R] | None = None,
    *,
    replay: Callable[[Actor, Table, str | None], R] | None = None,
) -> Any:
    """Every write's frame, in one place: one short transaction; the acting screen read from
    its token with the table's row locked (`actor_for`); an action id this table has applied
    already answered as a replay (`already_applied`, or `replay`) without running the action again.
    The action itself is then called as `fn(actor, **fields, action_id=...)`; it checks the
    rights and the phase, changes rows and calls `record_change` (the event, the version, the
    announcement on commit).

    Outside, an action keeps its keyword-only form: `seat_change_hp(token=..., seat_id=...,
    delta=..., action_id=...)`.
    """

    def wrap(inner: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(inner)
        def run(*, token: str, action_id: str | None = None, **fields: Any) -> R:
            held = take_held(token)
            # Without a savepoint when the dispatcher rolls back the whole transaction on a
            # refusal: two statements less, and on PostgreSQL no subtransaction.
            with transaction.atomic(savepoint=held is None or held.savepoint):
                actor = held.actor if held is not None else actor_for(token, for_update=True)
                seen = held.seen if held is not None else None
                if seen is None:
                    seen = was_applied(actor.table, action_id)
                if seen:
                    if replay is not None:
                        return replay(actor, actor.table, action_id)
                    return already_applied(actor.table, action_id)  # type: ignore[return-value]
                return inner(actor, action_id=action_id, **fields)

        run.is_action = True  # type: ignore[attr-defined]
        run.inner = inner  # type: ignore[attr-defined]
        run.replay = replay  # type: ignore[attr-defined]
        return run

    return wrap(fn) if fn is not None else wrap


def run_as(
    fn: Callable[..., R],
    actor: Actor,
    *,
    seen: bool,
    savepoint: bool,
    action_id: str | None,
    fields: dict[str, Any],
) -> R:
    """What `fn(token=..., action_id=..., **fields)` does (`fn` made by `action`), for a caller
    that has read `actor` with the table's row locked in this transaction and asked whether
    `action_id` was applied (`seen`): the dispatcher. Without `savepoint` the action runs in the
    caller's transaction as it is, which a refusal rolls back whole (the caller's own
    `atomic(savepoint=False)` block adds nothing to it)."""
    inner: Callable[..., R] = fn.inner  # type: ignore[attr-defined]
    if not savepoint and not seen:
        return inner(actor, action_id=action_id, **fields)
    with transaction.atomic(savepoint=savepoint):
        if seen:
            replay: Callable[[Actor, Table, str | None], R] | None = fn.replay  # type: ignore[attr-defined]
            if replay is not None:
                return replay(actor, actor.table, action_id)
            return already_applied(actor.table, action_id)  # type: ignore[return-value]
        return inner(actor, action_id=action_id, **fields)
