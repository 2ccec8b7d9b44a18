"""军争 on every screen: a damage along a chain is one change sent as one
delta per language, carrying every touched seat, the strip and each seat's own HP tracker."""

from __future__ import annotations

import re

import pytest

from companion.games.maneuvering import actions as maneuver
from companion.live import broadcast
from tests.actions.flow_helpers import after, holder_of
from tests.actions.test_turns import first_game
from tests.live.test_deltas import check_delta, frames_of
from tests.support.game import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_chain_of_four_is_one_delta_with_every_seat_and_tracker() -> None:
    table, seats = first_game(6, maneuvering=True)
    source = holder_of(table)
    chained = [after(seats, source, n) for n in (1, 2, 3, 4)]
    for seat in chained:
        maneuver.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)
    table.refresh_from_db()
    version = table.version
    box = frames_of(
        lambda: maneuver.damage_resolve(
            token=table.host_token, target=chained[0].pk, card="雷杀", source=source.pk
        )
    )
    table.refresh_from_db()
    assert table.version == version + 1
    delta = check_delta(table, box, "seat", "strip", "turn")
    shown = set(re.findall(r'<li class="seat[^"]*" data-seat="(\d+)"', delta))
    assert shown == {str(s.pk) for s in chained}
    trackers = set(re.findall(r'<div id="my-hp"[^>]*data-seat="(\d+)"', delta))
    assert trackers == {str(s.pk) for s in chained}
    for seat in chained:
        assert (fresh(seat).hp, fresh(seat).chained) == (seat.hp - 1, False)
    assert "now-chain" not in delta  # nobody is chained any more
    # Nobody was left dying: no private frame at all.
    assert not [g for g, _m in box if g.startswith("seat.")]


def test_chaining_a_seat_sends_its_seat_and_the_strip() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    other = after(seats, me)
    box = frames_of(
        lambda: maneuver.seat_set_chained(token=me.token, seat_id=other.pk, chained=True)
    )
    delta = check_delta(table, box, "seat", "strip", "turn")
    assert 'class="chain-mark"' in delta and "now-chain" in delta and other.name in delta
    public = [m for g, m in box if g == broadcast.table_group(table.code, "en")]
    assert len(public) <= 1
