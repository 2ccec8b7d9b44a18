"""Tests for scoring (RULES §8), the tournament rotation and session standings."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from companion.rules.identities import (
    Identity,
    IdentityOptions,
    deal_identities_fixed_lord,
    distribution,
)
from companion.rules.scoring import (
    Breakdown,
    GameRecord,
    PlayerResult,
    ScoreLine,
    is_final_duel_death,
    record_game,
    score_game,
    standings,
    tournament_lords,
)
from companion.rules.victory import SeatStatus, Side, winning_side

LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)


@dataclass(frozen=True)
class Cell:
    """What one table cell's formula may depend on."""

    n: int
    loyalists_alive: int
    rebels_alive: int
    alive: bool
    final_duel: bool


# RULES §8, one formula per (identity, winning side) cell, transcribed from the table.
TABLE: dict[tuple[Identity, Side], Callable[[Cell], int]] = {
    (LORD, Side.LORD): lambda c: 4 + 2 * c.loyalists_alive,
    (LORD, Side.REBELS): lambda c: 0,
    (LORD, Side.RENEGADE): lambda c: 1,
    (LOYALIST, Side.LORD): lambda c: 5 + c.loyalists_alive,
    (LOYALIST, Side.REBELS): lambda c: 0,
    (LOYALIST, Side.RENEGADE): lambda c: 0,
    (REBEL, Side.LORD): lambda c: 0,
    (REBEL, Side.REBELS): lambda c: 3 * c.rebels_alive,
    (REBEL, Side.RENEGADE): lambda c: 0,
    (RENEGADE, Side.LORD): lambda c: c.n if c.final_duel else 0,
    (RENEGADE, Side.REBELS): lambda c: 1 if c.alive else 0,
    # Only the surviving renegade is the winner; another (dead) renegade gets 0.
    (RENEGADE, Side.RENEGADE): lambda c: 4 + 2 * c.n if c.alive else 0,
}


def expected_bonus(killer: Identity, side: Side, kills: tuple[Identity, ...]) -> int:
    """Kill bonuses as RULES §8 words them."""
    total = 0
    for victim in kills:
        if killer in (LORD, LOYALIST) and side == Side.LORD and victim in (REBEL, RENEGADE):
            total += 1
        if killer == REBEL and victim in (LOYALIST, RENEGADE):
            total += 1
        if killer == REBEL and victim == LORD:
            total += 2
    return total


def expected_scores(players: list[PlayerResult], side: Side) -> list[int]:
    """Compute every player's score from the table and the kill rules."""
    loyalists = sum(1 for p in players if p.identity == LOYALIST and p.alive_at_end)
    rebels = sum(1 for p in players if p.identity == REBEL and p.alive_at_end)
    return [
        TABLE[p.identity, side](
            Cell(len(players), loyalists, rebels, p.alive_at_end, p.died_in_final_duel)
        )
        + expected_bonus(p.identity, side, p.kills)
        for p in players
    ]


def identities_for(player_count: int, options: IdentityOptions) -> list[Identity]:
    counts = distribution(player_count, options)
    return [identity for identity in Identity for _ in range(counts[identity])]


GAME_SHAPES = [(n, IdentityOptions()) for n in range(4, 11)] + [
    (6, IdentityOptions(six_two_renegades=True)),
    (8, IdentityOptions(eight_two_renegades=True)),
]


def end_states(
    player_count: int, options: IdentityOptions
) -> list[tuple[Side, list[PlayerResult]]]:
    """Enumerate valid end states: every alive/dead pattern, checked against RULES §7."""
    identities = identities_for(player_count, options)
    renegade_seats = [i for i, identity in enumerate(identities) if identity == RENEGADE]
    states = []
    for alive in itertools.product((False, True), repeat=player_count):
        side = winning_side([SeatStatus(i, a) for i, a in zip(identities, alive, strict=True)])
        if side is None:
            continue
        duel_options: list[int | None] = [None]
        if side == Side.LORD and alive.count(True) == 1:
            # The lord alone: the last renegade may have died in the final duel.
            duel_options += renegade_seats
        for duel_seat in duel_options:
            players = [
                PlayerResult(identity, a, died_in_final_duel=i == duel_seat)
                for i, (identity, a) in enumerate(zip(identities, alive, strict=True))
            ]
            states.append((side, players))
    return states


@pytest.mark.parametrize(("player_count", "options"), GAME_SHAPES)
def test_every_cell_of_the_table(player_count: int, options: IdentityOptions) -> None:
    seen: Counter[tuple[Identity, Side]] = Counter()
    for side, players in end_states(player_count, options):
        breakdowns = score_game(players, side)
        assert len(breakdowns) == len(players)
        totals = [breakdown.total for breakdown in breakdowns]
        assert totals == expected_scores(players, side), (side, players)
        seen.update((p.identity, side) for p in players)
    assert set(seen) == set(TABLE)  # every cell was exercised


@pytest.mark.parametrize("player_count", range(4, 11))
def test_named_cells(player_count: int) -> None:
    n = player_count
    ids = identities_for(n, IdentityOptions())
    loyalists = ids.count(LOYALIST)
    rebels = ids.count(REBEL)

    # Lord side wins with every loyalist alive.
    players = [PlayerResult(i, i in (LORD, LOYALIST)) for i in ids]
    scores = dict(zip(ids, (b.total for b in score_game(players, Side.LORD)), strict=False))
    assert scores[LORD] == 4 + 2 * loyalists
    assert scores[LOYALIST] == 5 + loyalists
    assert scores[REBEL] == 0
    assert scores[RENEGADE] == 0

    # Rebels win with every rebel alive and every renegade dead.
    players = [PlayerResult(i, i == REBEL) for i in ids]
    scores = dict(zip(ids, (b.total for b in score_game(players, Side.REBELS)), strict=False))
    assert scores[REBEL] == 3 * rebels
    assert scores[LORD] == scores[LOYALIST] == scores[RENEGADE] == 0

    # The renegade wins alone.
    players = [PlayerResult(i, i == RENEGADE) for i in ids]
    if ids.count(RENEGADE) == 1:
        totals = [b.total for b in score_game(players, Side.RENEGADE)]
        assert totals[ids.index(RENEGADE)] == 4 + 2 * n
        assert totals[ids.index(LORD)] == 1
        assert sum(totals) == 4 + 2 * n + 1


# ---------------------------------------------------------------- kill bonuses

KILL_SIDES = {
    # A game shape where each winning side is possible, 8 players with two renegades.
    Side.LORD: "L+ O+ O- R- R- R- N- N-",
    Side.REBELS: "L- O+ O- R+ R- R- N+ N-",
    Side.RENEGADE: "L- O- O- R- R- R- N+ N-",
}
LETTERS = {"L": LORD, "O": LOYALIST, "R": REBEL, "N": RENEGADE}


def parse(spec: str) -> list[PlayerResult]:
    return [PlayerResult(LETTERS[t[0]], t[1] == "+") for t in spec.split()]


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


# ---------------------------------------------------------------- random whole games


def play_random_game(
    identities: list[Identity], rng: random.Random
) -> tuple[Side, list[PlayerResult]]:
    """Kill random players with random killers until RULES §7 ends the game."""
    alive = set(range(len(identities)))
    kills: dict[int, list[Identity]] = {i: [] for i in alive}
    duel: set[int] = set()
    while (
        side := winning_side([SeatStatus(p, i in alive) for i, p in enumerate(identities)])
    ) is None:
        victim = rng.choice(sorted(alive))
        killer = rng.choice([*sorted(alive - {victim}), None])
        before = [identities[i] for i in alive]
        if is_final_duel_death(victim=identities[victim], alive_before_death=before):
            duel.add(victim)
        alive.remove(victim)
        if killer is not None:
            kills[killer].append(identities[victim])
    players = [
        PlayerResult(identity, i in alive, i in duel, tuple(kills[i]))
        for i, identity in enumerate(identities)
    ]
    return side, players


@pytest.mark.parametrize(("player_count", "options"), GAME_SHAPES)
def test_random_games_score_as_the_table_says(player_count: int, options: IdentityOptions) -> None:
    rng = random.Random(player_count * 31 + options.six_two_renegades + options.eight_two_renegades)
    sides: Counter[Side] = Counter()
    for _ in range(1_000):
        identities = identities_for(player_count, options)
        rng.shuffle(identities)
        side, players = play_random_game(identities, rng)
        sides[side] += 1
        assert [b.total for b in score_game(players, side)] == expected_scores(players, side)
    assert set(sides) == set(Side)


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
