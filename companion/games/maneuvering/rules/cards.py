"""军争 cards besides the damage itself: the 酒 marker, 白银狮子 leaving a seat, 火攻's steps.

Sources: seeds/001_*.txt lines 431-437 (酒), 457 (火攻), 463 (白银狮子); docs/rules.md §6 (酒 while
dying) and §9.9. The damage these cards deal goes through `rules.resolver`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.rules.cards import Suit, parse_suit
from companion.rules.damage import DamageCard, DamageRequest, DamageStep, DamageType

WINE = "酒"
SILVER_LION = "白银狮子"
FIRE_ATTACK = "火攻"


class WineMarker(StrEnum):
    """A seat's 酒 this turn: none yet, drunk and waiting for a 杀, or drunk and used."""

    NONE = ""
    ACTIVE = "active"  # the next 杀 this turn deals +1 (001:431)
    SPENT = "spent"  # drunk this turn and used: no second 酒 this turn (001:433)

    @property
    def drank(self) -> bool:
        """The "drank 酒" marker the damage resolver reads (DamageRequest.drank)."""
        return self is WineMarker.ACTIVE


class WineRefusal(StrEnum):
    """Why a 酒 may not be drunk now."""

    ONCE_PER_TURN = "once_per_turn"  # 001:433 一回合只能使用一次
    NOT_PLAY_PHASE = "not_play_phase"  # 001:431 出牌阶段对自己使用 (or dying, 001:435)
    DEAD = "dead"


@dataclass(frozen=True)
class WineResult:
    """What drinking does: the new marker and the HP recovered, or the reason it is refused."""

    marker: WineMarker
    recover: int
    refusal: WineRefusal | None = None

    @property
    def allowed(self) -> bool:
        """True when the 酒 may be drunk."""
        return self.refusal is None


def drink(
    marker: WineMarker | str, *, dying: bool, own_play_phase: bool, alive: bool = True
) -> WineResult:
    """Drink a 酒.

    Dying (HP ≤ 0): it recovers 1 HP and the marker stays as it is (001:435; docs/rules.md §6),
    however many were drunk this turn. Otherwise only in one's own play phase (001:431), once a turn
    (001:433): the marker becomes ACTIVE. A refusal leaves the marker unchanged.
    """
    marker = WineMarker(marker)
    if not alive:
        return WineResult(marker, 0, WineRefusal.DEAD)
    if dying:
        return WineResult(marker, 1)
    if not own_play_phase:
        return WineResult(marker, 0, WineRefusal.NOT_PLAY_PHASE)
    if marker is not WineMarker.NONE:
        return WineResult(marker, 0, WineRefusal.ONCE_PER_TURN)
    return WineResult(WineMarker.ACTIVE, 0)


def after_damage(marker: WineMarker | str, step: DamageStep) -> WineMarker:
    """The source's marker after a damage step: a 杀 that drew on the 酒 uses it up."""
    marker = WineMarker(marker)
    return WineMarker.SPENT if step.wine_spent and marker is WineMarker.ACTIVE else marker


def after_slash(marker: WineMarker | str) -> WineMarker:
    """The marker after a 杀 that dealt no damage (dodged): 酒 acts on the next 杀 (001:431)."""
    marker = WineMarker(marker)
    return WineMarker.SPENT if marker is WineMarker.ACTIVE else marker


def at_turn_end(marker: WineMarker | str) -> WineMarker:
    """The end of the turn clears the marker, used or not (001:431 本回合)."""
    WineMarker(marker)
    return WineMarker.NONE


def silver_lion_recovery(*, armor_leaving: str, hp: int, max_hp: int, alive: bool = True) -> int:
    """HP recovered when an armour leaves a seat: 1 for 白银狮子, if wounded (001:463)."""
    if armor_leaving != SILVER_LION or not alive:
        return 0
    return 1 if hp < max_hp else 0


class FireAttackStage(StrEnum):
    """Where a 火攻 stands (001:457)."""

    SHOW = "show"  # the target shows one hand card
    DISCARD = "discard"  # the user may discard a hand card of the shown suit
    DAMAGE = "damage"  # he did: 1 fire damage to the target, through the resolver
    NOTHING = "nothing"  # he did not: no effect


class FireAttackError(ValueError):
    """A 火攻 that cannot go on; `code` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class FireAttack:
    """One stage of a 火攻, and for DAMAGE the damage to resolve."""

    stage: FireAttackStage
    user: int
    target: int
    shown: Suit | None = None
    damage: DamageRequest | None = None


def fire_attack(
    *,
    user: int,
    target: int,
    target_hand_empty: bool,
    shown: Suit | str | None = None,
    discarded: bool | None = None,
    current: int | None = None,
) -> FireAttack:
    """The guided path of a 火攻 (001:457), from what the table has told so far.

    The target must have a hand card (it may be the user). Nothing shown yet: SHOW. A suit shown:
    DISCARD, until the user says whether he discarded a card of that suit: then DAMAGE (1 fire
    damage, `damage` is the request for `rules.resolver`) or NOTHING.
    """
    if target_hand_empty:
        raise FireAttackError("no_hand_card", "火攻 is used on a player with a hand card")
    if shown is None:
        if discarded is not None:
            raise FireAttackError("nothing_shown", "the target shows a card before any discard")
        return FireAttack(FireAttackStage.SHOW, user, target)
    suit = parse_suit(shown)
    if discarded is None:
        return FireAttack(FireAttackStage.DISCARD, user, target, suit)
    if not discarded:
        return FireAttack(FireAttackStage.NOTHING, user, target, suit)
    damage = DamageRequest(
        target=target,
        card=DamageCard.FIRE_ATTACK,
        source=user,
        amount=1,
        damage_type=DamageType.FIRE,
        current=current,
    )
    return FireAttack(FireAttackStage.DAMAGE, user, target, suit, damage)
