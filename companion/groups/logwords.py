"""The group's log as its page shows it to the members: who did what, and when (the newest
first, the last LOG_LINES of them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from companion.groups.models import Group, GroupAction

LOG_LINES = 30


@dataclass(frozen=True)
class LogLine:
    at: datetime
    who: str
    table: str
    what: str


def what(kind: str, data: dict[str, Any]) -> str:
    """One action in words (the names as they were then)."""
    if kind == GroupAction.Kind.CREATE:
        return _("created the group")
    if kind == GroupAction.Kind.ATTACH:
        return _("added an evening")
    if kind == GroupAction.Kind.UNMATCH:
        return _("%(seat)s is not %(player)s") % data
    if kind == GroupAction.Kind.RELINK:
        return _("%(seat)s is %(player)s") % data
    if kind == GroupAction.Kind.MERGE:
        return _("merged %(gone)s into %(keep)s") % {
            "gone": data["gone_name"],
            "keep": data["keep_name"],
        }
    if kind == GroupAction.Kind.UNMERGE:
        return _("undid merging %(gone)s into %(keep)s") % {
            "gone": data["gone_name"],
            "keep": data["keep_name"],
        }
    if kind == GroupAction.Kind.IMPORT:
        return _("imported %(n)s games") % {"n": data.get("games", 0)}
    return kind


def recent(group: Group) -> tuple[LogLine, ...]:
    """The group's last actions, newest first (one query)."""
    rows = GroupAction.objects.filter(group=group).order_by("-at", "-pk")[:LOG_LINES]
    return tuple(
        LogLine(at, who or _("The host"), table, what(kind, data))
        for at, who, table, kind, data in rows.values_list("at", "who", "table", "kind", "data")
    )
