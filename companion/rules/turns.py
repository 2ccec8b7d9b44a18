"""Turn order, phases, judgement-zone order and lightning movement (docs/rules.md §3)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from enum import StrEnum

from companion.rules.judgement import Verdict

LIGHTNING = "闪电"


class Phase(StrEnum):
    """The six phases of a turn."""

    START = "start"
    JUDGEMENT = "judgement"
    DRAW = "draw"
    PLAY = "play"
    DISCARD = "discard"
    END = "end"


PHASE_ORDER: tuple[Phase, ...] = (
    Phase.START,
    Phase.JUDGEMENT,
    Phase.DRAW,
    Phase.PLAY,
    Phase.DISCARD,
    Phase.END,
)

BASE_DRAW = 2

# Judgement next_step codes that make the judged player skip a phase this turn.
_SKIPPING_STEPS: dict[str, Phase] = {
    "skip_play_phase": Phase.PLAY,
    "skip_draw_phase": Phase.DRAW,
}


def next_phase(phase: Phase) -> Phase | None:
    """The phase after this one, or None after the end phase."""
    position = PHASE_ORDER.index(Phase(phase))
    return PHASE_ORDER[position + 1] if position + 1 < len(PHASE_ORDER) else None


def _check_seat(count: int, index: int) -> None:
    """Raise ValueError unless index is a seat position."""
    if not 0 <= index < count:
        raise ValueError(f"seat {index} out of range 0..{count - 1}")


def next_living_seat(alive: Sequence[bool], current: int) -> int:
    """The next alive seat after current in seat order; current itself may be dead.

    Raises ValueError when no seat other than current is alive: with one survivor the
    game is always over (docs/rules.md §7), so there is no next turn.
    """
    _check_seat(len(alive), current)
    count = len(alive)
    for step in range(1, count):
        seat = (current + step) % count
        if alive[seat]:
            return seat
    raise ValueError("no other seat is alive")


def first_seat(lord_index: int) -> int:
    """The seat that takes the first turn: play starts with the lord."""
    if lord_index < 0:
        raise ValueError(f"seat {lord_index} out of range")
    return lord_index


def judgement_order(zone: Sequence[str]) -> list[str]:
    """Delayed tricks in resolving order, given the zone in placement order."""
    # Official wording (000/002): 从最后一个施加给你的锦囊开始判定（最早放置的最后判定）.
    return list(reversed(zone))


def can_place_delayed_trick(zone: Sequence[str], name: str) -> bool:
    """Whether a delayed trick of this name may enter the zone (no two of one name)."""
    return name not in zone


def lightning_destination(
    alive: Sequence[bool], zones: Sequence[Sequence[str]], current: int
) -> int | None:
    """Seat that receives a lightning leaving current's zone, or None if it stays put.

    The lightning goes to the next alive seat whose zone holds no 闪电. When every other
    alive seat already holds one, nobody can take it and it stays in current's zone.
    """
    if len(alive) != len(zones):
        raise ValueError("alive and zones must have one entry per seat")
    _check_seat(len(alive), current)
    if not alive[current]:
        raise ValueError(f"seat {current} is dead and holds no lightning")
    count = len(alive)
    # 000 闪电: "否则，将闪电传给右边的玩家" (001: "移动至下家的判定区里"); 000/002 出牌阶段:
    # "任何一个玩家面前的判定区或装备区里不能放有两张同名的牌". A seat already holding a 闪电
    # cannot take a second one, so it passes on to the next. No seed covers the case where
    # nobody can take it; it then stays where it is (as in FreeKill), judged again next turn.
    for step in range(1, count):
        seat = (current + step) % count
        if alive[seat] and can_place_delayed_trick(zones[seat], LIGHTNING):
            return seat
    return None


def draw_count(skills_zh: Collection[str]) -> int:
    """Cards drawn in the draw phase: 2, plus 1 for 英姿."""
    # 英姿 (周瑜) draws one more; 裸衣 and 突袭 are choices made at the table, not counted.
    return BASE_DRAW + (1 if "英姿" in skills_zh else 0)


def hand_limit(hp: int) -> int:
    """Cards kept after the discard phase: current HP, never below 0."""
    return max(hp, 0)


def skips_from_verdicts(verdicts: Iterable[Verdict | str]) -> frozenset[Phase]:
    """Phases skipped this turn given the judgement verdicts (or their next_step codes)."""
    skipped: set[Phase] = set()
    for verdict in verdicts:
        step = verdict.next_step if isinstance(verdict, Verdict) else verdict
        if step in _SKIPPING_STEPS:
            skipped.add(_SKIPPING_STEPS[step])
    return frozenset(skipped)
