"""The turn bar as every screen sees it (`Turn`): whose turn, which round and phase, what the
phase asks; and a judgement waiting for 鬼才 (`PendingJudgement`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion import hooks
from companion.models import Seat, Table
from companion.queries.seats import statuses
from companion.rules import modes
from companion.rules.cards import corner_label, parse_suit
from companion.rules.judgement import Check, judge, replacer_may_act
from companion.rules.skills import Skill, has_skills, skills_for, skills_in_phase
from companion.rules.turns import PHASE_ORDER, draw_count, hand_limit, judgement_order


@dataclass(frozen=True)
class Turn:
    """Whose turn, which round and phase; what the phase asks of the table."""

    seat_id: int
    name: str
    round: int
    phase: str
    skips: list[str]
    phases: list[tuple[str, str]]
    draw: int
    hand_limit: int
    keji: bool
    skills: list[Skill]
    deadline_ms: int | None
    timer_seconds: int
    zone: list[str] = field(default_factory=list)
    # A judgement waiting for 鬼才: whose it is (the turn bar's button follows it).
    pending_seat: int | None = None
    # Who may still replace it (鬼才): the turn bar waits for them, nobody else confirms.
    pending_replacer: str = ""
    # Someone dying holds the turn up (docs/rules.md §6): the turn bar waits, naming them.
    dying_name: str = ""
    # The public values of the games on at the table, for their templates in
    # the turn bar's slot (a delta renders the turn bar alone).
    games: hooks.Parts = hooks.NO_PARTS
    # A mode's change to the first draw (−1 for the side that moves first, say).
    draw_change: int = 0


@dataclass(frozen=True)
class PendingJudgement:
    seat_id: int
    name: str
    check: str
    card: str
    red: bool
    outcome: str
    favourable: bool
    guicai_id: int | None
    guicai_name: str
    trick: str
    replaced: bool


LU_MENG = "WU003"  # 克己: may skip the discard phase


def turn_bar(table: Table, seats: list[Seat], dying: str | None = None) -> Turn | None:
    """The turn bar's state; `dying` names the seat that holds the turn up when `seats` is not
    every seat (otherwise it is found among them)."""
    holder = next((s for s in seats if s.pk == table.turn_seat_id), None)
    if holder is None or not table.phase:
        return None
    order = [p.value for p in PHASE_ORDER]
    current = order.index(table.phase) if table.phase in order else 0
    phases = []
    for i, phase in enumerate(order):
        if phase in table.phase_skips:
            state = "skipped"
        elif i < current:
            state = "done"
        elif i == current:
            state = "current"
        else:
            state = "upcoming"
        phases.append((phase, state))
    known = bool(holder.hero) and has_skills(holder.hero)
    skills = list(skills_in_phase(holder.hero, table.phase)) if known else []
    names = [skill.name_zh for skill in skills_for(holder.hero)] if known else []
    deadline = None
    if table.timer_seconds and table.turn_started_at:
        deadline = int(table.turn_started_at.timestamp() * 1000) + table.timer_seconds * 1000
    draw = draw_count(names)
    draw_change = 0
    if table.round == 1:  # a mode's first draw phase (the side that moves first may draw fewer)
        mode = modes.get(table.mode)
        draw_change = mode.first_draw_change(statuses(seats), seats.index(holder))
        draw += draw_change
    return Turn(
        seat_id=holder.pk,
        name=holder.name,
        round=table.round,
        phase=table.phase,
        skips=list(table.phase_skips),
        phases=phases,
        draw=draw,
        draw_change=draw_change,
        hand_limit=hand_limit(holder.hp),
        keji=holder.hero == LU_MENG,
        skills=skills,
        deadline_ms=deadline,
        timer_seconds=table.timer_seconds,
        zone=judgement_order(holder.judgement_zone),
        pending_seat=(table.pending_judgement or {}).get("seat"),
        pending_replacer=_replacer_name(table, seats),
        dying_name=(
            dying if dying is not None else next((s.name for s in seats if s.alive and s.dying), "")
        ),
        games=hooks.public_parts(table, seats),
    )


def _replacer_name(table: Table, seats: list[Seat]) -> str:
    """The name of the seat whose 鬼才 may still replace the waiting judgement card, or ""."""
    owner = (table.pending_judgement or {}).get("guicai")
    seat = next((s for s in seats if owner and s.pk == owner), None)
    return seat.name if seat is not None and replacer_may_act(seat.hero, seat.alive) else ""


def pending_judgement(table: Table, seats: list[Seat]) -> PendingJudgement | None:
    pending = table.pending_judgement
    if not pending:
        return None
    by_id = {s.pk: s for s in seats}
    seat = by_id.get(pending["seat"])
    suit = parse_suit(pending["suit"])
    verdict = judge(Check(pending["check"]), suit, pending["rank"])
    guicai = by_id.get(pending.get("guicai") or 0)
    if guicai is not None and not replacer_may_act(guicai.hero, guicai.alive):
        guicai = None
    return PendingJudgement(
        seat_id=pending["seat"],
        name=seat.name if seat else "",
        check=pending["check"],
        card=corner_label(suit, pending.get("rank")),
        red=suit.is_red,
        outcome=verdict.outcome,
        favourable=verdict.favourable,
        guicai_id=guicai.pk if guicai else None,
        guicai_name=guicai.name if guicai else "",
        trick=pending.get("trick", ""),
        replaced=bool(pending.get("replaced")),
    )
