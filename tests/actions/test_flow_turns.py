"""The game flow through the services and pages, deaths and turns: the turn passes when its player
dies, nothing moves on while someone is dying, the lord's penalty for killing a loyalist, and
one-tap end of turn.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Table
from companion.read.state import public_state
from tests.actions.flow_helpers import after, holder_of, public_html, to_phase, turn_of
from tests.actions.test_turns import first_game
from tests.support.game import by_identity, fresh, kill
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


# 8. The current player dies: the turn passes at once ------------------------------------------


def test_next_phase_and_end_turn_are_refused_while_someone_is_dying() -> None:
    table, seats = first_game(5)
    holder = holder_of(table)
    other = after(seats, holder, 2)
    actions.seat_change_hp(token=other.token, seat_id=other.pk, delta=-fresh(other).hp)
    before = turn_of(table), table.version
    for tap in (actions.turn_advance, actions.turn_end):
        for token in (holder.token, table.host_token):
            with pytest.raises(ActionError) as err:
                tap(token=token)
            assert err.value.code == "dying" and err.value.status == 409
            assert other.name in str(err.value.message)
    assert (turn_of(table), table.version) == before
    # Saved: the turn goes on.
    actions.seat_rescue(token=holder.token, seat_id=other.pk)
    actions.turn_advance(token=holder.token)
    assert turn_of(table)[1] == "judgement"


def test_when_the_current_player_dies_the_turn_passes_at_once_from_the_start() -> None:
    table, seats = first_game(5)
    lord = holder_of(table)
    # The lord's turn ends; the next player is in the play phase, with the draw phase skipped.
    actions.turn_end(token=lord.token)
    current = holder_of(table)
    Table.objects.filter(pk=table.pk).update(phase="play", phase_skips=["draw"])
    actions.seat_change_hp(token=current.token, seat_id=current.pk, delta=-fresh(current).hp)
    actions.seat_die(token=current.token, seat_id=current.pk)
    table.refresh_from_db()
    if table.status != "playing":  # a 5-player game cannot end with one death
        pytest.fail("the game ended")
    nxt = after(seats, current)
    assert turn_of(table) == (nxt.pk, "start", 1, [])
    died = Event.objects.get(table=table, kind="died")
    assert died.public["turn_to"] == nxt.pk
    assert f"{nxt.name} 的回合" in public_html(table)
    # The next player plays on: no tap was needed to move the turn off the dead seat.
    actions.turn_advance(token=nxt.token)
    assert turn_of(table)[:2] == (nxt.pk, "judgement")


def test_a_death_on_the_last_turn_of_a_round_starts_the_next_round_at_the_lord() -> None:
    table, seats = first_game(4)
    lord = holder_of(table)
    last = after(seats, lord, 3)
    Table.objects.filter(pk=table.pk).update(turn_seat=last, phase="discard")
    kill(table, last, None)
    assert turn_of(table) == (lord.pk, "start", 2, [])


def test_someone_else_dying_leaves_the_turn_where_it_is() -> None:
    table, seats = first_game(5)
    holder = holder_of(table)
    actions.turn_advance(token=holder.token)
    victim = after(seats, holder, 2)
    kill(table, victim, None)
    assert turn_of(table)[:2] == (holder.pk, "judgement")
    assert "turn_to" not in Event.objects.get(table=table, kind="died").public


def test_undoing_the_death_gives_the_turn_back() -> None:
    table, seats = first_game(5)
    actions.turn_end(token=holder_of(table).token)
    current = holder_of(table)
    actions.turn_advance(token=current.token)
    was = turn_of(table)
    kill(table, current, None)
    assert turn_of(table)[0] != current.pk
    died = Event.objects.get(table=table, kind="died")
    actions.event_undo(token=table.host_token, version=died.version)
    assert turn_of(table) == was
    assert fresh(current).alive and fresh(current).dying


# 9. The lord killing a loyalist discards the lord's equipment --------------------------------


def test_the_lord_killing_a_loyalist_loses_the_equipment_and_one_undo_brings_it_back() -> None:
    table, seats = first_game(7)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="麒麟弓")
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="赤兔")
    state = public_state(table)
    reach = {r.seat_id: r.attack for r in next(s for s in state.seats if s.id == lord.pk).distances}
    assert all(reach.values())  # 麒麟弓: range 5 reaches everyone at a 7-seat table
    kill(table, loyalist, lord)
    assert fresh(lord).equipment == {}
    died = Event.objects.get(table=table, kind="died")
    assert died.public["consequence"] == "lord_discards_all"
    assert sorted(died.public["discarded"]) == sorted(["麒麟弓", "赤兔"])
    # Distances and the attack range follow at once: range 1, no -1 horse.
    table.refresh_from_db()
    state = public_state(table)
    rows = next(s for s in state.seats if s.id == lord.pk).distances
    assert [r.attack for r in rows if r.to > 1] and not any(r.attack for r in rows if r.to > 1)
    ring_item = public_html(table).split(f'data-seat="{lord.pk}"')[1].split("</li>")[0]
    assert "麒麟弓" not in ring_item and "赤兔" not in ring_item
    # One undo: the loyalist is back (dying) and so is the lord's equipment.
    actions.event_undo(token=table.host_token, version=died.version)
    assert fresh(lord).equipment == {"weapon": "麒麟弓", "minus_horse": "赤兔"}
    assert fresh(loyalist).alive


@pytest.mark.parametrize(("victim", "killer"), [("rebel", "lord"), ("loyalist", "rebel")])
def test_other_kills_leave_the_killers_equipment(victim: str, killer: str) -> None:
    table, seats = first_game(7)
    dead = by_identity(table, victim)[0]
    by = by_identity(table, killer)[0]
    actions.equipment_set(token=by.token, seat_id=by.pk, name="青釭剑")
    kill(table, dead, by)
    assert fresh(by).equipment == {"weapon": "青釭剑"}


# 10. One tap ends a turn ----------------------------------------------------------------------


def test_one_tap_ends_a_turn_with_nothing_to_judge() -> None:
    table, seats = first_game(4)
    lord = holder_of(table)
    start = table.version
    actions.turn_end(token=lord.token)
    nxt = after(seats, lord)
    assert turn_of(table) == (nxt.pk, "start", 1, [])
    assert table.version == start + 1
    ended = Event.objects.get(table=table, kind="turn_ended")
    assert ended.public["from"] == lord.pk
    assert ended.public["through"] == ["judgement", "draw", "play", "discard", "end"]
    html = public_html(table)
    assert f"{lord.name} 结束了回合" in html and f"{nxt.name} 的回合" in html


def test_end_turn_from_any_phase_leaves_out_skipped_phases_and_counts_rounds() -> None:
    table, seats = first_game(4)
    for _ in range(3):
        actions.turn_end(token=holder_of(table).token)
    last = holder_of(table)
    Table.objects.filter(pk=table.pk).update(phase="draw", phase_skips=["play"])
    actions.turn_end(token=last.token)
    lord = by_identity(table, "lord")[0]
    assert turn_of(table) == (lord.pk, "start", 2, [])
    ended = Event.objects.filter(table=table, kind="turn_ended").latest("version")
    assert ended.public["through"] == ["discard", "end"]
    assert ended.public["skipped"] == ["play"]


def test_end_turn_is_refused_with_tricks_to_judge_a_pending_judgement_or_another_phone() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    other = after(seats, holder)
    with pytest.raises(ActionError) as err:
        actions.turn_end(token=other.token)
    assert err.value.code == "not_your_turn"
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    for phase in ("start", "judgement"):
        to_phase(table, phase)
        with pytest.raises(ActionError) as err:
            actions.turn_end(token=holder.token)
        assert err.value.code == "tricks_left"
    Table.objects.filter(pk=table.pk).update(pending_judgement={"seat": holder.pk})
    with pytest.raises(ActionError) as err:
        actions.turn_end(token=holder.token)
    assert err.value.code == "pending"


def test_a_lightning_left_after_the_judgement_phase_does_not_stop_the_end_of_a_turn() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    to_phase(table, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    actions.turn_end(token=holder.token)
    assert turn_of(table)[0] == after(seats, holder).pk


def test_the_turn_bar_offers_end_turn_unless_tricks_wait_and_the_tap_works_over_http() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    html = public_html(table)
    assert 'hx-post="act/endturn"' in html and "结束回合" in html
    assert 'hx-post="act/next"' in html  # stepping phase by phase stays possible
    with translation.override("en"):
        assert "End turn" in public_html(table, "en")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    assert 'hx-post="act/endturn"' not in public_html(table)
    actions.trick_remove(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    client = csrf_client()
    assert htmx_post(client, f"/p/{after(seats, holder).token}/act/endturn").status_code == 403
    assert htmx_post(client, f"/p/{holder.token}/act/endturn").status_code == 204
    assert turn_of(table)[0] == after(seats, holder).pk
