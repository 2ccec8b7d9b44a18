"""What only one seat's phone may see: its identity, its hero candidates and pick, its own HP
tracker and its private events. `private_hp` is the HP tracker alone, for a delta."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.html import conditional_escape

from companion import hooks
from companion.models import Seat, Table
from companion.read.history import HistoryLine, _events
from companion.read.modeview import ModeView, private_mode_view
from companion.rules import modes
from companion.rules.flow import peaches_needed, shown_hp
from companion.rules.identities import Identity
from companion.rules.variants import house
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
    maneuvering: bool = False
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

    # Rebels know each other (docs/rules.md §9.6): the other rebels this phone shows (names,
    # in seat order; a rebel's with the option on, nobody else's), and the names the slot is
    # padded to: the table's longest, one fewer than its rebels, the same for every seat with
    # the option on or off, so no phone's size tells who is a rebel (secret_tags.secret_fellows).
    fellows: tuple[str, ...] = ()
    fellows_pad: tuple[str, ...] = ()
    # The lord starts with five cards: the cards this phone says to draw at the
    # start (0: nothing said; only the lord's with the house rule on, the lord being public).
    start_cards: int = 0
    # The games on at the table and their values for this phone (their taps), for their
    # templates in the page's slots.
    games: hooks.Parts = hooks.NO_PARTS


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
        maneuvering=table.opts.maneuvering,
        leader_waiting=False,
    )


def private_state(seat: Seat) -> PrivateState:
    """What only this seat's phone may see."""
    table = seat.table
    picking = table.status == Table.Status.HEROES
    own_hero = seat.hero or (seat.hero_pick if picking else "")
    return replace(
        private_hp(seat, table),
        identity=seat.identity or None,
        history=_events(table, private_to=seat),
        candidates=[c for c in (table_hero_card(h, table) for h in seat.hero_candidates) if c]
        if picking and not seat.hero
        else [],
        pick=seat.hero_pick if picking else "",
        hero=table_hero_card(own_hero, table),
        leader=bool(seat.identity) and modes.get(table.mode).is_leader(Identity(seat.identity)),
        leader_waiting=picking and bool(seat.hero) and table.hero_stage == Table.HeroStage.OTHERS,
        mode_view=private_mode_view(seat),
        role=(modes.get(table.mode).role(Identity(seat.identity)) or "") if seat.identity else "",
        **_house_rules(seat, table),
        games=hooks.private_parts(table, seat),
    )


def _house_rules(seat: Seat, table: Table) -> dict[str, Any]:
    """What 003's house rules add to this seat's phone (docs/variants.md)."""
    if not seat.identity:
        return {}
    mode = modes.get(table.mode)
    opts = table.opts
    rows = list(
        table.seats.order_by("position", "slot").values_list("pk", "name", "identity", "alive")
    )
    found: dict[str, Any] = {}
    try:
        rebels = mode.identity_counts(len(rows), opts).get(Identity.REBEL, 0)
    except (NotImplementedError, KeyError, ValueError):
        rebels = 0
    if rebels > 1:
        names = [r[1] for r in rows]
        longest = sorted(names, key=lambda n: -len(str(conditional_escape(n)).encode()))
        found["fellows_pad"] = tuple(longest[: rebels - 1])
    if getattr(opts, "rebels_know_each_other", False) and all(r[2] for r in rows):
        me = next(i for i, r in enumerate(rows) if r[0] == seat.pk)
        known = house.known_identities(
            [Identity(r[2]) for r in rows],
            alive=[r[3] for r in rows],
            game_over=table.status == Table.Status.FINISHED,
            rebels_know_each_other=True,
        )[me]
        if rows[me][2] == Identity.REBEL:
            found["fellows"] = tuple(
                rows[i][1]
                for i, ident in sorted(known.items())
                if i != me and ident == Identity.REBEL
            )
    starting = getattr(mode, "starting_cards", None)
    at_start = table.status in (Table.Status.DEALT, Table.Status.HEROES) or (
        table.status == Table.Status.PLAYING and table.round <= 1
    )
    if starting is not None and at_start and getattr(opts, "lord_five_cards", False):
        if seat.identity == Identity.LORD:
            found["start_cards"] = starting(Identity(seat.identity), opts)
    return found
