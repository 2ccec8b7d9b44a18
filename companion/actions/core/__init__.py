"""The core of every action: errors, who is acting (`actors`), reading credentials
(`credentials`), and the frame of a write: the actor read, the action run, its change recorded
(`record`)."""

from __future__ import annotations

from companion.actions.core.actors import (
    ActionError,
    Actor,
    NotFound,
    clean_code,
    clean_name,
    may_act_on,
    require_host,
    seat_of,
    seat_public,
)
from companion.actions.core.credentials import actor_for, holding, marking, tap_mark
from companion.actions.core.record import (
    SEEN_SQL,
    UNDOABLE_KINDS,
    action,
    already_applied,
    dirty_table_fields,
    record_change,
    run_as,
    tap_reading,
    was_applied,
)
from companion.outbox import Change

__all__ = [
    "UNDOABLE_KINDS",
    "SEEN_SQL",
    "ActionError",
    "Actor",
    "Change",
    "NotFound",
    "already_applied",
    "dirty_table_fields",
    "record_change",
    "require_host",
    "seat_of",
    "seat_public",
    "was_applied",
    "action",
    "actor_for",
    "clean_code",
    "clean_name",
    "holding",
    "marking",
    "may_act_on",
    "run_as",
    "tap_mark",
    "tap_reading",
]
