"""A game played through the real taps at an evening attached to a group reaches the group when
it ends (the outbox's committed change), and a correction of it follows; a tap that ends nothing
costs the group no query."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from companion import actions, outbox
from companion.groups import read, services
from companion.groups.models import GroupGame, GroupResult, SeatLink
from companion.models import Table
from companion.outbox import Change
from tests.support.factories import make_table
from tests.support.sessions import SCORES, deal, kill, play_three_games, seat, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.backend
def test_games_played_reach_the_group_as_they_end() -> None:
    table, _seats = make_table(4)
    deal(table, {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "renegade"})
    group = services.create_group("周五三国杀", table.session)
    assert not GroupGame.objects.exists()  # dealt, not over: nothing of it in the group
    start(table)
    kill(table, "P3", "P2")
    assert not GroupGame.objects.exists()
    kill(table, "P4", "P1")
    assert GroupGame.objects.filter(group=group).count() == 1
    points = dict(GroupResult.objects.values_list("name", "points"))
    assert points == SCORES[1]


@pytest.mark.backend
def test_an_evening_attached_after_its_games_and_a_correction() -> None:
    table, _seats = make_table(4)
    play_three_games(table)
    group = services.create_group("周五三国杀", table.session)
    totals = {p.name: r.points for p, r in read.page(group).tables[0].rows}
    assert totals == {"P1": 12, "P2": 9, "P3": 17, "P4": 6}
    # The host corrects game 1: P2, not P1, killed the renegade P4.
    actions.game_correct(
        token=table.host_token,
        game_number=1,
        alive={str(seat(table, n).pk): n in ("P1", "P2") for n in ("P1", "P2", "P3", "P4")},
        killers={
            str(seat(table, "P3").pk): str(seat(table, "P2").pk),
            str(seat(table, "P4").pk): str(seat(table, "P2").pk),
        },
        final_duel={},
    )
    group.refresh_from_db()  # as each request reads it
    after = {p.name: r.points for p, r in read.page(group).tables[0].rows}
    assert after == {**totals, "P1": 11, "P2": 10}


@pytest.mark.backend
def test_a_phone_joining_an_attached_evening_is_recognised_at_once() -> None:
    first, seats = make_table(5)
    deal(first)
    group = services.create_group("周五三国杀", first.session)
    table, _seats = make_table(4)
    deal(table)
    services.attach(group, table.session)
    Table.objects.filter(pk=table.pk).update(status="lobby", locked=False)  # between games
    # P5's phone joins under another name: recognised by the phone, before any game ends.
    again, _created = actions.seat_join(code=table.code, name="五号", device=seats[4].device)
    link = SeatLink.objects.get(evening__session=table.session, seat=again.pk)
    assert (link.player.name, link.how) == ("P5", "device")


def test_a_delta_never_reaches_the_group() -> None:
    """An HP tap or a turn (a delta) is not sent to the group's receiver; a whole change is."""
    heard: list[Change] = []

    def probe(sender: Any, change: Change, **kwargs: Any) -> None:
        heard.append(change)

    assert outbox.whole_change_committed.has_listeners()
    outbox.whole_change_committed.connect(probe, dispatch_uid="test.probe")
    try:
        with mock.patch.object(outbox.change_committed, "send_robust", return_value=[]):
            outbox._send(Change(1, 2, delta_seats=[]))
            assert heard == []
            outbox._send(Change(1, 3))
        assert [c.version for c in heard] == [3]
    finally:
        outbox.whole_change_committed.disconnect(dispatch_uid="test.probe")
