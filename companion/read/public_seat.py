"""A seat as every screen sees it (`PublicSeat`): its identity only when the mode makes it
public, its hero, HP, equipment, judgement zone and distances to the other living seats."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from companion import hooks
from companion.models import Seat, Table
from companion.queries.seats import seat_view
from companion.read.modeview import ModeView
from companion.rules import modes
from companion.rules.cards import equipment_by_name, every_expansion
from companion.rules.distance import SeatView, attacks_at, seat_distance, trick_reaches_at
from companion.rules.flow import peaches_needed, shown_hp
from companion.rules.identities import Identity
from companion.words.labels import place_label
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
    # The Seat columns an expansion's package writes: chained by 铁索连环; the 酒 marker this
    # turn ("", "active", "spent").
    chained: bool = False
    wine: str = ""
    # The marks the games on at the table put on the seat (companion.hooks.SeatMark).
    marks: tuple[hooks.SeatMark, ...] = ()
    # A mode with places: the seat's side and place (`Mode.seat_place`), named in place of
    # the identity; whether its card is turned sideways (it has acted in this go round).
    place: str = ""
    sideways: bool = False

    @property
    def role(self) -> str:
        """The seat's place in words, in the active language ("" in a mode without places)."""
        return place_label(self.place) if self.place else ""

    @property
    def shown_hp(self) -> int:
        """HP as shown: never below 0."""
        return shown_hp(self.hp)

    @property
    def peaches(self) -> int:
        """The 桃 a dying hero needs to get back to 1 HP."""
        return peaches_needed(self.hp) if self.dying else 0


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


def _equipment(seat: Seat) -> list[EquipmentView]:
    views = []
    for slot in SLOT_ORDER:
        name = seat.equipment.get(slot)
        if not name:
            continue
        try:
            card = equipment_by_name(name, **every_expansion())
        except KeyError:
            continue
        views.append(EquipmentView(slot, card.name_zh, card.name_en, card.range))
    return views


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
    return {seats[i].pk: distance_row(seats, views, living, i, distances) for i in wanted}


def distance_row(
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


def public_seat(
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
    public_seats = [public_seat(s, table, names, rows.get(s.pk, [])) for s in seats]
    if shown_ids:
        # A game shows a living seat's identity (a reborn player's, public since his death).
        shown = {s.pk: s.identity for s in seats if s.pk in shown_ids}
        public_seats = [replace(p, identity=shown.get(p.id, p.identity)) for p in public_seats]
    return _mode_seats(public_seats, view)


def _mode_seats(seats: list[PublicSeat], view: ModeView | None) -> list[PublicSeat]:
    """The seats with their mode's place words and sideways cards, if any, else as they are."""
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
