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

from django.db.models import Subquery

from companion import panels
from companion.groups.models import SeatLink
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
    """The phones of `seat_ids` (None: every seat) the table's evening asks, in one query: its
    seats matched by name only and not answered yet. The table's evening is its session's, else
    its last session's (between games)."""
    if table.session_id is not None:
        session: int | Subquery = table.session_id
    else:
        latest = Session.objects.filter(table_id=table.pk).order_by("-number").values("pk")[:1]
        session = Subquery(latest)
    links = SeatLink.objects.filter(
        evening__session=session, confirmed=False, how=SeatLink.How.NAME
    )
    if seat_ids is not None:
        links = links.filter(seat__in=list(seat_ids))
    rows = links.values_list("seat", "player__name", "evening__group__name")
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
