"""The flow of a game between taps: passing the turn, ending a turn in one go, what blocks the
next phase, HP loss against damage, 救援, the lord's penalty and what an undo may restore.

Plain Python over ints, strings and the Phase enum (docs/rules.md §3, §6 and the hero cards).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.rules.identities import Identity
from companion.rules.turns import PHASE_ORDER, Phase, next_living_seat
from companion.rules.victory import LORD_DISCARDS_ALL, death_consequence

# 孙权 (WU001), the lord hero whose 救援 makes a Wu hero's 桃 heal one more.
SUN_QUAN = "WU001"
WU = "wu"
PEACH_HEAL = 1
JIUYUAN_BONUS = 1

# Skills printed "当你受到伤害后…" (companion/data/hero_skills.json): they trigger on damage,
# never on HP loss (失去体力). The value says whether the skill needs a damage source to act on.
DAMAGE_SKILLS: dict[str, bool] = {
    "jianxiong": False,  # 奸雄 曹操: takes the card that dealt the damage
    "fankui": True,  # 反馈 司马懿: takes a card from the source
    "ganglie": True,  # 刚烈 夏侯惇: judges; the source discards 2 or takes 1
    "yiji": False,  # 遗计 郭嘉: draws 2 per point of damage
}


class TurnBlocked(ValueError):
    """The turn cannot move on now; `code` says why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


DYING = "dying"
PENDING = "pending"
TRICKS_LEFT = "tricks_left"


@dataclass(frozen=True)
class TurnPass:
    """Where the turn goes: the seat index, and whether a new round starts there."""

    seat: int
    new_round: bool


def pass_turn(alive: Sequence[bool], current: int, lord: int) -> TurnPass:
    """The turn after `current` (alive or just dead): the next living seat; a round starts when
    play comes back to the lord (docs/rules.md §3). ValueError when nobody else is alive."""
    seat = next_living_seat(alive, current)
    return TurnPass(seat=seat, new_round=seat == lord)


def turn_after_death(alive: Sequence[bool], current: int, dead: int, lord: int) -> TurnPass | None:
    """When `dead` has just died (alive[dead] already False): the turn passes at once if it was
    theirs, to the next living seat, from its start phase; otherwise it stays (None)."""
    if dead != current:
        return None
    if alive[dead]:
        raise ValueError(f"seat {dead} is still alive")
    return pass_turn(alive, current, lord)


def advance_blocker(*, someone_dying: bool, judgement_pending: bool) -> str | None:
    """Why neither Next phase nor End turn may be taken now, or None.

    A dying player is saved or dies before anything else happens (docs/rules.md §6), and a flipped
    judgement takes effect first (鬼才 may still replace it, docs/rules.md §5).
    """
    if someone_dying:
        return DYING
    if judgement_pending:
        return PENDING
    return None


def has_nothing_to_do(phase: Phase, zone: Sequence[str]) -> bool:
    """Whether the app has nothing to ask in this phase: judgement with an empty zone. The
    other phases are played with the real cards (the app only reminds), so an end of turn
    passes them; the start phase is where the turn already is."""
    return Phase(phase) is Phase.JUDGEMENT and not zone


def end_turn_route(phase: Phase, skips: Collection[str], zone: Sequence[str]) -> list[Phase]:
    """The phases one "End turn" goes through after `phase`, up to and including the end phase
    (phases skipped this turn left out). Raises TurnBlocked(TRICKS_LEFT) while delayed tricks
    wait in the judgement zone to be judged (the judgement phase is now or still to come)."""
    position = PHASE_ORDER.index(Phase(phase))
    judgement_ahead = position <= PHASE_ORDER.index(Phase.JUDGEMENT)
    if judgement_ahead and zone and Phase.JUDGEMENT.value not in skips:
        raise TurnBlocked(TRICKS_LEFT)
    return [p for p in PHASE_ORDER[position + 1 :] if p.value not in skips]


# HP: damage and loss ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HpResult:
    """HP after a change, whether the hero is now dying, and who would be the killer."""

    hp: int
    dying: bool
    source: int | None


def lose_hp(hp: int, amount: int, *, dying: bool, source: int | None) -> HpResult:
    """失去体力: HP goes down by `amount` with no source. Entering dying this way names no
    killer (nobody is rewarded, docs/rules.md §6); a player dying already keeps the source they
    had."""
    if amount <= 0:
        raise ValueError("HP loss is a positive amount")
    after = hp - amount
    now_dying = dying or after <= 0
    return HpResult(hp=after, dying=now_dying, source=source if dying else None)


def damage_skills(skill_ids: Iterable[str], *, has_source: bool) -> list[str]:
    """The damaged hero's skills that may trigger on this damage (in card order): those that
    act on the source need one. HP loss is not damage and triggers none of them."""
    return [s for s in skill_ids if s in DAMAGE_SKILLS and (has_source or not DAMAGE_SKILLS[s])]


def peach_heal(
    *,
    receiver_hero: str,
    receiver_is_lord: bool,
    giver_hero: str,
    giver_kingdom: str,
    receiver_dying: bool = True,
) -> int:
    """HP a 桃 restores: 1, or 2 with 救援 (孙权 as the lord, dying, given a 桃 by another Wu
    hero). The card: "主公技，锁定技，当你处于濒死状态时，其他吴势力角色对你使用的每张【桃】
    令你额外回复1点体力"."""
    jiuyuan = (
        receiver_hero == SUN_QUAN
        and receiver_is_lord
        and receiver_dying
        and giver_kingdom == WU
        and giver_hero != receiver_hero
    )
    return PEACH_HEAL + (JIUYUAN_BONUS if jiuyuan else 0)


def capped_recovery(hp: int, max_hp: int, amount: int) -> int:
    """HP after recovering `amount`, never above max HP."""
    return min(max_hp, hp + amount)


def shown_hp(hp: int) -> int:
    """HP as screens show it: never below 0. HP may fall below 0 (3 damage at 1 HP leaves -2),
    which only counts in the 桃 needed; a dead hero shows no HP at all."""
    return max(0, hp)


def peaches_needed(hp: int) -> int:
    """How many 桃 (1 HP each) bring a dying hero back to 1 HP (docs/rules.md §6): 1 - HP, 0 above
    0."""
    return max(0, 1 - hp)


# Death ------------------------------------------------------------------------------------------


def equipment_discarded_by_killer(*, victim: Identity, killer: Identity | None) -> bool:
    """Whether the killer loses all equipment: a lord who kills a loyalist (docs/rules.md §6)."""
    return death_consequence(victim=victim, killer=killer) == LORD_DISCARDS_ALL


def restore_equipment(current: Mapping[str, str], discarded: Mapping[str, str]) -> dict[str, str]:
    """Equipment after an undone discard: the discarded cards back in slots still empty."""
    restored = dict(current)
    for slot, card in discarded.items():
        restored.setdefault(slot, card)
    return restored


# Undo -------------------------------------------------------------------------------------------


def undo_equip(
    current: Mapping[str, str], slot: str, card: str, replaced: str
) -> dict[str, str] | None:
    """Equipment after undoing "`card` equipped in `slot` (replacing `replaced`)", or None when
    the slot no longer holds that card (changed since: undoing would lose the newer change)."""
    if current.get(slot) != card:
        return None
    restored = dict(current)
    if replaced:
        restored[slot] = replaced
    else:
        del restored[slot]
    return restored


def undo_unequip(current: Mapping[str, str], slot: str, card: str) -> dict[str, str] | None:
    """Equipment after undoing "`card` removed from `slot`", or None when the slot is taken."""
    if current.get(slot):
        return None
    return {**current, slot: card}


def undo_zone(
    current: Sequence[str], before: Sequence[str], after: Sequence[str]
) -> list[str] | None:
    """A judgement zone after undoing a delayed trick placed or removed: back to `before` while
    it is still as the change left it (`after`); None when it changed since."""
    if list(current) != list(after):
        return None
    return list(before)


def undo_turn_allowed(current: Mapping[str, object], after: Mapping[str, object]) -> bool:
    """A phase or turn change may be undone only while the table is still where it left it."""
    return all(current.get(key) == after.get(key) for key in ("seat", "phase", "round"))
