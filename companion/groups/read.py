"""What the group page shows: standings per way to play, records, heroes and ratings, read from
the group's own rows in five queries whatever its history (the group, its games, their results,
its players, its log). Only finished games are ever copied into those rows, and only this
group's."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.core.cache import cache
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from companion.groups.logwords import LogLine, recent
from companion.groups.models import Group, GroupGame, GroupResult, Player
from companion.groups.rules import plays as plays_rules
from companion.groups.rules.plays import Play, Result
from companion.groups.rules.rating import Rated, rate, stored
from companion.groups.rules.records import (
    HeroTally,
    Record,
    heroes_per_player,
    records,
    winning_heroes,
)
from companion.groups.rules.standings import Row, places, standings
from companion.words import charts
from companion.words.labels import identity_label, mode_label, place_label
from companion.words.names import hero_name_of

# GroupResult's columns in the order of the rules' Result.
RESULT_COLUMNS = (
    *("player_id", "identity", "role", "team", "leader"),
    *("hero", "alive", "won", "kills", "points", "mu", "sigma"),
)
PAGE_CACHE_SECONDS = 24 * 3600
# The most points the rating chart draws per line: a long history is sampled, its last game kept.
CHART_POINTS = 48


class GameRow(NamedTuple):
    """A game of the group as the page links it (read as a tuple, like the results)."""

    pk: int
    mode: str
    started_at: datetime
    ended_at: datetime
    winner: str
    evening_id: int | None


@dataclass(frozen=True)
class Person:
    """A player as the page names and colours them (one colour in every chart)."""

    pk: int
    name: str
    colour: str


@dataclass(frozen=True)
class ModeTable:
    """The standings of one way to play."""

    mode: str
    label: str
    rows: tuple[tuple[Person, Row], ...]
    places: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GroupPage:
    """Everything the group page shows, for one period and player count."""

    group: Group
    people: dict[int, Person]
    games: int
    tables: tuple[ModeTable, ...]
    records: tuple[tuple[Record, tuple[Person, ...], GameRow], ...]
    heroes: tuple[tuple[Person, tuple[HeroTally, ...]], ...]
    top_heroes: tuple[HeroTally, ...]
    ratings: tuple[tuple[Person, Rated], ...]
    rating_chart: SafeString
    period: str
    player_count: int | None
    player_counts: tuple[int, ...]
    # What the host did to the group, newest first.
    log: tuple[LogLine, ...] = ()


def place_name(place: str) -> str:
    """A place in words: the mode's role ("warm_commander"), else the identity."""
    label = place_label(place)
    return label if label and label != place else identity_label(place)


def hero_name(hero: str) -> str:
    return hero_name_of(hero) or hero


def load(group: Group) -> tuple[list[Play], dict[int, GameRow], dict[int, str]]:
    """The group's plays in order, its games by id, and its players' names (a merged entry's
    games are its person's already). Rows are read as tuples: a thousand games are five
    thousand results, and model instances would cost most of the page's time."""
    games = {
        g.pk: g
        for g in map(
            GameRow._make,
            GroupGame.objects.filter(group=group)
            .order_by("ended_at", "pk")
            .values_list("pk", "mode", "started_at", "ended_at", "winner", "evening_id"),
        )
    }
    by_game: dict[int, list[Result]] = {pk: [] for pk in games}
    rows = (
        GroupResult.objects.filter(game__group=group)
        .order_by("game_id", "position")
        .values_list("game_id", *RESULT_COLUMNS)
    )
    for game_id, *values in rows:
        by_game[game_id].append(Result(*values))
    names = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    plays = [
        Play(pk, g.mode, g.started_at, g.ended_at, g.winner, tuple(by_game[pk]))
        for pk, g in games.items()
    ]
    return plays, games, names


def colours(plays: list[Play], names: dict[int, str]) -> dict[int, Person]:
    """Each player who played, coloured in the order they joined the group (by id), so a
    player keeps one colour in every chart of the page whatever the filters."""
    played = sorted({r.player for p in plays for r in p.results})
    return {pk: Person(pk, names.get(pk, "?"), charts.colour(i)) for i, pk in enumerate(played)}


def page(
    group: Group, *, period: str = "all", players: int | None = None, now: datetime | None = None
) -> GroupPage:
    """The group page's content; `period` is "all", "year" or "month", `players` a count.

    Kept in the cache per version of the group (bumped by every write of its games or
    players), language and filter: only the first view after a change reads and computes it
    (the whole history's ratings are stored with its results; a filter's are replayed)."""
    if period not in plays_rules.PERIODS:
        period = "all"
    since = plays_rules.period_start(period, timezone.localtime(now or timezone.now()))
    key = f"groups:page:{group.pk}:{group.version}:{get_language()}:{period}:{players}:{since}"
    found = cache.get(key)
    if isinstance(found, GroupPage):
        return dataclasses.replace(found, group=group)
    content = _compute(group, period, players, since)
    cache.set(key, content, PAGE_CACHE_SECONDS)
    return content


def _compute(group: Group, period: str, players: int | None, since: datetime | None) -> GroupPage:
    every, games, names = load(group)
    people = colours(every, names)
    chosen = plays_rules.select(every, since=since, players=players)
    tables = tuple(
        ModeTable(
            mode=mode,
            label=mode_label(mode),
            rows=tuple((people[row.player], row) for row in standings(mode_plays)),
            places=tuple((p, place_name(p)) for p in places(mode_plays)),
        )
        for mode, mode_plays in plays_rules.by_mode(chosen).items()
    )
    found = tuple(
        (rec, tuple(people[p] for p in rec.players), games[rec.game]) for rec in records(chosen)
    )
    per_player = heroes_per_player(chosen)
    # Every game shown: the ratings stored as the games came in, else the selection replayed.
    rated = stored(every) if len(chosen) == len(every) else rate(chosen)
    return GroupPage(
        group=group,
        people=people,
        games=len(chosen),
        tables=tables,
        records=found,
        heroes=tuple((people[pk], tuple(per_player[pk][:5])) for pk in sorted(per_player)),
        top_heroes=tuple(winning_heroes(chosen)),
        ratings=tuple((people[r.player], r) for r in rated.table),
        rating_chart=_rating_chart(rated.history, people),
        period=period,
        player_count=players,
        player_counts=tuple(sorted({p.player_count for p in every})),
        log=recent(group),
    )


def _rating_chart(history: tuple[dict[int, float], ...], people: dict[int, Person]) -> SafeString:
    """Each player's rating after each game, sampled to CHART_POINTS (whole names, one
    colour per player)."""
    if not history:
        return charts.line_chart([], [], title="")
    step = max(1, -(-len(history) // CHART_POINTS))
    picked = list(range(step - 1, len(history), step))
    if picked[-1] != len(history) - 1:
        picked.append(len(history) - 1)
    series = [
        charts.Series(
            person.name,
            tuple(round(history[i].get(pk, 0.0)) for i in picked),
            person.colour,
        )
        for pk, person in people.items()
        if pk in history[-1]
    ]
    return charts.line_chart(
        series,
        [str(i + 1) for i in picked],
        title=_("Rating"),
        y_label=_("after each game"),
    )


def game_label(game: GameRow) -> str:
    """A game named by its mode and day, for a record's link."""
    day = timezone.localtime(game.ended_at).date().isoformat()
    return f"{mode_label(game.mode)} · {day}"


def record_text(rec: Record) -> str:
    """A record's value in words."""
    if rec.code in ("quickest_win", "longest_game"):
        minutes = max(1, round(rec.value / 60))
        return _("%(n)d min") % {"n": minutes}
    return str(rec.value)


def record_title(code: str) -> str:
    titles = {
        "most_kills": _("Most kills in one game"),
        "quickest_win": _("Quickest win"),
        "longest_game": _("Longest game"),
        "longest_streak": _("Longest winning streak"),
        "lord_survivor": _("The lord who survived the most rebels"),
    }
    return titles.get(code, code)
