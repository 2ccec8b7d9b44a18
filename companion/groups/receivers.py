"""The group hears a committed change of an attached evening's table (companion.outbox): it
copies in the games that ended or were corrected, and matches a phone that joined."""

from __future__ import annotations

from typing import Any

from companion.groups.models import Evening
from companion.groups.services import record_evening
from companion.models import Event
from companion.outbox import Change, whole_change_committed

# The changes that end a game or change a finished one's record, and a phone joining (it is
# recognised, or asked, at once).
KINDS = ("game_over", "game_corrected", "seat_joined")


def on_change(sender: Any, change: Change, **kwargs: Any) -> None:
    """Heard for whole changes only (a delta, such as an HP tap or a turn, never ends a game, and
    is not sent here)."""
    if not Event.objects.filter(
        table_id=change.table_id, version=change.version, kind__in=KINDS
    ).exists():
        return
    for evening in Evening.objects.filter(session__table_id=change.table_id):
        record_evening(evening)


def connect() -> None:
    whole_change_committed.connect(on_change, dispatch_uid="groups.on_change")
