"""Dark souls 暗魂 (docs/rules.md §9.2; seed 000, 详细规则 and 暗魂), a table option.

A dead loyalist becomes 罗汉, a dead rebel 玄武, a dead renegade 祝由 (the lord's death ends the
game). On dying the player chooses one living player to haunt (附体); the soul is public.

- 罗汉 blocks 1 point of the first damage the haunted player takes after the haunting (he
  cannot refuse it, and discards a hand card), then is gone. The block is a prevention: it comes
  off the damage before it lands, so a haunted player at 1 HP who takes 1 damage does not become
  dying. HP loss (失去体力) is not damage: not blocked.
- 玄武 draws a card from the deck when it haunts, and may at any time swap it for a hand card of
  the haunted player's that the soul names, then is gone (confirmed when used).
- 祝由, in the haunted player's play phase, may make him discard his whole hand and draw as many,
  then is gone (confirmed when used).

Decided here (docs/variants.md): a soul whose haunted player dies is gone unused; two 罗汉 on one
player block one point each, of two damages, the earlier soul first; 罗汉's point comes off the
damage as dealt, after armour (docs/rules.md §9.9's damage order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.rules.damage import DamageStep, game_modifier, prevent
from companion.rules.identities import Identity
from companion.rules.turns import Phase
from companion.rules.victory import SeatStatus


class Soul(StrEnum):
    """The three dark souls."""

    LUOHAN = "luohan"  # 罗汉, a dead loyalist's
    XUANWU = "xuanwu"  # 玄武, a dead rebel's
    ZHUYOU = "zhuyou"  # 祝由, a dead renegade's


NAMES_ZH: dict[Soul, str] = {Soul.LUOHAN: "罗汉", Soul.XUANWU: "玄武", Soul.ZHUYOU: "祝由"}

# 罗汉's point prevented before it lands, in a damage step's changes (`luohan_steps`).
LUOHAN_PREVENTED = game_modifier("luohan_prevented")

SOUL_OF: dict[Identity, Soul] = {
    Identity.LOYALIST: Soul.LUOHAN,
    Identity.REBEL: Soul.XUANWU,
    Identity.RENEGADE: Soul.ZHUYOU,
}


def soul_for(identity: Identity) -> Soul | None:
    """The dark soul a dead player of this identity becomes; None for the lord."""
    return SOUL_OF.get(identity)


@dataclass(frozen=True)
class DarkSoul:
    """A public dark soul: what it is, whose (`owner`, the dead player's seat index) and whom
    it haunts (`host`, a living seat index)."""

    soul: Soul
    owner: int
    host: int

    def stored(self) -> dict[str, Any]:
        return {"soul": self.soul.value, "owner": self.owner, "host": self.host}

    @classmethod
    def from_stored(cls, raw: Mapping[str, Any]) -> DarkSoul:
        return cls(soul=Soul(raw["soul"]), owner=int(raw["owner"]), host=int(raw["host"]))


class SoulRefusal(StrEnum):
    """Why a haunting or a soul's use is refused (codes for the screens)."""

    LORD_HAS_NO_SOUL = "lord_has_no_soul"
    OWNER_ALIVE = "owner_alive"
    ALREADY_A_SOUL = "already_a_soul"
    HOST_DEAD = "host_dead"
    LUOHAN_IS_AUTOMATIC = "luohan_is_automatic"
    NOT_HOSTS_PLAY_PHASE = "not_hosts_play_phase"


REASONS: dict[SoulRefusal, str] = {
    SoulRefusal.LORD_HAS_NO_SOUL: "The lord's death ends the game: he becomes no dark soul.",
    SoulRefusal.OWNER_ALIVE: "Only a dead player becomes a dark soul.",
    SoulRefusal.ALREADY_A_SOUL: "This player has already been a dark soul this game.",
    SoulRefusal.HOST_DEAD: "A dark soul haunts a living player.",
    SoulRefusal.LUOHAN_IS_AUTOMATIC: "罗汉 blocks the next damage by itself.",
    SoulRefusal.NOT_HOSTS_PLAY_PHASE: "祝由 acts only in the haunted player's play phase.",
}


class SoulRefused(ValueError):
    """A haunting or a use the rules refuse; `refusal` says why."""

    def __init__(self, refusal: SoulRefusal) -> None:
        super().__init__(REASONS[refusal])
        self.refusal = refusal


def haunt_refusal(
    seats: Sequence[SeatStatus], *, owner: int, host: int, owners_so_far: Sequence[int] = ()
) -> SoulRefusal | None:
    """Why the dead `owner` may not haunt `host`, or None (`owners_so_far`: the seats that
    have become souls this game: one soul per death)."""
    if soul_for(seats[owner].identity) is None:
        return SoulRefusal.LORD_HAS_NO_SOUL
    if seats[owner].alive:
        return SoulRefusal.OWNER_ALIVE
    if owner in owners_so_far:
        return SoulRefusal.ALREADY_A_SOUL
    if not seats[host].alive:
        return SoulRefusal.HOST_DEAD
    return None


def haunt(
    seats: Sequence[SeatStatus], *, owner: int, host: int, owners_so_far: Sequence[int] = ()
) -> DarkSoul:
    """The dark soul the dead `owner` becomes, haunting `host`; SoulRefused otherwise."""
    refusal = haunt_refusal(seats, owner=owner, host=host, owners_so_far=owners_so_far)
    if refusal is not None:
        raise SoulRefused(refusal)
    soul = soul_for(seats[owner].identity)
    assert soul is not None
    return DarkSoul(soul=soul, owner=owner, host=host)


@dataclass(frozen=True)
class Block:
    """A damage after the haunted player's 罗汉: the amount left, and the soul used (None: no
    罗汉 blocked it); with a soul used the haunted player discards a hand card."""

    amount: int
    used: DarkSoul | None


def luohan_block(souls: Sequence[DarkSoul], *, target: int, amount: int) -> Block:
    """A damage of `amount` to `target`, before it lands: the first 罗汉 haunting him prevents
    1 point of it (he cannot refuse) and is gone. Call it for damage only, never for HP loss."""
    if amount <= 0:
        return Block(amount=amount, used=None)
    soul = next((s for s in souls if s.host == target and s.soul is Soul.LUOHAN), None)
    if soul is None:
        return Block(amount=amount, used=None)
    return Block(amount=amount - 1, used=soul)


def luohan_steps(
    souls: Sequence[DarkSoul], steps: Sequence[DamageStep], index_of: Mapping[int, int]
) -> tuple[tuple[DamageStep, ...], tuple[DarkSoul, ...]]:
    """A resolved damage (`rules.damage` steps, seats by id; `index_of`: seat id to seat index)
    with each haunted seat's first 罗汉 preventing 1 point of its step before it lands, and the
    souls so used (gone). The target's damage prevented to nothing spreads no chain."""
    left = list(souls)
    used: list[DarkSoul] = []
    found: list[DamageStep] = []
    for step in steps:
        index = index_of.get(step.seat)
        block = luohan_block(left, target=-1 if index is None else index, amount=step.amount)
        if block.used is not None:
            left = gone(left, block.used)
            used.append(block.used)
            step = prevent(step, step.amount - block.amount, LUOHAN_PREVENTED)
        found.append(step)
        if step.index == 0 and step.amount == 0:
            break
    return tuple(found), tuple(used)


def use_refusal(
    soul: DarkSoul, *, turn_seat: int | None, phase: Phase | None
) -> SoulRefusal | None:
    """Why the soul may not be used now (玄武's swap, 祝由's order), or None."""
    if soul.soul is Soul.LUOHAN:
        return SoulRefusal.LUOHAN_IS_AUTOMATIC
    if soul.soul is Soul.ZHUYOU and (turn_seat != soul.host or phase is not Phase.PLAY):
        return SoulRefusal.NOT_HOSTS_PLAY_PHASE
    return None


def gone(souls: Sequence[DarkSoul], soul: DarkSoul) -> list[DarkSoul]:
    """The souls once this one is used: it is gone."""
    return [s for s in souls if s != soul]


def host_died(souls: Sequence[DarkSoul], host: int) -> list[DarkSoul]:
    """The souls once `host` has died: those haunting him are gone unused."""
    return [s for s in souls if s.host != host]
