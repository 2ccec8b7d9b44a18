"""Delayed tricks: who may receive one, and what 无懈可击 does to one (docs/rules.md §3, §4)."""

from __future__ import annotations

from enum import StrEnum

from companion.rules.cards import load_deck

INDULGENCE = "乐不思蜀"
SUPPLY_SHORTAGE = "兵粮寸断"
LIGHTNING = "闪电"
# The delayed tricks of the deck, in the order a seat's dialog offers them.
DELAYED_TRICKS = (INDULGENCE, SUPPLY_SHORTAGE, LIGHTNING)


class TargetProblem(StrEnum):
    """Why a delayed trick may not go into a judgement zone."""

    OWN_ZONE = "own_zone"  # 闪电 is put into one's own zone only
    NOT_SELF = "not_self"  # 乐不思蜀 and 兵粮寸断 target another player
    OUT_OF_REACH = "out_of_reach"  # 兵粮寸断 needs distance 1 (奇才: any distance)


class Fate(StrEnum):
    """What happens to a delayed trick cancelled by 无懈可击 (no judgement card is flipped)."""

    DISCARDED = "discarded"
    MOVES_ON = "moves_on"


def target_problem(name: str, *, own_zone: bool, in_reach: bool) -> TargetProblem | None:
    """Why the player using `name` may not put it into this zone, or None when they may.

    `own_zone`: the zone is the user's own; `in_reach`: the target is within 顺手牵羊 /
    兵粮寸断 reach of the user (distance 1 with horses, or 奇才), see rules.distance.
    """
    # 000/002 card texts: 闪电 "出牌阶段，对你使用"; 乐不思蜀 "出牌阶段，对一名其他角色使用";
    # 兵粮寸断 "出牌阶段，对距离为1的一名其他角色使用".
    if name == LIGHTNING:
        return None if own_zone else TargetProblem.OWN_ZONE
    if own_zone:
        return TargetProblem.NOT_SELF
    if name == SUPPLY_SHORTAGE and not in_reach:
        return TargetProblem.OUT_OF_REACH
    return None


def deck_delayed_tricks(**expansions: bool) -> list[str]:
    """The delayed tricks of the deck in play (`expansions`: the card expansions on, by key;
    兵粮寸断 comes with an expansion), in the dialog's order."""
    names = {card.name_zh for card in load_deck(ex=True, **expansions)}
    return [t for t in DELAYED_TRICKS if t in names]


def nullified_fate(name: str) -> Fate:
    """A delayed trick cancelled by 无懈可击 when it is about to be judged.

    docs/rules.md §3: a 闪电 moves on to the next living player's zone without a judgement; any
    other delayed trick goes to the discard pile with no effect.
    """
    return Fate.MOVES_ON if name == LIGHTNING else Fate.DISCARDED
