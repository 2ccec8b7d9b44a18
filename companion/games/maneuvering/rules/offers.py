"""What 军争's damage dialog offers at each step: the cards, then the sources, then the options
the cards and equipment in play allow (the weapons' choices, a skill's damage type and amount).

The dialog asks in that order and shows the resolved result before anything is applied
(companion.games.maneuvering.read). These functions only decide what may be offered and which of the
answers given so far count; `rules.resolver` resolves the damage, and the action
(actions.damage_resolve) judges what is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.maneuvering.rules.cards import FireAttack, FireAttackError, fire_attack
from companion.games.maneuvering.rules.resolver import FEATHER_FAN, GUDING, ICE_SWORD, RENWANG
from companion.rules import modes
from companion.rules.damage import DamageCard, DamageType
from companion.rules.offers import Asker, TableTurn

AXE = "贯石斧"
# 麒麟弓: after its 杀 deals damage, the holder may discard one of the target's horses.
QILIN = "麒麟弓"
HORSE_SLOTS = ("plus_horse", "minus_horse")

# The common cards, one tap each, in the dialog's order; 军争's own only with the expansion.
COMMON_CARDS = ("杀", "火杀", "雷杀", "决斗", "南蛮入侵", "万箭齐发", "闪电", "火攻")
MANEUVERING_ONLY = frozenset({"火杀", "雷杀", "火攻"})
# Cards used on other players only: the target is not offered as their source.
OTHERS_ONLY = frozenset({"杀", "火杀", "雷杀", "决斗", "南蛮入侵", "万箭齐发"})
# A skill or another effect: its damage type and amount are asked.
_ASKED = frozenset({DamageCard.SKILL.value, DamageCard.OTHER.value})
_AMOUNTS = ("1", "2", "3")


def offered_cards(*, maneuvering: bool, mode: str) -> list[str]:
    """The cards offered one tap each (a skill or other effect is asked apart): 军争's with the
    expansion only, none the table's `mode` (its key) plays without."""
    refused = modes.get(mode).card_refused
    return [
        c for c in COMMON_CARDS if (maneuvering or c not in MANEUVERING_ONLY) and not refused(c)
    ]


def accepted_card(card: str, *, maneuvering: bool, mode: str) -> str:
    """The card if it may deal damage at this table, else "" (the dialog asks again)."""
    if card not in {c.value for c in DamageCard} or modes.get(mode).card_refused(card):
        return ""
    return "" if card in MANEUVERING_ONLY and not maneuvering else card


def may_be_source(card: str, *, source_id: int, target_id: int) -> bool:
    """Whether a living seat is offered as the source of `card` on the target: a card used on
    other players is never its target's own."""
    return not (card in OTHERS_ONLY and source_id == target_id)


def source_may_be_none(card: str) -> bool:
    """Whether "no source" is offered: not for a card a player uses on another."""
    return card not in OTHERS_ONLY


def source_known(card: str, *, source_id: int | None, no_source: bool) -> bool:
    """Whether the dialog has its source: 闪电 has none; otherwise a seat, or "no source"."""
    return bool(card) and (card == DamageCard.LIGHTNING or no_source or source_id is not None)


def effective_source(card: str, source_id: int | None) -> int | None:
    """The source that counts: 闪电 deals its damage from nobody."""
    return None if card == DamageCard.LIGHTNING else source_id


def fire_attack_step(*, user: int, target: int, shown: str, discarded: bool | None) -> FireAttack:
    """火攻's guided path from the dialog's answers (`shown`: a suit, "" before it is shown); an
    answer that does not fit (a suit that is none, a discard before a suit) starts it again."""
    try:
        return fire_attack(
            user=user,
            target=target,
            target_hand_empty=False,
            shown=shown or None,
            discarded=discarded,
        )
    except (FireAttackError, ValueError):
        return fire_attack(user=target, target=target, target_hand_empty=False)


@dataclass(frozen=True)
class DamageOptions:
    """The choices the card and equipment allow: `qilin` lists the target's horses as
    (card, slot); `kind` and `amount`: a skill's or other effect's damage type and amount."""

    hand_empty: bool
    fan: bool
    ice: bool
    black: bool
    axe: bool
    qilin: tuple[tuple[str, str], ...]
    kind: bool
    amount: bool


def damage_options(
    card: str, *, weapon: str, target_equipment: Mapping[str, str], maneuvering: bool
) -> DamageOptions:
    """What the dialog asks once the card and source are known (`weapon`: the source's, "" for
    none; `target_equipment`: the target's by slot). 古锭刀: does the target hold no hand card;
    朱雀羽扇 (军争, a plain 杀) and 寒冰剑: use the skill; 仁王盾 on the target: is the 杀 black;
    贯石斧: forced to hit; 麒麟弓: which horse of the target's to discard."""
    slash = card in ("杀", "火杀", "雷杀")
    asked = card in _ASKED
    return DamageOptions(
        hand_empty=slash and weapon == GUDING,
        fan=card == "杀" and weapon == FEATHER_FAN and maneuvering,
        ice=slash and weapon == ICE_SWORD,
        black=slash and target_equipment.get("armor") == RENWANG,
        axe=slash and weapon == AXE,
        qilin=tuple(
            (target_equipment[slot], slot)
            for slot in HORSE_SLOTS
            if slash and weapon == QILIN and target_equipment.get(slot)
        ),
        kind=asked,
        amount=asked,
    )


@dataclass(frozen=True)
class DamageChoice:
    """The answers that count: each only where its option is offered ("" or False otherwise)."""

    hand_empty: bool = False
    weapon_skill: bool = False
    black: bool = False
    axe: bool = False
    qilin: str = ""
    damage_type: str = ""
    amount: str = ""


def damage_choice(
    options: DamageOptions, answers: DamageChoice, *, maneuvering: bool
) -> DamageChoice:
    """Keep the answers the options allow: a weapon's only with that weapon, 麒麟弓's horse only
    one the target has, a damage type (fire and thunder with 军争 only) and an amount of 1–3 only
    for a skill or other effect."""
    kinds = [t.value for t in DamageType] if maneuvering else [DamageType.NORMAL.value]
    return DamageChoice(
        hand_empty=options.hand_empty and answers.hand_empty,
        weapon_skill=(options.fan or options.ice) and answers.weapon_skill,
        black=options.black and answers.black,
        axe=options.axe and answers.axe,
        qilin=answers.qilin if answers.qilin in {slot for _name, slot in options.qilin} else "",
        damage_type=answers.damage_type if options.kind and answers.damage_type in kinds else "",
        amount=answers.amount if options.amount and answers.amount in _AMOUNTS else "",
    )


@dataclass(frozen=True)
class ManeuverControls:
    """军争's buttons on a seat's dialog: the damage dialog, chain or free (铁索连环), drink 酒."""

    damage: bool
    chain: bool
    wine: bool


def maneuver_controls(
    asker: Asker | None,
    turn: TableTurn,
    *,
    seat_id: int,
    seat_alive: bool,
    seat_dying: bool,
    maneuvering: bool,
) -> ManeuverControls | None:
    """军争's controls for the asker on this seat (None: none at all, the part is not shown).

    The damage dialog: whoever may change the seat, or any living player (they say who dealt it).
    The chain: whoever may change the seat, or the current player (the card's user). 酒: on one's
    own seat only, by whoever may change it, and not while dying (a dying player's 酒 is a rescue,
    actions.seat_rescue)."""
    if not (turn.playing and seat_alive and maneuvering) or asker is None:
        return None
    user = asker.seated and asker.seat_id == turn.seat_id
    return ManeuverControls(
        damage=asker.may_act or asker.seated,
        chain=asker.may_act or user,
        wine=asker.may_act and asker.seat_id == seat_id and not seat_dying,
    )
