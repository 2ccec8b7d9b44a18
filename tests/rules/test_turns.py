"""Turn order, phases, judgement zones and lightning movement (docs/rules.md §3)."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import pytest

from companion.rules.cards import Suit
from companion.rules.judgement import Check, judge
from companion.rules.turns import (
    PHASE_ORDER,
    Phase,
    can_place_delayed_trick,
    draw_count,
    first_seat,
    hand_limit,
    judgement_order,
    lightning_destination,
    next_living_seat,
    next_phase,
    skips_from_verdicts,
)

HEROES_CSV = Path(__file__).resolve().parents[2] / "companion" / "data" / "standard_heroes.csv"

LE, BING, SHAN = "乐不思蜀", "兵粮寸断", "闪电"


def test_phase_order() -> None:
    assert [p.value for p in PHASE_ORDER] == [
        "start",
        "judgement",
        "draw",
        "play",
        "discard",
        "end",
    ]
    assert list(PHASE_ORDER) == list(Phase)


@pytest.mark.parametrize(
    ("phase", "after"),
    [
        (Phase.START, Phase.JUDGEMENT),
        (Phase.JUDGEMENT, Phase.DRAW),
        (Phase.DRAW, Phase.PLAY),
        (Phase.PLAY, Phase.DISCARD),
        (Phase.DISCARD, Phase.END),
        (Phase.END, None),
    ],
)
def test_next_phase(phase: Phase, after: Phase | None) -> None:
    assert next_phase(phase) == after


def test_walking_the_phases() -> None:
    walked = [Phase.START]
    while (following := next_phase(walked[-1])) is not None:
        walked.append(following)
    assert walked == list(PHASE_ORDER)


def test_next_phase_accepts_code_and_rejects_unknown() -> None:
    assert next_phase("draw") is Phase.PLAY  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        next_phase("nap")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("alive", "current", "expected"),
    [
        ([True] * 4, 0, 1),
        ([True] * 4, 3, 0),
        ([True, False, True, True], 0, 2),
        ([True, False, False, True], 0, 3),
        ([True, True, False, False], 1, 0),
        ([False, True, True, False, True], 4, 1),
        ([True, False, True, False, True, False], 4, 0),
        # the current player died during his own turn
        ([True, False, True, True], 1, 2),
        ([True, True, True, False], 3, 0),
        ([False] * 9 + [True, True], 10, 9),
        ([True] + [False] * 9, 5, 0),
    ],
)
def test_next_living_seat(alive: list[bool], current: int, expected: int) -> None:
    assert next_living_seat(alive, current) == expected


@pytest.mark.parametrize("n", range(4, 11))
def test_next_living_seat_every_pattern(n: int) -> None:
    for alive in itertools.product([True, False], repeat=n):
        for current in range(n):
            others = [i for i in range(n) if alive[i] and i != current]
            if not others:
                with pytest.raises(ValueError):
                    next_living_seat(list(alive), current)
                continue
            # The first alive seat with a larger index, else the smallest alive index.
            later = [i for i in others if i > current]
            expected = later[0] if later else others[0]
            assert next_living_seat(list(alive), current) == expected


@pytest.mark.parametrize(
    ("alive", "current"),
    [([True, False, False, False], 0), ([False] * 4, 2), ([True] * 4, 4), ([True] * 4, -1)],
)
def test_next_living_seat_errors(alive: list[bool], current: int) -> None:
    with pytest.raises(ValueError):
        next_living_seat(alive, current)


@pytest.mark.parametrize("lord", range(10))
def test_first_seat_is_the_lord(lord: int) -> None:
    assert first_seat(lord) == lord


def test_first_seat_rejects_negative() -> None:
    with pytest.raises(ValueError):
        first_seat(-1)


@pytest.mark.parametrize(
    ("zone", "order"),
    [
        ([], []),
        ([LE], [LE]),
        ([LE, SHAN], [SHAN, LE]),
        ([SHAN, LE], [LE, SHAN]),
        ([SHAN, BING, LE], [LE, BING, SHAN]),
        ((LE, BING), [BING, LE]),
    ],
)
def test_judgement_order_last_placed_first(zone: list[str], order: list[str]) -> None:
    before = list(zone)
    assert judgement_order(zone) == order
    assert list(zone) == before


@pytest.mark.parametrize(
    ("zone", "name", "allowed"),
    [
        ([], SHAN, True),
        ([LE], SHAN, True),
        ([LE], LE, False),
        ([SHAN], SHAN, False),
        ([LE, SHAN], BING, True),
        ([LE, SHAN, BING], BING, False),
    ],
)
def test_can_place_delayed_trick(zone: list[str], name: str, allowed: bool) -> None:
    assert can_place_delayed_trick(zone, name) is allowed


@pytest.mark.parametrize(
    ("alive", "zones", "current", "expected"),
    [
        ([True] * 4, [[SHAN], [], [], []], 0, 1),
        ([True] * 4, [[], [], [], [SHAN]], 3, 0),
        # over dead seats
        ([True, False, True, True], [[SHAN], [], [], []], 0, 2),
        ([True, False, False, True], [[SHAN], [], [], []], 0, 3),
        ([True, True, False, False], [[], [SHAN], [], []], 1, 0),
        # over a seat already holding a lightning
        ([True] * 4, [[SHAN], [SHAN], [], []], 0, 2),
        ([True] * 4, [[SHAN], [LE, SHAN], [BING], []], 0, 2),
        # over a dead seat and a lightning holder together, wrapping round
        ([True, True, False, True, True], [[], [], [], [SHAN], [SHAN]], 3, 0),
        ([True, False, True, True, True], [[SHAN], [], [], [], [SHAN]], 4, 2),
        # other delayed tricks do not block it
        ([True] * 4, [[SHAN], [LE], [], []], 0, 1),
        # nobody else can take it: it stays
        ([True, True], [[SHAN], [SHAN]], 0, None),
        ([True, False, True], [[SHAN], [], [SHAN]], 2, None),
        ([True, False, False], [[SHAN], [], []], 0, None),
    ],
)
def test_lightning_destination(
    alive: list[bool], zones: list[list[str]], current: int, expected: int | None
) -> None:
    assert lightning_destination(alive, zones, current) == expected


@pytest.mark.parametrize("n", range(4, 11))
def test_lightning_destination_every_pattern(n: int) -> None:
    for alive in itertools.product([True, False], repeat=n):
        for holders in ((), (1,), (1, 2), (n - 1,)):
            zones = [[SHAN] if i in holders else [] for i in range(n)]
            for current in (i for i in range(n) if alive[i]):
                order = [(current + k) % n for k in range(1, n)]
                takers = [i for i in order if alive[i] and i not in holders]
                expected = takers[0] if takers else None
                assert lightning_destination(list(alive), zones, current) == expected


def test_lightning_travels_round_a_table() -> None:
    alive = [True, True, False, True, True, True]
    zones: list[list[str]] = [[SHAN], [], [], [], [SHAN], []]
    holder, path = 0, []
    for _ in range(5):
        destination = lightning_destination(alive, zones, holder)
        assert destination is not None
        zones[holder].remove(SHAN)
        zones[destination].append(SHAN)
        path.append(destination)
        holder = destination
    assert path == [1, 3, 5, 0, 1]


@pytest.mark.parametrize(
    ("alive", "zones", "current"),
    [
        ([True, True], [[SHAN]], 0),
        ([True, False], [[SHAN], []], 1),
        ([True, True], [[SHAN], []], 2),
    ],
    ids=["length-mismatch", "dead-current", "out-of-range"],
)
def test_lightning_destination_errors(
    alive: list[bool], zones: list[list[str]], current: int
) -> None:
    with pytest.raises(ValueError):
        lightning_destination(alive, zones, current)


@pytest.mark.parametrize(
    ("skills", "count"),
    [((), 2), (("英姿",), 3), (("英姿", "反间"), 3), (("裸衣",), 2), (("突袭",), 2)],
)
def test_draw_count(skills: tuple[str, ...], count: int) -> None:
    assert draw_count(skills) == count
    assert draw_count(set(skills)) == count


def test_draw_count_for_every_standard_hero() -> None:
    with HEROES_CSV.open(encoding="utf-8", newline="") as handle:
        heroes = {row["name_zh"]: row["skills_zh"].split(";") for row in csv.DictReader(handle)}
    assert len(heroes) == 25
    counts = {name: draw_count(skills) for name, skills in heroes.items()}
    assert {name for name, count in counts.items() if count == 3} == {"周瑜"}
    assert sum(1 for count in counts.values() if count == 2) == 24


@pytest.mark.parametrize(("hp", "limit"), [(5, 5), (4, 4), (1, 1), (0, 0), (-1, 0), (-3, 0)])
def test_hand_limit(hp: int, limit: int) -> None:
    assert hand_limit(hp) == limit


@pytest.mark.parametrize(
    ("cards", "skipped"),
    [
        ([], set()),
        ([(Check.INDULGENCE, Suit.SPADE, 5)], {Phase.PLAY}),
        ([(Check.INDULGENCE, Suit.HEART, 5)], set()),
        ([(Check.SUPPLY_SHORTAGE, Suit.HEART, 5)], {Phase.DRAW}),
        ([(Check.SUPPLY_SHORTAGE, Suit.CLUB, 5)], set()),
        (
            [(Check.SUPPLY_SHORTAGE, Suit.DIAMOND, 1), (Check.INDULGENCE, Suit.CLUB, 13)],
            {Phase.PLAY, Phase.DRAW},
        ),
        ([(Check.LIGHTNING, Suit.SPADE, 2), (Check.INDULGENCE, Suit.DIAMOND, 2)], {Phase.PLAY}),
        ([(Check.LIGHTNING, Suit.HEART, 2)], set()),
        ([(Check.EIGHT_TRIGRAMS, Suit.SPADE, 2), (Check.LUOSHEN, Suit.HEART, 2)], set()),
    ],
)
def test_skips_from_verdicts(cards: list[tuple[Check, Suit, int]], skipped: set[Phase]) -> None:
    verdicts = [judge(*card) for card in cards]
    assert skips_from_verdicts(verdicts) == skipped
    assert skips_from_verdicts(v.next_step for v in verdicts) == skipped


def test_skips_from_codes() -> None:
    assert skips_from_verdicts(["skip_play_phase", "none", "skip_draw_phase"]) == {
        Phase.PLAY,
        Phase.DRAW,
    }
    assert skips_from_verdicts(["move_to_next_player", "counts_as_dodge"]) == frozenset()
