"""Every write's frame: the acting screen read with its table's row locked (for a tap judged by
the dispatcher, in the same statement as what its earlier copies left: `tap_reading`), the
action run, and the one change it records (the event, the version, the announcement)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connection, transaction

from companion import outbox
from companion.actions.core.actors import Actor
from companion.actions.core.credentials import actor_for, take_held, tap_mark
from companion.infra import fastsql
from companion.models import Event, Seat, Table, TapOutcome
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


def earlier_copies(
    actor: Actor, action_id: str | None, mark: tuple[str, float] | None, window: float
) -> tuple[tuple[str, int, str] | None, bool, bool]:
    """What the database knows before a tap is tried, in one statement: the refusal or merge
    recorded for its id (as `companion.actions.outcomes.recorded_outcome`); whether it merges:
    an identical tap (`mark`: its key's hash and moment) with another id was the table's last
    change, applied less than `window` seconds from it by whichever process, and this id was
    not applied itself (a replay); and whether this id was applied already (the action's own
    replay check, answered here)."""
    parts: list[str] = []
    params: list[int | float | str] = []
    table_id = actor.table.pk
    if action_id:
        parts.append(_EARLIER_OUTCOME_SQL)
        params += [table_id, action_id, actor.label]
        parts.append(_EARLIER_SEEN_SQL)
        params += [table_id, action_id]
    if mark is not None:
        key, at = mark
        # The table's last change only (the (table, version) index, a row or two read): a tap
        # repeats the one just applied, never one another change has come after (pick A, undo,
        # pick A again is three taps, however quickly they arrive).
        parts.append(_EARLIER_NEAR_SQL)
        params += [table_id, actor.table.version, key, at - window, at + window, action_id or "-"]
    if not parts:
        return None, False, False
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    kinds = {str(row[0]) for row in rows}
    recorded = next(
        ((str(r[0]), int(r[1]), str(r[2])) for r in rows if r[0] not in ("near", "seen")), None
    )
    seen = "seen" in kinds
    return recorded, "near" in kinds and not seen, seen


_EARLIER_OUTCOME_SQL = (
    "SELECT kind, status, message FROM ("  # noqa: S608 - constant table names
    f"SELECT kind, status, message FROM {TapOutcome._meta.db_table} "
    "WHERE table_id = %s AND action_id = %s AND actor = %s LIMIT 1) AS recorded"
)
_EARLIER_NEAR_SQL = (
    "SELECT 'near', 0, '' FROM ("  # noqa: S608
    f"SELECT 1 FROM {Event._meta.db_table} WHERE table_id = %s AND version = %s "
    "AND tap_key = %s AND tapped_at > %s AND tapped_at < %s AND action_id <> %s "
    "AND private_to_id IS NULL LIMIT 1) AS near"
)
# Same condition as SEEN_SQL (the partial unique index).
_EARLIER_SEEN_SQL = (
    "SELECT 'seen', 0, '' FROM ("  # noqa: S608
    f"SELECT 1 FROM {Event._meta.db_table} WHERE table_id = %s AND action_id = %s "
    "AND NOT (action_id = '') AND private_to_id IS NULL LIMIT 1) AS seen"
)


def tap_reading(
    token: str, action_id: str | None, mark: tuple[str, float] | None, window: float
) -> tuple[Actor, tuple[str, int, str] | None, bool, bool]:
    """The acting screen, read with its table's row locked (`actor_for(token,
    for_update=True)`), and what `earlier_copies` says of the tap, as one statement: a seat's
    row, its table's and the three checks together (on PostgreSQL after the table's lock, sent
    with it in the dispatcher's batch: one round trip). The host console's token, and the ORM's
    own path (STOCK_PATH), ask the two questions one after the other."""
    if token and len(token) <= 64 and not fastsql.STOCK:
        if connection.vendor != "sqlite":
            # The seat and the checks are read once the table's row is locked (each statement
            # of the batch runs after the one before it): what its last holder committed.
            fastsql.later(_LOCK_SQL, [token])
        key, at = mark if mark is not None else ("", 0.0)
        # In the statement's order: the columns' (applied; the identical tap), the recorded
        # outcome's join, the seat's token.
        params = [action_id or "", key, at - window, at + window, action_id or "-"]
        params += [action_id or "", token]
        found = fastsql.read_pair_with(Seat, Table, _SEAT_TABLE, _SEAT_TOKEN, params, _CHECKS)
        if found is not None:
            seat, table, (kind, status, message, seen, near) = found
            seat.table = table
            actor = Actor(table=table, seat=seat, is_host=seat.is_host)
            recorded = None if kind is None else (str(kind), int(status), str(message))
            applied = bool(seen) and bool(action_id)
            merges = bool(near) and mark is not None and not applied
            return actor, recorded if action_id else None, merges, applied
    actor = actor_for(token, for_update=True)
    return actor, *earlier_copies(actor, action_id, mark, window)


_SEAT = Seat._meta.db_table
_TABLE = Table._meta.db_table
_SEAT_TABLE = f"{_TABLE}.id = {_SEAT}.table_id"
_SEAT_TOKEN = f"{_SEAT}.token = %s"
_LOCK_SQL = (
    f"SELECT 1 FROM {_TABLE} WHERE id = "  # noqa: S608 - constant table names
    f"(SELECT table_id FROM {_SEAT} WHERE token = %s) FOR UPDATE"
)
# The checks of `earlier_copies`, as columns of the seat's row: this id's recorded outcome (its
# kind, status and message, or NULLs), whether it was applied (the unique index's condition word
# for word, as SEEN_SQL), and whether an identical tap was the table's
# last change within the window.
_CHECKS = (
    "recorded.kind, recorded.status, recorded.message, "  # noqa: S608
    f"EXISTS (SELECT 1 FROM {Event._meta.db_table} WHERE table_id = {_SEAT}.table_id "
    "AND action_id = %s AND NOT (action_id = '') AND private_to_id IS NULL), "
    f"EXISTS (SELECT 1 FROM {Event._meta.db_table} WHERE table_id = {_SEAT}.table_id "
    f"AND version = {_TABLE}.version AND tap_key = %s AND tapped_at > %s "
    "AND tapped_at < %s AND action_id <> %s AND private_to_id IS NULL)",
    f"LEFT JOIN {TapOutcome._meta.db_table} AS recorded ON recorded.table_id = {_SEAT}.table_id "
    f"AND recorded.action_id = %s AND recorded.actor = 'seat:' || {_SEAT}.id",
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
