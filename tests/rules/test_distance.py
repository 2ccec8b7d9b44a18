"""Distance, attack range and trick reach (docs/rules.md §4), checked against a brute-force ring walk."""

from __future__ import annotations

import itertools

import pytest

from companion.rules.cards import equipment_catalogue
from companion.rules.distance import (
    SeatView,
    attack_range,
    can_attack,
    distance_matrix,
    in_trick_reach,
    seat_distance,
)

DEAD = SeatView(alive=False)
ALIVE = SeatView()


def walk(alive: list[bool], source: int, target: int, direction: int) -> int:
    """Step one seat at a time in one direction, counting alive seats until the target."""
    steps = 0
    seat = source
    while seat != target:
        seat = (seat + direction) % len(alive)
        if alive[seat]:
            steps += 1
    return steps


def brute_distance(seats: list[SeatView], source: int, target: int) -> int:
    """Reference distance: shorter walk, +1 for the target's +1 horse, -1 per -1 effect, ≥ 1."""
    alive = [s.alive for s in seats]
    ring = min(walk(alive, source, target, +1), walk(alive, source, target, -1))
    if seats[target].plus_horse:
        ring += 1
    if seats[source].minus_horse:
        ring -= 1
    if seats[source].horsemanship:
        ring -= 1
    return ring if ring >= 1 else 1


def ring(n: int, dead: tuple[int, ...] = (), **special: SeatView) -> list[SeatView]:
    """n alive seats, some dead, some replaced (keyword s<index>)."""
    seats = [DEAD if i in dead else ALIVE for i in range(n)]
    for key, seat in special.items():
        seats[int(key[1:])] = seat
    return seats


@pytest.mark.parametrize("n", range(4, 11))
def test_plain_ring_against_brute_force_every_death_pattern(n: int) -> None:
    for pattern in itertools.product([True, False], repeat=n):
        if sum(pattern) < 2:
            continue
        seats = [SeatView(alive=a) for a in pattern]
        for source, target in itertools.permutations(range(n), 2):
            if pattern[source] and pattern[target]:
                expected = brute_distance(seats, source, target)
                assert seat_distance(seats, source, target) == expected


@pytest.mark.parametrize("n", range(4, 11))
@pytest.mark.parametrize(
    "holder",
    [
        SeatView(plus_horse=True),
        SeatView(minus_horse=True),
        SeatView(plus_horse=True, minus_horse=True),
        SeatView(horsemanship=True),
        SeatView(horsemanship=True, minus_horse=True),
        SeatView(horsemanship=True, minus_horse=True, plus_horse=True),
    ],
    ids=["plus", "minus", "both", "mashu", "mashu+minus", "mashu+both"],
)
def test_horses_against_brute_force_with_deaths(n: int, holder: SeatView) -> None:
    for dead_seat in [None, *range(1, n)]:
        seats = ring(n, () if dead_seat is None else (dead_seat,), s0=holder)
        for source, target in itertools.permutations(range(n), 2):
            if seats[source].alive and seats[target].alive:
                expected = brute_distance(seats, source, target)
                assert seat_distance(seats, source, target) == expected


@pytest.mark.parametrize(
    ("n", "dead", "source", "target", "expected"),
    [
        (4, (), 0, 1, 1),
        (4, (), 0, 2, 2),
        (4, (), 0, 3, 1),
        (5, (), 0, 2, 2),
        (5, (), 0, 3, 2),
        (6, (), 0, 3, 3),
        (7, (), 0, 3, 3),
        (7, (), 0, 4, 3),
        (8, (), 0, 4, 4),
        (9, (), 0, 4, 4),
        (9, (), 0, 5, 4),
        (10, (), 0, 5, 5),
        (10, (), 3, 8, 5),
        (10, (), 9, 0, 1),
        (10, (), 2, 9, 3),
        # deaths shrink the ring
        (4, (1,), 0, 2, 1),
        (4, (1, 2), 0, 3, 1),
        (6, (1,), 0, 2, 1),
        (6, (1,), 0, 3, 2),
        (6, (1, 2), 0, 3, 1),
        (6, (1, 2), 0, 4, 2),
        (8, (1, 2, 3), 0, 4, 1),
        (8, (1, 2, 3), 0, 6, 2),
        (10, (5,), 0, 4, 4),
        (10, (5,), 0, 6, 4),
        (10, (1, 3, 5, 7, 9), 0, 4, 2),
        (10, (1, 3, 5, 7, 9), 0, 6, 2),
        (10, (1, 3, 5, 7, 9), 2, 8, 2),
        (10, tuple(range(1, 9)), 0, 9, 1),
    ],
)
def test_hand_counted_distances(
    n: int, dead: tuple[int, ...], source: int, target: int, expected: int
) -> None:
    seats = ring(n, dead)
    assert seat_distance(seats, source, target) == expected
    assert seat_distance(seats, target, source) == expected


def test_plus_horse_adds_one_for_everybody_else() -> None:
    seats = ring(6, s3=SeatView(plus_horse=True))
    assert [seat_distance(seats, s, 3) for s in (0, 1, 2, 4, 5)] == [4, 3, 2, 2, 3]
    assert [seat_distance(seats, 3, t) for t in (0, 1, 2, 4, 5)] == [3, 2, 1, 1, 2]


def test_minus_horse_subtracts_one_never_below_one() -> None:
    seats = ring(6, s0=SeatView(minus_horse=True))
    assert [seat_distance(seats, 0, t) for t in range(1, 6)] == [1, 1, 2, 1, 1]
    assert [seat_distance(seats, s, 0) for s in range(1, 6)] == [1, 2, 3, 2, 1]


def test_both_horses_on_one_seat() -> None:
    seats = ring(5, s0=SeatView(plus_horse=True, minus_horse=True))
    assert [seat_distance(seats, 0, t) for t in range(1, 5)] == [1, 1, 1, 1]
    assert [seat_distance(seats, s, 0) for s in range(1, 5)] == [2, 3, 3, 2]


def test_horses_on_both_ends_cancel() -> None:
    seats = ring(6, s0=SeatView(minus_horse=True), s3=SeatView(plus_horse=True))
    assert seat_distance(seats, 0, 3) == 3
    assert seat_distance(seats, 3, 0) == 3


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (SeatView(horsemanship=True), [1, 1, 2, 3, 2, 1, 1]),
        (SeatView(horsemanship=True, minus_horse=True), [1, 1, 1, 2, 1, 1, 1]),
        (SeatView(minus_horse=True), [1, 1, 2, 3, 2, 1, 1]),
        (SeatView(), [1, 2, 3, 4, 3, 2, 1]),
    ],
    ids=["mashu", "mashu+minus", "minus", "none"],
)
def test_mashu_stacks_with_minus_horse(source: SeatView, expected: list[int]) -> None:
    seats = ring(8, s0=source)
    assert [seat_distance(seats, 0, t) for t in range(1, 8)] == expected


def test_mashu_against_plus_horse() -> None:
    seats = ring(8, s0=SeatView(horsemanship=True), s4=SeatView(plus_horse=True))
    assert seat_distance(seats, 0, 4) == 4
    seats = ring(8, s0=SeatView(horsemanship=True, minus_horse=True), s4=SeatView(plus_horse=True))
    assert seat_distance(seats, 0, 4) == 3


@pytest.mark.parametrize(
    ("n", "source", "target"),
    [(4, 0, 1), (4, 0, 3), (10, 0, 1), (10, 0, 9), (5, 2, 3)],
)
def test_never_below_one(n: int, source: int, target: int) -> None:
    strong = SeatView(minus_horse=True, horsemanship=True)
    seats = ring(n, **{f"s{source}": strong})
    assert seat_distance(seats, source, target) == 1


def test_asymmetry() -> None:
    seats = ring(4, s0=SeatView(minus_horse=True))
    assert seat_distance(seats, 0, 2) == 1
    assert seat_distance(seats, 2, 0) == 2
    seats = ring(4, s2=SeatView(plus_horse=True))
    assert seat_distance(seats, 0, 2) == 3
    assert seat_distance(seats, 2, 0) == 2


def test_matrix_shows_both_directions() -> None:
    seats = ring(5, (2,), s0=SeatView(minus_horse=True), s3=SeatView(plus_horse=True))
    matrix = distance_matrix(seats)
    assert set(matrix) == {(a, b) for a in (0, 1, 3, 4) for b in (0, 1, 3, 4) if a != b}
    assert matrix[(0, 3)] == 2
    assert matrix[(3, 0)] == 2
    assert matrix[(1, 3)] == 2
    assert matrix[(3, 1)] == 1
    assert matrix[(4, 3)] == 2
    assert matrix[(0, 1)] == 1
    assert matrix[(1, 0)] == 1


@pytest.mark.parametrize("n", range(4, 11))
def test_matrix_covers_alive_pairs(n: int) -> None:
    seats = ring(n, (1,))
    matrix = distance_matrix(seats)
    assert len(matrix) == (n - 1) * (n - 2)
    assert all(1 not in pair for pair in matrix)
    for (source, target), value in matrix.items():
        assert value == brute_distance(seats, source, target)


def test_matrix_of_one_survivor_is_empty() -> None:
    assert distance_matrix(ring(4, (1, 2, 3))) == {}


WEAPONS = sorted(
    {(e.name_zh, e.range) for e in equipment_catalogue(maneuvering=True) if e.range is not None}
)

# Seats reachable from seat 0 of a 10-ring by ring distance, counted by hand.
REACH_FROM_0_OF_10 = {
    1: {1, 9},
    2: {1, 2, 8, 9},
    3: {1, 2, 3, 7, 8, 9},
    4: {1, 2, 3, 4, 6, 7, 8, 9},
    5: set(range(1, 10)),
}


@pytest.mark.parametrize(("name", "rng"), WEAPONS)
def test_weapon_range_on_ten_seats(name: str, rng: int) -> None:
    seats = ring(10, s0=SeatView(weapon_range=rng))
    assert attack_range(seats[0]) == rng
    reachable = {t for t in range(1, 10) if can_attack(seats, 0, t)}
    assert reachable == REACH_FROM_0_OF_10[rng]


@pytest.mark.parametrize(("name", "rng"), WEAPONS)
@pytest.mark.parametrize("n", range(4, 11))
def test_weapon_range_against_brute_force(name: str, rng: int, n: int) -> None:
    for dead in [(), (1,), (n - 1, n - 2)]:
        for shooter in (SeatView(weapon_range=rng), SeatView(weapon_range=rng, minus_horse=True)):
            seats = ring(n, dead, s0=shooter, s2=SeatView(plus_horse=True))
            for target in range(1, n):
                if seats[target].alive:
                    expected = brute_distance(seats, 0, target) <= rng
                    assert can_attack(seats, 0, target) is expected


def test_default_attack_range_is_one() -> None:
    assert attack_range(SeatView()) == 1
    seats = ring(5)
    assert [can_attack(seats, 0, t) for t in range(1, 5)] == [True, False, False, True]


def test_minus_horse_extends_slash() -> None:
    seats = ring(5, s0=SeatView(minus_horse=True))
    assert all(can_attack(seats, 0, t) for t in range(1, 5))


def test_plus_horse_protects_from_slash() -> None:
    seats = ring(5, s1=SeatView(plus_horse=True))
    assert not can_attack(seats, 0, 1)
    seats = ring(5, s0=SeatView(weapon_range=2), s1=SeatView(plus_horse=True))
    assert can_attack(seats, 0, 1)


def test_trick_reach_ignores_weapons() -> None:
    seats = ring(6, s0=SeatView(weapon_range=5))
    assert [in_trick_reach(seats, 0, t) for t in range(1, 6)] == [True, False, False, False, True]


def test_trick_reach_counts_horses() -> None:
    seats = ring(6, s0=SeatView(minus_horse=True))
    assert [in_trick_reach(seats, 0, t) for t in range(1, 6)] == [True, True, False, True, True]
    seats = ring(6, s1=SeatView(plus_horse=True))
    assert not in_trick_reach(seats, 0, 1)
    seats = ring(6, s0=SeatView(horsemanship=True), s1=SeatView(plus_horse=True))
    assert in_trick_reach(seats, 0, 1)


def test_trick_reach_after_deaths() -> None:
    seats = ring(6, (1, 2))
    assert in_trick_reach(seats, 0, 3)
    assert not in_trick_reach(seats, 0, 4)


@pytest.mark.parametrize("n", range(4, 11))
def test_qicai_has_no_trick_limit(n: int) -> None:
    seats = ring(n, s0=SeatView(qicai=True), s3=SeatView(plus_horse=True))
    assert all(in_trick_reach(seats, 0, t) for t in range(1, n))
    # 奇才 does not lengthen the 杀 range.
    assert not can_attack(seats, 0, 3)
    # Nor does it help the others reach 黄月英.
    assert not in_trick_reach(seats, 2, 0)


@pytest.mark.parametrize(
    ("seats", "source", "target"),
    [
        (ring(4, (1,)), 1, 2),
        (ring(4, (1,)), 0, 1),
        (ring(4), 2, 2),
        (ring(4), 0, 4),
        (ring(4), -1, 0),
        (ring(4), 0, -1),
    ],
    ids=["dead-source", "dead-target", "same", "target-out", "source-neg", "target-neg"],
)
def test_bad_pairs(seats: list[SeatView], source: int, target: int) -> None:
    with pytest.raises(ValueError):
        seat_distance(seats, source, target)
    with pytest.raises(ValueError):
        can_attack(seats, source, target)
    with pytest.raises(ValueError):
        in_trick_reach(seats, source, target)


def test_qicai_still_rejects_dead_target() -> None:
    with pytest.raises(ValueError):
        in_trick_reach(ring(4, (2,), s0=SeatView(qicai=True)), 0, 2)


@pytest.mark.parametrize("bad", [0, -1])
def test_weapon_range_must_be_positive(bad: int) -> None:
    with pytest.raises(ValueError):
        SeatView(weapon_range=bad)
