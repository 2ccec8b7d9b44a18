"""A tap and its frames read the table's seats once: moving to the next phase, a 桃, and a
damage along a 铁索连环 chain of four (the turn's holder, the dying, the giver, the target and
the source found among them, the frames' seats handed over with the change). The actor's own
read (by its token, and whether the table has a host) is the same for every tap and not
counted."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion import actions
from companion.games.maneuvering import actions as maneuvering
from companion.live import broadcast
from companion.models import Seat, Table
from tests.support.game import fresh, picked_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backend]

_SEAT_READ = re.compile(r'^\s*SELECT .* FROM "?companion_seat"?(?!\S* JOIN)', re.S)


def seat_reads(change: Callable[[], Any]) -> list[str]:
    """The statements reading seats that a committed change and its frames ran, the actor's
    own read aside."""
    with CaptureQueriesContext(connection) as queries, broadcast.collecting() as box:
        change()
    assert box, "the change was sent"
    found = [q["sql"] for q in queries if _SEAT_READ.match(q["sql"])]
    where = [sql.split(" WHERE ", 1)[-1] for sql in found]
    return [w for w in where if "token" not in w and "is_host" not in w]


def test_the_next_phase_reads_the_seats_once() -> None:
    table, _seats = picked_all(5)
    assert len(seat_reads(lambda: actions.turn_advance(token=table.host_token))) == 1


def test_a_peach_reads_the_seats_once() -> None:
    table, seats = picked_all(5)
    victim = fresh(seats[2])
    actions.seat_change_hp(token=table.host_token, seat_id=victim.pk, delta=-victim.hp)
    reads = seat_reads(
        lambda: actions.seat_rescue(
            token=table.host_token, seat_id=victim.pk, by=seats[3].pk, kind="peach"
        )
    )
    assert len(reads) == 1, reads
    assert not fresh(victim).dying


def test_a_chain_of_four_reads_the_seats_once() -> None:
    table, seats = picked_all(6, maneuvering=True)
    table = Table.objects.get(pk=table.pk)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    chained = [s for s in seats if s.pk != holder.pk][:4]
    for seat in chained:
        maneuvering.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)
    reads = seat_reads(
        lambda: maneuvering.damage_resolve(
            token=table.host_token, target=chained[0].pk, card="雷杀", source=holder.pk
        )
    )
    assert len(reads) == 1, reads
    assert all(fresh(s).hp < s.max_hp for s in chained)
