"""A change sent as a delta on top of the previous version: the touched seats,
the new history line, and the parts of the public state the change needs."""

from __future__ import annotations

from dataclasses import dataclass

from companion.models import Seat, Table
from companion.read.history import HISTORY_LENGTH, HistoryLine
from companion.read.public_seat import PublicSeat, public_seat
from companion.read.state import PublicState, public_state
from companion.read.turn import Turn, turn_bar


@dataclass(frozen=True)
class TableDelta:
    """A change on top of the previous version (what changed is what travels):
    the touched seats' places in the ring, the new history line, the turn bar when a touched
    seat has the turn (its hand limit is its HP) or the turn moved, and, as the change needs
    them, the now strip with the dying banners and the distance table (from `state`)."""

    version: int
    base: int
    seats: list[tuple[PublicSeat, int]]
    line: HistoryLine
    turn: Turn | None
    # The seat whose own HP tracker rides along: HP is public, and the tracker shows only what
    # every screen sees of the seat; only the phone of that seat puts it in place.
    me: PublicSeat | None = None
    # The public state without its history, when the strip, the banners or the distances come.
    state: PublicState | None = None
    parts: frozenset[str] = frozenset()
    keep: int = HISTORY_LENGTH
    # A change of several seats' HP (a damage along a chain): each touched seat's
    # tracker, marked with its seat; each phone puts its own in place.
    mine: tuple[PublicSeat, ...] = ()
    # Whether a game is being played: the trackers' − and + only then.
    playing: bool = True

    @property
    def turn_seat_id(self) -> int | None:
        """The seat whose turn it is, if this delta carries the turn bar."""
        return self.turn.seat_id if self.turn else None


# The parts of a delta that need every seat (and so the public state without its history).
WHOLE_TABLE_PARTS = frozenset({"strip", "distances", "turn"})


def _dying_name(table: Table, touched: list[Seat]) -> str:
    """Who is dying (the turn bar waits for them), when only some seats were read."""
    here = next((s.name for s in touched if s.alive and s.dying), None)
    if here is not None:
        return here
    others = Seat.objects.filter(table=table, alive=True, dying=True).exclude(
        pk__in=[s.pk for s in touched]
    )
    return others.values_list("name", flat=True).order_by("position").first() or ""


def table_delta(
    table: Table,
    touched: list[Seat],
    line: HistoryLine,
    *,
    parts: frozenset[str] = frozenset(),
    seats: list[Seat] | None = None,
) -> TableDelta:
    """The public delta of a change that touched only these seats and `parts` (see broadcast).

    `seats` (every seat of the table, in play order) is needed when a part names the whole
    table; without it only the touched seats are read. Seats' positions are kept contiguous
    from 0 in play order, so a seat's place in the ring is its position.
    """
    state = None
    if parts & WHOLE_TABLE_PARTS:
        assert seats is not None
        by_id = {s.pk: s for s in touched}
        seats = [by_id.get(s.pk, s) for s in seats]
        state = public_state(table, seats, history=False, distances="distances" in parts)
        public = {p.id: p for p in state.seats}
        shown = [(public[s.pk], s.position) for s in touched]
        holds = any(s.pk == table.turn_seat_id for s in touched)
        # Dying begins or ends ("strip"): the turn bar waits for it, or stops waiting.
        turn = state.turn if "turn" in parts or "strip" in parts or holds else None
    else:
        names = {s.pk: s.name for s in touched}
        shown = [(public_seat(s, table, names, []), s.position) for s in touched]
        holder = [s for s in touched if s.pk == table.turn_seat_id]
        turn = turn_bar(table, holder, _dying_name(table, touched)) if holder else None
    trackers = "hp" in parts
    return TableDelta(
        version=table.version,
        base=table.version - 1,
        seats=shown,
        line=line,
        turn=turn,
        me=shown[0][0] if trackers and len(shown) == 1 else None,
        state=state,
        parts=parts,
        mine=tuple(seat for seat, _place in shown) if trackers and len(shown) > 1 else (),
        playing=table.status == Table.Status.PLAYING,
    )
