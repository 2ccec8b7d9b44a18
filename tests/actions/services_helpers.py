"""Helpers of the service-function tests (test_services_*.py): a table's event kinds in order, and
a snapshot of everything a refused action must leave as it was.
"""

from __future__ import annotations

from companion.models import Event, Seat, Table


def events(table: Table) -> list[str]:
    return list(
        Event.objects.filter(table=table).order_by("version").values_list("kind", flat=True)
    )


def snapshot(table: Table) -> tuple:
    """Everything a refused action must leave as it was."""
    table.refresh_from_db()
    seats = tuple(
        Seat.objects.filter(table=table)
        .order_by("pk")
        .values_list("pk", "position", "name", "token", "identity", "is_host", "alive")
    )
    return (table.version, table.status, table.locked, table.host_token, seats)
