"""One seat as every screen sees it, for the dialog a tap on a seat opens: the seat built by
`public_state`'s own per-seat builder (companion.read.public_seat), without the rest of the
table's state (the other seats' views, the distance matrix, the history, the turn bar). The
dialog asks on every tap of the "−" button; the whole state is for the pages and the
broadcast."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion import hooks
from companion.models import Event, Seat, Table
from companion.read.history import HistoryLine
from companion.read.modeview import public_mode_view
from companion.read.public_seat import DistanceRow, PublicSeat, build_public_seats, distance_rows

# The kinds a seat's HP history lists: its HP changes, its death and their undos, and the games'
# own (`hooks.hp_kinds`: a resolved damage), on the seat they name.
HP_KINDS = ("damage", "lose_hp", "recover", "max_hp", "rescue", "died", "undo")


@dataclass(frozen=True)
class SeatName:
    """A living seat the dialog names (a damage's source, a 桃's giver)."""

    id: int
    name: str


@dataclass(frozen=True)
class SeatDialogView:
    """What one seat's dialog shows and decides with: the seat (equal to its `public_state`
    seat), the living seats in play order, the asker's own distance rows (for what the asker's
    cards reach) and the parts of the games on at the table (their notes in the dialog's
    slots, `hooks.public_parts`)."""

    seat: PublicSeat
    alive: list[SeatName]
    asker_rows: list[DistanceRow] = field(default_factory=list)
    games: Any = None

    @property
    def asker_reaches(self) -> bool:
        """Whether the asker's trick reach (顺手牵羊, 兵粮寸断) takes in this seat."""
        return any(r.reach for r in self.asker_rows if r.seat_id == self.seat.id)


def seat_dialog_view(
    table: Table, seat_id: int, *, asker_id: int | None = None
) -> SeatDialogView | None:
    """Seat `seat_id` as `public_state(table)` shows it, with the distance rows of `asker_id`'s
    seat (None: a host's console or the display); None when the table has no such seat."""
    seats: list[Seat] = list(table.seats.order_by("position", "slot"))
    target = next((s for s in seats if s.pk == seat_id), None)
    if target is None:
        return None
    names = {s.pk: s.name for s in seats}
    wanted = {seat_id} if asker_id is None else {seat_id, asker_id}
    rows = distance_rows(seats, wanted) if table.status == Table.Status.PLAYING else {}
    view = public_mode_view(table, seats)
    shown = hooks.identity_shown(table, seats)
    (seat,) = build_public_seats(table, [target], names, rows, view, shown)
    return SeatDialogView(
        seat=seat,
        alive=[SeatName(s.pk, s.name) for s in seats if s.alive],
        asker_rows=rows.get(asker_id, []) if asker_id is not None else [],
        games=hooks.public_parts(table, seats),
    )


def hp_history(table: Table, seat_id: int) -> list[HistoryLine]:
    """This game's public HP changes of one seat, the latest first (undone ones marked)."""
    rows = (
        Event.objects.filter(
            table=table,
            subject_seat_id=seat_id,
            private_to__isnull=True,
            kind__in=(*HP_KINDS, *sorted(hooks.hp_kinds())),
            game_number=table.game_number,
        )
        .order_by("-version")
        .values("kind", "public", "version", "game_number", "undone_by")
    )
    return [
        HistoryLine(
            e["kind"], e["public"], e["version"], e["game_number"], e["undone_by"] is not None
        )
        for e in rows
    ]
