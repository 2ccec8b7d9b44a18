"""The group hears a committed change of an attached evening's table (companion.outbox): it
copies in the games that ended or were corrected, and matches a phone that joined."""

from __future__ import annotations

from typing import Any

from companion.groups.models import Evening
from companion.groups.services import record_evening
from companion.models import Event
from companion.outbox import Change, change_committed

# The changes that end a game or change a finished one's record, and a phone joining (it is
# recognised, or asked, at once).
KINDS = ("game_over", "game_corrected", "seat_joined")


def on_change(sender: Any, change: Change, **kwargs: Any) -> None:
    """A delta (an HP tap, a turn) never ends a game: it costs nothing here."""
    if change.delta_seats is not None or not change.applied:
        return
    if not Event.objects.filter(
        table_id=change.table_id, version=change.version, kind__in=KINDS
    ).exists():
        return
    for evening in Evening.objects.filter(session__table_id=change.table_id):
        record_evening(evening)


def connect() -> None:
    change_committed.connect(on_change, dispatch_uid="groups.on_change")
