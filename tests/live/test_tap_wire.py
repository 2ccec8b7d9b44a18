"""What an HP tap costs on the wire, as a phone's socket tap runs it on the database thread: the
dispatcher's judgement, the action's transaction and the frames composed after the commit.

On PostgreSQL every round trip is latency the table's taps wait behind, so an HP tap makes at
most four; and the languages its frames are rendered in are known without asking Redis. SQLite
keeps its statements few too (each is a call into the library on the one writer)."""

from __future__ import annotations

import pytest
from django.db import connection

from companion.live import broadcast
from companion.web import dispatch
from tests.support.game import fresh, picked_all
from tests.support.wire import transaction_round_trips, watching

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True)]


def _hp_tap(token: str, seat_id: int, delta: int, action_id: str) -> broadcast.Outbox:
    with broadcast.collecting() as box:
        dispatch.ACTIONS["hp"](
            dispatch.Fields({"seat": seat_id, "delta": delta}), token, action_id, lang="zh-hans"
        )
    return box


def test_an_hp_tap_makes_few_round_trips_and_asks_redis_nothing() -> None:
    table, seats = picked_all(4)
    me = seats[1]
    with watching() as wire:
        # A first tap opens what a process keeps open (the connection, its settings).
        _hp_tap(me.token, me.pk, -1, "wire-warmup-1")
        wire.counting = True
        box = _hp_tap(me.token, me.pk, 1, "wire-counted-1")
        wire.counting = False
    assert fresh(me).hp == me.hp
    # The tap was applied and its frames composed, for every language a screen speaks.
    assert any(message["type"] == "table.fragment" for _group, message in box)
    assert wire.redis == []
    if connection.vendor == "postgresql":
        # BEGIN; the SET of its deadline with the table's lock, then the seat with the checks
        # of earlier copies; the writes; COMMIT (no savepoint, no statement of its own per write).
        assert transaction_round_trips(wire) <= 4, (wire.statements, wire.trips)
        assert "SAVEPOINT" not in " ".join(wire.statements)
    else:
        # BEGIN, the seat with its table and the checks, three writes, COMMIT: no savepoint.
        assert len(wire.statements) <= 6, wire.statements
