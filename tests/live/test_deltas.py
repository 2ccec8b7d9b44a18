"""What changed is what travels: a change of HP, dying, a 桃, equipment, a
delayed trick or the turn goes to every screen as a delta of just what it touched, and each piece
of the delta is exactly what the whole state shows at the same version."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from companion import actions
from companion.live import broadcast
from companion.models import Seat, Table
from companion.read.state import public_state
from tests.support.game import by_identity, fresh, picked_all

pytestmark = pytest.mark.django_db(transaction=True)


def frames_of(change: Callable[[], Any]) -> list[tuple[str, dict[str, Any]]]:
    """The group messages one committed change sends."""
    with broadcast.collecting() as box:
        change()
    return list(box)


def element(html: str, start: str) -> list[str]:
    """Every element whose opening tag matches `start` (a regex), whole: nested tags of the
    same name are counted."""
    found = []
    for match in re.finditer(start, html):
        tag = re.match(r"<(\w+)", match.group(0))
        assert tag, start
        name = tag.group(1)
        depth, i = 0, match.start()
        for m in re.finditer(rf"<{name}\b|</{name}>", html[match.start() :]):
            depth += -1 if m.group(0).startswith("</") else 1
            if depth == 0:
                i = match.start() + m.end()
                break
        found.append(html[match.start() : i])
    return found


def same(html: str) -> str:
    """Markup compared as shown: no out-of-band marks, whitespace folded."""
    return re.sub(r"\s+", " ", html.replace('hx-swap-oob="true"', "")).replace("> <", "><")


PIECES = {
    "seat": r'<li class="seat[^"]*" data-seat="\d+"',
    "strip": r'<div id="now-strip"',
    "banner": r'<div class="banner banner-dying"',
    "turn": r'<div class="turn-bar"',
    "distances": r'<div class="distances">',
}


def check_delta(table: Table, box: list[tuple[str, dict[str, Any]]], *pieces: str) -> str:
    """The change's public frame is a delta of version+1 on the version before, carrying these
    pieces (and no other kind), each as the whole state renders it."""
    public = [m["html"] for g, m in box if g == broadcast.table_group(table.code, "zh-hans")]
    assert len(public) == 1, box
    delta = public[0]
    now = Table.objects.get(pk=table.pk)
    assert f'data-version="{now.version}" data-base="{now.version - 1}"' in delta
    assert 'id="table-state"' not in delta
    whole = broadcast.render_public(public_state(now), "zh-hans")
    for piece, start in PIECES.items():
        got = element(delta, start)
        if piece not in pieces:
            if piece != "banner":
                assert not got, f"{piece} sent but not touched"
            continue
        if piece != "banner":
            assert got, f"{piece} missing"
        shown = {same(p) for p in element(whole, start)}
        for p in got:
            assert same(p) in shown, f"{piece} differs from the whole state:\n{p}"
        if piece in ("banner", "distances", "strip"):
            assert len(got) == len(shown), piece
    # The new history line is the whole state's newest.
    line = re.search(r"<li data-line[^>]*>(.*?)</li>", delta)
    assert line and line.group(1) in whole
    return delta


def _playing(players: int = 5) -> tuple[Table, list[Seat], Seat]:
    table, seats = picked_all(players)
    lord = by_identity(table, "lord")[0]
    return table, seats, lord


def test_an_hp_tap_is_its_seat_and_tracker() -> None:
    table, seats, _lord = _playing()
    me = fresh(seats[1])
    box = frames_of(lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1))
    delta = check_delta(table, box, "seat", *(["turn"] if me.pk == table.turn_seat_id else []))
    assert 'id="my-hp"' in delta
    # No private frame: the tracker rides in the delta.
    assert not [g for g, _m in box if g.startswith("seat.")]


def test_dying_and_the_peach_that_saves_come_as_deltas() -> None:
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk not in (lord.pk, table.turn_seat_id)))
    box = frames_of(lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-me.hp))
    # The turn bar too: it waits while someone is dying.
    delta = check_delta(table, box, "seat", "strip", "banner", "turn")
    assert "banner-dying" in delta and f'data-dying="{me.pk}"' in delta
    assert "dying-wait" in delta
    # The dying phone's own page changes (its dying panel): a private frame, to it alone.
    private = {g for g, _m in box if g.startswith("seat.")}
    assert private == {broadcast.seat_group(me.pk, lang) for lang in broadcast.LANGS}
    assert "dying-panel" in next(m["html"] for g, m in box if g.startswith("seat."))
    giver = fresh(lord)
    box = frames_of(
        lambda: actions.seat_rescue(token=giver.token, seat_id=me.pk, by=giver.pk, kind="peach")
    )
    delta = check_delta(table, box, "seat", "strip", "banner", "turn")
    assert "banner-dying" not in delta and "dying-wait" not in delta
    assert "dying-panel" not in next(m["html"] for g, m in box if g.startswith("seat."))


def test_a_dying_seats_hp_sends_the_peaches_it_needs() -> None:
    """More damage, or a 桃 that does not save, changes the 桃 still needed,
    which the strip and the banners say: they come with the seat."""
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk not in (lord.pk, table.turn_seat_id)))
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-me.hp)
    box = frames_of(
        lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-2, source=lord.pk)
    )
    delta = check_delta(table, box, "seat", "strip", "banner", "turn")
    assert 'class="peach-need" data-peaches="3"' in delta
    giver = fresh(lord)
    box = frames_of(
        lambda: actions.seat_rescue(token=giver.token, seat_id=me.pk, by=giver.pk, kind="peach")
    )
    delta = check_delta(table, box, "seat", "strip", "banner", "turn")
    assert 'data-peaches="2"' in delta and 'data-peaches="3"' not in delta


def test_the_turn_holders_hp_while_another_is_dying_keeps_the_bar_waiting() -> None:
    """A delta that re-renders the turn bar (the holder's HP, its hand limit)
    without the strip still finds who is dying among the seats it did not touch."""
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk not in (lord.pk, table.turn_seat_id)))
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-me.hp)
    holder = fresh(next(s for s in seats if s.pk == table.turn_seat_id))
    box = frames_of(
        lambda: actions.seat_change_hp(
            token=table.host_token, seat_id=holder.pk, delta=-1, source=lord.pk
        )
    )
    delta = check_delta(table, box, "seat", "turn")
    assert "dying-wait" in delta and 'hx-post="act/endturn"' not in delta


@pytest.mark.parametrize(
    ("card", "moves"), [("赤兔", True), ("的卢", True), ("诸葛连弩", True), ("八卦阵", False)]
)
def test_equipment_sends_its_seat_and_distances_only_when_they_move(card: str, moves: bool) -> None:
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk != table.turn_seat_id))
    box = frames_of(lambda: actions.equipment_set(token=table.host_token, seat_id=me.pk, name=card))
    check_delta(table, box, "seat", *(["distances"] if moves else []))
    assert not [g for g, _m in box if g.startswith(("seat.", "host."))]
    box = frames_of(
        lambda: actions.equipment_remove(
            token=table.host_token, seat_id=me.pk, slot=fresh(me).equipment.popitem()[0]
        )
    )
    check_delta(table, box, "seat", *(["distances"] if moves else []))


def test_a_delayed_trick_sends_its_seat() -> None:
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk != table.turn_seat_id))
    box = frames_of(lambda: actions.trick_place(token=table.host_token, seat_id=me.pk, name="闪电"))
    check_delta(table, box, "seat")
    box = frames_of(
        lambda: actions.trick_remove(token=table.host_token, seat_id=me.pk, name="闪电")
    )
    check_delta(table, box, "seat")


def test_the_next_phase_and_the_end_of_a_turn_send_the_turn_and_two_seats() -> None:
    table, seats, lord = _playing()
    holder = Seat.objects.get(pk=table.turn_seat_id)
    box = frames_of(lambda: actions.turn_advance(token=holder.token))
    delta = check_delta(table, box, "seat", "strip", "turn", "banner")
    assert len(element(delta, PIECES["seat"])) == 1
    # The host's controls show whose turn and which phase it is: they come too.
    assert [g for g, _m in box if g.startswith("host.")]
    box = frames_of(lambda: actions.turn_end(token=holder.token))
    delta = check_delta(table, box, "seat", "strip", "turn", "banner")
    now = Table.objects.get(pk=table.pk)
    assert now.turn_seat_id != holder.pk
    touched = {int(i) for i in re.findall(r'<li class="seat[^"]*" data-seat="(\d+)"', delta)}
    assert touched == {holder.pk, now.turn_seat_id}


def test_a_death_still_sends_the_whole_state_with_its_announcement() -> None:
    table, seats, lord = _playing()
    me = fresh(next(s for s in seats if s.pk not in (lord.pk, table.turn_seat_id)))
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-me.hp)
    box = frames_of(lambda: actions.seat_die(token=me.token, seat_id=me.pk))
    public = [m["html"] for g, m in box if g == broadcast.table_group(table.code, "zh-hans")]
    assert len(public) == 1
    assert 'id="table-state"' in public[0] and "data-announce=" in public[0]
