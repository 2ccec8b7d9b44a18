"""The group's own log: what the host did, who and when (GroupAction rows), written inside the
write it records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.groups.models import NAME_MAX_LENGTH, GroupAction


@dataclass(frozen=True)
class Who:
    """Who acts for the group: the host's seat name where the host plays, and the table."""

    name: str = ""
    table: str = ""


def note(group_id: int, kind: str, by: Who | None, **data: Any) -> GroupAction:
    """Add one line to the group's log."""
    by = by or Who()
    return GroupAction.objects.create(
        group_id=group_id, kind=kind, who=by.name[:NAME_MAX_LENGTH], table=by.table, data=data
    )
