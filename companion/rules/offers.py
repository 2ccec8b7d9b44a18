"""What a seat's dialog offers whoever opens it: the delayed tricks they may place or take out,
and the HP controls. Plain values in, plain values out; each tap is judged again by its action
(companion.actions.tricks, .hp), so an offer never grants what the action would refuse.

The asker is the host's console, a seat's phone, or nobody (the public display: `None`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import modes
from companion.rules.tricks import deck_delayed_tricks, target_problem
from companion.rules.turns import Phase


@dataclass(frozen=True)
class Asker:
    """Who opens the dialog, as these rules need them.

    `host`: the host's console (or the host's own phone); `seat_id`: the asker's seat (None: the
    host's console away from any seat); `alive`: that seat lives; `may_act`: the app's rights rule
    for a change to the seat asked about (its own phone, the host, or anyone seated in referee
    mode: companion.actions.core.may_act_on).
    """

    host: bool
    seat_id: int | None
    alive: bool
    may_act: bool

    @property
    def seated(self) -> bool:
        """The asker plays at a living seat."""
        return self.seat_id is not None and self.alive


@dataclass(frozen=True)
class TableTurn:
    """Where the game stands: in play at all, whose turn (None: nobody's yet), which phase."""

    playing: bool
    seat_id: int | None
    phase: str


@dataclass(frozen=True)
class SeatControls:
    """What the asker may do to the seat besides cards: change its HP and max HP (`adjust`), save
    it with a 桃 from anyone (`rescue`), record its death (`die`), undo its HP changes (`undo`)."""

    adjust: bool
    rescue: bool
    die: bool
    undo: bool


def seat_controls(
    asker: Asker | None, turn: TableTurn, *, seat_alive: bool, referee_mode: bool
) -> SeatControls:
    """A living seat in play is changed by whoever may act on it; a 桃 from any seat is the host's
    to record, or anyone's in referee mode; an undo is the host's while the game is in play."""
    change = turn.playing and seat_alive and asker is not None and asker.may_act
    return SeatControls(
        adjust=change,
        rescue=change and asker is not None and (asker.host or referee_mode),
        die=change,
        undo=turn.playing and asker is not None and asker.host,
    )


def trick_choices(
    asker: Asker | None,
    turn: TableTurn,
    *,
    seat_id: int,
    seat_alive: bool,
    in_reach: bool,
    mode: str,
    **expansions: bool,
) -> tuple[list[str], bool]:
    """The delayed tricks the asker may put on seat `seat_id`, and whether they may place or take
    out any there (as actions.trick_place checks): the host anywhere (a correction); the current
    player, alive, in the play phase, on the targets the card allows (`in_reach`: the seat is
    within the asker's 兵粮寸断 reach). Only the tricks of the deck the table's `mode` (its key)
    plays with (`expansions`: the card expansions on, by key): a mode may play without some. The
    deck's list is returned when nothing may be placed (the dialog shows none then)."""
    tricks = deck_tricks(mode=mode, **expansions)
    if not (turn.playing and seat_alive) or asker is None:
        return tricks, False
    if asker.host:
        return tricks, True
    if not asker.seated or asker.seat_id != turn.seat_id or turn.phase != Phase.PLAY.value:
        return tricks, False
    own = asker.seat_id == seat_id
    reach = own or in_reach
    allowed = [t for t in tricks if target_problem(t, own_zone=own, in_reach=reach) is None]
    return allowed, True


def deck_tricks(*, mode: str, **expansions: bool) -> list[str]:
    """The delayed tricks of the deck a table of `mode` (its key) plays with, in the dialog's
    order: those of the card expansions on (`expansions`), none the mode plays without (3 vs
    3: 闪电)."""
    refused = modes.get(mode).card_refused
    return [t for t in deck_delayed_tricks(**expansions) if not refused(t)]
