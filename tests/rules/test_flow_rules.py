"""The game flow between taps (companion/rules/flow.py): passing the turn, one-tap end of turn,
what blocks the next phase, HP loss against damage, 救援, the lord's penalty, undo limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rules.flow import (
    DAMAGE_SKILLS,
    DYING,
    PENDING,
    TRICKS_LEFT,
    HpResult,
    TurnBlocked,
    TurnPass,
    advance_blocker,
    capped_recovery,
    damage_skills,
    end_turn_route,
    equipment_discarded_by_killer,
    has_nothing_to_do,
    lose_hp,
    pass_turn,
    peach_heal,
    restore_equipment,
    turn_after_death,
    undo_equip,
    undo_turn_allowed,
    undo_unequip,
    undo_zone,
)
from companion.rules.heroes import STANDARD_HEROES, hero_by_id
from companion.rules.identities import Identity
from companion.rules.turns import PHASE_ORDER, Phase

SKILLS_JSON = Path(__file__).resolve().parents[2] / "companion" / "data" / "hero_skills.json"
P = Phase


# Passing the turn -------------------------------------------------------------------------------


def test_the_turn_passes_to_the_next_living_seat_and_counts_rounds_at_the_lord() -> None:
    assert pass_turn([True] * 4, 0, lord=0) == TurnPass(1, new_round=False)
    assert pass_turn([True] * 4, 3, lord=0) == TurnPass(0, new_round=True)
    assert pass_turn([True, False, False, True], 0, lord=3) == TurnPass(3, new_round=True)
    with pytest.raises(ValueError):
        pass_turn([True, False, False], 0, lord=0)


def test_a_current_player_who_dies_hands_the_turn_on_at_once() -> None:
    # Seat 1 had the turn and died: seat 2 is next; the lord (0) is not reached yet.
    assert turn_after_death([True, False, True, True], 1, 1, lord=0) == TurnPass(2, False)
    # Seat 3, last before the lord, dies on their turn: the lord starts the next round.
    assert turn_after_death([True, True, False, False], 2, 2, lord=0) == TurnPass(0, True)
    # Somebody else dies: the turn stays.
    assert turn_after_death([True, False, True, True], 2, 1, lord=0) is None
    with pytest.raises(ValueError):
        turn_after_death([True, True, True, True], 1, 1, lord=0)


def test_nothing_moves_on_while_someone_is_dying_or_a_judgement_waits() -> None:
    assert advance_blocker(someone_dying=True, judgement_pending=True) == DYING
    assert advance_blocker(someone_dying=False, judgement_pending=True) == PENDING
    assert advance_blocker(someone_dying=False, judgement_pending=False) is None


# One tap ends a turn ----------------------------------------------------------------------------


def test_ending_a_turn_from_each_phase_goes_through_the_rest() -> None:
    order = list(PHASE_ORDER)
    for i, phase in enumerate(order):
        assert end_turn_route(phase, [], []) == order[i + 1 :]
    assert end_turn_route(P.START, [], []) == [P.JUDGEMENT, P.DRAW, P.PLAY, P.DISCARD, P.END]
    assert end_turn_route(P.END, [], []) == []


def test_ending_a_turn_leaves_out_skipped_phases() -> None:
    assert end_turn_route(P.JUDGEMENT, ["play"], []) == [P.DRAW, P.DISCARD, P.END]
    assert end_turn_route(P.DRAW, ["draw", "play"], []) == [P.DISCARD, P.END]


@pytest.mark.parametrize("phase", [P.START, P.JUDGEMENT])
def test_delayed_tricks_to_judge_block_the_end_of_the_turn(phase: Phase) -> None:
    with pytest.raises(TurnBlocked) as err:
        end_turn_route(phase, [], ["乐不思蜀"])
    assert err.value.code == TRICKS_LEFT


@pytest.mark.parametrize("phase", [P.DRAW, P.PLAY, P.DISCARD, P.END])
def test_a_trick_left_after_the_judgement_phase_does_not_block(phase: Phase) -> None:
    # A 闪电 nobody could take stays; a 闪电 put in one's own zone while playing waits.
    route = end_turn_route(phase, [], ["闪电"])
    assert route[-1:] == [P.END] or phase is P.END


def test_only_judgement_with_an_empty_zone_has_nothing_to_ask() -> None:
    assert has_nothing_to_do(P.JUDGEMENT, [])
    assert not has_nothing_to_do(P.JUDGEMENT, ["闪电"])
    for phase in (P.START, P.DRAW, P.PLAY, P.DISCARD, P.END):
        assert not has_nothing_to_do(phase, [])


# HP loss against damage -------------------------------------------------------------------------


def test_hp_loss_has_no_source_and_names_no_killer() -> None:
    assert lose_hp(3, 1, dying=False, source=None) == HpResult(2, False, None)
    lost = lose_hp(1, 1, dying=False, source=7)
    assert (lost.hp, lost.dying, lost.source) == (0, True, None)
    # Already dying from a damage by seat 7: the source stays the killer.
    assert lose_hp(0, 1, dying=True, source=7).source == 7
    with pytest.raises(ValueError):
        lose_hp(3, 0, dying=False, source=None)


def test_the_damage_skills_are_exactly_the_cards_that_say_after_taking_damage() -> None:
    raw = json.loads(SKILLS_JSON.read_text(encoding="utf-8"))
    printed = {
        skill["id"]
        for skills in raw.values()
        for skill in skills
        if "受到伤害后" in skill["text_zh"]
        or "受到1点伤害" in skill["text_zh"]
        or "受到一次伤害后" in skill["text_zh"]
    }
    assert printed == set(DAMAGE_SKILLS)


def test_damage_skills_trigger_by_source_and_hp_loss_triggers_none() -> None:
    sima_yi = ["fankui", "guicai"]
    guo_jia = ["tiandu", "yiji"]
    assert damage_skills(sima_yi, has_source=True) == ["fankui"]
    # Lightning has no source: 反馈 has nobody to take a card from; 遗计 still draws.
    assert damage_skills(sima_yi, has_source=False) == []
    assert damage_skills(guo_jia, has_source=False) == ["yiji"]
    assert damage_skills(["jianxiong", "hujia"], has_source=True) == ["jianxiong"]
    assert damage_skills(["kurou"], has_source=True) == []


# 救援 -------------------------------------------------------------------------------------------


def wu_heroes() -> list[str]:
    return [h.id for h in STANDARD_HEROES if h.kingdom == "wu" and h.id != "WU001"]


def test_a_wu_heros_peach_heals_the_dying_lord_sun_quan_two() -> None:
    assert hero_by_id("WU001").name_zh == "孙权"
    assert len(wu_heroes()) == 7
    for giver in wu_heroes():
        assert (
            peach_heal(
                receiver_hero="WU001", receiver_is_lord=True, giver_hero=giver, giver_kingdom="wu"
            )
            == 2
        )


@pytest.mark.parametrize(
    ("receiver", "is_lord", "giver", "kingdom", "dying"),
    [
        ("WU001", True, "SHU001", "shu", True),  # not a Wu hero
        ("WU001", True, "WU001", "wu", True),  # 孙权's own 桃: 其他吴势力角色 only
        ("WU001", False, "WU002", "wu", True),  # a 孙权 who is not the lord: no lord skill
        ("WU001", True, "WU002", "wu", False),  # not dying
        ("SHU001", True, "WU002", "wu", True),  # another lord
        ("", True, "", "", True),  # first-game mode: no heroes
    ],
)
def test_every_other_peach_heals_one(
    receiver: str, is_lord: bool, giver: str, kingdom: str, dying: bool
) -> None:
    assert (
        peach_heal(
            receiver_hero=receiver,
            receiver_is_lord=is_lord,
            giver_hero=giver,
            giver_kingdom=kingdom,
            receiver_dying=dying,
        )
        == 1
    )


def test_recovery_never_passes_max_hp() -> None:
    assert capped_recovery(0, 4, 2) == 2
    assert capped_recovery(0, 1, 2) == 1
    assert capped_recovery(-1, 5, 2) == 1


# The lord's penalty ----------------------------------------------------------------------------


def test_only_a_lord_killing_a_loyalist_loses_the_equipment() -> None:
    assert equipment_discarded_by_killer(victim=Identity.LOYALIST, killer=Identity.LORD)
    for victim in Identity:
        for killer in [*Identity, None]:
            expected = victim is Identity.LOYALIST and killer is Identity.LORD
            assert equipment_discarded_by_killer(victim=victim, killer=killer) == expected


def test_an_undone_discard_puts_the_cards_back_in_empty_slots() -> None:
    discarded = {"weapon": "麒麟弓", "minus_horse": "赤兔"}
    assert restore_equipment({}, discarded) == discarded
    # A weapon equipped since keeps its slot.
    assert restore_equipment({"weapon": "青釭剑"}, discarded) == {
        "weapon": "青釭剑",
        "minus_horse": "赤兔",
    }


# Undo limits -----------------------------------------------------------------------------------


def test_undoing_an_equip_restores_the_replaced_card_while_nothing_changed_since() -> None:
    assert undo_equip({"weapon": "麒麟弓"}, "weapon", "麒麟弓", "") == {}
    assert undo_equip({"weapon": "麒麟弓", "armor": "八卦阵"}, "weapon", "麒麟弓", "青釭剑") == {
        "weapon": "青釭剑",
        "armor": "八卦阵",
    }
    assert undo_equip({"weapon": "丈八蛇矛"}, "weapon", "麒麟弓", "") is None
    assert undo_unequip({}, "armor", "八卦阵") == {"armor": "八卦阵"}
    assert undo_unequip({"armor": "仁王盾"}, "armor", "八卦阵") is None


def test_undoing_a_delayed_trick_needs_the_zone_as_it_was_left() -> None:
    assert undo_zone(["闪电", "乐不思蜀"], ["闪电"], ["闪电", "乐不思蜀"]) == ["闪电"]
    assert undo_zone(["闪电"], ["闪电", "乐不思蜀"], ["闪电"]) == ["闪电", "乐不思蜀"]
    assert undo_zone([], ["闪电"], ["闪电", "乐不思蜀"]) is None


def test_undoing_a_phase_needs_the_table_where_it_left_it() -> None:
    after = {"seat": 2, "phase": "draw", "round": 1}
    assert undo_turn_allowed({"seat": 2, "phase": "draw", "round": 1}, after)
    assert not undo_turn_allowed({"seat": 2, "phase": "play", "round": 1}, after)
    assert not undo_turn_allowed({"seat": 3, "phase": "start", "round": 1}, after)
