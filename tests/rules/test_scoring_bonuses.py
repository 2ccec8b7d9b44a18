"""Tests for scoring (docs/rules.md §8) beyond the table: kill bonuses for each identity, the breakdown of
a score, the final duel, and games with two renegades.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from companion.rules.identities import Identity, IdentityOptions
from companion.rules.scoring import (
    Breakdown,
    PlayerResult,
    ScoreLine,
    is_final_duel_death,
    score_game,
)
from companion.rules.victory import SeatStatus, Side, winning_side
from tests.rules.scoring_helpers import (
    GAME_SHAPES,
    LORD,
    LOYALIST,
    REBEL,
    RENEGADE,
    end_states,
    expected_bonus,
    identities_for,
    parse,
)

# ---------------------------------------------------------------- kill bonuses

KILL_SIDES = {
    # A game shape where each winning side is possible, 8 players with two renegades.
    Side.LORD: "L+ O+ O- R- R- R- N- N-",
    Side.REBELS: "L- O+ O- R+ R- R- N+ N-",
    Side.RENEGADE: "L- O- O- R- R- R- N+ N-",
}


KILL_CASES = [
    (side, seat, victim, count)
    for side, seat, victim, count in itertools.product(Side, range(8), Identity, (1, 2))
    # The lord cannot have been killed in a lord-side win, nor kill himself.
    if not (victim == LORD and (side == Side.LORD or seat == 0))
]


@pytest.mark.parametrize(("side", "killer_seat", "victim", "count"), KILL_CASES)
def test_kill_bonus_for_each_identity(
    side: Side, killer_seat: int, victim: Identity, count: int
) -> None:
    players = parse(KILL_SIDES[side])
    assert winning_side([SeatStatus(p.identity, p.alive_at_end) for p in players]) == side
    killer = players[killer_seat]
    without = score_game(players, side)[killer_seat]
    players[killer_seat] = dataclasses.replace(killer, kills=(victim,) * count)
    with_kills = score_game(players, side)[killer_seat]
    bonus = expected_bonus(killer.identity, side, (victim,) * count)
    assert with_kills.total - without.total == bonus
    kill_lines = [line for line in with_kills.lines if line.code.startswith("kill_")]
    if bonus:
        assert [(line.code, line.count, line.total) for line in kill_lines] == [
            (f"kill_{victim.value}", count, bonus)
        ]
    else:
        assert sum(line.total for line in kill_lines) == 0
    # Nobody else's score moves.
    others = [b.total for i, b in enumerate(score_game(players, side)) if i != killer_seat]
    baseline = [
        b.total for i, b in enumerate(score_game(parse(KILL_SIDES[side]), side)) if i != killer_seat
    ]
    assert others == baseline


def test_rebel_kill_bonus_applies_even_when_the_rebels_lose() -> None:
    players = parse("L+ O- R- R- N-")
    players[2] = dataclasses.replace(players[2], kills=(LOYALIST, RENEGADE))
    breakdown = score_game(players, Side.LORD)[2]
    assert breakdown.total == 2
    codes = {line.code: line.total for line in breakdown.lines}
    assert codes["kill_loyalist"] == 1
    assert codes["kill_renegade"] == 1


def test_rebel_killing_the_lord_gets_two() -> None:
    players = parse("L- O+ R+ R- R- N-")  # 6 players, rebels win, R = 1
    players[2] = dataclasses.replace(players[2], kills=(LORD, LOYALIST))
    breakdown = score_game(players, Side.REBELS)[2]
    assert breakdown.total == 3 * 1 + 2 + 1
    assert {line.code: line.total for line in breakdown.lines}["kill_lord"] == 2


def test_losing_lord_and_loyalist_get_no_kill_bonus() -> None:
    players = parse("L- O- R+ R- N-")
    players[0] = dataclasses.replace(players[0], kills=(REBEL,))
    players[1] = dataclasses.replace(players[1], kills=(RENEGADE,))
    breakdowns = score_game(players, Side.REBELS)
    assert breakdowns[0].total == 0
    assert breakdowns[1].total == 0


def test_renegade_gets_no_kill_bonus() -> None:
    players = parse("L- O- R- R- N+")
    players[4] = dataclasses.replace(players[4], kills=(LORD, LOYALIST, REBEL, REBEL))
    assert score_game(players, Side.RENEGADE)[4].total == 4 + 2 * 5


def test_lord_killing_loyalist_gives_no_bonus_but_rebels_do() -> None:
    players = parse("L+ O- O+ R- R- R- N-")
    players[0] = dataclasses.replace(players[0], kills=(LOYALIST, REBEL, REBEL, RENEGADE))
    players[2] = dataclasses.replace(players[2], kills=(REBEL,))
    breakdowns = score_game(players, Side.LORD)
    assert breakdowns[0].total == 4 + 2 * 1 + 3
    assert breakdowns[2].total == 5 + 1 + 1
    assert breakdowns[1].total == 5 + 1  # a dead loyalist still wins


# ---------------------------------------------------------------- the breakdown


def test_breakdown_shows_each_part() -> None:
    players = parse("L+ O+ O+ O- R- R- R- N-")
    players[0] = dataclasses.replace(players[0], kills=(REBEL, REBEL, RENEGADE))
    lines = {line.code: line for line in score_game(players, Side.LORD)[0].lines}
    assert lines["base"].total == 4
    assert (lines["loyalists_alive"].points, lines["loyalists_alive"].count) == (2, 2)
    assert (lines["kill_rebel"].count, lines["kill_rebel"].total) == (2, 2)
    assert (lines["kill_renegade"].count, lines["kill_renegade"].total) == (1, 1)
    assert sum(line.total for line in lines.values()) == 4 + 4 + 3


def test_score_line_and_breakdown_totals() -> None:
    assert ScoreLine("x", 3).total == 3
    assert ScoreLine("x", 2, 4).total == 8
    assert ScoreLine("x", 2, 0).total == 0
    assert Breakdown((ScoreLine("a", 4), ScoreLine("b", 2, 3))).total == 10
    assert Breakdown(()).total == 0


@pytest.mark.parametrize(("player_count", "options"), GAME_SHAPES)
def test_breakdown_lines_are_well_formed(player_count: int, options: IdentityOptions) -> None:
    for side, players in end_states(player_count, options):
        for breakdown in score_game(players, side):
            assert breakdown.lines
            assert breakdown.lines[0].code == "base"
            assert all(line.count >= 0 for line in breakdown.lines)
            assert len({line.code for line in breakdown.lines}) == len(breakdown.lines)


# ---------------------------------------------------------------- final duel and renegades

FINAL_DUEL_CASES = [
    (RENEGADE, [LORD, RENEGADE], True),
    (RENEGADE, [RENEGADE, LORD], True),
    (RENEGADE, [LORD, RENEGADE, LOYALIST], False),
    (RENEGADE, [LORD, RENEGADE, REBEL], False),
    (RENEGADE, [LORD, RENEGADE, RENEGADE], False),
    (RENEGADE, [RENEGADE, RENEGADE], False),
    (RENEGADE, [RENEGADE], False),
    (LOYALIST, [LORD, LOYALIST], False),
    (REBEL, [LORD, REBEL], False),
    (LORD, [LORD, RENEGADE], False),
]


@pytest.mark.parametrize(("victim", "alive", "expected"), FINAL_DUEL_CASES)
def test_is_final_duel_death(victim: Identity, alive: list[Identity], expected: bool) -> None:
    assert is_final_duel_death(victim=victim, alive_before_death=alive) is expected
    assert is_final_duel_death(victim=victim, alive_before_death=tuple(alive)) is expected


@pytest.mark.parametrize("player_count", range(4, 11))
def test_renegade_final_duel_scores_n(player_count: int) -> None:
    ids = identities_for(player_count, IdentityOptions())
    players = [
        PlayerResult(i, i == LORD, died_in_final_duel=i == RENEGADE and k == ids.index(RENEGADE))
        for k, i in enumerate(ids)
    ]
    totals = [b.total for b in score_game(players, Side.LORD)]
    assert totals[ids.index(RENEGADE)] == player_count
    assert totals[ids.index(LORD)] == 4
    lines = score_game(players, Side.LORD)[ids.index(RENEGADE)].lines
    assert {line.code for line in lines} == {"base", "final_duel"}


def test_renegade_who_died_earlier_scores_zero() -> None:
    players = parse("L+ O+ R- R- N-")
    assert score_game(players, Side.LORD)[4].total == 0


def test_two_renegades_lord_side_win() -> None:
    players = parse("L+ O- O- R- R- R- R- O- N- N-")
    players[9] = dataclasses.replace(players[9], died_in_final_duel=True)
    totals = [b.total for b in score_game(players, Side.LORD)]
    assert totals[8] == 0  # died earlier
    assert totals[9] == 10  # lost the final duel: N
    assert totals[0] == 4
    assert totals[1] == totals[2] == totals[7] == 5


def test_two_renegades_renegade_win() -> None:
    players = parse("L- O- R- R- R- N- N+ O- R- O-")
    totals = [b.total for b in score_game(players, Side.RENEGADE)]
    assert totals[6] == 4 + 2 * 10
    assert totals[5] == 0
    assert totals[0] == 1
    assert sum(totals) == 25


def test_two_renegades_rebel_win() -> None:
    players = parse("L- O- R+ R- N+ N-")
    totals = [b.total for b in score_game(players, Side.REBELS)]
    assert totals == [0, 0, 3, 3, 1, 0]


def test_renegade_win_needs_one_survivor() -> None:
    with pytest.raises(ValueError):
        score_game(parse("L- O- R- N-"), Side.RENEGADE)
    with pytest.raises(ValueError):
        score_game(parse("L- O- R- N+ N+"), Side.RENEGADE)


def test_score_game_needs_exactly_one_lord() -> None:
    with pytest.raises(ValueError):
        score_game(parse("O+ R- N-"), Side.LORD)
    with pytest.raises(ValueError):
        score_game(parse("L+ L+ R- N-"), Side.LORD)
