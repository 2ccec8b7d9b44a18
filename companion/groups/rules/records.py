"""The group's records, each with the game it came from, and its heroes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.groups.rules.plays import Play


@dataclass(frozen=True)
class Record:
    """A record: who holds it (players), its value, and the game it came from (the last game of
    a streak)."""

    code: str
    players: tuple[int, ...]
    value: int
    game: int


def _most_kills(plays: Sequence[Play]) -> Record | None:
    best: Record | None = None
    for play in plays:
        for r in play.results:
            if r.kills and (best is None or r.kills > best.value):
                best = Record("most_kills", (r.player,), r.kills, play.key)
    return best


def _quickest_win(plays: Sequence[Play]) -> Record | None:
    won = [p for p in plays if any(r.won for r in p.results)]
    if not won:
        return None
    play = min(won, key=lambda p: p.seconds)
    return Record(
        "quickest_win", tuple(r.player for r in play.results if r.won), play.seconds, play.key
    )


def _longest_game(plays: Sequence[Play]) -> Record | None:
    if not plays:
        return None
    play = max(plays, key=lambda p: p.seconds)
    return Record("longest_game", tuple(r.player for r in play.results), play.seconds, play.key)


def _longest_streak(plays: Sequence[Play]) -> Record | None:
    """Wins in a row over a player's own games (a game missed does not break it)."""
    running: dict[int, int] = {}
    best: Record | None = None
    for play in plays:
        for r in play.results:
            running[r.player] = running.get(r.player, 0) + 1 if r.won else 0
            if running[r.player] and (best is None or running[r.player] > best.value):
                best = Record("longest_streak", (r.player,), running[r.player], play.key)
    return best


def _lord_survivor(plays: Sequence[Play]) -> Record | None:
    """The leader alive at the end of the game with the most rebels at the table."""
    best: Record | None = None
    for play in plays:
        rebels = sum(r.identity == "rebel" for r in play.results)
        for r in play.results:
            if r.leader and r.alive and rebels and (best is None or rebels > best.value):
                best = Record("lord_survivor", (r.player,), rebels, play.key)
    return best


def records(plays: Sequence[Play]) -> list[Record]:
    """The records these plays hold, in the page's order; the first to reach a value keeps it."""
    found = (
        _most_kills(plays),
        _quickest_win(plays),
        _longest_game(plays),
        _longest_streak(plays),
        _lord_survivor(plays),
    )
    return [r for r in found if r is not None]


@dataclass
class HeroTally:
    """A hero's games and wins, and per identity played."""

    hero: str
    games: int = 0
    wins: int = 0
    by_identity: dict[str, list[int]] = field(default_factory=dict)

    def add(self, identity: str, won: bool) -> None:
        self.games += 1
        self.wins += won
        tally = self.by_identity.setdefault(identity, [0, 0])
        tally[0] += 1
        tally[1] += won


def _order(tallies: dict[str, HeroTally]) -> list[HeroTally]:
    return sorted(tallies.values(), key=lambda t: (-t.wins, -t.games, t.hero))


def heroes_per_player(plays: Sequence[Play]) -> dict[int, list[HeroTally]]:
    """Each player's heroes, most wins first (first-game mode's games have none)."""
    found: dict[int, dict[str, HeroTally]] = {}
    for play in plays:
        for r in play.results:
            if r.hero:
                mine = found.setdefault(r.player, {})
                mine.setdefault(r.hero, HeroTally(r.hero)).add(r.place, r.won)
    return {player: _order(tallies) for player, tallies in found.items()}


def winning_heroes(plays: Sequence[Play], limit: int = 10) -> list[HeroTally]:
    """The group's heroes with the most wins."""
    found: dict[str, HeroTally] = {}
    for play in plays:
        for r in play.results:
            if r.hero:
                found.setdefault(r.hero, HeroTally(r.hero)).add(r.place, r.won)
    return _order(found)[:limit]
