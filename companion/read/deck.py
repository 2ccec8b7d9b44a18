"""Judgement odds from the live deck: the deck in play minus the equipment on
the seats, the delayed tricks in the zones and the judgement cards flipped since the last
"deck reshuffled" (rules.odds.live_odds), with what was taken out and how many remain."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.models import RESHUFFLED, Event, Table
from companion.rules.cards import expansions_on
from companion.rules.judgement import Check
from companion.rules.odds import OutReason, live_odds_of


@dataclass(frozen=True)
class DeckOdds:
    """Each check's odds over the cards left, and how they were found (`error`: the known
    cards do not fit the deck, e.g. a reshuffle was not tapped; then the full deck is used)."""

    odds: dict[str, list[tuple[str, Fraction]]]
    deck_size: int
    remaining: int
    revealed: list[str] = field(default_factory=list)
    equipment: list[tuple[str, int]] = field(default_factory=list)
    tricks: list[tuple[str, int]] = field(default_factory=list)
    error: bool = False


def revealed_cards(table: Table) -> list[tuple[str, int | None]]:
    """The judgement cards of this game flipped since the last reshuffle, as (suit, rank; None
    when only the suit was asked): the flipped card and any card 鬼才 put in its place, none of
    them in the draw pile now."""
    events = Event.objects.filter(
        table=table, game_number=table.game_number, kind__in=("judgement", RESHUFFLED)
    ).order_by("version")
    cards: list[tuple[str, int | None]] = []
    for event in events:
        if event.kind == RESHUFFLED:
            cards = []
            continue
        if event.undone_by is not None:
            continue
        judged: dict[str, Any] = event.after.get("judgement", {})
        for suit, rank in judged.get("replaced", []):
            cards.append((suit, None if rank is None else int(rank)))
        if judged.get("suit"):
            rank = judged.get("rank")
            cards.append((judged["suit"], None if rank is None else int(rank)))
    return cards


def deck_odds(table: Table, checks: list[Check]) -> DeckOdds:
    """The live odds of each check at this table now."""
    seats = [s for s in table.seats.all() if s.alive]
    equipment = [name for s in seats for name in (s.equipment or {}).values() if name]
    tricks = [name for s in seats for name in (s.judgement_zone or [])]
    revealed = revealed_cards(table)
    expansions = expansions_on(table.opts.flag)
    error = False
    try:
        found = live_odds_of(
            checks,
            equipment=equipment,
            delayed_tricks=tricks,
            revealed=revealed,
            **expansions,
        )
    except ValueError:
        # The known cards are the same for every check: they fit the deck for all or for none.
        error = True
        found = live_odds_of(checks, **expansions)
    any_odds = next(iter(found.values()))
    taken = any_odds.taken_out
    return DeckOdds(
        odds={
            check.value: list(o.odds.items()) if check is not Check.FREE else []
            for check, o in found.items()
        },
        deck_size=any_odds.deck_size,
        remaining=any_odds.remaining,
        revealed=[t.cards[0][0] for t in taken if t.reason is OutReason.JUDGEMENT],
        equipment=[(t.name, t.count) for t in taken if t.reason is OutReason.EQUIPMENT],
        tricks=[(t.name, t.count) for t in taken if t.reason is OutReason.DELAYED_TRICK],
        error=error,
    )
