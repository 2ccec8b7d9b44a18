""" "Are you 张三 of 周五三国杀?": the question a phone whose seat was matched to a group's player
by its name only is asked, until it answers.

It is a panel of the phone's own section (companion.panels, added when the app is ready): it
rides in that seat's private frames and page only, read once for every phone a render redraws.
A write of the group that asks or stops asking some phones (an evening attached, a match
undone, an answer, a phone that joined) redraws those phones' private part (`telling`)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection

from companion import panels
from companion.groups.models import Evening, Group, Player, SeatLink
from companion.live import broadcast
from companion.models import Session, Table

KEY = "groups"
TEMPLATE = "groups/ask.html"


@dataclass(frozen=True)
class Question:
    """Are you `name` (the player) of `group`?"""

    name: str
    group: str


def questions(table: Table, seat_ids: Collection[int] | None = None) -> dict[int, Question]:
    """The phones of `seat_ids` (None: every seat) the table's evening asks, in one statement:
    its seats matched by name only and not answered yet. The table's evening is its session's,
    else its last session's (between games). Asked by every whole redraw of a phone (a seat
    dying, a 桃, a turn): written as one plain statement, where the ORM's three joins cost a
    fifth of such a tap (docs/performance.md)."""
    if seat_ids is not None and not seat_ids:
        return {}
    # The models' own table names in the statement; every value is a parameter.
    link, evening = SeatLink._meta.db_table, Evening._meta.db_table
    player, group = Player._meta.db_table, Group._meta.db_table
    params: list[int | bool | str]
    if table.session_id is not None:
        session_sql, params = "%s", [table.session_id]
    else:
        sessions = Session._meta.db_table
        latest = "ORDER BY number DESC LIMIT 1"
        session_sql = f"(SELECT id FROM {sessions} WHERE table_id = %s {latest})"  # noqa: S608
        params = [table.pk]
    sql = (
        f"SELECT l.seat, p.name, g.name FROM {link} l"  # noqa: S608
        f" JOIN {evening} e ON e.id = l.evening_id"
        f" JOIN {player} p ON p.id = l.player_id"
        f" JOIN {group} g ON g.id = e.group_id"
        f" WHERE e.session_id = {session_sql} AND l.confirmed = %s AND l.how = %s"
    )
    params += [False, SeatLink.How.NAME.value]
    if seat_ids is not None:
        sql += f" AND l.seat IN ({', '.join(['%s'] * len(seat_ids))})"
        params += list(seat_ids)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {seat: Question(name=name, group=group) for seat, name, group in rows}


def add_panel() -> None:
    """The question on the phones it asks (the app's `ready()`)."""
    panels.add(KEY, TEMPLATE, questions)


@contextmanager
def telling(table: Table | None) -> Iterator[None]:
    """Around a write of the group: the phones of `table` it asks, stops asking, or asks
    otherwise, get their private part again (no one else is sent anything)."""
    before = questions(table) if table is not None else {}
    yield
    if table is None:
        return
    after = questions(table)
    redrawn = {s for s in before.keys() | after.keys() if before.get(s) != after.get(s)}
    if redrawn:
        broadcast.seats_redrawn(table.pk, redrawn)
