"""Judgement odds from the live deck (docs/rules.md §5; reference/README.md "Judgement facts").

The deck in play is the standard 104, the 4 EX cards and the cards of each expansion on. Cards known
to be out of the draw pile are taken out: equipment on the seats and delayed tricks in the zones
(known by name) and judgement cards revealed since the deck was last reshuffled (known by suit and
rank). A card known by name only may be any of its copies: each copy is taken out in part (two
八卦阵 in the deck, one on a seat: half of ♠2 and half of ♣2), which gives the exact odds when
every copy is as likely to be the one in play. The odds say which cards were taken out and how
many remain.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from companion.rules.cards import Card, Suit, load_deck, rank_label
from companion.rules.judgement import COLOURS, OUTCOMES, Check, judge

Key = tuple[Suit, int]


class OutReason(StrEnum):
    """Why a card is not in the draw pile."""

    JUDGEMENT = "judgement"  # revealed as a judgement card since the last reshuffle
    EQUIPMENT = "equipment"  # on a seat
    DELAYED_TRICK = "delayed_trick"  # in a judgement zone


@dataclass(frozen=True)
class TakenOut:
    """Cards taken out for one reason: `name` ("" for a judgement card known by suit and rank),
    how many, and which physical cards with the share of each (1 when the card is known)."""

    name: str
    reason: OutReason
    count: int
    cards: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class LiveOdds:
    """The odds of each outcome over the cards left, and how they were found."""

    check: Check
    deck_size: int
    remaining: int
    taken_out: tuple[TakenOut, ...]
    counts: dict[str, Fraction]
    odds: dict[str, Fraction]


def _label(key: Key) -> str:
    return f"{key[0].symbol}{rank_label(key[1])}"


def _spread(
    need: Fraction, copies: list[Key], left: dict[Key, Fraction], name: str
) -> dict[Key, Fraction]:
    """Take `need` cards out evenly over a name's copies, never more than a bucket still holds."""
    multiplicity = Counter(copies)
    share: dict[Key, Fraction] = {key: Fraction(0) for key in multiplicity}
    open_keys = [key for key in multiplicity if left[key] > 0]
    while need > 0 and open_keys:
        weight = sum(multiplicity[key] for key in open_keys)
        wanted = need
        still_open: list[Key] = []
        for key in open_keys:
            want = wanted * multiplicity[key] / weight
            room = min(Fraction(multiplicity[key]), left[key]) - share[key]
            take = min(want, room)
            share[key] += take
            need -= take
            if room > want:
                still_open.append(key)
        open_keys = still_open
    if need > 0:
        raise ValueError(f"more {name} out of the pile than the deck holds")
    return {key: value for key, value in share.items() if value}


def live_odds(
    check: Check,
    *,
    ex: bool = True,
    equipment: Sequence[str] = (),
    delayed_tricks: Sequence[str] = (),
    revealed: Sequence[tuple[Suit | str, int | None]] = (),
    **expansions: bool,
) -> LiveOdds:
    """The odds of `check` over the cards left in the draw pile.

    `equipment` and `delayed_tricks` are the Chinese names of every card on the seats and in the
    zones; `revealed` the judgement cards flipped since the last reshuffle, as (suit, rank), the
    rank None when only the suit was asked: then one card of that suit is taken out, spread
    evenly over that suit's cards left (as a card known by name is over its copies).
    ValueError when a card named is not in this deck or more of it are out than the deck holds.
    """
    check = Check(check)
    found = live_odds_of(
        [check],
        ex=ex,
        equipment=equipment,
        delayed_tricks=delayed_tricks,
        revealed=revealed,
        **expansions,
    )
    return found[check]


def live_odds_of(
    checks: Sequence[Check],
    *,
    ex: bool = True,
    equipment: Sequence[str] = (),
    delayed_tricks: Sequence[str] = (),
    revealed: Sequence[tuple[Suit | str, int | None]] = (),
    **expansions: bool,
) -> dict[Check, LiveOdds]:
    """`live_odds` of several checks over the same draw pile, the pile worked out once (the
    judgement helper shows every check's odds at once)."""
    deck: tuple[Card, ...] = load_deck(ex=ex, **expansions)
    left, taken = _pile(deck, equipment, delayed_tricks, revealed)
    remaining_total = sum(left.values(), Fraction(0))
    if remaining_total <= 0:
        raise ValueError("no cards left to judge from")
    remaining = int(remaining_total)  # whole cards were taken out, in shares that sum to 1
    found: dict[Check, LiveOdds] = {}
    for raw in checks:
        check = Check(raw)
        counts: dict[str, Fraction] = {outcome: Fraction(0) for outcome in OUTCOMES[check]}
        for (suit, rank), weight in left.items():
            if not weight:
                continue
            if check is Check.FREE:
                counts[suit.value] += weight
                counts[COLOURS[0] if suit.is_red else COLOURS[1]] += weight
            else:
                counts[judge(check, suit, rank).outcome] += weight
        found[check] = LiveOdds(
            check=check,
            deck_size=len(deck),
            remaining=remaining,
            taken_out=taken,
            counts=counts,
            odds={outcome: count / remaining_total for outcome, count in counts.items()},
        )
    return found


def _pile(
    deck: tuple[Card, ...],
    equipment: Sequence[str],
    delayed_tricks: Sequence[str],
    revealed: Sequence[tuple[Suit | str, int | None]],
) -> tuple[dict[Key, Fraction], tuple[TakenOut, ...]]:
    """The share of each (suit, rank) left in the draw pile, and what was taken out."""
    left: dict[Key, Fraction] = defaultdict(Fraction)
    copies: dict[str, list[Key]] = defaultdict(list)
    for card in deck:
        left[(card.suit, card.rank)] += 1
        copies[card.name_zh].append((card.suit, card.rank))
    taken: list[TakenOut] = []

    # Judgement cards known exactly come out first; those known by suit only once they are.
    suit_only: list[Suit] = []
    for raw_suit, rank in revealed:
        if rank is None:
            suit_only.append(Suit(raw_suit))
            continue
        key = (Suit(raw_suit), rank)
        if left.get(key, Fraction(0)) < 1:
            raise ValueError(f"judgement card {_label(key)} is not left in the deck")
        left[key] -= 1
        taken.append(TakenOut("", OutReason.JUDGEMENT, 1, ((_label(key), Fraction(1)),)))
    for suit in suit_only:
        of_suit = [(card.suit, card.rank) for card in deck if card.suit is suit]
        for key, value in _spread(Fraction(1), of_suit, left, suit.symbol).items():
            left[key] -= value
        taken.append(TakenOut("", OutReason.JUDGEMENT, 1, ((suit.symbol, Fraction(1)),)))

    named: Counter[tuple[str, OutReason]] = Counter()
    for name in equipment:
        named[(name, OutReason.EQUIPMENT)] += 1
    for name in delayed_tricks:
        named[(name, OutReason.DELAYED_TRICK)] += 1
    # Names with fewer copies first: a card known exactly does not share a bucket's count.
    for (name, reason), count in sorted(named.items(), key=lambda item: len(copies[item[0][0]])):
        if name not in copies:
            raise ValueError(f"{name} is not in this deck")
        if count > len(copies[name]):
            raise ValueError(f"{count} {name} in play, the deck holds {len(copies[name])}")
        shares = _spread(Fraction(count), copies[name], left, name)
        for key, value in shares.items():
            left[key] -= value
        cards = tuple((_label(key), value) for key, value in sorted(shares.items(), key=_order))
        taken.append(TakenOut(name, reason, count, cards))

    return left, tuple(taken)


_SUIT_ORDER = {suit: position for position, suit in enumerate(Suit)}


def _order(item: tuple[Key, Fraction]) -> tuple[int, int]:
    (suit, rank), _value = item
    return (_SUIT_ORDER[suit], rank)
