"""What each screen may know, as plain data for the templates.

`public_state` is the only input of anything sent to the table's group or shown on the display:
it never carries a living non-lord seat's identity, nor a hero candidate or an unrevealed pick.
`private_state` (companion.read.private) belongs to one seat's phone. A template cannot leak what
it was never given. History lines are in companion.read.history, deltas in companion.read.delta;
a seat as every screen sees it in companion.read.public_seat, the turn bar in companion.read.turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from companion import hooks
from companion.models import Handover, Seat, Table
from companion.queries.seats import seat_view, statuses, table_seats
from companion.read.history import HistoryLine, history_lines
from companion.read.modeview import ModeView, public_mode_view
from companion.read.public_seat import (
    DistanceRow,
    EquipmentView,
    PublicSeat,
    build_public_seats,
    distance_row,
    distance_rows,
)
from companion.read.turn import PendingJudgement, Turn, pending_judgement, turn_bar
from companion.rules import modes
from companion.rules.distance import distance_matrix
from companion.rules.identities import Identity
from companion.rules.turns import PHASE_ORDER
from companion.rules.victory import SeatStatus, Side
from companion.words.labels import seats_needed, side_label

__all__ = [
    "DistanceRow",
    "EquipmentView",
    "HandoverNotice",
    "PendingJudgement",
    "PublicSeat",
    "PublicState",
    "Turn",
    "build_public_seats",
    "distance_rows",
    "public_state",
]


@dataclass(frozen=True)
class HandoverNotice:
    """A seat move the host asked for, waiting: every screen shows it."""

    seat_id: int
    name: str
    deadline_ms: int


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
    # A mode's own state as every screen may see it (None: the identity game).
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
        """The end screen's words for the winning side, in this mode's words (a side and its
        players, or the winner's name)."""
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
        rows[seats[i].pk] = distance_row(seats, views, living, i, distances)
        matrix.append([None if i == j else distances[(i, j)] for j in living])
    return rows, matrix


def public_state(
    table: Table, seats: list[Seat] | None = None, *, history: bool = True, distances: bool = True
) -> PublicState:
    """The state everybody at the physical table may see (for a delta: without its history and
    the seat moves waiting when `history` is False, without the distances when `distances` is
    False)."""
    if seats is None:
        seats = table_seats(table)
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
    lines = history_lines(table) if history else []
    turn = turn_bar(table, seats) if playing else None
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
        timeline=history_lines(table, limit=None, game_number=table.game_number)[::-1]
        if finished
        else [],
        turn=turn,
        pending=pending_judgement(table, seats) if playing else None,
        matrix=matrix,
        handovers=_handovers(table, names) if history else [],
        mode_view=view,
        games=turn.games if turn is not None else hooks.public_parts(table, seats),
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
