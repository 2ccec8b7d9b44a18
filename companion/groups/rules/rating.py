"""Each player's rating over the group's games with openskill's Plackett-Luce model, which rates
games between teams of any size: the seats of one team (Mode.rating_team: the lord's side, the
rebels, each renegade alone; 3 vs 3's colours; 1 vs 1's players) win or lose together, the
winners ranked first and every other team tied behind them. A rating is shown as its ordinal
(mu - 3 sigma): a new player starts at 0 and it rises as the model grows sure they win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.groups.rules.plays import Play

MODEL = PlackettLuce()


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


def rate(plays: Sequence[Play]) -> Ratings:
    """Rate the plays in order; a play with no winner, or one team, changes nobody."""
    current: dict[int, PlackettLuceRating] = {}
    games: dict[int, int] = {}
    history: list[dict[int, float]] = []
    for play in plays:
        teams: dict[str, list[int]] = {}
        won: dict[str, bool] = {}
        for r in play.results:
            teams.setdefault(r.team, []).append(r.player)
            won[r.team] = won.get(r.team, False) or r.won
        if len(teams) > 1 and any(won.values()) and not all(won.values()):
            keys = list(teams)
            rated = MODEL.rate(
                [[current.get(p) or MODEL.rating() for p in teams[k]] for k in keys],
                ranks=[0 if won[k] else 1 for k in keys],
            )
            for key, team in zip(keys, rated, strict=True):
                for player, rating in zip(teams[key], team, strict=True):
                    current[player] = rating
                    games[player] = games.get(player, 0) + 1
        history.append({p: r.ordinal() for p, r in current.items()})
    table = sorted(
        (Rated(p, r.ordinal(), r.mu, r.sigma, games[p]) for p, r in current.items()),
        key=lambda x: (-x.value, x.player),
    )
    return Ratings(tuple(table), tuple(history))
