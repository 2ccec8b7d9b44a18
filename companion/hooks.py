"""The games' hooks: how the core reaches a way to play, a variant or an expansion that lives in
its own package (`companion/games/<key>/`, a Django app), without naming it.

A game subclasses `Game`, whose every hook does nothing, and registers one instance when its app is
ready (`register`, from its `AppConfig.ready()`; the app is one line of `settings.GAMES`). The core
asks only the games on at a table (`on(table)`): a game is on where its mode is the table's or its
option is set, and `on` remembers the answer per mode and options, so a game that is off costs a
table's taps one dictionary lookup.

Write side, inside the tap's transaction: the actions build a context (`HpChange`, `Death`,
`TurnEnd`, `StepsLanded`), hand it to each game on, in `order`, and record what the games put in it
(the event's public part and `after`, the phones to redraw). Read side: each game adds named values
to the public state and to a phone's (`public_parts`, `private_parts`, gathered as `Parts`), shows
them with its own templates in the core page's slots (`{% game_slot "turn_bar" t.games %}`), may
mark a seat in the ring (`seat_marks`) and show a living seat's identity (`identity_shown`). What
the rules see of the seats (`statuses`: a seat alive but counted dead for the end of the game) and
a damage the rules worked out (`damage_steps`) pass through the games on too. Its taps are its
forms (`forms`, name -> form class), which the tap registry (companion.web.forms) takes with the
core's.

This module imports nothing above the models: every layer may ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

# The contexts the games are handed and the values they add (re-exported: `hooks.HpChange`).
from companion.hookvalues import (
    NO_PARTS,
    Death,
    HpChange,
    Later,
    Parts,
    RescueCard,
    SeatMark,
    StepsLanded,
    TurnEnd,
)
from companion.models import Event, Seat, Table
from companion.rules.box import Box
from companion.rules.damage import DamageStep
from companion.rules.identities import Identity
from companion.rules.offers import Asker, TableTurn
from companion.rules.victory import SeatStatus

# A table's key for `on`: its mode and the options set on it.
_Key = tuple[str, frozenset[str]]

__all__ = [
    "NO_PARTS",
    "Death",
    "Game",
    "HpChange",
    "Later",
    "Parts",
    "RescueCard",
    "SeatMark",
    "StepsLanded",
    "TurnEnd",
]


class Game:
    """A game package's face to the core: every hook does nothing until a game says otherwise.

    `key`: the package's key (its state is `table.mode_state[key]`); `order`: the order the
    games are asked in (lower first); `templates`: slot name -> template; `forms`: tap name ->
    form class (the form names its action); `dialogs`: dialog name -> view (a GET of one seat,
    `<name>/<seat id>` under a screen's address); `event_kinds`: the kinds of the events its own
    taps record (undoable; their undo is the game's `undo` alone); `damage_types`: the damage
    types its cards deal besides "normal" (the "−" tap offers them where it is on);
    `rescue_cards`: card -> `RescueCard`, the cards besides 桃 that save a dying seat;
    `host_undoes`: those of its event kinds only the host may undo (as a death); `draw_starts`:
    its event kinds after which every screen shows a draw of the mode's `opening_draw` cards
    until a turn ends (the event's public `name`, `hero` and `seat`: whose, if one seat's);
    `hp_kinds`: its event kinds a seat's HP history lists, on the seat they name."""

    key: ClassVar[str] = ""
    order: ClassVar[int] = 100
    templates: ClassVar[Mapping[str, str]] = {}
    forms: ClassVar[Mapping[str, type]] = {}
    dialogs: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    event_kinds: ClassVar[frozenset[str]] = frozenset()
    damage_types: ClassVar[tuple[str, ...]] = ()
    rescue_cards: ClassVar[Mapping[str, RescueCard]] = {}
    host_undoes: ClassVar[frozenset[str]] = frozenset()
    draw_starts: ClassVar[frozenset[str]] = frozenset()
    hp_kinds: ClassVar[frozenset[str]] = frozenset()

    def is_on(self, table: Table) -> bool:
        """Whether this game plays at `table` (from its mode and options only: `on` remembers
        the answer for every table with the same)."""
        return False

    # Write side -------------------------------------------------------------------------------

    def seating(self, table: Table, seats: list[Seat]) -> list[Seat]:
        """Before a deal (chained in `order`): the seats in the order they are dealt in (a
        game that seats its players its own way renumbers their positions and saves them)."""
        return seats

    def seat_left(self, table: Table, seat: Seat) -> None:
        """`seat` leaves the table (the host removed it): it leaves the game's state too."""

    def at_deal(self, table: Table, seats: list[Seat]) -> None:
        """A new deal (identities dealt or dealt again)."""

    def hp_change(self, ctx: HpChange) -> None:
        """A damage or an HP loss about to land (chained in `order`)."""

    def damage_steps(
        self, table: Table, seats: list[Seat], steps: tuple[DamageStep, ...]
    ) -> tuple[DamageStep, ...]:
        """A damage the rules worked out, before it lands (chained in `order`): its steps as
        this game changes them (a prevention: `rules.damage.prevent`). Asked for the dialog's
        preview as for the resolve: write nothing here (`steps_landed` does)."""
        return steps

    def steps_landed(self, ctx: StepsLanded) -> None:
        """A damage the rules worked out has landed (its steps applied)."""

    def statuses(
        self, table: Table, seats: list[Seat], found: list[SeatStatus]
    ) -> list[SeatStatus]:
        """What the mode's victory, rewards and final duel see of the seats (chained in
        `order`): e.g. a seat alive but counted dead (`SeatStatus.reborn`)."""
        return found

    def after_death(self, ctx: Death) -> None:
        """A seat has died."""

    def turn_ending(self, table: Table, seat: Seat) -> None:
        """`seat`'s turn is about to pass (before the mode's flow moves it): what lasts one turn
        ends (write `seat`'s own fields, saved by the game)."""

    def equipment_left(self, table: Table, seat: Seat, slot: str, card: str) -> int:
        """`card` has left `seat`'s equipment `slot` (removed or replaced): the HP it recovers
        (added up over the games on; the action writes it)."""
        return 0

    def turn_passed(self, ctx: TurnEnd) -> None:
        """A turn or phase action has moved the turn."""

    def undo(self, table: Table, event: Event) -> set[int]:
        """Revert this game's own state for the undone `event`; the seats whose phones must be
        redrawn."""
        return set()

    def start_heroes(
        self, actor: Any, table: Table, seats: list[Seat], action_id: str | None, pool: str
    ) -> Any:
        """The deal is left: a game that gives the heroes its own way (a mode's draft) starts
        it and returns the change it recorded (`outbox.Change`); None: the core's offers."""
        return None

    def leader_offer(self, table: Table, hero_box: Box) -> list[str] | None:
        """The leader's offer from the table's box, for a game that offers its own (the lord
        pack; asked of the games on, in `order`); None: the mode's. ValueError: too few."""
        return None

    def hero_fell(
        self, actor: Any, table: Table, seats: list[Seat], seat: Seat, action_id: str | None
    ) -> Any:
        """A dying seat of a mode with several heroes a seat is not saved: the change recorded
        if the game brought its next hero in (`outbox.Change`), or None: the seat dies."""
        return None

    # Read side --------------------------------------------------------------------------------

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        """Named values added to the public state (every screen may see them)."""
        return {}

    def private_parts(self, table: Table, seat: Seat, seats: list[Seat] | None) -> dict[str, Any]:
        """Named values added to one seat's phone. `seats`: the table's seats in seat order when
        the caller has them (a change's frames read them once for all the phones they redraw),
        else None: a game that needs them reads them itself."""
        return {}

    def seat_dialog_parts(
        self, table: Table, seat: Any, asker: Asker | None, turn: TableTurn
    ) -> dict[str, Any]:
        """Named values added to a seat's dialog (`seat`: the seat it shows, as
        read.seat_view gives it; `asker`: who opened it, None on the public display), for the
        game's controls there (slot "seat_controls")."""
        return {}

    def seat_marks(self, table: Table, seat: Seat) -> tuple[SeatMark, ...]:
        """Marks on one seat of the ring (public)."""
        return ()

    def mode_view(
        self, table: Table, seats: list[Seat], side: str | None, drafts: bool
    ) -> dict[str, Any]:
        """Named fields of the mode's view (companion.read.modeview.ModeView) as a screen of this
        draft side sees them (`side` None: every screen; `drafts`: the screen picks and places
        for its side): a drafted mode's draft, placements and orders."""
        return {}

    def identity_shown(self, table: Table, seats: list[Seat]) -> set[int]:
        """Living seats whose identity every screen shows (e.g. a reborn player's, public since
        his death)."""
        return set()


_GAMES: dict[str, Game] = {}
_ON: dict[_Key, tuple[Game, ...]] = {}


def register(game: Game) -> Game:
    """Add `game` (its app's `ready()` calls this); a key registered again is replaced."""
    if not game.key:
        raise ValueError("a game needs its key")
    _GAMES[game.key] = game
    _ON.clear()
    return game


def unregister(key: str) -> None:
    """Remove the game of `key` (a test's own game, once the test is over)."""
    _GAMES.pop(key, None)
    _ON.clear()


def games() -> tuple[Game, ...]:
    """Every registered game, in `order`."""
    return tuple(sorted(_GAMES.values(), key=lambda g: (g.order, g.key)))


def by_key(key: str) -> Game | None:
    return _GAMES.get(key)


def _key(table: Table) -> _Key:
    options = table.options or {}
    return table.mode, frozenset(name for name, value in options.items() if value is True)


def on(table: Table) -> tuple[Game, ...]:
    """The games on at `table`, in `order` (remembered per mode and options set)."""
    key = _key(table)
    found = _ON.get(key)
    if found is None:
        found = _ON[key] = tuple(g for g in games() if g.is_on(table))
    return found


def tap_forms() -> dict[str, type]:
    """Every registered game's taps: name -> form class."""
    found: dict[str, type] = {}
    for game in games():
        found.update(game.forms)
    return found


def dialog(name: str) -> Callable[..., Any] | None:
    """The view of a registered game's dialog `name` (None: no game has one)."""
    for game in games():
        if name in game.dialogs:
            return game.dialogs[name]
    return None


def event_kinds() -> frozenset[str]:
    """The kinds of the events the games' own taps record."""
    return frozenset(kind for game in _GAMES.values() for kind in game.event_kinds)


def hp_kinds() -> frozenset[str]:
    """The games' event kinds a seat's HP history lists (whether or not they are on now)."""
    return frozenset(kind for game in _GAMES.values() for kind in game.hp_kinds)


def host_undoes() -> frozenset[str]:
    """The games' event kinds only the host may undo."""
    return frozenset(kind for game in _GAMES.values() for kind in game.host_undoes)


def draw_starts(table: Table) -> tuple[str, ...]:
    """The event kinds of the games on at `table` after which every screen shows a draw."""
    return tuple(sorted({kind for game in on(table) for kind in game.draw_starts}))


def damage_types(table: Table | None = None) -> tuple[str, ...]:
    """ "normal" and the damage types of the games on at `table` (None: of every game)."""
    playing = games() if table is None else on(table)
    return ("normal", *(kind for game in playing for kind in game.damage_types))


def rescue_card(table: Table, card: str) -> tuple[RescueCard, bool] | None:
    """A game's rescue `card` and whether its game is on at `table` (None: no game has it)."""
    for game in games():
        if card in game.rescue_cards:
            return game.rescue_cards[card], game in on(table)
    return None


def public_parts(table: Table, seats: list[Seat]) -> Parts:
    """The public values of the games on at `table`."""
    playing = on(table)
    if not playing:
        return NO_PARTS
    values: dict[str, Any] = {}
    for game in playing:
        values.update(game.public_parts(table, seats))
    return Parts(on=tuple(g.key for g in playing), values=values)


def private_parts(table: Table, seat: Seat, seats: list[Seat] | None = None) -> Parts:
    """The values of the games on at `table` for `seat`'s phone (`seats`: the table's seats in
    seat order, if the caller has them: the games then read none)."""
    playing = on(table)
    if not playing:
        return NO_PARTS
    values: dict[str, Any] = {}
    for game in playing:
        values.update(game.private_parts(table, seat, seats))
    return Parts(on=tuple(g.key for g in playing), values=values)


def seat_dialog_parts(
    table: Table, parts: Parts, seat: Any, asker: Asker | None, turn: TableTurn
) -> Parts:
    """`parts` (the table's public values) with what the games on at `table` add to a seat's
    dialog for `asker`."""
    playing = on(table)
    if not playing:
        return parts
    values = dict(parts.values)
    for game in playing:
        values.update(game.seat_dialog_parts(table, seat, asker, turn))
    return Parts(on=tuple(g.key for g in playing), values=values)


def seat_marks(table: Table, seat: Seat) -> tuple[SeatMark, ...]:
    """The marks the games on at `table` put on `seat`."""
    return tuple(mark for game in on(table) for mark in game.seat_marks(table, seat))


def statuses(table: Table, seats: list[Seat]) -> list[SeatStatus]:
    """The seats (in table order) as the mode's victory, rewards and final duel see them: identity
    and alive, as the games on at `table` count them."""
    found = [SeatStatus(Identity(s.identity), s.alive) for s in seats]
    for game in on(table):
        found = game.statuses(table, seats, found)
    return found


def damage_steps(
    table: Table, seats: list[Seat], steps: tuple[DamageStep, ...]
) -> tuple[DamageStep, ...]:
    """A damage the rules worked out, as the games on at `table` change it before it lands."""
    for game in on(table):
        steps = game.damage_steps(table, seats, steps)
    return steps


def steps_landed(table: Table, seats: list[Seat], steps: tuple[DamageStep, ...]) -> StepsLanded:
    """A damage the rules worked out has landed: what the games on at `table` made of it."""
    ctx = StepsLanded(table=table, seats=seats, steps=steps)
    for game in on(table):
        game.steps_landed(ctx)
    return ctx


def turn_ending(table: Table, seat: Seat) -> None:
    """`seat`'s turn is about to pass: the games on at `table` end what lasts one turn."""
    for game in on(table):
        game.turn_ending(table, seat)


def equipment_left(table: Table, seat: Seat, slot: str, card: str) -> int:
    """The HP the games on at `table` recover when `card` leaves `seat`'s `slot`."""
    return sum(game.equipment_left(table, seat, slot, card) for game in on(table))


def start_heroes(
    actor: Any, table: Table, seats: list[Seat], action_id: str | None, pool: str
) -> Any:
    """The change of the first game on at `table` that gives the heroes its own way, or None."""
    found = (game.start_heroes(actor, table, seats, action_id, pool) for game in on(table))
    return next((change for change in found if change is not None), None)


def hero_fell(
    actor: Any, table: Table, seats: list[Seat], seat: Seat, action_id: str | None
) -> Any:
    """The change of the first game on at `table` that brought `seat`'s next hero in, or None."""
    found = (game.hero_fell(actor, table, seats, seat, action_id) for game in on(table))
    return next((change for change in found if change is not None), None)


def identity_shown(table: Table, seats: list[Seat]) -> set[int]:
    """The living seats whose identity the games on at `table` show to every screen."""
    return {pk for game in on(table) for pk in game.identity_shown(table, seats)}
