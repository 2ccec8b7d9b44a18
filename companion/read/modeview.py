"""What a screen may see of a mode's own state (docs/modes.md): the teams, the
draft board, the placements, the go, the places at the table, the fallen heroes.

`Table.mode_state` holds secrets (a side's placement before both have placed, a face-down
hero in the pool, an order beyond the heroes in play). It is never handed to a template
whole: `public_mode_view` is what every screen may see, `private_mode_view` what one seat's phone
may see (its own side's); the draft's part is the drafted mode's game's (`hooks.Game.mode_view`:
the draft kit's views for no viewer, or for the phone's side). The identity game has no mode
view (None).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion import hooks
from companion.models import Seat, Table
from companion.queries.seats import statuses
from companion.rules import modes
from companion.rules.directions import (
    AMAZING_GRACE,
    ARROW_BARRAGE,
    PEACH_GARDEN,
    SAVAGE_ASSAULT,
    area_order,
)
from companion.rules.identities import Identity
from companion.words.names import HeroCard, table_hero_card


@dataclass(frozen=True)
class PoolCardView:
    """One hero of the draft pool as this screen sees it (hero None: face down to it)."""

    position: int
    hero: HeroCard | None
    taken_by: str | None
    face_down: bool


@dataclass(frozen=True)
class Question:
    """What the mode's flow waits on: who answers, the question (a code), the answers."""

    seat_id: int
    name: str
    question: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class OrderHero:
    """One hero of a seat's order (several heroes a seat): None while it is face down to this
    screen; `state` is "fell", "in_play" or "to_come"."""

    hero: HeroCard | None
    state: str


@dataclass(frozen=True)
class OrderLine:
    """A player's order of heroes once revealed, as this screen sees it: every screen sees the
    heroes revealed so far and how many are still to come; his own phone sees them all."""

    seat_id: int
    name: str
    heroes: list[OrderHero]
    to_come: int
    own: bool


@dataclass(frozen=True)
class AreaWay:
    """One way an area trick may go round: the direction and its targets' names in order."""

    direction: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class AreaTrick:
    """An area trick as the helper shows it to its user: each way it may go
    (`Mode.trick_directions`)."""

    name: str
    ways: tuple[AreaWay, ...]


@dataclass(frozen=True)
class ModeView:
    key: str
    sides: tuple[str, ...] = ()
    # A lobby with teams (`Mode.team_size`): each team's seat ids, and its commander's (None:
    # none yet); the mode's game gives them.
    teams: list[list[int]] = field(default_factory=list)
    commanders: list[int | None] = field(default_factory=list)
    team_size: int = 0
    # The draft: the pool, who picks first, whose pick and how many it still takes, what each
    # side holds (None: a hero this screen may not see).
    drafting: bool = False
    pool: list[PoolCardView] = field(default_factory=list)
    first: str | None = None
    first_chooser: str | None = None
    turn: str | None = None
    left_in_step: int = 0
    held: dict[str, list[HeroCard | None]] = field(default_factory=dict)
    # The placement: which sides have placed (public), each side's places as this screen may
    # see them (None: hidden), and the places' names.
    placing: bool = False
    placed_sides: list[str] = field(default_factory=list)
    lineup: dict[str, list[HeroCard | None]] = field(default_factory=dict)
    slots: tuple[str, ...] = ()
    revealed: bool = False
    # In play: the question waiting, the seats turned sideways, each seat's place.
    asking: Question | None = None
    sideways: list[int] = field(default_factory=list)
    places: dict[int, str] = field(default_factory=dict)
    fallen: dict[str, int] = field(default_factory=dict)
    # Several heroes a seat, once revealed: each seat's order as this screen sees it.
    orders: list[OrderLine] = field(default_factory=list)
    # A seat's own view: its side, and whether it picks and places for it.
    side: str | None = None
    drafts: bool = False
    # The area-trick helper for this seat (in play, alive): each trick's ways and targets.
    area_tricks: tuple[AreaTrick, ...] = ()
    # Cards to draw that every screen shows until the next turn ends: the opening hands, or a
    # hero come in after another fell.
    draw_notice: DrawNotice | None = None


@dataclass(frozen=True)
class DrawNotice:
    """Who draws how many now: every hero (`name` empty) before the first turn, or one seat's
    new hero (`hero`) after its last fell, which discards its cards first."""

    cards: int
    name: str = ""
    hero: HeroCard | None = None
    # The seat whose new hero came in: its phone is told in its strip (and vibrates).
    seat_id: int | None = None


AREA_TRICK_ORDER = (SAVAGE_ASSAULT, ARROW_BARRAGE, PEACH_GARDEN, AMAZING_GRACE)


def _view(table: Table, seats: list[Seat], viewer: Seat | None) -> ModeView | None:
    mode = modes.get(table.mode)
    if mode.draft_plan() is None and not mode.team_size:
        return None
    state: dict[str, Any] = table.mode_state or {}
    side: str | None = None
    drafts = False
    if viewer is not None and viewer.identity:
        side = mode.draft_side(Identity(viewer.identity))
        drafts = mode.drafts_for_side(Identity(viewer.identity))
    parts: dict[str, Any] = {"key": table.mode, "team_size": mode.team_size, "side": side}
    parts["drafts"] = drafts
    # The teams, the draft, the placements and the orders: the mode's game's (the draft kit's
    # and its own).
    for game in hooks.on(table):
        parts.update(game.mode_view(table, seats, side, drafts))
    dealt = bool(seats) and all(s.identity for s in seats)
    if table.status == Table.Status.PLAYING and dealt:
        flow = state.get("flow", {})
        status = statuses(seats)
        choice = mode.flow_pending(status, flow)
        if choice is not None:
            chooser = seats[choice.chooser]
            parts["asking"] = Question(chooser.pk, chooser.name, choice.question, choice.answers)
        parts["sideways"] = [seats[i].pk for i in sorted(mode.acted_seats(flow))]
        if mode.opening_draw:
            parts["draw_notice"] = _draw_notice(table, mode.opening_draw)
    if dealt and table.status != Table.Status.LOBBY:
        parts["places"] = _places(mode, seats)
    if table.status == Table.Status.PLAYING and viewer is not None and viewer.alive:
        parts["area_tricks"] = _area_tricks(mode, seats, viewer)
    return ModeView(**parts)


# The events that end a draw every screen announces (a turn over); the games' start it
# (hooks.draw_starts: the draft's reveal, a hero come in).
DRAW_ENDS = ("turn_ended", "turn_set")


def _draw_notice(table: Table, cards: int) -> DrawNotice | None:
    """The draw to announce now: after the latest event that starts one (every hero's, or one
    seat's new hero's), unless a turn has ended since (events undone do not count)."""
    last = (
        table.events.filter(
            game_number=table.game_number,
            kind__in=hooks.draw_starts(table) + DRAW_ENDS,
            undone_by__isnull=True,
            private_to__isnull=True,
        )
        .order_by("-version", "-pk")
        .values("kind", "public")
        .first()
    )
    if last is None or last["kind"] in DRAW_ENDS:
        return None
    public = last["public"]
    hero = public.get("hero", "")
    return DrawNotice(
        cards,
        str(public.get("name", "")),
        table_hero_card(hero, table) if hero else None,
        public.get("seat"),
    )


def _places(mode: modes.Mode, seats: list[Seat]) -> dict[int, str]:
    """Each seat's place at the table (`Mode.seat_place`), once the identities are dealt; none
    where the seating no longer fits the places (a host moved a seat after the deal)."""
    status = statuses(seats)
    places: dict[int, str] = {}
    for i, seat in enumerate(seats):
        try:
            place = mode.seat_place(status, i)
        except (ValueError, IndexError):
            return {}
        if place:
            places[seat.pk] = place
    return places


def _area_tricks(mode: modes.Mode, seats: list[Seat], user: Seat) -> tuple[AreaTrick, ...]:
    """The four area tricks as `user` would play them: each direction the mode lets him send
    it round (`Mode.trick_directions`) with its targets in order (`directions.area_order`)."""
    index = next((i for i, s in enumerate(seats) if s.pk == user.pk), None)
    if index is None:
        return ()
    alive = [s.alive for s in seats]
    tricks = []
    for name in AREA_TRICK_ORDER:
        ways = tuple(
            AreaWay(
                direction.value,
                tuple(seats[i].name for i in area_order(alive, index, name, direction)),
            )
            for direction in mode.trick_directions(name)
        )
        if ways:
            tricks.append(AreaTrick(name, ways))
    return tuple(tricks)


def public_mode_view(table: Table, seats: list[Seat]) -> ModeView | None:
    """What every screen may see of the mode's state (None: the identity game)."""
    return _view(table, seats, None)


def private_mode_view(seat: Seat) -> ModeView | None:
    """What this seat's phone may see of the mode's state: its own side's heroes too."""
    table = seat.table
    mode = modes.get(table.mode)
    if mode.draft_plan() is None and not mode.team_size:
        return None  # the identity game: no query
    return _view(table, list(table.seats.order_by("position", "slot")), seat)
