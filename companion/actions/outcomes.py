"""What became of a tap: the outcome of one action id, from the event log and the recorded
refusals and merges (TapOutcome), for the screen that asks about its own taps."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from companion.actions.core import Actor, actor_for
from companion.models import Event, TapOutcome


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
