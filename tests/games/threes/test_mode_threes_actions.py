"""3 vs 3 through the actions (docs/modes.md): the teams in the lobby, the deal that
seats them, the draft (who picks first, the picks), each commander's secret placement, the
reveal, the go (which side first, commander or vanguards), a death and the end. Every refusal
changes nothing."""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.games.draft import actions as draft_actions
from companion.games.maneuvering import actions as maneuver
from companion.games.threes import actions as threes_actions
from companion.models import Event, Seat, Table
from companion.rules.heroes import hero_by_id
from tests.support.game import fresh, kill
from tests.support.modeplay import (
    dealt_and_started,
    draft_all,
    draft_now,
    drafter,
    free_positions,
    in_play,
    mode_table,
    placement_now,
    registered,
    threes_lobby,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def state(table: Table) -> tuple:
    """Everything a refused tap must leave as it was."""
    table.refresh_from_db()
    seats = tuple(
        Seat.objects.filter(table=table)
        .order_by("pk")
        .values_list("pk", "position", "identity", "hero", "hp", "alive")
    )
    return (table.version, table.status, table.mode_state, table.turn_seat_id, seats)


def refused(code: str, table: Table, call, **kwargs) -> None:  # type: ignore[no-untyped-def]
    before = state(table)
    with pytest.raises(ActionError) as error:
        call(**kwargs)
    assert error.value.code == code, error.value.code
    assert state(table) == before


# The lobby --------------------------------------------------------------------------------


def test_a_seventh_player_is_refused_at_a_threes_table() -> None:
    table, _seats = mode_table("threes", 6)
    with pytest.raises(ActionError) as error:
        actions.seat_join(code=table.code, name="P7", device="seventh")
    assert error.value.code == "full"
    assert table.seats.count() == 6


def test_teams_and_commanders_then_the_deal_seats_each_commander_in_his_team() -> None:
    table, seats = mode_table("threes", 6)
    for i, seat in enumerate(seats):
        threes_actions.team_join(token=seat.token, team=0 if i in (0, 2, 4) else 1)
    # A fourth member is refused; so is a commander from no team, and a deal before commanders.
    extra_table, extra = mode_table("threes", 4)
    for seat in extra[:3]:
        threes_actions.team_join(token=seat.token, team=1)
    refused("team_full", extra_table, threes_actions.team_join, token=extra[3].token, team=1)
    refused("bad_team", table, threes_actions.team_join, token=seats[0].token, team=2)
    refused(
        "teams_not_ready", table, actions.identities_deal, token=table.host_token, confirm=False
    )
    threes_actions.team_commander(token=seats[2].token)
    threes_actions.team_commander(token=seats[3].token)
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    order = [s.pk for s in table.seats.order_by("position")]
    # Team 0 (P1, P3, P5; P3 commands) then team 1 (P2, P4, P6; P4 commands): commanders at 1, 4.
    assert order == [seats[i].pk for i in (0, 2, 4, 1, 3, 5)]
    identities = [s.identity for s in table.seats.order_by("position")]
    assert identities in (
        ["loyalist", "lord", "loyalist", "rebel", "renegade", "rebel"],
        ["rebel", "renegade", "rebel", "loyalist", "lord", "loyalist"],
    )


def test_a_player_cannot_move_another_into_a_team_but_the_host_can() -> None:
    table, seats = mode_table("threes", 6)
    refused(
        "not_yours",
        table,
        threes_actions.team_join,
        token=seats[0].token,
        team=0,
        seat_id=seats[1].pk,
    )
    threes_actions.team_join(token=table.host_token, team=1, seat_id=seats[1].pk)
    table.refresh_from_db()
    assert table.mode_state["teams"]["members"] == [[], [seats[1].pk]]


# The draft --------------------------------------------------------------------------------


def test_the_draft_starts_with_sixteen_heroes_and_the_warm_commander_chooses_the_first_picker():
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft = draft_now(table)
    assert table.status == Table.Status.HEROES
    assert len(draft.pool) == 16 and draft.first is None
    warm, cold = drafter(table, "warm"), drafter(table, "cold")
    assert warm.identity == "lord" and cold.identity == "renegade"
    vanguard = table.seats.filter(identity="loyalist").first()
    refused("not_chooser", table, draft_actions.draft_first, token=cold.token, side="cold")
    refused("not_drafter", table, draft_actions.draft_first, token=vanguard.token, side="cold")
    refused("first_not_chosen", table, draft_actions.draft_pick, token=warm.token, positions=[0])
    draft_actions.draft_first(token=warm.token, side="cold")
    assert draft_now(table).turn == "cold"


def test_picks_out_of_turn_too_many_or_taken_are_refused_and_change_nothing() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    warm, cold = drafter(table, "warm"), drafter(table, "cold")
    draft_actions.draft_first(token=warm.token, side="warm")
    refused("out_of_turn", table, draft_actions.draft_pick, token=cold.token, positions=[0])
    refused("too_many", table, draft_actions.draft_pick, token=warm.token, positions=[0, 1])
    refused("not_in_pool", table, draft_actions.draft_pick, token=warm.token, positions=[16])
    draft_actions.draft_pick(token=warm.token, positions=[0])
    # The warm side has taken its one: now the cold side's step of two.
    refused("step_done", table, draft_actions.draft_pick, token=warm.token, positions=[1])
    refused("taken", table, draft_actions.draft_pick, token=cold.token, positions=[0])
    draft_actions.draft_pick(token=cold.token, positions=[1])
    draft_actions.draft_pick(token=cold.token, positions=[2])
    # A third pick in the cold side's 2-pick step: the step is the warm side's now.
    refused("step_done", table, draft_actions.draft_pick, token=cold.token, positions=[3])
    refused("too_many", table, draft_actions.draft_pick, token=warm.token, positions=[3, 4, 5])
    draft = draft_now(table)
    assert draft.held("warm") == (draft.pool[0],)
    assert draft.held("cold") == (draft.pool[1], draft.pool[2])


def test_a_pick_is_recorded_with_its_heroes_and_can_be_undone_while_nothing_is_revealed() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    warm, cold = drafter(table, "warm"), drafter(table, "cold")
    draft_actions.draft_first(token=warm.token, side="warm")
    draft_actions.draft_pick(token=warm.token, positions=[5])
    event = Event.objects.filter(table=table, kind="draft_picked").last()
    assert event.public["heroes"] == [draft_now(table).pool[5]]
    # The cold commander may not take back the warm side's pick; the warm commander may.
    refused("nothing", table, draft_actions.draft_undo, token=cold.token)
    draft_actions.draft_undo(token=warm.token)
    assert draft_now(table).picks == ()
    draft_actions.draft_pick(token=warm.token, positions=[3])
    assert draft_now(table).picks == ((3, "warm"),)


def test_placements_are_checked_and_the_second_reveals_all_six_and_starts_the_go() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft_all(table)
    placement = placement_now(table)
    warm, cold = drafter(table, "warm"), drafter(table, "cold")
    assert len(placement.held["warm"]) == len(placement.held["cold"]) == 8
    not_held = list(placement.held["cold"][:3])
    refused("not_held", table, draft_actions.draft_place, token=warm.token, heroes=not_held)
    two = list(placement.held["warm"][:2])
    refused("wrong_count", table, draft_actions.draft_place, token=warm.token, heroes=two)
    refused("draft_over", table, draft_actions.draft_pick, token=warm.token, positions=[0])
    warm_line = list(placement.held["warm"][2:5])
    draft_actions.draft_place(token=warm.token, heroes=warm_line)
    refused("already_placed", table, draft_actions.draft_place, token=warm.token, heroes=warm_line)
    # Taken back and placed again, still before the reveal.
    draft_actions.draft_undo(token=warm.token)
    assert not placement_now(table).has_placed("warm")
    warm_line = list(placement.held["warm"][:3])
    draft_actions.draft_place(token=warm.token, heroes=warm_line)
    table.refresh_from_db()
    assert table.status == Table.Status.HEROES
    assert all(not s.hero for s in table.seats.all())
    cold_line = list(placement.held["cold"][5:8])
    draft_actions.draft_place(token=cold.token, heroes=cold_line)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("position"))
    by_identity = {s.identity: [x for x in seats if x.identity == s.identity] for s in seats}
    assert by_identity["lord"][0].hero == warm_line[0]
    assert by_identity["renegade"][0].hero == cold_line[0]
    assert {s.hero for s in by_identity["loyalist"]} == set(warm_line[1:])
    assert {s.hero for s in by_identity["rebel"]} == set(cold_line[1:])
    lord = by_identity["lord"][0]
    assert lord.max_hp == lord.hp == hero_by_id(lord.hero).hp + 1
    vanguard = by_identity["rebel"][0]
    assert vanguard.max_hp == hero_by_id(vanguard.hero).hp
    # Nothing to take back once revealed.
    refused("not_drafting", table, draft_actions.draft_undo, token=warm.token)
    # The go: nobody has the turn until the cold commander names the side acting first.
    assert table.turn_seat_id is None and table.round == 0


def test_the_go_cold_commander_chooses_then_commander_or_vanguards_act() -> None:
    table, seats = in_play("threes")
    cold = table.seats.get(identity="renegade")
    warm = table.seats.get(identity="lord")
    refused("not_chooser", table, actions.flow_answer, token=warm.token, answer="warm")
    refused("bad_answer", table, actions.flow_answer, token=cold.token, answer="sideways")
    refused("no_turn", table, actions.turn_end, token=table.host_token)
    actions.flow_answer(token=cold.token, answer="warm")
    table.refresh_from_db()
    assert table.turn_seat_id == warm.pk and table.round == 1 and table.phase == "start"
    assert table.mode_state["flow"]["sideways"] == [seats.index(fresh(warm))]
    # The warm commander's turn ends: the go passes to the cold side, whose commander is asked.
    actions.turn_end(token=warm.token)
    table.refresh_from_db()
    assert table.turn_seat_id is None
    turn_event = Event.objects.filter(table=table, kind="turn_ended").last()
    assert turn_event.public["asking"] == "who_acts"
    refused("not_chooser", table, actions.flow_answer, token=warm.token, answer="vanguards")
    actions.flow_answer(token=cold.token, answer="vanguards")
    table.refresh_from_db()
    rebels = [s for s in table.seats.order_by("position") if s.identity == "rebel"]
    first = fresh(Seat.objects.get(pk=table.turn_seat_id))
    assert first.identity == "rebel"
    actions.turn_end(token=first.token)
    table.refresh_from_db()
    second = Seat.objects.get(pk=table.turn_seat_id)
    assert second.identity == "rebel" and {first.pk, second.pk} == {s.pk for s in rebels}
    # The turn's undo puts the go back as it was: the first vanguard plays again.
    actions.event_undo(token=table.host_token, version=table.version)
    table.refresh_from_db()
    assert table.turn_seat_id == first.pk
    order = [s.pk for s in seats]
    assert table.mode_state["flow"]["queue"] == [order.index(second.pk)]


def test_a_commander_dies_and_his_side_loses_the_killer_draws_three() -> None:
    table, _seats = in_play("threes")
    cold = table.seats.get(identity="renegade")
    actions.flow_answer(token=cold.token, answer="warm")
    warm = table.seats.get(identity="lord")
    kill(table, cold, warm)
    table.refresh_from_db()
    died = Event.objects.filter(table=table, kind="died").last()
    assert died.public["consequence"] == "draw3"
    assert table.status == Table.Status.FINISHED and table.winner == "lord"
    # A next game swaps the colours: the other commander is warm.
    actions.identities_deal(token=table.host_token)
    assert fresh(cold).identity == "lord" and fresh(warm).identity == "renegade"


def test_no_rescue_bonus_without_lord_skills() -> None:
    """救援 (孙权's lord skill) works for nobody in 3 vs 3, even on the lord card."""
    table, _seats = in_play("threes")
    lord = table.seats.get(identity="lord")
    Seat.objects.filter(pk=lord.pk).update(hero="WU001", hp=0, dying=True)
    giver = table.seats.exclude(pk=lord.pk).first()
    Seat.objects.filter(pk=giver.pk).update(hero="WU002")
    actions.seat_rescue(token=table.host_token, seat_id=lord.pk, by=giver.pk)
    assert fresh(lord).hp == 1


def test_picking_is_for_the_commander_of_the_side_in_turn_only() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft_actions.draft_first(token=drafter(table, "warm").token, side="warm")
    host_before = state(table)
    with pytest.raises(ActionError):
        draft_actions.draft_pick(token=table.host_token, positions=[0])
    assert state(table) == host_before
    draft = draft_now(table)
    assert free_positions(draft)[0] == 0


def test_the_host_cannot_deal_hero_candidates_in_a_draft() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    refused("draft", table, actions.heroes_redeal, token=table.host_token, confirm=True)


def test_lightning_is_refused_in_threes_and_other_delayed_tricks_are_not() -> None:
    table, _seats = in_play("threes")
    target = table.seats.filter(identity="rebel").first()
    refused(
        "card_refused",
        table,
        actions.trick_place,
        token=table.host_token,
        seat_id=target.pk,
        name="闪电",
    )
    actions.trick_place(token=table.host_token, seat_id=target.pk, name="乐不思蜀")
    assert fresh(target).judgement_zone == ["乐不思蜀"]


def test_lightning_damage_is_refused_in_threes_and_other_damage_is_not() -> None:
    """No dialog offers 闪电's damage at a 3 vs 3 table; a request made by hand is refused too,
    in the preview and in the resolve, the same way as placing the card."""
    from companion.games.maneuvering.actions import damage_preview

    table, _seats = in_play("threes")
    target = table.seats.filter(alive=True).order_by("position").first()
    with pytest.raises(ActionError) as error:
        damage_preview(
            table,
            target=target.pk,
            card="闪电",
            source=None,
            amount=None,
            damage_type="",
            weapon_skill=False,
            black=False,
            target_hand_empty=False,
        )
    assert error.value.code == "card_refused"
    refused(
        "card_refused",
        table,
        maneuver.damage_resolve,
        token=table.host_token,
        target=target.pk,
        card="闪电",
    )
    hp = fresh(target).hp
    maneuver.damage_resolve(token=table.host_token, target=target.pk, card="南蛮入侵")
    assert fresh(target).hp < hp


def test_the_commander_asked_has_the_question_and_its_buttons_in_his_strip() -> None:
    """Whoever the table waits for is told: every phone's strip carries the question with its
    answers, shown (data-for-seats, live.js) on the asked commander's phone only."""
    import re

    from companion.live.broadcast import render_public
    from companion.read.state import public_state

    table, _seats = in_play("threes")
    cold = table.seats.get(identity="renegade")
    html = render_public(public_state(table), "zh-hans")
    strip = re.search(r'<div id="now-strip".*?</div>\n</div>', html, re.S)
    assert strip, html[:500]
    wait = re.search(r'<div class="now-wait" data-for-seats="(\d+)" hidden.*', strip.group(0), re.S)
    assert wait and wait.group(1) == str(cold.pk)
    assert wait.group(0).count('hx-post="act/answer"') == 2
    actions.flow_answer(token=cold.token, answer="warm")
    table.refresh_from_db()
    assert 'class="now-wait"' not in render_public(public_state(table), "zh-hans")
