"""What 军争's damage dialog offers (companion.games.maneuvering.rules.offers), over every card, with and
without 军争, every weapon of the source, the target's armour and horses, and every answer."""

from __future__ import annotations

import itertools

import pytest

from companion.games.maneuvering.rules.cards import FireAttackStage
from companion.games.maneuvering.rules.offers import (
    COMMON_CARDS,
    DamageChoice,
    DamageOptions,
    accepted_card,
    damage_choice,
    damage_options,
    effective_source,
    fire_attack_step,
    may_be_source,
    offered_cards,
    source_known,
    source_may_be_none,
)
from companion.rules.damage import DamageCard, DamageType

CARDS = ["", "bogus", *(c.value for c in DamageCard)]
SLASHES = ("杀", "火杀", "雷杀")
ON_OTHERS = {*SLASHES, "决斗", "南蛮入侵", "万箭齐发"}
MANEUVERING_CARDS = {"火杀", "雷杀", "火攻"}
WEAPONS = ["", "古锭刀", "朱雀羽扇", "寒冰剑", "贯石斧", "麒麟弓", "青釭剑", "诸葛连弩"]
ARMOURS = ["", "仁王盾", "藤甲", "白银狮子"]
HORSES = [
    {},
    {"plus_horse": "绝影"},
    {"minus_horse": "赤兔"},
    {"plus_horse": "爪黄飞电", "minus_horse": "大宛"},
]
FLAGS = (False, True)
LIGHTNING = "闪电"
THREES = "threes"
# The modes whose deck holds 闪电 (3 vs 3's does not).
WITH_LIGHTNING = ("identity", "duel")


def test_the_cards_offered() -> None:
    for mode in WITH_LIGHTNING:
        assert offered_cards(maneuvering=True, mode=mode) == list(COMMON_CARDS)
        assert offered_cards(maneuvering=False, mode=mode) == [
            "杀",
            "决斗",
            "南蛮入侵",
            "万箭齐发",
            "闪电",
        ]


@pytest.mark.parametrize("maneuvering", FLAGS)
def test_a_card_is_accepted_when_it_deals_damage_at_this_table(maneuvering: bool) -> None:
    for card, mode in itertools.product(CARDS, WITH_LIGHTNING):
        known = card in {c.value for c in DamageCard}
        allowed = known and (maneuvering or card not in MANEUVERING_CARDS)
        got = accepted_card(card, maneuvering=maneuvering, mode=mode)
        assert got == (card if allowed else ""), card


@pytest.mark.parametrize("maneuvering", FLAGS)
def test_three_vs_three_neither_offers_nor_accepts_lightning(maneuvering: bool) -> None:
    # docs/rules.md §9.7: 3 vs 3 plays "no 闪电"; every other card is as at any table.
    offered = offered_cards(maneuvering=maneuvering, mode=THREES)
    assert LIGHTNING not in offered
    assert offered == [
        c for c in offered_cards(maneuvering=maneuvering, mode="identity") if c != LIGHTNING
    ]
    assert accepted_card(LIGHTNING, maneuvering=maneuvering, mode=THREES) == ""
    for card in CARDS:
        if card != LIGHTNING:
            assert accepted_card(card, maneuvering=maneuvering, mode=THREES) == accepted_card(
                card, maneuvering=maneuvering, mode="identity"
            ), card


def test_sources() -> None:
    for card in CARDS:
        assert source_may_be_none(card) is (card not in ON_OTHERS)
        assert may_be_source(card, source_id=2, target_id=1)
        assert may_be_source(card, source_id=1, target_id=1) is (card not in ON_OTHERS)
        for source_id, no_source in itertools.product((None, 2), FLAGS):
            chosen = bool(card) and (card == "闪电" or no_source or source_id is not None)
            assert source_known(card, source_id=source_id, no_source=no_source) is chosen
            assert effective_source(card, source_id) == (None if card == "闪电" else source_id)


def expected_options(
    card: str, weapon: str, equipment: dict[str, str], maneuvering: bool
) -> DamageOptions:
    slash = card in SLASHES
    asked = card in ("skill", "other")
    return DamageOptions(
        hand_empty=slash and weapon == "古锭刀",
        fan=card == "杀" and weapon == "朱雀羽扇" and maneuvering,
        ice=slash and weapon == "寒冰剑",
        black=slash and equipment.get("armor") == "仁王盾",
        axe=slash and weapon == "贯石斧",
        qilin=tuple(
            (equipment[slot], slot)
            for slot in ("plus_horse", "minus_horse")
            if slash and weapon == "麒麟弓" and slot in equipment
        ),
        kind=asked,
        amount=asked,
    )


@pytest.mark.parametrize("card", CARDS)
def test_the_options_follow_the_card_and_the_equipment(card: str) -> None:
    for weapon, armour, horses, maneuvering in itertools.product(WEAPONS, ARMOURS, HORSES, FLAGS):
        equipment = {**({"armor": armour} if armour else {}), **horses}
        got = damage_options(
            card, weapon=weapon, target_equipment=equipment, maneuvering=maneuvering
        )
        assert got == expected_options(card, weapon, equipment, maneuvering), (weapon, equipment)


def test_options_examples() -> None:
    horses = {"plus_horse": "绝影", "minus_horse": "赤兔"}
    qilin = damage_options("雷杀", weapon="麒麟弓", target_equipment=horses, maneuvering=True)
    assert qilin.qilin == (("绝影", "plus_horse"), ("赤兔", "minus_horse"))
    fan = damage_options("杀", weapon="朱雀羽扇", target_equipment={}, maneuvering=False)
    assert not fan.fan  # 朱雀羽扇 is 军争's
    skill = damage_options("skill", weapon="古锭刀", target_equipment={}, maneuvering=True)
    assert skill == DamageOptions(False, False, False, False, False, (), True, True)


ANSWERS = [
    DamageChoice(hand_empty, skill, black, axe, qilin, kind, amount)
    for hand_empty, skill, black, axe, qilin, kind, amount in itertools.product(
        FLAGS,
        FLAGS,
        FLAGS,
        FLAGS,
        ("", "plus_horse", "minus_horse", "armor"),
        ("", *(t.value for t in DamageType), "ice"),
        ("", "1", "2", "3", "4", "0"),
    )
]
OPTIONS = [
    DamageOptions(h, f, i, b, a, q, k, k)
    for h, f, i, b, a, q, k in itertools.product(
        FLAGS, FLAGS, FLAGS, FLAGS, FLAGS, ((), (("绝影", "plus_horse"),)), FLAGS
    )
]


@pytest.mark.parametrize("maneuvering", FLAGS)
def test_only_the_answers_the_options_allow_count(maneuvering: bool) -> None:
    kinds = ("normal", "fire", "thunder") if maneuvering else ("normal",)
    for options, answers in itertools.product(OPTIONS, ANSWERS):
        got = damage_choice(options, answers, maneuvering=maneuvering)
        assert got == DamageChoice(
            hand_empty=options.hand_empty and answers.hand_empty,
            weapon_skill=(options.fan or options.ice) and answers.weapon_skill,
            black=options.black and answers.black,
            axe=options.axe and answers.axe,
            qilin=answers.qilin if answers.qilin == "plus_horse" and options.qilin else "",
            damage_type=answers.damage_type
            if options.kind and answers.damage_type in kinds
            else "",
            amount=answers.amount if options.amount and answers.amount in ("1", "2", "3") else "",
        ), (options, answers)


@pytest.mark.parametrize("shown", ["", "spade", "heart", "club", "diamond", "joker"])
@pytest.mark.parametrize("discarded", [None, False, True])
def test_fire_attack_from_the_answers(shown: str, discarded: bool | None) -> None:
    path = fire_attack_step(user=2, target=1, shown=shown, discarded=discarded)
    if shown in ("", "joker") or (not shown and discarded is not None):
        # Nothing (valid) shown yet, or an answer out of order: it starts again.
        assert path.stage is FireAttackStage.SHOW and path.shown is None
        return
    assert path.shown is not None and path.shown.value == shown
    stage = {None: FireAttackStage.DISCARD, False: FireAttackStage.NOTHING}
    assert path.stage is stage.get(discarded, FireAttackStage.DAMAGE)
    if path.stage is FireAttackStage.DAMAGE:
        assert path.damage is not None and path.damage.source == 2 and path.damage.target == 1
