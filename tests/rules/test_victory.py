"""Tests for the end of the game (docs/rules.md §7) and kill rewards (docs/rules.md §6)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.identities import Identity, distribution
from companion.rules.victory import SeatStatus, Side, death_consequence, winners, winning_side

LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)
LETTERS = {"L": LORD, "O": LOYALIST, "R": REBEL, "N": RENEGADE}


def table(spec: str) -> list[SeatStatus]:
    """Build seats from e.g. "L- O+ R+": identity letter, + alive, - dead."""
    return [SeatStatus(LETTERS[token[0]], token[1] == "+") for token in spec.split()]


# ---------------------------------------------------------------- winning_side

WINNING_CASES = [
    # The lord dies and a single renegade is the last one alive.
    ("L- N+", Side.RENEGADE),
    ("L- O- R- N+", Side.RENEGADE),
    ("O- L- R- R- N+", Side.RENEGADE),
    ("L- O- O- O- R- R- R- R- N+ N-", Side.RENEGADE),
    ("L- O- O- O- R- R- R- R- N- N+", Side.RENEGADE),
    # The lord dies with a renegade and anybody else alive: the rebels win.
    ("L- O- R+ N+", Side.REBELS),
    ("L- O+ R- N+", Side.REBELS),
    ("L- O+ R- R- N+", Side.REBELS),
    ("L- O- R- R- R+ N+", Side.REBELS),
    # ...and with every rebel dead too (003's "loyalists win" is not followed).
    ("L- O+ O- R- R- R- N-", Side.REBELS),
    ("L- O+ R- N-", Side.REBELS),
    ("L- O- R+ N-", Side.REBELS),
    ("L- O- R- N-", Side.REBELS),
    # Two renegades.
    ("L- O- O- O- R- R- R- R- N+ N+", Side.REBELS),
    ("L- O- R- R- N+ N+", Side.REBELS),
    ("L+ O- O- O- R- R- R- R- N+ N+", None),
    ("L+ O- O- O- R- R- R- R- N- N+", None),
    ("L+ O+ O- O- R- R- R- R- N- N-", Side.LORD),
    ("L+ O- R- R- N- N-", Side.LORD),
    # The lord side wins, alive or dead.
    ("L+ O+ R- N-", Side.LORD),
    ("L+ O- R- N-", Side.LORD),
    ("L+ O- O- R- R- R- N-", Side.LORD),
    ("L+ O+ O+ O+ R- R- R- R- N-", Side.LORD),
    # Game not over yet.
    ("L+ O+ R+ N+", None),
    ("L+ O- R+ N-", None),
    ("L+ O- R- N+", None),
    ("L+ O+ R- R+ N-", None),
    ("L+ O- O- R- R- R- N+", None),
    ("L+ N+", None),
]


@pytest.mark.parametrize(("spec", "expected"), WINNING_CASES)
def test_winning_side(spec: str, expected: Side | None) -> None:
    assert winning_side(table(spec)) == expected


@pytest.mark.parametrize(("spec", "expected"), WINNING_CASES)
def test_winning_side_does_not_depend_on_seat_order(spec: str, expected: Side | None) -> None:
    seats = table(spec)
    assert winning_side(list(reversed(seats))) == expected
    assert winning_side(seats[1:] + seats[:1]) == expected


@pytest.mark.parametrize("player_count", range(4, 11))
def test_every_player_count_start_and_end(player_count: int) -> None:
    counts = distribution(player_count)
    identities = [identity for identity, count in counts.items() for _ in range(count)]
    assert winning_side([SeatStatus(i, True) for i in identities]) is None
    lord_side = [SeatStatus(i, i == LORD) for i in identities]
    assert winning_side(lord_side) == Side.LORD  # every loyalist dead too
    rebels_alive = [SeatStatus(i, i == REBEL) for i in identities]
    assert winning_side(rebels_alive) == Side.REBELS
    last_renegade = [SeatStatus(i, i == RENEGADE) for i in identities]
    expected = Side.RENEGADE if counts[RENEGADE] == 1 else Side.REBELS
    assert winning_side(last_renegade) == expected


@pytest.mark.parametrize("spec", ["O+ R+ N+", "L+ L+ R+", "L- L+ R- N-", ""])
def test_winning_side_needs_exactly_one_lord(spec: str) -> None:
    with pytest.raises(ValueError):
        winning_side(table(spec))


seat_lists = st.lists(
    st.builds(SeatStatus, st.sampled_from([LOYALIST, REBEL, RENEGADE]), st.booleans()),
    min_size=3,
    max_size=9,
)


@settings(database=None, derandomize=True)
@given(others=seat_lists, lord_alive=st.booleans(), lord_at=st.integers(0, 9))
def test_winning_side_properties(others: list[SeatStatus], lord_alive: bool, lord_at: int) -> None:
    seats = list(others)
    seats.insert(lord_at % (len(seats) + 1), SeatStatus(LORD, lord_alive))
    alive = [seat.identity for seat in seats if seat.alive]
    result = winning_side(seats)
    if result == Side.RENEGADE:
        assert alive == [RENEGADE]
    elif result == Side.REBELS:
        assert not lord_alive
        assert alive != [RENEGADE]
    elif result == Side.LORD:
        assert lord_alive
        assert set(alive) <= {LORD, LOYALIST}
    else:
        assert lord_alive
        assert {REBEL, RENEGADE} & set(alive)


# ---------------------------------------------------------------- winners


def test_lord_side_winners_include_dead_loyalists() -> None:
    seats = table("R- L+ O- N- O+ R-")
    assert winners(seats, Side.LORD) == [1, 2, 4]


def test_rebel_winners_include_dead_rebels() -> None:
    seats = table("O+ L- R- N+ R+ R-")
    assert winners(seats, Side.REBELS) == [2, 4, 5]


def test_renegade_winner_is_only_the_survivor() -> None:
    seats = table("O- L- R- N- R- N+ O- R- R- O-")
    assert winners(seats, Side.RENEGADE) == [5]
    assert winners(table("N+ L- R- O-"), Side.RENEGADE) == [0]


@pytest.mark.parametrize(("spec", "side"), [(s, e) for s, e in WINNING_CASES if e is not None])
def test_winners_have_the_winning_identities(spec: str, side: Side) -> None:
    seats = table(spec)
    won = winners(seats, side)
    assert won == sorted(won)
    for index, seat in enumerate(seats):
        if side == Side.LORD:
            expected = seat.identity in (LORD, LOYALIST)
        elif side == Side.REBELS:
            expected = seat.identity == REBEL
        else:
            expected = seat.identity == RENEGADE and seat.alive
        assert (index in won) is expected, (index, seat)


# ---------------------------------------------------------------- death consequences


@pytest.mark.parametrize(("victim", "killer"), list(itertools.product(Identity, [None, *Identity])))
def test_death_consequence_every_pair(victim: Identity, killer: Identity | None) -> None:
    if killer is None:
        expected = None  # lightning and other sourceless deaths give nothing
    elif victim == REBEL:
        expected = "draw3"  # any killer, a rebel too
    elif victim == LOYALIST and killer == LORD:
        expected = "lord_discards_all"
    else:
        expected = None
    assert death_consequence(victim=victim, killer=killer) == expected


def test_death_consequence_named_cases() -> None:
    assert death_consequence(victim=REBEL, killer=REBEL) == "draw3"
    assert death_consequence(victim=REBEL, killer=LORD) == "draw3"
    assert death_consequence(victim=REBEL, killer=None) is None
    assert death_consequence(victim=LOYALIST, killer=LORD) == "lord_discards_all"
    assert death_consequence(victim=LOYALIST, killer=LOYALIST) is None
    assert death_consequence(victim=LOYALIST, killer=REBEL) is None
    assert death_consequence(victim=RENEGADE, killer=LORD) is None
    assert death_consequence(victim=LORD, killer=REBEL) is None
