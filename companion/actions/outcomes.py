"""What became of a tap: the outcome of one action id, from the event log and the recorded
refusals and merges (TapOutcome), for the screen that asks about its own taps."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from companion.actions.core import Actor, actor_for
from companion.infra import fastsql
from companion.models import Event, Seat, Table, TapOutcome


@dataclass
class TapAnswer:
    """What became of one tap (by its action id): "applied" (in the event log), "refused" (with
    the status and message its first copy was answered with), "merged" (with an identical tap
    just before it) or "not_applied" (nothing is known of it: it may still be tried)."""

    outcome: str
    version: int
    status: int = 0
    message: str = ""

    @property
    def applied(self) -> bool:
        return self.outcome == "applied"


def tap_outcome(token: str, action_id: str) -> TapAnswer:
    """What became of this screen's tap `action_id`, and the table's version now.

    Read from the event log and the recorded outcomes, for the asking token's own taps only
    (another seat's ids answer "not_applied"): a phone whose tap failed or went unanswered
    learns the real outcome."""
    actor = actor_for(token)
    version = actor.table.version
    with connection.cursor() as cursor:
        cursor.execute(_STATUS_SQL, [actor.table.pk, action_id])
        row = cursor.fetchone()
    if row is not None:
        return TapAnswer("applied" if row[0] == actor.label else "not_applied", version)
    recorded = recorded_outcome(actor, action_id)
    if recorded is None:
        return TapAnswer("not_applied", version)
    kind, status, message = recorded
    return TapAnswer(kind, version, status, message)


def tap_status(token: str, action_id: str) -> tuple[bool, int]:
    """Whether this screen's tap `action_id` was applied, and the table's version now."""
    answer = tap_outcome(token, action_id)
    return answer.applied, answer.version


# Same condition as companion.actions.core.SEEN_SQL (the partial unique index).
_STATUS_SQL = (
    f"SELECT actor FROM {Event._meta.db_table} "  # noqa: S608 - a constant table name
    "WHERE table_id = %s AND action_id = %s "
    "AND NOT (action_id = '') AND private_to_id IS NULL LIMIT 1"
)


def recorded_outcome(actor: Actor, action_id: str) -> tuple[str, int, str] | None:
    """The refusal or merge recorded for this actor's tap `action_id`: (kind, status, message).

    Asked on every tap with an id: plain SQL over the unique index (table, action_id)."""
    with connection.cursor() as cursor:
        cursor.execute(_OUTCOME_SQL, [actor.table.pk, action_id, actor.label])
        row = cursor.fetchone()
    return None if row is None else (str(row[0]), int(row[1]), str(row[2]))


_OUTCOME_SQL = (
    f"SELECT kind, status, message FROM {TapOutcome._meta.db_table} "  # noqa: S608
    "WHERE table_id = %s AND action_id = %s AND actor = %s LIMIT 1"
)


def earlier_copies(
    actor: Actor, action_id: str | None, mark: tuple[str, float] | None, window: float
) -> tuple[tuple[str, int, str] | None, bool, bool]:
    """What the database knows before a tap is tried, in one statement: the refusal or merge
    recorded for its id (as `recorded_outcome`); whether it merges: an identical tap (`mark`:
    its key's hash and moment) with another id was the table's last change, applied less than
    `window` seconds from it by whichever process, and this id was not applied itself (a
    replay); and whether this id
    was applied already (the action's own replay check, answered here)."""
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
# Same condition as companion.actions.core.SEEN_SQL (the partial unique index).
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
# for word, as companion.actions.core.SEEN_SQL), and whether an identical tap was the table's
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


def record_outcome(
    actor: Actor, action_id: str, kind: str, status: int = 0, message: str = ""
) -> None:
    """Remember that this tap was refused or merged (inside the transaction that judged it).
    An id another actor of the table used already keeps that actor's record."""
    outcome = TapOutcome(
        table_id=actor.table.pk,
        action_id=action_id,
        actor=actor.label,
        kind=kind,
        status=status,
        message=message,
    )
    TapOutcome.objects.bulk_create([outcome], ignore_conflicts=True)
