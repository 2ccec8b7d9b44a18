"""The group hears a committed change of an attached evening's table (companion.outbox): it
copies in the games that ended or were corrected, and matches a phone that joined (asked, if
matched by its name only, in its private frame)."""

from __future__ import annotations

from typing import Any

from companion.groups.ask import telling
from companion.groups.models import Evening
from companion.groups.services import record_evening
from companion.models import Event, Table
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
    evenings = list(Evening.objects.filter(session__table_id=change.table_id))
    if not evenings:
        return
    # A phone that joined may be asked at once (its page, loaded after the join, asks it too).
    with telling(Table.objects.filter(pk=change.table_id).first()):
        for evening in evenings:
            record_evening(evening)


def connect() -> None:
    whole_change_committed.connect(on_change, dispatch_uid="groups.on_change")
