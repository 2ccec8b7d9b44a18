"""What each screen may know, as plain data for the templates.

`public_state` is the only input of anything sent to the table's group or shown on the display:
it never carries a living non-lord seat's identity, nor a hero candidate or an unrevealed pick.
`private_state` (companion.read.private) belongs to one seat's phone. A template cannot leak what
it was never given. History lines are in companion.read.history, deltas in companion.read.delta.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from django.utils import timezone

from companion import hooks
from companion.actions.damage import paused_chain
from companion.actions.inputs import seat_view, statuses
from companion.models import Handover, Seat, Table
from companion.read.history import HistoryLine, _events
from companion.read.modeview import ModeView, public_mode_view
from companion.rules import modes
from companion.rules.cards import corner_label, equipment_by_name, parse_suit
from companion.rules.distance import (
    SeatView,
    attacks_at,
    distance_matrix,
    seat_distance,
    trick_reaches_at,
)
from companion.rules.flow import peaches_needed, shown_hp
from companion.rules.identities import Identity
from companion.rules.judgement import Check, judge, replacer_may_act
from companion.rules.skills import Skill, has_skills, skills_for, skills_in_phase
from companion.rules.turns import PHASE_ORDER, draw_count, hand_limit, judgement_order
from companion.rules.victory import SeatStatus, Side
from companion.words.labels import place_label, seats_needed, side_label
from companion.words.names import HeroCard, table_hero_card


@dataclass(frozen=True)
class EquipmentView:
    slot: str
    name_zh: str
    name_en: str
    range: int | None


@dataclass(frozen=True)
class DistanceRow:
    """From one seat to another living seat: both distances and what reaches."""

    seat_id: int
    name: str
    to: int
    back: int
    attack: bool
    reach: bool


@dataclass(frozen=True)
class PublicSeat:
    id: int
    name: str
    position: int
    alive: bool
    is_host: bool
    # None unless everybody may see it: the lord, a dead seat, or any seat once the game is over.
    identity: str | None
    # The seat the mode makes known to all (the identity game's lord; `Mode.leader`).
    leader: bool = False
    # Set only once revealed: the lord's at once, everyone else's when all have picked.
    hero: HeroCard | None = None
    hp: int = 0
    max_hp: int = 0
    dying: bool = False
    killer_name: str = ""
    equipment: list[EquipmentView] = field(default_factory=list)
    zone: list[str] = field(default_factory=list)
    distances: list[DistanceRow] = field(default_factory=list)
    # 军争: chained by 铁索连环; the 酒 marker this turn ("", "active", "spent").
    chained: bool = False
    wine: str = ""
    # The marks the games on at the table put on the seat (companion.hooks.SeatMark).
    marks: tuple[hooks.SeatMark, ...] = ()
    # 3 vs 3: the seat's colour and place ("cold_vanguard_a"), named in place of
    # the identity; whether its card is turned sideways (it has acted in this go round).
    place: str = ""
    sideways: bool = False

    @property
    def role(self) -> str:
        """The seat's place in words, in the active language ("" outside 3 vs 3)."""
        return place_label(self.place) if self.place else ""

    @property
    def shown_hp(self) -> int:
        """HP as shown: never below 0."""
        return shown_hp(self.hp)

    @property
    def peaches(self) -> int:
        """The 桃 a dying hero needs to get back to 1 HP."""
        return peaches_needed(self.hp) if self.dying else 0


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
    # A mode's change to the first draw (1 vs 1: −1 for the side that moves first).
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


@dataclass(frozen=True)
class HandoverNotice:
    """A seat move the host asked for, waiting: every screen shows it."""

    seat_id: int
    name: str
    deadline_ms: int


@dataclass(frozen=True)
class ChainPause:
    """A chain paused (docs/rules.md §9.9): who it left dying, whether he still is, who is next."""

    dying_name: str
    waiting: bool
    rest_names: list[str]


@dataclass(frozen=True)
class PublicState:
    code: str
    status: str
    version: int
    locked: bool
    game_number: int
    options: dict[str, bool]
    seats: list[PublicSeat]
    history: list[HistoryLine]
    distribution: dict[str, int] = field(default_factory=dict)
    hero_stage: str = ""
    picked: int = 0
    pickers: int = 0
    winner: str = ""
    timeline: list[HistoryLine] = field(default_factory=list)
    turn: Turn | None = None
    pending: PendingJudgement | None = None
    matrix: list[list[int | None]] = field(default_factory=list)
    handovers: list[HandoverNotice] = field(default_factory=list)
    mode: str = modes.DEFAULT
    # 军争: a chain waiting for a seat it left dying to be saved or die.
    chain_pause: ChainPause | None = None
    # A mode's own state as every screen may see it (3 vs 3, 1 vs 1; None: the identity game).
    mode_view: ModeView | None = None
    # The games on and their public values, for their templates in the page's slots.
    games: hooks.Parts = hooks.NO_PARTS

    @property
    def seat_count(self) -> int:
        """How many seats are taken."""
        return len(self.seats)

    @property
    def can_deal(self) -> bool:
        """Whether the seats allow a deal."""
        return modes.get(self.mode).seats_allowed(len(self.seats)) and self.status in (
            "lobby",
            "dealt",
        )

    @property
    def seats_needed(self) -> str:
        """Why the deal waits, in the mode's words (4 to 10 players; exactly 6; exactly 2)."""
        return seats_needed(self.mode)

    @property
    def dying(self) -> list[PublicSeat]:
        """Seats in the dying state, waiting for rescue or death."""
        return [s for s in self.seats if s.alive and s.dying]

    @property
    def alive_seats(self) -> list[PublicSeat]:
        """Living seats in play order."""
        return [s for s in self.seats if s.alive]

    @property
    def matrix_seats(self) -> list[tuple[PublicSeat, list[int | None]]]:
        """The distance matrix, each row with the living seat it starts from."""
        return list(zip(self.alive_seats, self.matrix, strict=False))

    @property
    def phase_names(self) -> list[str]:
        """The six phases in order."""
        return [p.value for p in PHASE_ORDER]

    @property
    def timer_choices(self) -> tuple[int, ...]:
        """Turn timer lengths the host can choose (0: off)."""
        return (0, 30, 60, 90, 120, 180)

    @property
    def turn_seat_id(self) -> int | None:
        """The seat whose turn it is, if a game is in play."""
        return self.turn.seat_id if self.turn else None

    @property
    def leader_choosing(self) -> bool:
        """The mode's leader (the identity game's lord) is choosing a hero, before the others."""
        return self.hero_stage == Table.HeroStage.LEADER

    @property
    def winner_headline(self) -> str:
        """The end screen's words for the winning side, in this mode's words (3 vs 3: the
        colour and its players; 1 vs 1: the winner's name)."""
        names = [s.name for s in self.winners] if self.mode != modes.DEFAULT else []
        return side_label(self.winner, self.mode, names)

    @property
    def winners(self) -> list[PublicSeat]:
        """The winning seats once the game is over."""
        if not self.winner or any(not s.identity for s in self.seats):
            return []
        statuses = [SeatStatus(Identity(s.identity), s.alive) for s in self.seats]
        won = modes.get(self.mode).winners(statuses, Side(self.winner))
        return [self.seats[i] for i in won]


def _visible_identity(seat: Seat, table: Table) -> str | None:
    if not seat.identity:
        return None
    visible = modes.get(table.mode).identity_public(
        Identity(seat.identity),
        alive=seat.alive,
        game_over=table.status == Table.Status.FINISHED,
    )
    return seat.identity if visible else None


SLOT_ORDER = ("weapon", "armor", "plus_horse", "minus_horse")
LU_MENG = "WU003"  # 克己: may skip the discard phase


def _equipment(seat: Seat) -> list[EquipmentView]:
    views = []
    for slot in SLOT_ORDER:
        name = seat.equipment.get(slot)
        if not name:
            continue
        try:
            card = equipment_by_name(name, maneuvering=True)
        except KeyError:
            continue
        views.append(EquipmentView(slot, card.name_zh, card.name_en, card.range))
    return views


def _distances(seats: list[Seat]) -> tuple[dict[int, list[DistanceRow]], list[list[int | None]]]:
    """Every living seat's distance rows, and the matrix for the display (docs/rules.md §4)."""
    views = [seat_view(s) for s in seats]
    living = [i for i, s in enumerate(seats) if s.alive]
    rows: dict[int, list[DistanceRow]] = {}
    matrix: list[list[int | None]] = []
    if len(living) < 2:
        return rows, matrix
    # Each ordered pair's distance once: every screen's state is built on each change.
    distances = distance_matrix(views)
    for i in living:
        rows[seats[i].pk] = _distance_row(seats, views, living, i, distances)
        matrix.append([None if i == j else distances[(i, j)] for j in living])
    return rows, matrix


def distance_rows(seats: list[Seat], seat_ids: Collection[int]) -> dict[int, list[DistanceRow]]:
    """The distance rows of these living seats only, as `public_state` gives them: one seat's
    dialog works out the pairs it shows, not the whole matrix."""
    views = [seat_view(s) for s in seats]
    living = [i for i, s in enumerate(seats) if s.alive]
    if len(living) < 2:
        return {}
    wanted = [i for i in living if seats[i].pk in seat_ids]
    pairs = {p for i in wanted for j in living if i != j for p in ((i, j), (j, i))}
    distances = {(i, j): seat_distance(views, i, j) for i, j in pairs}
    return {seats[i].pk: _distance_row(seats, views, living, i, distances) for i in wanted}


def _distance_row(
    seats: list[Seat],
    views: list[SeatView],
    living: list[int],
    i: int,
    distances: Mapping[tuple[int, int], int],
) -> list[DistanceRow]:
    """From seat `i` to every other living seat: both distances and what reaches."""
    return [
        DistanceRow(
            seat_id=seats[j].pk,
            name=seats[j].name,
            to=distances[(i, j)],
            back=distances[(j, i)],
            attack=attacks_at(views[i], distances[(i, j)]),
            reach=trick_reaches_at(views[i], distances[(i, j)]),
        )
        for j in living
        if j != i
    ]


def _turn(table: Table, seats: list[Seat], dying: str | None = None) -> Turn | None:
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
    if table.round == 1:  # a mode's first draw phase (1 vs 1: the renegade side draws 1 fewer)
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


def _pending(table: Table, seats: list[Seat]) -> PendingJudgement | None:
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


def _public_seat(
    s: Seat, table: Table, names: dict[int, str], distances: list[DistanceRow]
) -> PublicSeat:
    return PublicSeat(
        id=s.pk,
        name=s.name,
        position=s.position,
        alive=s.alive,
        is_host=s.is_host,
        identity=_visible_identity(s, table),
        leader=bool(s.identity) and modes.get(table.mode).is_leader(Identity(s.identity)),
        hero=table_hero_card(s.hero, table),
        hp=s.hp,
        max_hp=s.max_hp,
        dying=s.dying,
        killer_name=names.get(s.killer_id, "") if s.killer_id else "",
        equipment=_equipment(s),
        zone=list(s.judgement_zone),
        distances=distances,
        chained=s.chained and s.alive,
        wine=s.wine if s.alive else "",
        marks=hooks.seat_marks(table, s),
    )


def build_public_seats(
    table: Table,
    seats: list[Seat],
    names: dict[int, str],
    rows: Mapping[int, list[DistanceRow]],
    view: ModeView | None,
    shown_ids: Collection[int] = (),
) -> list[PublicSeat]:
    """These seats as every screen sees them (`names`: every seat's, for a killer; `rows`: the
    distance rows by seat id; `view` of the whole table; `shown_ids`: the living seats whose
    identity a game shows, `hooks.identity_shown` over the whole table)."""
    public_seats = [_public_seat(s, table, names, rows.get(s.pk, [])) for s in seats]
    if shown_ids:
        # A game shows a living seat's identity (a reborn player's, public since his death).
        shown = {s.pk: s.identity for s in seats if s.pk in shown_ids}
        public_seats = [replace(p, identity=shown.get(p.id, p.identity)) for p in public_seats]
    return _mode_seats(public_seats, view)


def public_state(
    table: Table, seats: list[Seat] | None = None, *, history: bool = True, distances: bool = True
) -> PublicState:
    """The state everybody at the physical table may see (for a delta: without its history and
    the seat moves waiting when `history` is False, without the distances when `distances` is
    False)."""
    if seats is None:
        seats = list(table.seats.order_by("position", "slot"))
    names = {s.pk: s.name for s in seats}
    playing = table.status == Table.Status.PLAYING
    rows, matrix = _distances(seats) if playing and distances else ({}, [])
    view = public_mode_view(table, seats)
    shown = hooks.identity_shown(table, seats) if seats else set()
    public_seats = build_public_seats(table, seats, names, rows, view, shown)
    options = {
        **table.opts.stored(),
    }
    counts: dict[str, int] = {}
    mode = modes.get(table.mode)
    if table.status == Table.Status.LOBBY and mode.seats_allowed(len(seats)):
        counts = {k.value: v for k, v in mode.identity_counts(len(seats), table.opts).items()}
    # Those who choose a hero after the first chooser (the leader: the lord) does.
    leader = mode.leader(statuses(seats)) if seats and all(s.identity for s in seats) else None
    pickers = [s for i, s in enumerate(seats) if s.identity and i != leader]
    finished = table.status == Table.Status.FINISHED
    lines = _events(table, private_to__isnull=True) if history else []
    turn = _turn(table, seats) if playing else None
    return PublicState(
        mode=table.mode,
        code=table.code,
        status=table.status,
        version=table.version,
        locked=table.locked,
        game_number=table.game_number,
        options=options,
        seats=public_seats,
        history=lines,
        distribution=counts,
        hero_stage=table.hero_stage,
        picked=sum(1 for s in pickers if s.hero_pick)
        if table.hero_stage == Table.HeroStage.OTHERS
        else 0,
        pickers=len(pickers),
        winner=table.winner if finished else "",
        timeline=_events(table, limit=None, private_to__isnull=True, game_number=table.game_number)[
            ::-1
        ]
        if finished
        else [],
        turn=turn,
        pending=_pending(table, seats) if playing else None,
        matrix=matrix,
        handovers=_handovers(table, names) if history else [],
        chain_pause=_chain_pause(table, seats) if playing else None,
        mode_view=view,
        games=turn.games if turn is not None else hooks.public_parts(table, seats),
    )


def _mode_seats(seats: list[PublicSeat], view: ModeView | None) -> list[PublicSeat]:
    """The seats with their mode's place words and sideways cards (3 vs 3), else as they are."""
    if view is None or not (view.places or view.sideways):
        return seats
    return [
        replace(
            s,
            place=view.places.get(s.id, ""),
            sideways=s.id in view.sideways and s.alive,
        )
        for s in seats
    ]


def _chain_pause(table: Table, seats: list[Seat]) -> ChainPause | None:
    """军争: the chain waiting for the seat it left dying, if any."""
    pause = paused_chain(table)
    if pause is None:
        return None
    return ChainPause(
        dying_name=pause.get("dying_name", ""),
        waiting=any(s.alive and s.dying for s in seats),
        rest_names=list(pause.get("rest_names", [])),
    )


def _handovers(table: Table, names: dict[int, str]) -> list[HandoverNotice]:
    """The seat moves waiting for consent or for their delay to pass. A move whose delay is over,
    or whose seat no longer holds a secret (a dead player, a finished game), is decided: it
    happens when the new phone opens the link, and the table is no longer asked."""
    if table.status == Table.Status.FINISHED:
        return []
    rows = Handover.objects.filter(
        table_id=table.pk,
        state=Handover.State.PENDING,
        not_before__gt=timezone.now(),
        seat__alive=True,
    )
    return [
        HandoverNotice(seat_id, names.get(seat_id, ""), int(not_before.timestamp() * 1000))
        for seat_id, not_before in rows.order_by("pk").values_list("seat_id", "not_before")
    ]
