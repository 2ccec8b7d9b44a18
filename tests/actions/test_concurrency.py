"""Races with real transactions and threads (docs/threats.md 12): two deals, two joins from one
phone, many joins for the last seats. The database decides, not the UI."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from companion import actions
from companion.actions import ActionError
from companion.models import MAX_SEATS, Event, Seat
from tests.support.factories import make_table

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True)]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at the same moment in threads; return each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_simultaneous_deals_deal_once() -> None:
    table, _ = make_table(6)
    results = race([lambda: actions.identities_deal(token=table.host_token) for _ in range(2)])
    successes = [r for r in results if not isinstance(r, Exception)]
    refusals = [r for r in results if isinstance(r, ActionError)]
    assert len(successes) == 1 and len(refusals) == 1, results
    assert refusals[0].code == "confirm_redeal"
    assert Event.objects.filter(table=table, kind__startswith="identities").count() == 1
    assert Seat.objects.filter(table=table, identity="lord").count() == 1


def test_double_tap_deal_with_one_action_id_deals_once() -> None:
    table, _ = make_table(5)
    results = race(
        [
            lambda: actions.identities_deal(token=table.host_token, action_id="same-tap-0001")
            for _ in range(4)
        ]
    )
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, ActionError)]
    assert Event.objects.filter(table=table, kind__startswith="identities").count() == 1


def test_two_joins_from_one_phone_take_one_seat() -> None:
    table, _ = make_table(2)
    results = race(
        [
            lambda: actions.seat_join(code=table.code, name="Same", device="one-phone"),
            lambda: actions.seat_join(code=table.code, name="Twice", device="one-phone"),
            lambda: actions.seat_join(code=table.code, name="Same", device="one-phone"),
        ]
    )
    seats = {r[0].pk for r in results if isinstance(r, tuple)}
    assert len(seats) == 1, results
    assert Seat.objects.filter(table=table, device="one-phone").count() == 1
    assert Seat.objects.filter(table=table).count() == 3


def test_many_joins_for_the_last_seats_never_overfill() -> None:
    table, _ = make_table(MAX_SEATS - 2)
    results = race(
        [
            (lambda i=i: actions.seat_join(code=table.code, name=f"Late{i}", device=f"late-{i}"))
            for i in range(8)
        ]
    )
    joined = [r for r in results if isinstance(r, tuple)]
    refused = [r for r in results if isinstance(r, ActionError)]
    assert len(joined) == 2 and len(refused) == 6, results
    assert all(r.code in {"full", "conflict"} for r in refused)
    assert Seat.objects.filter(table=table).count() == MAX_SEATS
    assert sorted(Seat.objects.filter(table=table).values_list("slot", flat=True)) == list(
        range(MAX_SEATS)
    )


def test_simultaneous_host_taps_never_lose_an_update() -> None:
    table, seats = make_table(8)
    moves = [
        (lambda s=s: actions.seat_move(token=table.host_token, seat_id=s.pk, position=0))
        for s in seats
    ]
    results = race(moves)
    assert not [r for r in results if isinstance(r, Exception)], results
    table.refresh_from_db()
    assert table.version == 1 + 8 + 8
    versions = list(
        Event.objects.filter(table=table).order_by("version").values_list("version", flat=True)
    )
    assert versions == list(range(1, table.version + 1))
    assert sorted(table.seats.values_list("position", flat=True)) == list(range(8))


@pytest.mark.asyncio
async def test_twenty_simultaneous_damage_taps_from_two_phones_lose_nothing() -> None:
    """docs/threats.md 11: real transactions, the seat's phone and the host tapping at once."""
    import asyncio
    import re

    from asgiref.sync import sync_to_async

    from tests.live.test_consumers import drain, open_socket
    from tests.support.game import picked_all

    table, seats = await sync_to_async(picked_all)(4)
    target = seats[0]
    sockets = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    sockets.append(display)
    tokens = [target.token, table.host_token] * 10
    taps = [
        sync_to_async(actions.seat_change_hp, thread_sensitive=False)(
            token=token, seat_id=target.pk, delta=-1, source=""
        )
        for token in tokens
    ]
    results = await asyncio.gather(*taps, return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception)], results
    target_after = await sync_to_async(Seat.objects.get)(pk=target.pk)
    assert target_after.hp == target.hp - 20
    dying_events = await sync_to_async(
        lambda: Event.objects.filter(table=table, kind="damage", public__dying=True).count()
    )()
    assert dying_events == 1
    assert target_after.dying
    final_version = table.version + 20
    last_views = set()
    for comm in sockets:
        # Whole public frames, and the small delta frames of HP changes: the newest says it.
        frames = [
            f
            for f in await drain(comm, timeout=0.5)
            if 'id="table-state"' in f or 'id="table-delta"' in f
        ]
        last = max(frames, key=lambda f: int(re.search(r'data-version="(\d+)"', f).group(1)))
        version = int(re.search(r'data-version="(\d+)"', last).group(1))
        shown = re.search(rf'data-seat="{target.pk}".*?class="hp-num">(-?\d+)/', last, re.S).group(
            1
        )
        last_views.add((version, shown))
        await comm.disconnect()
    # HP shows never below 0.
    assert last_views == {(final_version, str(max(target.hp - 20, 0)))}
