"""A session's standings and what its screens show of it: the rows, the tournament's state, the
cumulative-score and wins-per-identity charts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from companion.queries.scores import IDENTITIES, TIE_BREAK
from companion.read.session_games import GameSummary
from companion.words import charts
from companion.words.labels import draft_side_label, identity_label


@dataclass(frozen=True)
class StandingRow:
    """A player's place and totals over a session."""

    rank: int
    seat: int
    name: str
    total: int
    games: int
    wins: int
    kills: int
    wins_by_identity: tuple[tuple[str, int], ...]
    # The player's colour in the charts (SessionSummary.colours).
    colour: str = ""
    # A drafted mode: wins by the side (colour) played, in place of wins per identity.
    wins_by_side: tuple[tuple[str, int], ...] = ()

    @property
    def win_parts(self) -> list[tuple[str, str, int]]:
        """Non-zero wins per identity (or per side): (identity or side, label, count)."""
        if self.wins_by_side:
            return [(s, capfirst(draft_side_label(s)), n) for s, n in self.wins_by_side if n]
        return [(i, identity_label(i), n) for i, n in self.wins_by_identity if n]


@dataclass(frozen=True)
class TeamRow:
    """A mode with teams: a team's games and wins over a session, and its wins by colour."""

    names: tuple[str, ...]
    games: int
    wins: int
    wins_by_side: tuple[tuple[str, int], ...]

    @property
    def name(self) -> str:
        """The team, by its players' names."""
        return pgettext("list separator", ", ").join(self.names)

    @property
    def win_parts(self) -> list[tuple[str, str, int]]:
        """Non-zero wins per colour: (side, label, count)."""
        return [(s, capfirst(draft_side_label(s)), n) for s, n in self.wins_by_side if n]


@dataclass(frozen=True)
class SessionSummary:
    """A session: its games, standings and tournament state."""

    table_code: str
    number: int
    started_at: datetime
    ended_at: datetime | None
    tournament: bool
    lord_order: tuple[tuple[int, str], ...]
    games: tuple[GameSummary, ...]
    standings: tuple[StandingRow, ...]
    in_play: int | None = None
    numbers: tuple[int, ...] = field(default_factory=tuple)
    # A mode with teams: their standings; a drafted mode: the sides the bar chart counts wins by.
    teams: tuple[TeamRow, ...] = ()
    sides: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        """Whether the session is over."""
        return self.ended_at is not None

    @property
    def tie_break(self) -> str:
        """How ties are broken, in words."""
        return str(TIE_BREAK)

    @property
    def tournament_games(self) -> int:
        """How many games a tournament has (one per player)."""
        return len(self.lord_order)

    @property
    def next_lord(self) -> str:
        """In a tournament: the lord of the game being played or dealt next."""
        done = len(self.games)
        if not self.tournament or self.finished or done >= len(self.lord_order):
            return ""
        return self.lord_order[done][1]

    @property
    def next_game(self) -> int:
        """In a tournament: the number (1..n) of the game being played or dealt next."""
        return len(self.games) + 1

    @property
    def line_chart(self) -> SafeString:
        """Each player's cumulative score after each game (SVG)."""
        series = []
        for row in self.standings:
            values = [0]
            for game in self.games:
                mine = next((p for p in game.players if p.seat == row.seat), None)
                values.append(mine.cumulative if mine else values[-1])
            series.append(charts.Series(row.name, tuple(values), row.colour))
        labels = [str(i) for i in range(len(self.games) + 1)]
        return charts.line_chart(
            series,
            labels,
            title=_("Cumulative score"),
            y_label=_("after each game of the session"),
        )

    @property
    def bar_title(self) -> str:
        """The bar chart's caption: wins per identity, per side, or per colour (teams)."""
        if self.sides:
            return _("Wins per colour") if self.teams else _("Wins per side")
        return _("Wins per identity")

    @property
    def bar_chart(self) -> SafeString:
        """Each player's wins per identity, or per side (SVG)."""
        if self.sides:
            bars = [charts.Bar(row.name, row.wins_by_side, row.colour) for row in self.standings]
            columns = [(s, capfirst(draft_side_label(s))) for s in self.sides]
        else:
            bars = [
                charts.Bar(row.name, row.wins_by_identity, row.colour) for row in self.standings
            ]
            columns = [(i, identity_label(i)) for i in IDENTITIES]
        return charts.bar_chart(bars, columns, title=self.bar_title)
