"""1 vs 1 through the actions (docs/modes.md): the deal, the draft of ten with four
face down (the lord side first), each player's secret hero order, the reveal of both first
heroes, the renegade side's first turn, a hero falling and the next coming in, the third fall
ending the game. Every refusal changes nothing."""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.games.draft import actions as draft_actions
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from companion.rules.heroes import hero_by_id
from companion.rules.skills import skills_for
from companion.rules.turns import draw_count
from tests.support.game import fresh, kill
from tests.support.modeplay import (
    dealt_and_started,
    draft_all,
    draft_now,
    drafter,
    in_play,
    mode_table,
    placement_now,
    registered,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def state(table: Table) -> tuple:
    table.refresh_from_db()
    seats = tuple(
        Seat.objects.filter(table=table)
        .order_by("pk")
        .values_list("pk", "identity", "hero", "hp", "max_hp", "alive", "dying")
    )
    return (table.version, table.status, table.mode_state, table.turn_seat_id, seats)


def refused(code: str, table: Table, call, **kwargs) -> None:  # type: ignore[no-untyped-def]
    before = state(table)
    with pytest.raises(ActionError) as error:
        call(**kwargs)
    assert error.value.code == code, error.value.code
    assert state(table) == before


def test_a_third_player_is_refused_and_the_deal_is_one_lord_card_one_renegade_card() -> None:
    table, _seats = mode_table("duel", 2)
    with pytest.raises(ActionError):
        actions.seat_join(code=table.code, name="P3", device="third")
    dealt_and_started(table)
    assert sorted(table.seats.values_list("identity", flat=True)) == ["lord", "renegade"]
    draft = draft_now(table)
    assert len(draft.pool) == 10 and len(draft.face_down) == 4 and draft.first == "lord"


def test_picks_alternate_one_two_two_and_a_third_pick_in_a_two_pick_step_is_refused() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    refused("out_of_turn", table, draft_actions.draft_pick, token=renegade.token, positions=[0])
    refused("not_chooser", table, draft_actions.draft_first, token=lord.token, side="lord")
    draft_actions.draft_pick(token=lord.token, positions=[0])
    draft_actions.draft_pick(token=renegade.token, positions=[1, 2])
    refused("step_done", table, draft_actions.draft_pick, token=renegade.token, positions=[3])
    draft_actions.draft_pick(token=lord.token, positions=[3])
    draft_actions.draft_pick(token=lord.token, positions=[4])
    refused("step_done", table, draft_actions.draft_pick, token=lord.token, positions=[5])
    assert draft_now(table).turn == "renegade"


def test_a_face_down_pick_names_its_position_only_in_public() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    draft = draft_now(table)
    started = Event.objects.get(table=table, kind="draft_started")
    for position, hero in enumerate(draft.pool):
        expected = None if position in draft.face_down else hero
        assert started.public["pool"][position] == expected
    down = min(draft.face_down)
    draft_actions.draft_pick(token=drafter(table, "lord").token, positions=[down])
    picked = Event.objects.filter(table=table, kind="draft_picked").last()
    assert picked.public["positions"] == [down] and picked.public["heroes"] == [None]
    assert draft_now(table).held("lord") == (draft.pool[down],)


def test_the_order_is_checked_and_both_first_heroes_are_revealed_then_the_renegade_moves():
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    draft_all(table)
    placement = placement_now(table)
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    assert len(placement.held["lord"]) == len(placement.held["renegade"]) == 5
    theirs = list(placement.held["renegade"][:3])
    refused("not_held", table, draft_actions.draft_place, token=lord.token, heroes=theirs)
    lord_order = list(placement.held["lord"][2:5])
    draft_actions.draft_place(token=lord.token, heroes=lord_order)
    assert all(not s.hero for s in table.seats.all())
    renegade_order = list(placement.held["renegade"][:3])
    draft_actions.draft_place(token=renegade.token, heroes=renegade_order)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert fresh(lord).hero == lord_order[0] and fresh(renegade).hero == renegade_order[0]
    assert fresh(lord).max_hp == hero_by_id(lord_order[0]).hp
    revealed = Event.objects.get(table=table, kind="draft_revealed")
    assert set(revealed.public["heroes"].values()) == {lord_order[0], renegade_order[0]}
    assert table.turn_seat_id == renegade.pk and table.round == 1


def test_a_fallen_hero_is_followed_by_the_next_and_the_third_fall_loses() -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    order = placement_now(table).lineup("renegade")
    Seat.objects.filter(pk=renegade.pk).update(equipment={"weapon": "诸葛连弩"})
    # The renegade's own turn: his first hero falls, the second comes in, the turn passes.
    kill(table, renegade, lord)
    table.refresh_from_db()
    now = fresh(renegade)
    assert now.alive and not now.dying and now.hero == order[1]
    assert now.hp == now.max_hp == hero_by_id(order[1]).hp and now.equipment == {}
    fell = Event.objects.filter(table=table, kind="hero_fell").last()
    assert fell.public["reminder"] == "discard_and_draw4" and fell.public["fallen_hero"] == order[0]
    assert table.turn_seat_id == lord.pk
    assert table.mode_state["fallen"] == {"renegade": 1}
    kill(table, renegade, lord)
    assert fresh(renegade).hero == order[2]
    table.refresh_from_db()
    assert table.turn_seat_id == lord.pk  # not the fallen hero's turn: it stays
    kill(table, renegade, lord)
    table.refresh_from_db()
    assert not fresh(renegade).alive
    assert table.status == Table.Status.FINISHED and table.winner == "lord"


def test_undoing_the_last_fall_counts_it_again() -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    for _ in range(2):
        kill(table, renegade, lord)
    victim = fresh(renegade)
    actions.seat_change_hp(token=table.host_token, seat_id=victim.pk, delta=-victim.hp)
    actions.seat_die(token=victim.token, seat_id=victim.pk)
    table.refresh_from_db()
    assert table.mode_state["fallen"] == {"renegade": 3}
    died = Event.objects.filter(table=table, kind="died").last()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, winner="")
    actions.event_undo(token=table.host_token, version=died.version)
    table.refresh_from_db()
    assert table.mode_state["fallen"] == {"renegade": 2}
    assert fresh(renegade).alive and fresh(renegade).dying


def test_the_host_undoes_a_hero_fall_the_fallen_hero_and_the_turn_come_back() -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    order = placement_now(table).lineup("renegade")
    Seat.objects.filter(pk=renegade.pk).update(
        equipment={"weapon": "诸葛连弩"}, judgement_zone=["乐不思蜀"]
    )
    first_hp = fresh(renegade).max_hp
    # On the renegade's own turn: the fall passes the turn to the lord.
    table.refresh_from_db()
    assert table.turn_seat_id == renegade.pk
    kill(table, renegade, lord)
    table.refresh_from_db()
    assert table.turn_seat_id == lord.pk and fresh(renegade).hero == order[1]
    fell = Event.objects.filter(table=table, kind="hero_fell").last()
    # A player may not undo it (as a death): refused, nothing changed.
    with pytest.raises(ActionError):
        actions.event_undo(token=renegade.token, version=fell.version)
    assert fresh(renegade).hero == order[1]
    actions.event_undo(token=table.host_token, version=fell.version)
    table.refresh_from_db()
    back = fresh(renegade)
    assert back.alive and back.dying and back.hp == 0 and back.max_hp == first_hp
    assert back.hero == order[0] and back.damage_source_id == lord.pk
    assert back.equipment == {"weapon": "诸葛连弩"} and back.judgement_zone == ["乐不思蜀"]
    assert table.mode_state["fallen"] == {}
    assert table.turn_seat_id == renegade.pk
    public = public_state(table)
    assert next(s for s in public.seats if s.id == renegade.pk).hero.id == order[0]
    # Saved instead (a Peach): the same hero plays on, nothing has fallen.
    actions.seat_change_hp(token=table.host_token, seat_id=renegade.pk, delta=1)
    assert fresh(renegade).hero == order[0] and fresh(renegade).hp == 1
    # It falls again later: the second hero comes in, counted once.
    kill(table, renegade, lord)
    table.refresh_from_db()
    assert fresh(renegade).hero == order[1] and table.mode_state["fallen"] == {"renegade": 1}


def test_a_hero_fall_is_not_undone_once_the_next_hero_has_changed() -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    kill(table, renegade, lord)
    fell = Event.objects.filter(table=table, kind="hero_fell").last()
    actions.seat_change_hp(token=table.host_token, seat_id=renegade.pk, delta=-1)
    table.refresh_from_db()
    version = table.version
    with pytest.raises(ActionError) as refused:
        actions.event_undo(token=table.host_token, version=fell.version)
    assert refused.value.code == "changed"
    table.refresh_from_db()
    assert table.version == version and table.mode_state["fallen"] == {"renegade": 1}


def test_the_renegade_side_draws_one_fewer_in_its_first_draw_phase_only() -> None:
    table, _seats = in_play("duel")
    renegade, lord = drafter(table, "renegade"), drafter(table, "lord")

    def usual(seat: Seat) -> int:  # the draw with the hero's own skills (英姿 draws one more)
        return draw_count([skill.name_zh for skill in skills_for(fresh(seat).hero)])

    turn = public_state(table).turn
    assert turn is not None and turn.seat_id == renegade.pk
    assert turn.draw == usual(renegade) - 1 and turn.draw_change == -1
    actions.turn_end(token=renegade.token)
    table.refresh_from_db()
    turn = public_state(table).turn
    assert turn is not None and turn.seat_id == lord.pk and turn.draw == usual(lord)
    assert turn.draw_change == 0
    actions.turn_end(token=lord.token)
    table.refresh_from_db()
    turn = public_state(table).turn
    assert turn is not None and turn.seat_id == renegade.pk and table.round == 2
    assert turn.draw == usual(renegade)


def test_a_pick_and_a_placement_made_by_mistake_are_taken_back_until_the_reveal() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    draft_actions.draft_pick(token=lord.token, positions=[0])
    # Only the side's own last step: the renegade has nothing to take back.
    refused("nothing", table, draft_actions.draft_undo, token=renegade.token)
    draft_actions.draft_undo(token=lord.token)
    assert draft_now(table).picks == ()
    draft_all(table)
    placement = placement_now(table)
    draft_actions.draft_place(token=lord.token, heroes=list(placement.held["lord"][:3]))
    draft_actions.draft_undo(token=lord.token)
    assert not placement_now(table).has_placed("lord")
    order = list(placement.held["lord"][2:5])
    draft_actions.draft_place(token=lord.token, heroes=order)
    draft_actions.draft_place(token=renegade.token, heroes=list(placement.held["renegade"][:3]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and fresh(lord).hero == order[0]
    refused("not_drafting", table, draft_actions.draft_undo, token=lord.token)


def test_the_table_helpers_work_as_in_the_identity_game() -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    # Distances: two seats, one apart; a horse counts.
    assert public_state(table).matrix == [[None, 1], [1, None]]
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="赤兔")
    assert fresh(lord).equipment == {"minus_horse": "赤兔"}
    # A delayed trick and its judgement on the renegade's turn (his first: the start phase).
    actions.trick_place(token=table.host_token, seat_id=renegade.pk, name="乐不思蜀")
    actions.turn_advance(token=renegade.token)
    actions.judgement_flip(
        token=renegade.token,
        check="indulgence",
        suit="spade",
        rank=5,
        seat_id=renegade.pk,
        trick="乐不思蜀",
    )
    table.refresh_from_db()
    assert "play" in table.phase_skips and fresh(renegade).judgement_zone == []
    # Dying and saved: the hero in play stays.
    hero = fresh(lord).hero
    actions.seat_change_hp(token=table.host_token, seat_id=lord.pk, delta=-fresh(lord).hp)
    assert fresh(lord).dying
    actions.seat_change_hp(token=table.host_token, seat_id=lord.pk, delta=1)
    assert not fresh(lord).dying and fresh(lord).hero == hero
    # Undo: the lord's own last change (the equipment).
    actions.event_undo(token=lord.token)
    assert fresh(lord).equipment == {}
