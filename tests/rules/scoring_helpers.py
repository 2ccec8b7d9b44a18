"""Helpers of the scoring tests (test_scoring_*.py): the four identities, the kill bonuses as
docs/rules.md §8 words them, a game shape's identities, every shape and every valid end state of a game,
players written as letters ("L+ O- R- N+"), and a random whole game.
"""

from __future__ import annotations

import itertools
import random

from companion.rules.identities import Identity, IdentityOptions, distribution
from companion.rules.scoring import PlayerResult, is_final_duel_death
from companion.rules.victory import SeatStatus, Side, winning_side

LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)


def expected_bonus(killer: Identity, side: Side, kills: tuple[Identity, ...]) -> int:
    """Kill bonuses as docs/rules.md §8 words them."""
    total = 0
    for victim in kills:
        if killer in (LORD, LOYALIST) and side == Side.LORD and victim in (REBEL, RENEGADE):
            total += 1
        if killer == REBEL and victim in (LOYALIST, RENEGADE):
            total += 1
        if killer == REBEL and victim == LORD:
            total += 2
    return total


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
    """Enumerate valid end states: every alive/dead pattern, checked against docs/rules.md §7."""
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


LETTERS = {"L": LORD, "O": LOYALIST, "R": REBEL, "N": RENEGADE}


def parse(spec: str) -> list[PlayerResult]:
    return [PlayerResult(LETTERS[t[0]], t[1] == "+") for t in spec.split()]


# ---------------------------------------------------------------- random whole games


def play_random_game(
    identities: list[Identity], rng: random.Random
) -> tuple[Side, list[PlayerResult]]:
    """Kill random players with random killers until docs/rules.md §7 ends the game."""
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
