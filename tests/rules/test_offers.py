"""What a seat's dialog offers (companion.rules.offers), over every combination of its inputs:
the asker (none: the display; the host's console, with or without a seat; a living or dead
player; on the seat asked about, the turn's holder or another; with or without the right to act),
the turn (in play or not, whose, each phase), the seat (alive, dying), 军争 and the reach."""

from __future__ import annotations

import itertools

import pytest

from companion.rules.offers import (
    Asker,
    SeatControls,
    TableTurn,
    seat_controls,
    trick_choices,
)
from companion.rules.turns import PHASE_ORDER

SEAT, HOLDER, OTHER = 1, 2, 3
INDULGENCE, SUPPLY, LIGHTNING = "乐不思蜀", "兵粮寸断", "闪电"

ASKERS = [None] + [
    Asker(host=host, seat_id=seat_id, alive=alive, may_act=may_act)
    for host, seat_id, alive, may_act in itertools.product(
        (False, True), (None, SEAT, HOLDER, OTHER), (False, True), (False, True)
    )
]
TURNS = [
    TableTurn(playing=playing, seat_id=seat_id, phase=phase)
    for playing, seat_id, phase in itertools.product(
        (False, True), (None, SEAT, HOLDER), ["", *(p.value for p in PHASE_ORDER)]
    )
]
FLAGS = (False, True)


def expected_tricks(
    asker: Asker | None, turn: TableTurn, seat_alive: bool, maneuvering: bool, in_reach: bool
) -> tuple[list[str], bool]:
    """The rule in words: the deck's delayed tricks (兵粮寸断 with 军争 only); the host places
    any; the living current player in the play phase places 闪电 on himself only, 乐不思蜀 on
    another, 兵粮寸断 on another within reach; nobody places anything on a dead seat or out of
    play."""
    deck = [INDULGENCE, *([SUPPLY] if maneuvering else []), LIGHTNING]
    if not (turn.playing and seat_alive) or asker is None:
        return deck, False
    if asker.host:
        return deck, True
    current = asker.seat_id is not None and asker.alive and asker.seat_id == turn.seat_id
    if not current or turn.phase != "play":
        return deck, False
    if asker.seat_id == SEAT:
        return [LIGHTNING], True
    return [t for t in deck if t != LIGHTNING and (t != SUPPLY or in_reach)], True


@pytest.mark.parametrize("turn", TURNS, ids=repr)
def test_trick_choices_for_every_asker_and_seat(turn: TableTurn) -> None:
    for asker, seat_alive, maneuvering, in_reach in itertools.product(ASKERS, FLAGS, FLAGS, FLAGS):
        got = trick_choices(
            asker,
            turn,
            seat_id=SEAT,
            seat_alive=seat_alive,
            maneuvering=maneuvering,
            in_reach=in_reach,
            mode="identity",
        )
        assert got == expected_tricks(asker, turn, seat_alive, maneuvering, in_reach), asker


@pytest.mark.parametrize("turn", TURNS, ids=repr)
def test_three_vs_three_offers_no_lightning(turn: TableTurn) -> None:
    # docs/rules.md §9.7: 3 vs 3 plays "no 闪电": the dialog offers the other delayed tricks as
    # at any table, and never 闪电, whoever asks (the host's console included).
    for asker, seat_alive, maneuvering, in_reach in itertools.product(ASKERS, FLAGS, FLAGS, FLAGS):
        for seat_id in (SEAT, HOLDER):
            tricks, can_play = trick_choices(
                asker,
                turn,
                seat_id=seat_id,
                seat_alive=seat_alive,
                maneuvering=maneuvering,
                in_reach=in_reach,
                mode="threes",
            )
            assert LIGHTNING not in tricks, (asker, seat_id)
            full, could = trick_choices(
                asker,
                turn,
                seat_id=seat_id,
                seat_alive=seat_alive,
                maneuvering=maneuvering,
                in_reach=in_reach,
                mode="identity",
            )
            assert (tricks, can_play) == ([t for t in full if t != LIGHTNING], could)
    # The duel's deck holds it: the host may still place it there.
    host = Asker(host=True, seat_id=None, alive=False, may_act=True)
    assert (
        LIGHTNING
        in trick_choices(
            host,
            turn,
            seat_id=SEAT,
            seat_alive=True,
            maneuvering=False,
            in_reach=False,
            mode="duel",
        )[0]
    )


def test_trick_choices_examples() -> None:
    play = TableTurn(playing=True, seat_id=HOLDER, phase="play")
    holder = Asker(host=False, seat_id=HOLDER, alive=True, may_act=False)
    on = {"seat_alive": True, "maneuvering": True, "mode": "identity"}
    assert trick_choices(holder, play, seat_id=SEAT, in_reach=False, **on) == ([INDULGENCE], True)
    assert trick_choices(holder, play, seat_id=SEAT, in_reach=True, **on) == (
        [INDULGENCE, SUPPLY],
        True,
    )
    assert trick_choices(holder, play, seat_id=HOLDER, in_reach=False, **on) == (
        [LIGHTNING],
        True,
    )
    draw = TableTurn(playing=True, seat_id=HOLDER, phase="draw")
    assert trick_choices(holder, draw, seat_id=SEAT, in_reach=True, **on)[1] is False
    host = Asker(host=True, seat_id=None, alive=False, may_act=True)
    assert trick_choices(host, draw, seat_id=SEAT, in_reach=False, **on) == (
        [INDULGENCE, SUPPLY, LIGHTNING],
        True,
    )
    plain = trick_choices(
        host,
        draw,
        seat_id=SEAT,
        in_reach=False,
        seat_alive=True,
        maneuvering=False,
        mode="identity",
    )
    assert plain == ([INDULGENCE, LIGHTNING], True)


@pytest.mark.parametrize("turn", TURNS, ids=repr)
def test_seat_controls_for_every_asker_and_seat(turn: TableTurn) -> None:
    for asker, seat_alive, referee in itertools.product(ASKERS, FLAGS, FLAGS):
        change = turn.playing and seat_alive and asker is not None and asker.may_act
        host = asker is not None and asker.host
        expected = SeatControls(
            adjust=change,
            rescue=change and (host or referee),
            die=change,
            undo=turn.playing and host,
        )
        assert seat_controls(asker, turn, seat_alive=seat_alive, referee_mode=referee) == expected


def test_seat_controls_examples() -> None:
    play = TableTurn(playing=True, seat_id=HOLDER, phase="discard")
    own = Asker(host=False, seat_id=SEAT, alive=True, may_act=True)
    assert seat_controls(own, play, seat_alive=True, referee_mode=False) == SeatControls(
        adjust=True, rescue=False, die=True, undo=False
    )
    assert seat_controls(own, play, seat_alive=True, referee_mode=True).rescue
    host = Asker(host=True, seat_id=None, alive=False, may_act=True)
    assert seat_controls(host, play, seat_alive=False, referee_mode=False) == SeatControls(
        adjust=False, rescue=False, die=False, undo=True
    )
    lobby = TableTurn(playing=False, seat_id=None, phase="")
    assert seat_controls(host, lobby, seat_alive=True, referee_mode=True) == SeatControls(
        False, False, False, False
    )
