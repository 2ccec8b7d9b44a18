"""The core of every action: errors, who is acting (`actors`), reading credentials
(`credentials`), and recording one change (`record`)."""

from __future__ import annotations

from companion.actions.core.actors import (
    ActionError,
    Actor,
    NotFound,
    _require_host,
    _seat_of,
    _seat_public,
    clean_code,
    clean_name,
    may_act_on,
)
from companion.actions.core.credentials import actor_for, holding, marking
from companion.actions.core.record import (
    _SEEN_SQL,
    UNDOABLE_KINDS,
    _already,
    _dirty_table_fields,
    _record,
    _seen,
    action,
)
from companion.outbox import Change

__all__ = [
    "UNDOABLE_KINDS",
    "_SEEN_SQL",
    "ActionError",
    "Actor",
    "Change",
    "NotFound",
    "_already",
    "_dirty_table_fields",
    "_record",
    "_require_host",
    "_seat_of",
    "_seat_public",
    "_seen",
    "action",
    "actor_for",
    "clean_code",
    "clean_name",
    "holding",
    "marking",
    "may_act_on",
]
