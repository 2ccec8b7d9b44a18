"""Tests for scoring (docs/rules.md §8) against its table: every cell of the table for every game shape
and end state, named cells, and random whole games scored as the table says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from companion.rules.identities import Identity, IdentityOptions
from companion.rules.scoring import PlayerResult, score_game
from companion.rules.victory import Side
from tests.rules.scoring_helpers import (
    GAME_SHAPES,
    LORD,
    LOYALIST,
    REBEL,
    RENEGADE,
    end_states,
    expected_bonus,
    identities_for,
    play_random_game,
)


@dataclass(frozen=True)
class Cell:
    """What one table cell's formula may depend on."""

    n: int
    loyalists_alive: int
    rebels_alive: int
    alive: bool
    final_duel: bool


# docs/rules.md §8, one formula per (identity, winning side) cell, transcribed from the table.
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
