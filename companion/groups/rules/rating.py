"""Each player's rating over the group's games with openskill's Plackett-Luce model, which rates
games between teams of any size: the seats of one team (Mode.rating_team: the lord's side, the
rebels, each renegade alone; another way to play's own sides) win or lose together, the
winners ranked first and every other team tied behind them. A rating is shown as its ordinal
(mu - 3 sigma): a new player starts at 0 and it rises as the model grows sure they win.

The group stores each player's rating after each game (`replay`, from the first game a write
changed), so the page reads them (`stored`) where the whole history is shown; `rate` replays a
filtered selection from scratch. Both give the same values for the same games."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.groups.rules.plays import Play

MODEL = PlackettLuce()
# The ordinal's width in standard deviations (openskill's default).
Z = 3.0

# A player's rating as stored: mu and sigma.
Pair = tuple[float, float]


@dataclass(frozen=True)
class Rated:
    """A player's rating after the plays: shown value (ordinal), mu and sigma, games rated."""

    player: int
    value: float
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Ratings:
    """Every player's rating, best first, and its history: after each play, the value of each
    player who had played so far."""

    table: tuple[Rated, ...]
    history: tuple[dict[int, float], ...]


def ordinal(mu: float, sigma: float) -> float:
    """The shown value, as openskill's `ordinal()` computes it."""
    return mu - Z * sigma


def replay(plays: Sequence[Play], start: Mapping[int, Pair]) -> Iterator[dict[int, Pair]]:
    """For each play in order, its players' ratings after it (empty: it rated nobody), each
    player starting from `start` (their rating before the first play) or the model's default.
    A play with no winner, or one team, changes nobody."""
    current: dict[int, PlackettLuceRating] = {
        p: MODEL.rating(mu=mu, sigma=sigma) for p, (mu, sigma) in start.items()
    }
    for play in plays:
        teams: dict[str, list[int]] = {}
        won: dict[str, bool] = {}
        for r in play.results:
            teams.setdefault(r.team, []).append(r.player)
            won[r.team] = won.get(r.team, False) or r.won
        after: dict[int, Pair] = {}
        if len(teams) > 1 and any(won.values()) and not all(won.values()):
            keys = list(teams)
            rated = MODEL.rate(
                [[current.get(p) or MODEL.rating() for p in teams[k]] for k in keys],
                ranks=[0 if won[k] else 1 for k in keys],
            )
            for key, team in zip(keys, rated, strict=True):
                for player, rating in zip(teams[key], team, strict=True):
                    current[player] = rating
                    after[player] = (rating.mu, rating.sigma)
        yield after


def _ratings(steps: Iterator[dict[int, Pair]]) -> Ratings:
    current: dict[int, Pair] = {}
    shown: dict[int, float] = {}
    games: dict[int, int] = {}
    history: list[dict[int, float]] = []
    for after in steps:
        for player, pair in after.items():
            current[player] = pair
            shown[player] = ordinal(*pair)
            games[player] = games.get(player, 0) + 1
        history.append(dict(shown))
    table = sorted(
        (Rated(p, shown[p], mu, sigma, games[p]) for p, (mu, sigma) in current.items()),
        key=lambda x: (-x.value, x.player),
    )
    return Ratings(tuple(table), tuple(history))


def rate(plays: Sequence[Play]) -> Ratings:
    """Rate the plays in order, from nobody rated."""
    return _ratings(replay(plays, {}))


def stored(plays: Sequence[Play]) -> Ratings:
    """The ratings the plays' results carry (every play of the group, in order): the same as
    `rate(plays)`, without replaying a game."""
    return _ratings(
        {
            r.player: (r.mu, r.sigma)
            for r in play.results
            if r.mu is not None and r.sigma is not None
        }
        for play in plays
    )
