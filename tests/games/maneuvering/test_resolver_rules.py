"""The damage resolver (docs/rules.md §9.9, the order of one damage), one case per rule and
combination.

Each case names its source: a section of docs/rules.md (§9.9: the 军争 cards and the order of one
damage) or a line of a seed (`001:465` is seeds/001_*.txt line 465).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.games.maneuvering.rules.resolver import continue_damage, resolve_damage, start_damage
from companion.rules.damage import (
    DamageCard,
    DamageError,
    DamageRequest,
    DamageStep,
    DamageType,
    Modifier,
    SeatState,
)

N, F, T = DamageType.NORMAL, DamageType.FIRE, DamageType.THUNDER
SLASH, FIRE_SLASH, THUNDER_SLASH = DamageCard.SLASH, DamageCard.FIRE_SLASH, DamageCard.THUNDER_SLASH
DUEL, SAVAGE, ARCHERY = DamageCard.DUEL, DamageCard.SAVAGE_ASSAULT, DamageCard.ARCHERY_ATTACK
FIRE_ATTACK, LIGHTNING, SKILL = DamageCard.FIRE_ATTACK, DamageCard.LIGHTNING, DamageCard.SKILL
WINE, GUDING, VINE_FIRE = Modifier.WINE, Modifier.GUDING, Modifier.VINE_FIRE
IMMUNE, LION, QG = Modifier.VINE_IMMUNE, Modifier.SILVER_LION, Modifier.QINGGANG
FAN, ICE, RW, CHAIN = Modifier.FEATHER_FAN, Modifier.ICE_SWORD, Modifier.RENWANG, Modifier.CHAIN


def table(**overrides: dict[str, Any]) -> tuple[SeatState, ...]:
    """Five seats s1..s5 (ids 1..5) at 4 HP in turn order, with per-seat overrides."""
    return tuple(
        SeatState(**{"seat": n, "hp": 4, **overrides.get(f"s{n}", {})}) for n in range(1, 6)
    )


@dataclass(frozen=True)
class Case:
    """One row: the request, the table, and each step as (seat, amount, type, modifiers, unchained)."""

    name: str
    cite: str
    request: DamageRequest
    expected: tuple[tuple[int, int, DamageType, tuple[Modifier, ...], bool], ...]
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)


def R(card: DamageCard, target: int = 2, source: int | None = 1, **kw: Any) -> DamageRequest:  # noqa: N802
    return DamageRequest(target=target, card=card, source=source, **kw)


VINE = {"armor": "藤甲"}
LION_ARMOR = {"armor": "白银狮子"}
CH = {"chained": True}

CASES = [
    # The card's own damage (docs/rules.md §9.9: 1 for 杀, 决斗, 南蛮入侵, 万箭齐发, 火攻; 3 for 闪电).
    Case("plain slash", "docs/rules.md §9.9; 001:359", R(SLASH), ((2, 1, N, (), False),)),
    Case("duel", "docs/rules.md §9.9; 001:371 决斗", R(DUEL), ((2, 1, N, (), False),)),
    Case(
        "savage assault", "docs/rules.md §9.9; 001:371 南蛮入侵", R(SAVAGE), ((2, 1, N, (), False),)
    ),
    Case(
        "archery attack",
        "docs/rules.md §9.9; 001:371 万箭齐发",
        R(ARCHERY),
        ((2, 1, N, (), False),),
    ),
    Case(
        "fire attack is fire",
        "docs/rules.md §9.9; 001:457",
        R(FIRE_ATTACK),
        ((2, 1, F, (), False),),
    ),
    Case(
        "fire attack on oneself",
        "001:457 任一有手牌的角色",
        R(FIRE_ATTACK, 1),
        ((1, 1, F, (), False),),
    ),
    Case(
        "lightning 3 thunder",
        "docs/rules.md §5, §9.9; 001:373",
        R(LIGHTNING, 2, None),
        ((2, 3, T, (), False),),
    ),
    Case("fire slash", "001:439-441", R(FIRE_SLASH), ((2, 1, F, (), False),)),
    Case("thunder slash", "001:447", R(THUNDER_SLASH), ((2, 1, T, (), False),)),
    Case("刚烈 deals 1", "docs/rules.md §5 刚烈; 001:367", R(SKILL, 1, 2), ((1, 1, N, (), False),)),
    Case(
        "a skill's fire damage",
        "docs/rules.md §9.9 (other effects)",
        R(SKILL, damage_type=F),
        ((2, 1, F, (), False),),
    ),
    # 酒 (001:431: the next 杀 this turn deals +1).
    Case(
        "wine slash",
        "docs/rules.md §9.9 +1 for 酒; 001:431",
        R(SLASH, drank=True),
        ((2, 2, N, (WINE,), False),),
    ),
    Case(
        "wine fire slash",
        "001:431, 001:441",
        R(FIRE_SLASH, drank=True),
        ((2, 2, F, (WINE,), False),),
    ),
    Case(
        "wine does not act on a duel",
        "001:431 下一张杀",
        R(DUEL, drank=True),
        ((2, 1, N, (), False),),
    ),
    # 古锭刀 (001:471: a 杀's damage +1 when the target has no hand card).
    Case(
        "guding on an empty hand",
        "docs/rules.md §9.9; 001:471",
        R(SLASH),
        ((2, 2, N, (GUDING,), False),),
        {"s1": {"weapon": "古锭刀"}, "s2": {"hand_empty": True}},
    ),
    Case(
        "guding on a target with cards",
        "001:471 若指定目标没有手牌",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s1": {"weapon": "古锭刀"}},
    ),
    Case(
        "guding does not act on a duel",
        "001:471 当你使用的【杀】",
        R(DUEL),
        ((2, 1, N, (), False),),
        {"s1": {"weapon": "古锭刀"}, "s2": {"hand_empty": True}},
    ),
    Case(
        "wine then guding",
        "docs/rules.md §9.9 (酒 then 古锭刀); 001:431, 001:471",
        R(SLASH, drank=True),
        ((2, 3, N, (WINE, GUDING), False),),
        {"s1": {"weapon": "古锭刀"}, "s2": {"hand_empty": True}},
    ),
    # 藤甲 (001:465).
    Case(
        "plain slash on vine",
        "docs/rules.md §9.9; 001:465",
        R(SLASH),
        ((2, 0, N, (IMMUNE,), False),),
        {"s2": VINE},
    ),
    Case(
        "savage assault on vine", "001:465", R(SAVAGE), ((2, 0, N, (IMMUNE,), False),), {"s2": VINE}
    ),
    Case(
        "archery attack on vine",
        "001:465",
        R(ARCHERY),
        ((2, 0, N, (IMMUNE,), False),),
        {"s2": VINE},
    ),
    Case(
        "fire slash on vine",
        "001:465 火焰伤害+1",
        R(FIRE_SLASH),
        ((2, 2, F, (VINE_FIRE,), False),),
        {"s2": VINE},
    ),
    Case(
        "thunder slash on vine",
        "001:465 (only a plain 杀)",
        R(THUNDER_SLASH),
        ((2, 1, T, (), False),),
        {"s2": VINE},
    ),
    Case("duel on vine", "001:465 (not 决斗)", R(DUEL), ((2, 1, N, (), False),), {"s2": VINE}),
    Case(
        "fire attack on vine",
        "001:457, 001:465",
        R(FIRE_ATTACK),
        ((2, 2, F, (VINE_FIRE,), False),),
        {"s2": VINE},
    ),
    Case(
        "wine plain slash on vine",
        "docs/rules.md §9.9 (藤甲 cancels a plain 杀)",
        R(SLASH, drank=True),
        ((2, 0, N, (WINE, IMMUNE), False),),
        {"s2": VINE},
    ),
    Case(
        "wine + guding + vine fire",
        "docs/rules.md §9.9 order; 001:431, 001:471, 001:465",
        R(FIRE_SLASH, drank=True),
        ((2, 4, F, (WINE, GUDING, VINE_FIRE), False),),
        {"s1": {"weapon": "古锭刀"}, "s2": {**VINE, "hand_empty": True}},
    ),
    # 白银狮子 (001:463; docs/rules.md §9.9: applied last).
    Case(
        "lightning on silver lion",
        "docs/rules.md §9.9; 001:463",
        R(LIGHTNING, 2, None),
        ((2, 1, T, (LION,), False),),
        {"s2": LION_ARMOR},
    ),
    Case(
        "wine slash on silver lion",
        "001:463",
        R(SLASH, drank=True),
        ((2, 1, N, (WINE, LION), False),),
        {"s2": LION_ARMOR},
    ),
    Case(
        "a 1 on silver lion is 1",
        "001:463 最多承受1点",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s2": LION_ARMOR},
    ),
    Case(
        "wine + guding capped last",
        "docs/rules.md §9.9 白银狮子 applied last",
        R(SLASH, drank=True),
        ((2, 1, N, (WINE, GUDING, LION), False),),
        {"s1": {"weapon": "古锭刀"}, "s2": {**LION_ARMOR, "hand_empty": True}},
    ),
    Case(
        "裸衣-style 2 on silver lion",
        "001:463; 001:367 裸衣",
        R(DUEL, amount=2),
        ((2, 1, N, (LION,), False),),
        {"s2": LION_ARMOR},
    ),
    # 青釭剑 (001:379: the target's armour has no effect).
    Case(
        "qinggang against vine",
        "docs/rules.md §9.9; 001:379",
        R(SLASH),
        ((2, 1, N, (QG,), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": VINE},
    ),
    Case(
        "qinggang fire slash against vine",
        "001:379 无视目标角色的防具",
        R(FIRE_SLASH),
        ((2, 1, F, (QG,), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": VINE},
    ),
    Case(
        "qinggang against renwang",
        "001:379, 001:399 仁王盾",
        R(SLASH, black=True),
        ((2, 1, N, (QG,), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": {"armor": "仁王盾"}},
    ),
    Case(
        "qinggang against eight trigrams",
        "000:118 对方的八卦阵无效; 001:379",
        R(SLASH),
        ((2, 1, N, (QG,), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": {"armor": "八卦阵"}},
    ),
    Case(
        "qinggang wine against silver lion",
        "docs/rules.md §9.9 (青釭剑 before the armour)",
        R(SLASH, drank=True),
        ((2, 2, N, (WINE, QG), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": LION_ARMOR},
    ),
    Case(
        "qinggang holder's savage assault on vine",
        "001:379 使用【杀】时 (not a trick)",
        R(SAVAGE),
        ((2, 0, N, (IMMUNE,), False),),
        {"s1": {"weapon": "青釭剑"}, "s2": VINE},
    ),
    # 仁王盾 and 八卦阵 (001:399, 001:393-395).
    Case(
        "black slash on renwang",
        "001:399 黑色【杀】无效",
        R(SLASH, black=True),
        ((2, 0, N, (RW,), False),),
        {"s2": {"armor": "仁王盾"}},
    ),
    Case(
        "red slash on renwang",
        "001:399",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s2": {"armor": "仁王盾"}},
    ),
    Case(
        "black thunder slash on renwang",
        "001:399 黑色【杀】",
        R(THUNDER_SLASH, black=True),
        ((2, 0, T, (RW,), False),),
        {"s2": {"armor": "仁王盾"}},
    ),
    Case(
        "black duel on renwang",
        "001:399 决斗过程中仁王盾无效",
        R(DUEL, black=True),
        ((2, 1, N, (), False),),
        {"s2": {"armor": "仁王盾"}},
    ),
    Case(
        "slash on eight trigrams",
        "001:393-395 (八卦阵 acts on 闪)",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s2": {"armor": "八卦阵"}},
    ),
    # 朱雀羽扇 (001:477).
    Case(
        "feather fan makes fire",
        "docs/rules.md §9.9; 001:477",
        R(SLASH, weapon_skill=True),
        ((2, 1, F, (FAN,), False),),
        {"s1": {"weapon": "朱雀羽扇"}},
    ),
    Case(
        "feather fan on vine",
        "001:477, 001:465",
        R(SLASH, weapon_skill=True),
        ((2, 2, F, (FAN, VINE_FIRE), False),),
        {"s1": {"weapon": "朱雀羽扇"}, "s2": VINE},
    ),
    Case(
        "feather fan unused on vine",
        "001:477 你可以; 001:465",
        R(SLASH),
        ((2, 0, N, (IMMUNE,), False),),
        {"s1": {"weapon": "朱雀羽扇"}, "s2": VINE},
    ),
    Case(
        "feather fan wine slash along a chain",
        "001:477, 001:431, docs/rules.md §9.9 chain",
        R(SLASH, weapon_skill=True, drank=True),
        ((2, 3, F, (FAN, WINE, VINE_FIRE), True), (4, 2, F, (CHAIN,), True)),
        {"s1": {"weapon": "朱雀羽扇"}, "s2": {**VINE, **CH}, "s4": CH},
    ),
    # 寒冰剑 (001:399).
    Case(
        "ice sword prevents",
        "001:399 防止此伤害",
        R(SLASH, weapon_skill=True),
        ((2, 0, N, (ICE,), False),),
        {"s1": {"weapon": "寒冰剑"}},
    ),
    Case(
        "ice sword unused",
        "001:399 你可以",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s1": {"weapon": "寒冰剑"}},
    ),
    Case(
        "ice sword on a chained target: no spread",
        "001:399, docs/rules.md §9.9 (only damage taken spreads)",
        R(FIRE_SLASH, weapon_skill=True),
        ((2, 0, F, (ICE,), False),),
        {"s1": {"weapon": "寒冰剑"}, "s2": CH, "s3": CH},
    ),
    Case(
        "ice sword against vine: the 杀 has no effect",
        "001:465 对你无效 (before 001:399 造成伤害时)",
        R(SLASH, weapon_skill=True),
        ((2, 0, N, (IMMUNE,), False),),
        {"s1": {"weapon": "寒冰剑"}, "s2": VINE},
    ),
    # 铁索连环 (001:459; docs/rules.md §9.9 chain).
    Case(
        "fire slash along a chain",
        "docs/rules.md §9.9 chain; 001:459",
        R(FIRE_SLASH),
        ((2, 1, F, (), True), (3, 1, F, (CHAIN,), True), (5, 1, F, (CHAIN,), True)),
        {"s2": CH, "s3": CH, "s5": CH},
    ),
    Case(
        "chain order from the current player",
        "docs/rules.md §9.9 in turn order from the current player",
        R(FIRE_SLASH, 2, 4),
        (
            (2, 1, F, (), True),
            (5, 1, F, (CHAIN,), True),
            (1, 1, F, (CHAIN,), True),
            (3, 1, F, (CHAIN,), True),
        ),
        {"s1": CH, "s2": CH, "s3": CH, "s5": CH},
    ),
    Case(
        "the current player first in the chain",
        "docs/rules.md §9.9 from the current player",
        R(FIRE_ATTACK, 2, 1),
        ((2, 1, F, (), True), (1, 1, F, (CHAIN,), True), (4, 1, F, (CHAIN,), True)),
        {"s1": CH, "s2": CH, "s4": CH},
    ),
    Case(
        "a plain slash does not spread",
        "docs/rules.md §9.9 (fire or thunder damage)",
        R(SLASH),
        ((2, 1, N, (), False),),
        {"s2": CH, "s3": CH},
    ),
    Case(
        "savage assault does not spread",
        "docs/rules.md §9.9 (fire or thunder damage)",
        R(SAVAGE),
        ((2, 1, N, (), False),),
        {"s2": CH, "s3": CH},
    ),
    Case(
        "an unchained target does not spread",
        "docs/rules.md §9.9 (a chained hero)",
        R(FIRE_SLASH),
        ((2, 1, F, (), False),),
        {"s3": CH, "s4": CH},
    ),
    Case(
        "thunder on chained vine spreads to chained silver lion",
        "docs/rules.md §9.9 chain, each with its own armour; 001:463, 001:465",
        R(THUNDER_SLASH, drank=True),
        ((2, 2, T, (WINE,), True), (3, 1, T, (CHAIN, LION), True), (4, 2, T, (CHAIN,), True)),
        {"s2": {**VINE, **CH}, "s3": {**LION_ARMOR, **CH}, "s4": CH},
    ),
    Case(
        "wine + guding + fire: capped target, the full amount passes",
        "docs/rules.md §9.9 (the first hero's 白银狮子 does not count for the chain)",
        R(FIRE_SLASH, drank=True),
        (
            (2, 1, F, (WINE, GUDING, LION), True),
            (3, 4, F, (CHAIN, VINE_FIRE), True),
            (4, 3, F, (CHAIN,), True),
        ),
        {
            "s1": {"weapon": "古锭刀"},
            "s2": {**LION_ARMOR, **CH, "hand_empty": True},
            "s3": {**VINE, **CH},
            "s4": CH,
        },
    ),
    Case(
        "the target's vine +1 does not pass on",
        "docs/rules.md §9.9 (the first hero's 藤甲 does not count)",
        R(FIRE_SLASH),
        ((2, 2, F, (VINE_FIRE,), True), (3, 1, F, (CHAIN,), True)),
        {"s2": {**VINE, **CH}, "s3": CH},
    ),
    Case(
        "lightning on a chained seat",
        "docs/rules.md §9.9 chain; 001:373, 001:459",
        R(LIGHTNING, 3, None),
        ((3, 3, T, (), True), (4, 3, T, (CHAIN,), True), (1, 1, T, (CHAIN, LION), True)),
        {"s3": CH, "s4": CH, "s1": {**LION_ARMOR, **CH}},
    ),
    Case(
        "lightning on chained silver lion passes 3",
        "docs/rules.md §9.9; 001:463",
        R(LIGHTNING, 3, None),
        ((3, 1, T, (LION,), True), (5, 3, T, (CHAIN,), True)),
        {"s3": {**LION_ARMOR, **CH}, "s5": CH},
    ),
    Case(
        "fire attack along a chain onto vine",
        "001:457, 001:465, docs/rules.md §9.9",
        R(FIRE_ATTACK),
        ((2, 1, F, (), True), (4, 2, F, (CHAIN, VINE_FIRE), True)),
        {"s2": CH, "s4": {**VINE, **CH}},
    ),
    Case(
        "plain slash on chained vine: nothing, chain stays",
        "001:465, docs/rules.md §9.9",
        R(SLASH),
        ((2, 0, N, (IMMUNE,), False),),
        {"s2": {**VINE, **CH}, "s3": CH},
    ),
    Case(
        "qinggang acts on the 杀's target only",
        "docs/rules.md §9.9 (青釭剑 applies to the 杀's target only)",
        R(FIRE_SLASH),
        ((2, 1, F, (QG,), True), (3, 2, F, (CHAIN, VINE_FIRE), True)),
        {"s1": {"weapon": "青釭剑"}, "s2": {**VINE, **CH}, "s3": {**VINE, **CH}},
    ),
    Case(
        "guding acts on the 杀's target only",
        "docs/rules.md §9.9 (古锭刀 applies to the 杀's target only)",
        R(THUNDER_SLASH),
        ((2, 1, T, (), True), (3, 1, T, (CHAIN,), True)),
        {"s1": {"weapon": "古锭刀"}, "s2": CH, "s3": {**CH, "hand_empty": True}},
    ),
    Case(
        "black fire slash on chained renwang: no spread",
        "001:399, docs/rules.md §9.9",
        R(FIRE_SLASH, black=True),
        ((2, 0, F, (RW,), False),),
        {"s2": {"armor": "仁王盾", **CH}, "s3": CH},
    ),
    Case(
        "renwang does not stop chain damage",
        "001:399 对你使用的黑色【杀】 (the chain is no 杀 used on him)",
        R(FIRE_SLASH, black=True),
        ((2, 1, F, (), True), (3, 1, F, (CHAIN,), True)),
        {"s2": CH, "s3": {"armor": "仁王盾", **CH}},
    ),
    Case(
        "a dead current player: the order starts at his seat",
        "docs/rules.md §3 (dead players are skipped), §9.9 from the current player",
        R(FIRE_SLASH, 2, 1, current=4),
        ((2, 1, F, (), True), (5, 1, F, (CHAIN,), True), (1, 1, F, (CHAIN,), True)),
        {"s1": CH, "s2": CH, "s4": {"alive": False, "hp": 0}, "s5": CH},
    ),
    Case(
        "a dead seat is not in the chain",
        "docs/rules.md §3 (dead players are skipped), §9.9",
        R(THUNDER_SLASH),
        ((2, 1, T, (), True), (5, 1, T, (CHAIN,), True)),
        {"s2": CH, "s4": {"alive": False, "hp": 0}, "s5": CH},
    ),
]


def test_at_least_forty_cases_each_with_a_source() -> None:
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)
    assert all(("docs/rules.md" in case.cite) or (":" in case.cite) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_damage_case(case: Case) -> None:
    seats = table(**case.seats)
    steps = resolve_damage(case.request, seats)
    got = tuple(
        (step.seat, step.amount, step.damage_type, step.modifiers, step.chain_removed)
        for step in steps
    )
    assert got == case.expected, case.cite
    # Who takes damage next: each step names the seats still to come, in order.
    for position, step in enumerate(steps):
        assert step.next_seats == tuple(seat for seat, *_ in case.expected[position + 1 :])
        assert step.index == position
    # Every change leads from the amount before it to the amount after it.
    for step in steps:
        amount = step.changes[0].before if step.changes else step.amount
        for change in step.changes:
            assert change.before == amount
            amount = change.after
        assert amount == step.amount


def test_hp_and_dying_follow_the_amount() -> None:
    seats = table(s2={"hp": 2, "chained": True}, s3={"hp": 3, "chained": True})
    steps = resolve_damage(R(LIGHTNING, 2, None), seats)
    assert [(s.hp_before, s.hp_after, s.dying) for s in steps] == [(2, -1, True), (3, 0, True)]


def test_wine_is_spent_by_a_slash_even_against_vine() -> None:
    """001:431: 酒 acts on the next 杀; the marker goes with it (docs/rules.md §9.9)."""
    slash = start_damage(R(SLASH, drank=True), table(s2=VINE))
    duel = start_damage(R(DUEL, drank=True), table())
    assert slash.wine_spent and slash.amount == 0
    assert not duel.wine_spent


def test_ice_sword_discards_two_instead() -> None:
    step = start_damage(R(SLASH, weapon_skill=True), table(s1={"weapon": "寒冰剑"}))
    assert (step.amount, step.discards, step.dying) == (0, 2, False)
    assert start_damage(R(SLASH), table(s1={"weapon": "寒冰剑"})).discards == 0


# -- a chain resolved one step at a time (docs/rules.md §9.9: dying is settled before the chain goes on)


def _after(seats: tuple[SeatState, ...], seat: int, **change: Any) -> tuple[SeatState, ...]:
    return tuple(SeatState(**{**s.__dict__, **change}) if s.seat == seat else s for s in seats)


def test_a_seat_dying_in_the_chain_is_settled_before_it_goes_on() -> None:
    seats = table(s2={"chained": True, "hp": 1}, s3={"chained": True, "hp": 1}, s4=CH)
    first = start_damage(R(FIRE_SLASH), seats)
    assert (first.seat, first.dying, first.next_seats) == (2, True, (3, 4))
    # The table is asked to settle the dying seat first.
    with pytest.raises(DamageError) as refused:
        continue_damage(first, _after(seats, 2, hp=0, chained=False))
    assert refused.value.code == "dying_seat"
    # Saved by a 桃 at 1 HP: the chain goes on to seat 3, who dies of it.
    second = continue_damage(first, _after(seats, 2, hp=1, chained=False))
    assert second is not None
    assert (second.seat, second.amount, second.dying, second.next_seats) == (3, 1, True, (4,))
    # Seat 3 dies (alive False, chain cleared): the chain still reaches seat 4.
    now = _after(_after(seats, 2, hp=1, chained=False), 3, hp=0, alive=False, chained=False)
    third = continue_damage(second, now)
    assert third is not None and (third.seat, third.amount, third.next_seats) == (4, 1, ())
    assert continue_damage(third, _after(now, 4, hp=3, chained=False)) is None


def test_a_chained_seat_that_died_meanwhile_is_skipped() -> None:
    seats = table(s2=CH, s3=CH, s4=CH)
    first = start_damage(R(THUNDER_SLASH), seats)
    now = _after(_after(seats, 2, hp=3, chained=False), 3, alive=False, hp=0, chained=False)
    following = continue_damage(first, now)
    assert following is not None and following.seat == 4


def test_a_source_that_died_in_the_chain_is_no_source() -> None:
    """docs/rules.md §6: the killer is the damage source; a dead one is none (反馈/刚烈 have no one)."""
    seats = table(s1={"hero": "WEI003"}, s2=CH, s3={**CH, "hero": "WEI003"})
    first = start_damage(R(FIRE_SLASH), seats)
    now = _after(_after(seats, 2, hp=3, chained=False), 1, alive=False, hp=0)
    following = continue_damage(first, now)
    assert following is not None and following.source is None
    assert [r.name_zh for r in following.reminders] == []


# -- the damaged hero's skills, per step (001:367: 奸雄 反馈 刚烈 遗计)


def _names(step: DamageStep) -> list[tuple[str, int]]:
    return [(r.name_zh, r.times) for r in step.reminders]


def test_guo_jia_is_reminded_for_his_own_step_in_a_chain_of_three() -> None:
    seats = table(s2=CH, s3={**CH, "hero": "WEI006"}, s4={**CH, "hero": "WEI002"})
    steps = resolve_damage(R(FIRE_SLASH, drank=True), seats)
    assert [s.seat for s in steps] == [2, 3, 4]
    assert _names(steps[0]) == []
    assert _names(steps[1]) == [("遗计", 2)]  # 2 points of damage: 遗计 twice (001:367)
    assert _names(steps[2]) == [("反馈", 1)]


def test_reaction_skills_need_a_source_or_a_card() -> None:
    cao, sima, xiahou = {"hero": "WEI001"}, {"hero": "WEI002"}, {"hero": "WEI003"}
    lightning = start_damage(R(LIGHTNING, 2, None), table(s2=cao))
    assert _names(lightning) == [("奸雄", 1)]  # 000:179: 奸雄 takes 闪电 too
    for hero in (sima, xiahou):
        assert _names(start_damage(R(LIGHTNING, 2, None), table(s2=hero))) == []
    assert _names(start_damage(R(SKILL), table(s2=cao))) == []  # a skill is no card
    assert _names(start_damage(R(SKILL), table(s2=xiahou))) == [("刚烈", 1)]
    assert _names(start_damage(R(SLASH), table(s2={**VINE, **xiahou}))) == []  # no damage taken


# -- inputs that cannot happen: a clear error, nothing changed


@pytest.mark.parametrize(
    ("request_", "seats", "code"),
    [
        (R(SLASH, weapon_skill=True), {}, "weapon_skill_not_held"),
        (R(SLASH, weapon_skill=True), {"s1": {"weapon": "古锭刀"}}, "weapon_skill_not_held"),
        (R(DUEL, weapon_skill=True), {"s1": {"weapon": "朱雀羽扇"}}, "weapon_skill_not_slash"),
        (
            R(FIRE_SLASH, weapon_skill=True),
            {"s1": {"weapon": "朱雀羽扇"}},
            "fan_on_elemental_slash",
        ),
        (R(LIGHTNING, 2, None, weapon_skill=True), {}, "weapon_skill_without_source"),
        (R(SLASH), {"s3": {"alive": False, "hp": 0, "chained": True}}, "chain_on_dead_seat"),
        (R(SLASH), {"s2": {"alive": False, "hp": 0}}, "dead_target"),
        (R(SLASH), {"s1": {"alive": False, "hp": 0}}, "dead_source"),
        (R(SLASH, target=9), {}, "unknown_target"),
        (R(SLASH), {"s3": {"hp": 0}}, "dying_seat"),
        (R(LIGHTNING, 2, 1), {}, "lightning_has_no_source"),
        (R(SLASH, damage_type=F), {}, "type_mismatch"),
        (R(LIGHTNING, 2, None, damage_type=F), {}, "type_mismatch"),
        (
            R(SLASH, weapon_skill=True, damage_type=N),
            {"s1": {"weapon": "朱雀羽扇"}},
            "type_mismatch",
        ),
        (R(SLASH, 1, 1), {}, "not_self"),
        (R(DUEL, drank=True, source=None), {}, "wine_without_source"),
        (R(SLASH, amount=0), {}, "bad_amount"),
        (R(SLASH), {"s1": {"weapon": "藤甲"}}, "not_a_weapon"),
        (R(SLASH), {"s2": {"armor": "古锭刀"}}, "not_an_armor"),
        (R(SLASH, current=7), {}, "unknown_current"),
    ],
)
def test_impossible_inputs_are_refused(
    request_: DamageRequest, seats: dict[str, dict[str, Any]], code: str
) -> None:
    before = table(**seats)
    snapshot = tuple(SeatState(**s.__dict__) for s in before)
    with pytest.raises(DamageError) as refused:
        resolve_damage(request_, before)
    assert refused.value.code == code
    assert str(refused.value)
    assert before == snapshot


def test_duplicate_seats_are_refused() -> None:
    with pytest.raises(DamageError) as refused:
        start_damage(R(SLASH), (*table(), SeatState(seat=1, hp=4)))
    assert refused.value.code == "duplicate_seat"


def test_codes_as_strings_are_read_and_unknown_ones_refused() -> None:
    request = DamageRequest(target=2, card="火杀", source=1, damage_type="fire")  # type: ignore[arg-type]
    assert start_damage(request, table()).damage_type is DamageType.FIRE
    for bad in (
        DamageRequest(target=2, card="fireball", source=1),  # type: ignore[arg-type]
        DamageRequest(target=2, card="杀", source=1, damage_type="acid"),  # type: ignore[arg-type]
    ):
        with pytest.raises(DamageError) as refused:
            start_damage(bad, table())
        assert refused.value.code == "unknown_damage"
