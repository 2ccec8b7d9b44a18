"""The words of a damage worked out by the rules (docs/rules.md §9.9 "Damage order"): its card
and type, the request, each seat's state, and each step a seat takes with the modifiers that
changed it; `prevent` (a point kept off a step before it lands) and `apply_step`. A game's own
modifier (a rule of its own that prevents a point: `prevent`) is a `GameModifier` it names with
`game_modifier`.

The resolver that works the steps out is a game package's rules (an expansion's,
companion/games/); the games' hooks (companion.hooks.damage_steps) see its steps in these words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum


class DamageType(StrEnum):
    """The damage types: normal, and the expansion's fire (火焰) and thunder (雷电)."""

    NORMAL = "normal"
    FIRE = "fire"
    THUNDER = "thunder"

    @property
    def spreads(self) -> bool:
        """Fire and thunder damage pass along a chain (铁索连环)."""
        return self is not DamageType.NORMAL


class DamageCard(StrEnum):
    """The card or effect that deals the damage."""

    SLASH = "杀"
    FIRE_SLASH = "火杀"
    THUNDER_SLASH = "雷杀"
    DUEL = "决斗"
    SAVAGE_ASSAULT = "南蛮入侵"
    ARCHERY_ATTACK = "万箭齐发"
    FIRE_ATTACK = "火攻"
    LIGHTNING = "闪电"
    SKILL = "skill"  # a hero skill such as 刚烈 or 反间
    OTHER = "other"

    @property
    def is_slash(self) -> bool:
        """杀, 火杀 and 雷杀: the cards 酒 and the weapons act on."""
        return self in _SLASHES

    @property
    def is_card(self) -> bool:
        """A real card dealt the damage (奸雄 may take it); a skill or other effect is no card."""
        return self not in (DamageCard.SKILL, DamageCard.OTHER)


_SLASHES = frozenset({DamageCard.SLASH, DamageCard.FIRE_SLASH, DamageCard.THUNDER_SLASH})


class Modifier(StrEnum):
    """What changed a seat's damage, in the order it was applied."""

    FEATHER_FAN = "feather_fan_fire"  # 朱雀羽扇: the plain 杀 deals fire damage
    WINE = "wine"  # 酒: +1 on the 杀
    GUDING = "guding_blade"  # 古锭刀: +1, the target has no hand card
    CHAIN = "chain_passed"  # 铁索连环: the amount passed along the chain
    QINGGANG = "qinggang_ignores_armor"  # 青釭剑: the target's armour counts for nothing
    VINE_IMMUNE = "vine_immune"  # 藤甲: a plain 杀, 南蛮入侵 or 万箭齐发 has no effect
    RENWANG = "renwang_shield"  # 仁王盾: a black 杀 has no effect
    ICE_SWORD = "ice_sword_prevented"  # 寒冰剑: damage prevented, two cards discarded instead
    VINE_FIRE = "vine_fire"  # 藤甲: fire damage +1
    SILVER_LION = "silver_lion_cap"  # 白银狮子: damage above 1 becomes 1


class GameModifier(str):
    """A modifier a game adds to the steps of a damage (`prevent` by a rule of its own): its
    value as a `Modifier`'s, one object per value (`game_modifier`), so `is` compares them."""

    __slots__ = ()

    @property
    def value(self) -> str:
        return str(self)


_GAME_MODIFIERS: dict[str, GameModifier] = {}


def game_modifier(value: str) -> GameModifier:
    """The game's modifier `value` (the same object for the same value), never a `Modifier`'s."""
    if value in Modifier._value2member_map_:
        raise ValueError(f"{value!r} is a modifier of the rules")
    return _GAME_MODIFIERS.setdefault(value, GameModifier(value))


# What changed a step: one of the rules' modifiers or a game's.
AnyModifier = Modifier | GameModifier


class DamageError(ValueError):
    """An input that cannot happen at a real table; `code` says which, the message explains."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SeatState:
    """What the resolver needs to know about one seat.

    `seat` is the seat's id; `hero` the hero id (e.g. WEI006 for 郭嘉) or ""; `weapon` and `armor`
    the Chinese names of the equipped cards or ""; `hand_empty` whether the seat has no hand card.
    """

    seat: int
    hp: int
    alive: bool = True
    hero: str = ""
    weapon: str = ""
    armor: str = ""
    chained: bool = False
    hand_empty: bool = False


@dataclass(frozen=True)
class DamageRequest:
    """One damage about to be dealt.

    `amount` and `damage_type` default to the card's (docs/rules.md §9.9); `amount` may be given for
    a skill that changes it (e.g. 裸衣). `drank`: the source drank 酒 this turn and the marker is
    still on. `weapon_skill`: the holder of 朱雀羽扇 or 寒冰剑 chose to use it on this 杀. `black`:
    the 杀 is black (仁王盾). `current`: the seat whose turn it is, where the chain order starts;
    default the source, or the target when there is no source.
    """

    target: int
    card: DamageCard
    source: int | None = None
    amount: int | None = None
    damage_type: DamageType | None = None
    drank: bool = False
    weapon_skill: bool = False
    black: bool = False
    current: int | None = None


@dataclass(frozen=True)
class Change:
    """One modifier and the amount before and after it."""

    modifier: AnyModifier
    before: int
    after: int


@dataclass(frozen=True)
class Reminder:
    """A skill of the damaged hero that reacts to this damage.

    `times` is how often it may be used: 遗计 once per point, the others once.
    """

    skill_id: str
    name_zh: str
    name_en: str
    times: int


@dataclass(frozen=True)
class DamageStep:
    """What one seat takes, and what comes next.

    `index` is 0 for the damage's own target and 1, 2 ... along the chain. `amount` is what the seat
    takes (0: none, see `changes`). `next_seats` are the chained seats that take damage next, in
    turn order; one that is dead by then is skipped. `chain_amount` is the amount passed along the
    chain (before armour). `wine_spent` (step 0): the source's 酒 marker is used by this 杀.
    `discards` (step 0): 寒冰剑 discards this many of the target's cards instead of the damage.
    """

    request: DamageRequest
    index: int
    seat: int
    source: int | None
    amount: int
    damage_type: DamageType
    changes: tuple[Change, ...]
    chain_removed: bool
    hp_before: int
    hp_after: int
    dying: bool
    reminders: tuple[Reminder, ...]
    next_seats: tuple[int, ...]
    chain_amount: int
    wine_spent: bool = False
    discards: int = 0

    @property
    def modifiers(self) -> tuple[AnyModifier, ...]:
        """The modifiers that acted on this step, in order."""
        return tuple(change.modifier for change in self.changes)


def prevent(step: DamageStep, points: int, modifier: AnyModifier) -> DamageStep:
    """The step with `points` of its damage prevented before it lands (after armour): HP and
    dying from what is left; nothing left is no damage (no skill to remind, no chain spread)."""
    amount = max(step.amount - points, 0)
    if amount == step.amount:
        return step
    hp_after = step.hp_before - amount
    return replace(
        step,
        amount=amount,
        changes=(*step.changes, Change(modifier, step.amount, amount)),
        hp_after=hp_after,
        dying=amount > 0 and hp_after <= 0,
        reminders=step.reminders if amount else (),
        chain_removed=step.chain_removed and amount > 0,
        next_seats=step.next_seats if amount else (),
    )


def apply_step(step: DamageStep, seats: Sequence[SeatState]) -> tuple[SeatState, ...]:
    """The seats after `step`: HP down by the amount and the chain removed (no rescue, no death)."""
    return tuple(
        replace(
            seat,
            hp=step.hp_after,
            chained=seat.chained and not step.chain_removed,
        )
        if seat.seat == step.seat
        else seat
        for seat in seats
    )
