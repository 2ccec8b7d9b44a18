"""Scoring (计分规则, docs/rules.md §8), the tournament lord rotation and session standings."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from companion.rules.identities import Identity, check_player_count
from companion.rules.victory import SeatStatus, Side, counts_alive, winners

# Score line codes. A line is worth points × count.
BASE = "base"  # the fixed part of the outcome (0 for a plain loss)
LOYALISTS_ALIVE = "loyalists_alive"  # per loyalist alive at the end (L)
REBELS_ALIVE = "rebels_alive"  # per rebel alive at the end (R)
PLAYERS = "players"  # per player in the game (N), the winning renegade's 2N
FINAL_DUEL = "final_duel"  # per player in the game (N), a renegade who lost the final duel
KILL_LORD = "kill_lord"
KILL_LOYALIST = "kill_loyalist"
KILL_REBEL = "kill_rebel"
KILL_RENEGADE = "kill_renegade"

KILL_CODES: dict[Identity, str] = {
    Identity.LORD: KILL_LORD,
    Identity.LOYALIST: KILL_LOYALIST,
    Identity.REBEL: KILL_REBEL,
    Identity.RENEGADE: KILL_RENEGADE,
}

# Kill bonuses per victim. A winning lord or loyalist: +1 per rebel or renegade. A rebel, win or
# lose (000 does not tie his bonus to winning): +1 per loyalist or renegade, +2 for the lord.
_LORD_SIDE_KILL_BONUS: dict[Identity, int] = {Identity.REBEL: 1, Identity.RENEGADE: 1}
_REBEL_KILL_BONUS: dict[Identity, int] = {
    Identity.LORD: 2,
    Identity.LOYALIST: 1,
    Identity.RENEGADE: 1,
}


@dataclass(frozen=True)
class PlayerResult:
    """One player's part in a finished game."""

    identity: Identity
    alive_at_end: bool
    died_in_final_duel: bool = False
    kills: tuple[Identity, ...] = ()


@dataclass(frozen=True)
class ScoreLine:
    """One part of a score: points for each of count occurrences."""

    code: str
    points: int
    count: int = 1

    @property
    def total(self) -> int:
        """Return the points this line contributes."""
        return self.points * self.count


@dataclass(frozen=True)
class Breakdown:
    """A player's score for one game, part by part."""

    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        """Return the sum of all lines."""
        return sum(line.total for line in self.lines)


def is_final_duel_death(*, victim: Identity, alive_before_death: Sequence[Identity]) -> bool:
    """Return whether a death (alive_before_death includes the victim) lost the final duel."""
    return victim == Identity.RENEGADE and sorted(alive_before_death) == sorted(
        (Identity.LORD, Identity.RENEGADE)
    )


def lost_final_duel(victim: SeatStatus, alive_before: Sequence[SeatStatus]) -> bool:
    """Whether this death lost the final duel (docs/rules.md §8), with players a game brought back
    (`reborn`) counted dead: such a renegade's death loses nothing, nor do they spoil a duel."""
    if victim.reborn:
        return False
    counted = [s.identity for s in alive_before if counts_alive(s)]
    return is_final_duel_death(victim=victim.identity, alive_before_death=counted)


def _outcome_lines(
    player: PlayerResult, side: Side, *, n: int, loyalists: int, rebels: int, is_winner: bool
) -> list[ScoreLine]:
    identity = player.identity
    if side == Side.LORD:
        if identity == Identity.LORD:
            return [ScoreLine(BASE, 4), ScoreLine(LOYALISTS_ALIVE, 2, loyalists)]
        if identity == Identity.LOYALIST:
            return [ScoreLine(BASE, 5), ScoreLine(LOYALISTS_ALIVE, 1, loyalists)]
        if identity == Identity.RENEGADE and player.died_in_final_duel:
            return [ScoreLine(BASE, 0), ScoreLine(FINAL_DUEL, 1, n)]
    elif side == Side.REBELS:
        if identity == Identity.REBEL:
            return [ScoreLine(BASE, 0), ScoreLine(REBELS_ALIVE, 3, rebels)]
        if identity == Identity.RENEGADE and player.alive_at_end:
            return [ScoreLine(BASE, 1)]
    else:
        if identity == Identity.LORD:
            return [ScoreLine(BASE, 1)]
        if is_winner:
            return [ScoreLine(BASE, 4), ScoreLine(PLAYERS, 2, n)]
    return [ScoreLine(BASE, 0)]


def _kill_lines(player: PlayerResult, side: Side) -> list[ScoreLine]:
    if player.identity == Identity.REBEL:
        bonus = _REBEL_KILL_BONUS
    elif player.identity in (Identity.LORD, Identity.LOYALIST) and side == Side.LORD:
        bonus = _LORD_SIDE_KILL_BONUS
    else:
        return []
    return [
        ScoreLine(KILL_CODES[victim], bonus[victim], player.kills.count(victim))
        for victim in Identity
        if victim in bonus and victim in player.kills
    ]


def score_game(players: Sequence[PlayerResult], side: Side) -> list[Breakdown]:
    """Score a finished game; the result is in the same order as players."""
    seats = [SeatStatus(player.identity, player.alive_at_end) for player in players]
    winning = set(winners(seats, side))
    if side == Side.RENEGADE and len(winning) != 1:
        raise ValueError("a renegade win needs exactly one surviving renegade")
    n = len(players)
    loyalists = sum(p.identity == Identity.LOYALIST and p.alive_at_end for p in players)
    rebels = sum(p.identity == Identity.REBEL and p.alive_at_end for p in players)
    return [
        Breakdown(
            (
                *_outcome_lines(
                    player, side, n=n, loyalists=loyalists, rebels=rebels, is_winner=i in winning
                ),
                *_kill_lines(player, side),
            )
        )
        for i, player in enumerate(players)
    ]


def tournament_lords(seat_count: int, first_lord_index: int) -> list[int]:
    """Return the lord's seat index for each game of a tournament session."""
    check_player_count(seat_count)
    if not 0 <= first_lord_index < seat_count:
        raise ValueError(f"first_lord_index {first_lord_index} outside 0..{seat_count - 1}")
    # 推广版计分赛: the lord passes to the next seat until everybody has been lord once.
    return [(first_lord_index + game) % seat_count for game in range(seat_count)]


K = TypeVar("K", bound=Hashable)


class GameRecord(NamedTuple):
    """One player's part in one game, as the standings need it."""

    identity: Identity
    won: bool
    breakdown: Breakdown
    kills: int


def record_game(players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
    """Score a finished game keyed by player and say who won, ready for standings()."""
    results = list(players.values())
    winning = set(winners([SeatStatus(p.identity, p.alive_at_end) for p in results], side))
    breakdowns = score_game(results, side)
    return {
        key: GameRecord(player.identity, i in winning, breakdowns[i], len(player.kills))
        for i, (key, player) in enumerate(players.items())
    }


def _zero_wins() -> dict[Identity, int]:
    return dict.fromkeys(Identity, 0)


@dataclass
class Standing(Generic[K]):
    """A player's running totals over a session."""

    player: K
    total: int = 0
    games: int = 0
    wins_by_identity: dict[Identity, int] = field(default_factory=_zero_wins)
    kills: int = 0
    rank: int = 0

    @property
    def wins(self) -> int:
        """Return the number of games won."""
        return sum(self.wins_by_identity.values())

    def sort_key(self) -> tuple[int, int, int, int]:
        """Return the ordering key: higher total, wins, kills, then fewer games come first."""
        return (-self.total, -self.wins, -self.kills, self.games)


def standings(games: Sequence[Mapping[K, GameRecord]]) -> list[Standing[K]]:
    """Rank players over a session's games, best first.

    Order: higher total score; then more games won; then more kills; then fewer games played.
    Players equal on all four share a rank and the next rank is skipped (1, 1, 3); among them the
    player seen first in the games keeps the earlier place in the list.
    """
    table: dict[K, Standing[K]] = {}
    for game in games:
        for key, record in game.items():
            standing = table.setdefault(key, Standing(player=key))
            standing.total += record.breakdown.total
            standing.games += 1
            standing.kills += record.kills
            if record.won:
                standing.wins_by_identity[record.identity] += 1
    ordered = sorted(table.values(), key=Standing.sort_key)
    for position, standing in enumerate(ordered):
        previous = ordered[position - 1] if position else None
        if previous is not None and previous.sort_key() == standing.sort_key():
            standing.rank = previous.rank
        else:
            standing.rank = position + 1
    return ordered
