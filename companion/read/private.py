"""What only one seat's phone may see: its identity, its hero candidates and pick, its own HP
tracker, its private events and the panels the apps above the core show it (companion.panels).
`private_hp` is the HP tracker alone, for a delta."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from companion import hooks, panels
from companion.models import Seat, Table
from companion.panels import Panel
from companion.read.history import HistoryLine, history_lines
from companion.read.modeview import ModeView, private_mode_view
from companion.rules import modes
from companion.rules.flow import peaches_needed, shown_hp
from companion.rules.identities import Identity
from companion.words.names import HeroCard, table_hero_card


@dataclass(frozen=True)
class PrivateState:
    seat_id: int
    name: str
    identity: str | None
    is_host: bool
    alive: bool
    version: int
    history: list[HistoryLine]
    status: str = ""
    candidates: list[HeroCard] = field(default_factory=list)
    pick: str = ""
    hero: HeroCard | None = None
    hp: int = 0
    max_hp: int = 0
    dying: bool = False
    # The seat the mode makes known to all (the identity game's lord): its card is open.
    leader: bool = False
    # The leader has chosen a hero and waits for the others.
    leader_waiting: bool = False
    # A mode's own state as this seat may see it (its side's draft and placement).
    mode_view: ModeView | None = None
    # The role this seat plays where the mode's seats are not the identity game's (`Mode.role`:
    # "warm_commander", "first_player"); its card is open and named so.
    role: str = ""

    @property
    def shown_hp(self) -> int:
        """HP as shown: never below 0."""
        return shown_hp(self.hp)

    @property
    def peaches(self) -> int:
        """The 桃 a dying hero needs to get back to 1 HP."""
        return peaches_needed(self.hp) if self.dying else 0

    # The games on at the table and their values for this phone (their taps), for their
    # templates in the page's slots.
    games: hooks.Parts = hooks.NO_PARTS
    # What the apps above the core show on this phone alone (companion.panels).
    panels: tuple[Panel, ...] = ()


def private_hp(seat: Seat, table: Table) -> PrivateState:
    """Just what the seat's own HP tracker shows (no queries); `private_state` adds the rest."""
    return PrivateState(
        seat_id=seat.pk,
        name=seat.name,
        identity=None,
        is_host=seat.is_host,
        alive=seat.alive,
        version=table.version,
        history=[],
        status=table.status,
        candidates=[],
        pick="",
        hero=None,
        hp=seat.hp,
        max_hp=seat.max_hp,
        dying=seat.dying,
        leader_waiting=False,
    )


def private_state(
    seat: Seat,
    seats: list[Seat] | None = None,
    shown: Mapping[int, tuple[Panel, ...]] | None = None,
) -> PrivateState:
    """What only this seat's phone may see (`seats`: the table's seats in seat order, when the
    caller has them: a change's frames share one list between the phones they redraw; `shown`:
    the apps' panels of those phones, `panels.for_seats`, asked once for them all; None: asked
    for this phone alone)."""
    table = seat.table
    if shown is None:
        shown = panels.for_seats(table, (seat.pk,))
    picking = table.status == Table.Status.HEROES
    own_hero = seat.hero or (seat.hero_pick if picking else "")
    return replace(
        private_hp(seat, table),
        identity=seat.identity or None,
        history=history_lines(table, private_to=seat),
        candidates=[c for c in (table_hero_card(h, table) for h in seat.hero_candidates) if c]
        if picking and not seat.hero
        else [],
        pick=seat.hero_pick if picking else "",
        hero=table_hero_card(own_hero, table),
        leader=bool(seat.identity) and modes.get(table.mode).is_leader(Identity(seat.identity)),
        leader_waiting=picking and bool(seat.hero) and table.hero_stage == Table.HeroStage.OTHERS,
        mode_view=private_mode_view(seat),
        role=(modes.get(table.mode).role(Identity(seat.identity)) or "") if seat.identity else "",
        games=hooks.private_parts(table, seat, seats),
        panels=shown.get(seat.pk, ()),
    )
