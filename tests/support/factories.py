"""Tables made through the real service functions."""

from __future__ import annotations

from companion import actions
from companion.models import Seat, Table


def make_table(
    players: int = 4, *, deal: bool = False, **options: bool
) -> tuple[Table, list[Seat]]:
    """A table with `players` seats (named P1..Pn), optionally with identities dealt."""
    table = actions.table_create()
    if options:
        actions.table_set_options(token=table.host_token, options=options)
    seats = [
        actions.seat_join(code=table.code, name=f"P{i + 1}", device=f"device-{table.code}-{i}")[0]
        for i in range(players)
    ]
    if deal:
        actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    return table, [Seat.objects.get(pk=s.pk) for s in seats]


def other_token(token: str) -> str:
    """A token that differs from `token` in its last character only (never equal to it)."""
    return token[:-1] + ("B" if token.endswith("A") else "A")
