"""Tests for the tournament rotation, recording a game's winners, and session standings (their
tie-breaks and wins by identity).
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from companion.rules.identities import Identity, deal_identities_fixed_lord
from companion.rules.scoring import (
    Breakdown,
    GameRecord,
    ScoreLine,
    record_game,
    standings,
    tournament_lords,
)
from companion.rules.victory import Side
from tests.rules.scoring_helpers import LORD, LOYALIST, REBEL, RENEGADE, parse, play_random_game

# ---------------------------------------------------------------- tournament


@pytest.mark.parametrize(("seat_count", "first"), [(n, f) for n in range(4, 11) for f in range(n)])
def test_tournament_lords_rotation(seat_count: int, first: int) -> None:
    lords = tournament_lords(seat_count, first)
    assert len(lords) == seat_count
    assert sorted(lords) == list(range(seat_count))  # everybody is lord exactly once
    assert lords[0] == first
    for previous, following in itertools.pairwise(lords):
        assert following == (previous + 1) % seat_count  # the next seat


@pytest.mark.parametrize(("seat_count", "first"), [(3, 0), (11, 0), (5, 5), (5, -1)])
def test_tournament_lords_rejects_bad_input(seat_count: int, first: int) -> None:
    with pytest.raises(ValueError):
        tournament_lords(seat_count, first)


@pytest.mark.parametrize("seat_count", range(4, 11))
def test_whole_tournament_session(seat_count: int) -> None:
    rng = random.Random(seat_count)
    names = [f"player{i}" for i in range(seat_count)]
    games = []
    lord_of_game = []
    for lord_index in tournament_lords(seat_count, first_lord_index=seat_count // 2):
        identities = deal_identities_fixed_lord(seat_count, lord_index, rng=rng)
        lord_of_game.append(names[identities.index(LORD)])
        side, players = play_random_game(identities, rng)
        games.append(record_game(dict(zip(names, players, strict=True)), side))
    assert sorted(lord_of_game) == sorted(names)
    table = standings(games)
    assert {s.player for s in table} == set(names)
    by_name = {s.player: s for s in table}
    for name in names:
        standing = by_name[name]
        assert standing.games == seat_count
        assert standing.total == sum(game[name].breakdown.total for game in games)
        assert standing.kills == sum(game[name].kills for game in games)
        assert standing.wins == sum(game[name].won for game in games)
        assert standing.wins_by_identity[LORD] == sum(
            game[name].won and game[name].identity == LORD for game in games
        )
    keys = [(-s.total, -s.wins, -s.kills, s.games) for s in table]
    assert keys == sorted(keys)
    assert table[0].rank == 1
    assert max(s.total for s in table) == table[0].total


# ---------------------------------------------------------------- record_game


def test_record_game_marks_winners() -> None:
    players = dict(zip("abcde", parse("L+ O- R- N- O+"), strict=True))
    players["a"] = dataclasses.replace(players["a"], kills=(REBEL, RENEGADE))
    records = record_game(players, Side.LORD)
    assert list(records) == list("abcde")
    assert [records[k].won for k in "abcde"] == [True, True, False, False, True]
    assert records["a"].kills == 2
    assert records["a"].identity == LORD
    assert records["a"].breakdown.total == 4 + 2 * 1 + 2  # one loyalist alive, two kills


def test_record_game_renegade_win_only_survivor_wins() -> None:
    players = dict(zip("abcdef", parse("L- O- R- R- N- N+"), strict=True))
    records = record_game(players, Side.RENEGADE)
    assert [k for k, r in records.items() if r.won] == ["f"]


def test_record_game_rebels_dead_or_alive_win() -> None:
    players = dict(zip("abcde", parse("L- O+ R- R+ N+"), strict=True))
    records = record_game(players, Side.REBELS)
    assert [k for k, r in records.items() if r.won] == ["c", "d"]
    assert records["e"].breakdown.total == 1


# ---------------------------------------------------------------- standings


def rec(
    points: int, *, won: bool = False, kills: int = 0, identity: Identity = REBEL
) -> GameRecord:
    return GameRecord(identity, won, Breakdown((ScoreLine("base", points),)), kills)


def ranking(games: list[dict[str, GameRecord]]) -> list[tuple[str, int]]:
    return [(s.player, s.rank) for s in standings(games)]


def test_standings_total_first() -> None:
    games = [{"a": rec(3, won=True, kills=5), "b": rec(10)}]
    assert ranking(games) == [("b", 1), ("a", 2)]


def test_standings_more_wins_breaks_a_total_tie() -> None:
    games = [
        {"a": rec(6, won=False, kills=3), "b": rec(3, won=True)},
        {"a": rec(0, won=False), "b": rec(3, won=True)},
    ]
    assert ranking(games) == [("b", 1), ("a", 2)]


def test_standings_more_kills_breaks_a_wins_tie() -> None:
    games = [
        {"a": rec(5, won=True, kills=1), "b": rec(5, won=True, kills=2)},
        {"a": rec(0, kills=1), "b": rec(0, kills=1)},
    ]
    assert ranking(games) == [("b", 1), ("a", 2)]


def test_standings_fewer_games_breaks_a_kills_tie() -> None:
    games = [
        {"a": rec(5, won=True, kills=1), "b": rec(5, won=True, kills=1)},
        {"a": rec(0)},
    ]
    assert ranking(games) == [("b", 1), ("a", 2)]


def test_standings_kills_count_before_games() -> None:
    # a played one game more but killed more: kills decide before games.
    games = [
        {"a": rec(5, won=True, kills=2), "b": rec(5, won=True, kills=1)},
        {"a": rec(0)},
    ]
    assert ranking(games) == [("a", 1), ("b", 2)]


def test_standings_wins_count_before_kills_and_games() -> None:
    games = [
        {"a": rec(4, won=True), "b": rec(4, kills=3)},
        {"a": rec(0)},
    ]
    assert ranking(games) == [("a", 1), ("b", 2)]


def test_standings_total_counts_before_everything() -> None:
    games = [{"a": rec(5, kills=4), "b": rec(4, won=True, kills=9)}, {"a": rec(0)}]
    assert ranking(games) == [("a", 1), ("b", 2)]


def test_standings_full_tie_shares_a_rank() -> None:
    games = [
        {"a": rec(4, won=True, kills=1), "b": rec(4, won=True, kills=1), "c": rec(9)},
        {"d": rec(1)},
    ]
    assert ranking(games) == [("c", 1), ("a", 2), ("b", 2), ("d", 4)]


def test_standings_tied_players_keep_first_seen_order() -> None:
    games = [{"x": rec(2), "y": rec(2), "z": rec(2)}]
    assert ranking(games) == [("x", 1), ("y", 1), ("z", 1)]


def test_standings_count_wins_by_identity() -> None:
    games = [
        {"a": rec(5, won=True, identity=LORD)},
        {"a": rec(6, won=True, identity=LOYALIST)},
        {"a": rec(6, won=True, identity=LOYALIST)},
        {"a": rec(0, won=False, identity=REBEL)},
        {"a": rec(14, won=True, identity=RENEGADE)},
    ]
    (standing,) = standings(games)
    assert standing.wins_by_identity == {LORD: 1, LOYALIST: 2, REBEL: 0, RENEGADE: 1}
    assert standing.wins == 4
    assert standing.games == 5
    assert standing.total == 31


def test_standings_empty() -> None:
    assert standings([]) == []


def test_standings_accept_any_hashable_key() -> None:
    games = [{1: rec(3), 2: rec(1)}, {(3, "x"): rec(7)}]
    assert [(s.player, s.rank) for s in standings(games)] == [((3, "x"), 1), (1, 2), (2, 3)]
