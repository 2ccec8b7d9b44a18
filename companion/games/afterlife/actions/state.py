"""The afterlife's one state (`Afterlife`): kept in `Table.mode_state["afterlife"]` with the
game's number (a new game starts empty), by seat index in play order; what a death does to it,
the seats it shows reborn, and the opening every afterlife tap shares (`open_tap`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, seat_of
from companion.actions.inputs import ordered_seats
from companion.games.afterlife.rules import options, rebirth, souls
from companion.games.afterlife.rules.souls import DarkSoul
from companion.models import Seat, Table
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus

KEY = "afterlife"
# Its two table options (the identity game's), which share its state.
REBIRTH = options.REBIRTH
DARK_SOULS = options.DARK_SOULS


@dataclass(frozen=True)
class Afterlife:
    """A game's rebirths and dark souls, by seat index (`choosing`: dead players still to
    choose whom to haunt; `owners`: every seat that has become a soul this game)."""

    game: int = 0
    rebirth: rebirth.RebirthState = field(default_factory=rebirth.RebirthState)
    souls: tuple[DarkSoul, ...] = ()
    choosing: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()

    def stored(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rebirth": self.rebirth.stored(),
            "souls": [s.stored() for s in self.souls],
            "choosing": list(self.choosing),
            "owners": list(self.owners),
        }


def load(table: Table) -> Afterlife:
    """The current game's state (empty for a new game)."""
    raw = (table.mode_state or {}).get(KEY) or {}
    if raw.get("game") != table.game_number:
        return Afterlife(game=table.game_number)
    return Afterlife(
        game=table.game_number,
        rebirth=rebirth.RebirthState.from_stored(raw.get("rebirth")),
        souls=tuple(DarkSoul.from_stored(s) for s in raw.get("souls", ())),
        choosing=tuple(int(i) for i in raw.get("choosing", ())),
        owners=tuple(int(i) for i in raw.get("owners", ())),
    )


def save_state(table: Table, state: Afterlife) -> None:
    table.mode_state = {**(table.mode_state or {}), KEY: state.stored()}


def stored_before(table: Table) -> dict[str, Any]:
    """The state as an event's `before` keeps it (for an undo)."""
    return dict((table.mode_state or {}).get(KEY) or {})


def restore(table: Table, before: dict[str, Any]) -> None:
    """Put the state back as an event's `before` kept it (the undo of a death)."""
    table.mode_state = {**(table.mode_state or {}), KEY: before}


def enabled(table: Table) -> bool:
    """Whether the table plays with rebirth or dark souls (the identity game's options)."""
    opts = table.opts
    return opts.flag(REBIRTH) or opts.flag(DARK_SOULS)


def with_reborn(table: Table, found: list[SeatStatus]) -> list[SeatStatus]:
    """The seats for the mode's victory, rewards and duel with their `reborn` flag (a living
    player after a rebirth, still dead for the end of the game)."""
    if not table.opts.flag(REBIRTH):
        return found
    return rebirth.with_reborn(found, load(table).rebirth)


def statuses(table: Table, seats: Sequence[Seat]) -> list[SeatStatus]:
    """The seats for the mode's victory, rewards and duel: identity, alive, and reborn."""
    return with_reborn(table, [SeatStatus(Identity(s.identity), s.alive) for s in seats])


def reborn_seat_ids(table: Table, seats: Sequence[Seat]) -> set[int]:
    """The seats alive again after a rebirth (for the game's results)."""
    return {seats[i].pk for i, s in enumerate(statuses(table, seats)) if s.reborn}


def died(table: Table, seats: Sequence[Seat], seat: Seat) -> None:
    """A seat has died (the death action, before its event): with rebirth on, he waits for
    gifts (the lord never: his death ends the game); with dark souls on, a loyalist, rebel or
    renegade is to choose whom to haunt (once a game), and the souls haunting him are gone."""
    opts = table.opts
    if not (opts.flag(REBIRTH) or opts.flag(DARK_SOULS)):
        return
    state = load(table)
    index = [s.pk for s in seats].index(seat.pk)
    identity = Identity(seat.identity)
    if opts.flag(REBIRTH) and identity != Identity.LORD:
        state = replaced(state, rebirth=rebirth.died(state.rebirth, index))
    if opts.flag(DARK_SOULS):
        kept = tuple(souls.host_died(state.souls, index))
        choosing = state.choosing
        if souls.soul_for(identity) and index not in state.owners:
            choosing = (*choosing, index)
        state = replaced(state, souls=kept, choosing=choosing)
    save_state(table, state)


def replaced(state: Afterlife, **changes: Any) -> Afterlife:
    return Afterlife(**{**state.__dict__, **changes})


# The opening every tap shares --------------------------------------------------------------

# Each table option's refusal when it is off: its message and code.
_OFF: dict[str, tuple[Promise, str]] = {
    REBIRTH: (_("Rebirth is not on at this table."), "no_rebirth"),
    DARK_SOULS: (_("Dark souls are not on at this table."), "no_dark_souls"),
}


@dataclass(frozen=True)
class Tap:
    """What an afterlife tap starts from: the tapping player's own seat (`tapper`), the seat the
    tap names (`seat`), every seat in play order with their ids, and the game's state."""

    tapper: Seat
    seat: Seat
    seats: list[Seat]
    ids: list[int]
    state: Afterlife


def open_tap(actor: Actor, seat_id: Any, option: str) -> Tap:
    """The checks every afterlife tap makes first, in this order: its table option (`rebirth`
    or `dark_souls`) on, a game being played, a player's own phone, `seat_id` a seat of the
    table (the table's row is locked already: `actions.core.action`)."""
    table = actor.table
    if not table.opts.flag(option):
        message, code = _OFF[option]
        raise ActionError(message, 409, code)
    _playing(table)
    tapper = _own_seat(actor)
    seat = seat_of(table, seat_id)
    seats = ordered_seats(table)
    return Tap(tapper, seat, seats, [s.pk for s in seats], load(table))


def _playing(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Only while a game is being played."), 409, "not_playing")


def _own_seat(actor: Actor) -> Seat:
    if actor.seat is None:
        raise ActionError(_("Only a player's own phone does that."), 403, "not_a_seat")
    return actor.seat
