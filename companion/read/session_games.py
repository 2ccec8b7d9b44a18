"""One finished game as the history shows it: each player's record and score breakdown, from
`Game.results` and `Game.scores` (public once the game is over)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.models import GAME_CORRECTED, Event, Game, Table
from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.modes import Mode
from companion.rules.scoring import (
    BASE,
    FINAL_DUEL,
    KILL_CODES,
    KILL_LORD,
    KILL_LOYALIST,
    KILL_REBEL,
    KILL_RENEGADE,
    LOYALISTS_ALIVE,
    PLAYERS,
    REBELS_ALIVE,
)
from companion.rules.victory import Side
from companion.words.labels import identity_label, place_label, side_label
from companion.words.names import added_card, hero_card
from companion.words.variants import VariantOn, variants_on


def _line_label(code: str) -> str:
    labels = {
        BASE: _("Base score"),
        LOYALISTS_ALIVE: _("Loyalists alive"),
        REBELS_ALIVE: _("Rebels alive"),
        PLAYERS: _("Players in the game"),
        FINAL_DUEL: _("Final duel"),
        KILL_LORD: _("Killed the Lord"),
        KILL_LOYALIST: _("Killed a Loyalist"),
        KILL_REBEL: _("Killed a Rebel"),
        KILL_RENEGADE: _("Killed a Renegade"),
        "win": _("Won the game"),  # the drafted modes: one point a win
    }
    return labels.get(code, code)


@dataclass(frozen=True)
class Victim:
    """A seat killed by a player in one game."""

    seat: int
    name: str
    identity: str


@dataclass(frozen=True)
class ScoreItem:
    """One line of a breakdown; a kill bonus names its victim."""

    code: str
    points: int
    count: int = 1
    victim: Victim | None = None

    @property
    def total(self) -> int:
        """The points this line adds."""
        return self.points * self.count

    @property
    def label(self) -> str:
        """The line's name in the active language; a counted line says what it counts and what
        each is worth ("3 rebels alive × 2 points")."""
        if self.victim is not None:
            return _("Killed %(name)s (%(identity)s)") % {
                "name": self.victim.name,
                "identity": identity_label(self.victim.identity),
            }
        counted = _counted_label(self.code, self.count)
        if counted is None:
            return _line_label(self.code)
        points = ngettext("%(p)s point", "%(p)s points", self.points) % {"p": self.points}
        return _("%(what)s × %(points)s") % {"what": counted, "points": points}

    @property
    def detail(self) -> str:
        """What the line adds: "+2", or for a counted line "= +6"."""
        sign = f"{self.total:+d}"
        return sign if _counted_label(self.code, self.count) is None else f"= {sign}"


def _counted_label(code: str, n: int) -> str | None:
    """What a line worth points per occurrence counts ("3 rebels alive"), or None."""
    if code == LOYALISTS_ALIVE:
        return ngettext("%(n)s loyalist alive", "%(n)s loyalists alive", n) % {"n": n}
    if code == REBELS_ALIVE:
        return ngettext("%(n)s rebel alive", "%(n)s rebels alive", n) % {"n": n}
    if code == PLAYERS:
        return ngettext("%(n)s player in the game", "%(n)s players in the game", n) % {"n": n}
    if code == FINAL_DUEL:
        return ngettext(
            "Final duel: %(n)s player in the game", "Final duel: %(n)s players in the game", n
        ) % {"n": n}
    return None


@dataclass(frozen=True)
class PlayerGame:
    """One player in one finished game: the record and the score."""

    seat: int
    name: str
    position: int
    identity: str
    hero: str
    alive: bool
    killer: int | None
    killer_name: str
    kills: tuple[Victim, ...]
    final_duel: bool
    won: bool
    items: tuple[ScoreItem, ...]
    total: int
    cumulative: int = 0
    winner: str = ""
    # The mode says: this seat may have lost a final duel (a correction may say so), and that
    # duel scored in this game (the note explains the score).
    duelist: bool = False
    duel_scored: bool = False
    # The role played where the mode's seats are not the identity game's (`Mode.role`, a code of
    # the mode's words), shown for the identity.
    role: str = ""
    added_hero: dict[str, Any] | None = None

    @property
    def identity_label(self) -> str:
        """The identity in the active language, in the mode's words (`Mode.role`)."""
        return place_label(self.role) if self.role else identity_label(self.identity)

    @property
    def hero_card(self) -> Any:
        """The hero card (names, kingdom), or None in first-game mode; an added hero's from
        the game's record."""
        if self.added_hero:
            return added_card(self.hero, self.added_hero)
        return hero_card(self.hero)

    @property
    def note(self) -> str:
        """Why a renegade scored what he scored, when the table may wonder."""
        if not self.duel_scored:
            return ""
        if self.final_duel:
            return _("Lost the final duel against the Lord: scores the number of players.")
        return _("Died before the final duel: no score.")


@dataclass(frozen=True)
class GameSummary:
    """A finished game as the history shows it."""

    number: int
    session: int | None
    started_at: datetime
    ended_at: datetime | None
    winner: str
    players: tuple[PlayerGame, ...]
    corrections: int = 0
    # The variants and house rules this game was dealt with.
    variants: tuple[VariantOn, ...] = ()
    # The way to play (the winner's words depend on it).
    mode: str = modes.DEFAULT

    @property
    def duration(self) -> timedelta | None:
        """How long the game took, from the deal to the end."""
        return self.ended_at - self.started_at if self.ended_at else None

    @property
    def minutes(self) -> int:
        """The duration in whole minutes (at least 1)."""
        duration = self.duration
        return max(1, round(duration.total_seconds() / 60)) if duration else 0

    @property
    def duration_text(self) -> str:
        """The duration in words."""
        return ngettext("%(n)d minute", "%(n)d minutes", self.minutes) % {"n": self.minutes}

    @property
    def winner_label(self) -> str:
        """The winning side in words."""
        names = [p.name for p in self.players if p.won] if self.mode != modes.DEFAULT else []
        return side_label(self.winner, self.mode, names)


def game_summary(
    mode: Mode, game: Game, running: dict[int, int] | None = None, corrections: int = 0
) -> GameSummary:
    """A finished game of this mode with its breakdowns; `running` carries cumulative totals
    across games."""
    results = sorted(game.results, key=lambda e: (e.get("position", 0), e["seat"]))
    names = {int(e["seat"]): e["name"] for e in results}
    idents = {int(e["seat"]): e["identity"] for e in results}
    players = []
    for entry in results:
        pk = int(entry["seat"])
        score = game.scores.get(str(pk), {})
        victims = tuple(
            Victim(int(v), names.get(int(v), ""), idents.get(int(v), ""))
            for v in entry.get("kills", [])
        )
        items: list[ScoreItem] = []
        for line in score.get("lines", []):
            code = line["code"]
            victim_identity = next((i for i, c in KILL_CODES.items() if c == code), None)
            if victim_identity is None:
                items.append(ScoreItem(code, line["points"], line["count"]))
                continue
            for victim in victims:
                if victim.identity == victim_identity:
                    items.append(ScoreItem(code, line["points"], 1, victim))
        total = int(score.get("total", 0))
        cumulative = total
        if running is not None:
            running[pk] = running.get(pk, 0) + total
            cumulative = running[pk]
        killer = entry.get("killer")
        duelist = mode.may_lose_final_duel(Identity(entry["identity"]))
        players.append(
            PlayerGame(
                seat=pk,
                name=entry["name"],
                position=int(entry.get("position", 0)),
                identity=entry["identity"],
                hero=entry.get("hero", ""),
                added_hero=entry.get("added_hero"),
                alive=bool(entry["alive"]),
                killer=killer,
                killer_name=names.get(int(killer), "") if killer is not None else "",
                kills=victims,
                final_duel=bool(entry.get("final_duel")),
                won=bool(score.get("won")),
                items=tuple(items),
                total=total,
                cumulative=cumulative,
                winner=game.winner,
                duelist=duelist,
                role=mode.role(Identity(entry["identity"])) or "",
                duel_scored=duelist
                and not entry["alive"]
                and bool(game.winner)
                and mode.final_duel_scored(Side(game.winner)),
            )
        )
    return GameSummary(
        number=game.number,
        session=game.session.number if game.session else None,
        started_at=game.started_at,
        ended_at=game.ended_at,
        winner=game.winner,
        players=tuple(players),
        corrections=corrections,
        variants=tuple(variants_on(mode.key, game.options)),
        mode=mode.key,
    )


def scored(games: Iterable[Game]) -> list[Game]:
    return [g for g in games if g.ended_at is not None and g.results and g.scores]


def correction_counts(table: Table) -> dict[int, int]:
    counts: dict[int, int] = {}
    for public in Event.objects.filter(
        table=table, kind=GAME_CORRECTED, private_to__isnull=True
    ).values_list("public", flat=True):
        number = int(public.get("game", 0))
        counts[number] = counts.get(number, 0) + 1
    return counts
