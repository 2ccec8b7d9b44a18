"""The house rules' part of the phones' private frames reads the table's seats once per change,
not once per phone: a change redrawing every phone of a 10-seat table costs the same queries
with the house game on as without it (give or take one), and each phone's frame is still the one
its own render gives."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion import hooks
from companion.games.house.hooks import KEY
from companion.live import broadcast
from companion.models import Seat, Table
from companion.outbox import Change
from tests.games.house.test_rebels_know import NAMES
from tests.support.factories import make_table

pytestmark = [pytest.mark.django_db, pytest.mark.backend]

FELLOWS = re.compile(r'<span class="idn-fellows">(.*?)</span>', re.S)


@contextmanager
def house_off() -> Iterator[None]:
    """The house game unregistered for the block (registered again after)."""
    game = hooks.by_key(KEY)
    assert game is not None
    hooks.unregister(KEY)
    try:
        yield
    finally:
        hooks.register(game)


def private_frames(table: Table, phones: set[int]) -> tuple[int, dict[tuple[int, str], str]]:
    """The queries of a change redrawing `phones` (their private frames with the rest), and the
    private frames it sends: (seat id, language) -> html."""
    change = Change(table_id=table.pk, version=table.version, private_seats=phones)
    with CaptureQueriesContext(connection) as queries, broadcast.collecting() as box:
        broadcast.table_changed(change)
    frames = {}
    for group, message in box:
        parts = group.split(".")
        if parts[0] == "seat" and message.get("type") == "table.fragment":
            frames[(int(parts[1]), parts[2])] = message["html"]
    return len(queries), frames


def dealt_ten() -> tuple[Table, list[Seat]]:
    table, made = make_table(10, deal=True, rebels_know_each_other=True)
    # Names none of which holds another (P1 is in P10).
    for seat, name in zip(made, NAMES, strict=True):
        Seat.objects.filter(pk=seat.pk).update(name=name)
    table.refresh_from_db()
    seats = list(table.seats.order_by("position", "slot"))
    assert hooks.by_key(KEY) in hooks.on(table)
    return table, seats


def test_every_phones_house_part_costs_no_query_per_phone_and_the_frames_are_the_same() -> None:
    table, seats = dealt_ten()
    phones = {s.pk for s in seats}
    one = {seats[0].pk}
    counted, frames = private_frames(table, phones)
    with_house = {"all": counted, "one": private_frames(table, one)[0]}
    with house_off():
        assert hooks.by_key(KEY) not in hooks.on(table)
        without = {n: private_frames(table, p)[0] for n, p in (("all", phones), ("one", one))}
    # What the house game adds does not grow with the phones redrawn: at most one read of the
    # seats for the whole change.
    assert with_house["all"] - without["all"] <= 1, (with_house, without)
    assert with_house["all"] - without["all"] == with_house["one"] - without["one"]
    # Each phone's frame is the one its own render gives (which reads the seats itself).
    langs = broadcast.langs_in_use(table)
    assert set(frames) == {(s.pk, lang) for s in seats for lang in langs}
    for (seat_id, lang), html in frames.items():
        alone = Seat.objects.select_related("table").get(pk=seat_id)
        assert html == broadcast.render_private(alone, lang), (seat_id, lang)
    # The rebels' frames name their fellows (the part is there, not just the same on both).
    rebels = [s for s in seats if s.identity == "rebel"]
    assert len(rebels) > 1
    for rebel in rebels:
        shown = FELLOWS.search(frames[(rebel.pk, langs[0])])
        assert shown is not None
        for other in rebels:
            assert (other.name in shown.group(1)) == (other.pk != rebel.pk)
