"""军争's controls on a seat's dialog: the damage dialog, the chain (铁索连环) and 酒, for every
asker and seat (the askers and turns of tests/rules/test_offers.py)."""

from __future__ import annotations

import itertools

import pytest

from companion.games.maneuvering.rules.offers import ManeuverControls, maneuver_controls
from companion.rules.offers import Asker, TableTurn
from tests.rules.test_offers import ASKERS, FLAGS, HOLDER, OTHER, SEAT, TURNS


def expected_maneuver(
    asker: Asker | None, turn: TableTurn, seat_alive: bool, seat_dying: bool, maneuvering: bool
) -> ManeuverControls | None:
    """The damage dialog for whoever may change the seat or plays at a living seat; the chain for
    whoever may change the seat or the living current player; 酒 on one's own seat, with the
    right to change it, not dying; nothing without 军争, out of play, on a dead seat or for the
    display."""
    if not (maneuvering and turn.playing and seat_alive) or asker is None:
        return None
    living = asker.seat_id is not None and asker.alive
    return ManeuverControls(
        damage=asker.may_act or living,
        chain=asker.may_act or (living and asker.seat_id == turn.seat_id),
        wine=asker.may_act and asker.seat_id == SEAT and not seat_dying,
    )


@pytest.mark.parametrize("turn", TURNS, ids=repr)
def test_maneuver_controls_for_every_asker_and_seat(turn: TableTurn) -> None:
    for asker, seat_alive, seat_dying, maneuvering in itertools.product(
        ASKERS, FLAGS, FLAGS, FLAGS
    ):
        got = maneuver_controls(
            asker,
            turn,
            seat_id=SEAT,
            seat_alive=seat_alive,
            seat_dying=seat_dying,
            maneuvering=maneuvering,
        )
        assert got == expected_maneuver(asker, turn, seat_alive, seat_dying, maneuvering), asker


def test_maneuver_controls_examples() -> None:
    play = TableTurn(playing=True, seat_id=HOLDER, phase="play")
    on = {"seat_id": SEAT, "seat_alive": True, "maneuvering": True}
    own = Asker(host=False, seat_id=SEAT, alive=True, may_act=True)
    assert maneuver_controls(own, play, seat_dying=False, **on) == ManeuverControls(
        True, True, True
    )
    assert maneuver_controls(own, play, seat_dying=True, **on) == ManeuverControls(
        True, True, False
    )
    holder = Asker(host=False, seat_id=HOLDER, alive=True, may_act=False)
    assert maneuver_controls(holder, play, seat_dying=False, **on) == ManeuverControls(
        True, True, False
    )
    dead = Asker(host=False, seat_id=OTHER, alive=False, may_act=False)
    assert maneuver_controls(dead, play, seat_dying=False, **on) == ManeuverControls(
        False, False, False
    )
    assert maneuver_controls(None, play, seat_dying=False, **on) is None
    off = {**on, "maneuvering": False}
    assert maneuver_controls(own, play, seat_dying=False, **off) is None
