"""Judgement (判定) verdicts and outcome odds over the cards left in the deck (docs/rules.md §5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from companion.rules.cards import MAX_RANK, MIN_RANK, Card, Suit
from companion.rules.tricks import deck_delayed_tricks


class Check(StrEnum):
    """What a judgement is for."""

    INDULGENCE = "indulgence"
    SUPPLY_SHORTAGE = "supply_shortage"
    LIGHTNING = "lightning"
    EIGHT_TRIGRAMS = "eight_trigrams"
    IRON_CAVALRY = "iron_cavalry"
    GANGLIE = "ganglie"
    LUOSHEN = "luoshen"
    FREE = "free"


@dataclass(frozen=True)
class Verdict:
    """The result of one judgement card.

    `favourable` is True when the result is good for the player who judges:
    乐不思蜀 and 兵粮寸断: the trick is escaped (heart / club);
    闪电: it does not strike (anything but ♠2-9);
    八卦阵: the armour's wearer gets a 闪 (red);
    铁骑: 马超's 杀 cannot be dodged (red);
    刚烈: 夏侯惇's revenge succeeds (not heart);
    洛神: 甄姬 gains the card and may judge again (black);
    FREE: always False (no side is favoured).
    `outcome` is a stable code of the result and `next_step` a stable code of what follows;
    for FREE, `outcome` is the suit code and `next_step` is "none".
    """

    check: Check
    suit: Suit
    rank: int | None
    favourable: bool
    outcome: str
    next_step: str


@dataclass(frozen=True)
class _Rule:
    """How one check reads a card: (outcome, next_step) on a hit and on a miss."""

    hits: Callable[[Suit, int], bool]
    hit: tuple[str, str]
    miss: tuple[str, str]
    hit_is_favourable: bool


def _lightning_strikes(suit: Suit, rank: int) -> bool:
    """♠2 to ♠9 inclusive."""
    return suit is Suit.SPADE and 2 <= rank <= 9


_RULES: dict[Check, _Rule] = {
    Check.INDULGENCE: _Rule(
        hits=lambda suit, _rank: suit is Suit.HEART,
        hit=("escaped", "none"),
        miss=("skip_play", "skip_play_phase"),
        hit_is_favourable=True,
    ),
    Check.SUPPLY_SHORTAGE: _Rule(
        hits=lambda suit, _rank: suit is Suit.CLUB,
        hit=("escaped", "none"),
        miss=("skip_draw", "skip_draw_phase"),
        hit_is_favourable=True,
    ),
    Check.LIGHTNING: _Rule(
        hits=_lightning_strikes,
        hit=("struck", "take_3_thunder_damage_and_discard"),
        miss=("passes_on", "move_to_next_player"),
        hit_is_favourable=False,
    ),
    Check.EIGHT_TRIGRAMS: _Rule(
        hits=lambda suit, _rank: suit.is_red,
        hit=("dodge", "counts_as_dodge"),
        miss=("no_dodge", "may_play_dodge"),
        hit_is_favourable=True,
    ),
    Check.IRON_CAVALRY: _Rule(
        hits=lambda suit, _rank: suit.is_red,
        hit=("unblockable", "slash_cannot_be_dodged"),
        miss=("normal", "may_play_dodge"),
        hit_is_favourable=True,
    ),
    # Newer official wording (000/002 判定总结 "红桃不中"): anything but a heart succeeds.
    Check.GANGLIE: _Rule(
        hits=lambda suit, _rank: suit is not Suit.HEART,
        hit=("succeeds", "source_discards_2_or_takes_1"),
        miss=("fails", "none"),
        hit_is_favourable=True,
    ),
    Check.LUOSHEN: _Rule(
        hits=lambda suit, _rank: suit.is_black,
        hit=("gain_card_again", "gain_card_and_may_judge_again"),
        miss=("stop", "stop_judging"),
        hit_is_favourable=True,
    ),
}

COLOURS: tuple[str, str] = ("red", "black")

OUTCOMES: Mapping[Check, tuple[str, ...]] = MappingProxyType(
    {
        **{check: (rule.hit[0], rule.miss[0]) for check, rule in _RULES.items()},
        Check.FREE: (*(suit.value for suit in Suit), *COLOURS),
    }
)

JUDGED_DELAYED_TRICKS: Mapping[str, Check] = MappingProxyType(
    {
        "乐不思蜀": Check.INDULGENCE,
        "兵粮寸断": Check.SUPPLY_SHORTAGE,
        "闪电": Check.LIGHTNING,
    }
)


def deck_checks(**expansions: bool) -> list[Check]:
    """The judgements of the deck in play (`expansions`: the card expansions on, by key): every
    check but that of a delayed trick the deck has no copy of (兵粮寸断 comes with an
    expansion)."""
    tricks = deck_delayed_tricks(**expansions)
    absent = {check for name, check in JUDGED_DELAYED_TRICKS.items() if name not in tricks}
    return [check for check in Check if check not in absent]


def _check_rank(rank: int) -> None:
    """Raise ValueError unless rank is an int in 1..13."""
    if isinstance(rank, bool) or not isinstance(rank, int) or not MIN_RANK <= rank <= MAX_RANK:
        raise ValueError(f"rank out of range 1..13: {rank!r}")


def rank_decides(check: Check) -> bool:
    """Whether the rank can change this check's outcome: only then is it asked (闪电's ♠2-9).
    Read off the check's own rule over every card, so a new rule says it by itself; FREE's
    outcome is the suit."""
    check = Check(check)
    if check is Check.FREE:
        return False
    hits = _RULES[check].hits
    return any(
        len({hits(suit, rank) for rank in range(MIN_RANK, MAX_RANK + 1)}) > 1 for suit in Suit
    )


def judge(check: Check, suit: Suit, rank: int | None) -> Verdict:
    """Read one judgement card for the given check. `rank` may be None (not asked) when the
    rank does not decide the check (`rank_decides`); ValueError when it does."""
    check = Check(check)
    suit = Suit(suit)
    if rank is None:
        if rank_decides(check):
            raise ValueError(f"{check.value} needs the card's rank")
    else:
        _check_rank(rank)
    if check is Check.FREE:
        return Verdict(check, suit, rank, favourable=False, outcome=suit.value, next_step="none")
    rule = _RULES[check]
    hit = rule.hits(suit, MIN_RANK if rank is None else rank)
    outcome, next_step = rule.hit if hit else rule.miss
    return Verdict(
        check,
        suit,
        rank,
        favourable=hit == rule.hit_is_favourable,
        outcome=outcome,
        next_step=next_step,
    )


def remaining_cards(
    deck: Sequence[Card], seen: Sequence[tuple[Suit, int]] = ()
) -> Counter[tuple[Suit, int]]:
    """Count of each (suit, rank) left after removing one card per seen (suit, rank)."""
    left: Counter[tuple[Suit, int]] = Counter((card.suit, card.rank) for card in deck)
    for seen_suit, seen_rank in seen:
        _check_rank(seen_rank)
        key = (Suit(seen_suit), seen_rank)
        if left[key] <= 0:
            raise ValueError(f"seen card {key[0].value} {seen_rank} is not left in the deck")
        left[key] -= 1
    return +left


def odds(
    check: Check, deck: Sequence[Card], seen: Sequence[tuple[Suit, int]] = ()
) -> dict[str, Fraction]:
    """Probability of each outcome code over the cards left (FREE: per suit and per colour)."""
    check = Check(check)
    left = remaining_cards(deck, seen)
    total = sum(left.values())
    if total == 0:
        raise ValueError("no cards left to judge from")
    counts: Counter[str] = Counter({outcome: 0 for outcome in OUTCOMES[check]})
    for (suit, rank), count in left.items():
        if check is Check.FREE:
            counts[suit.value] += count
            counts["red" if suit.is_red else "black"] += count
        else:
            counts[judge(check, suit, rank).outcome] += count
    return {outcome: Fraction(counts[outcome], total) for outcome in OUTCOMES[check]}


# Skills that replace a judgement card before it takes effect (docs/rules.md §5), by hero id: 鬼才
# of 司马懿. While one may still act, only its owner lets the result take effect.
REPLACING_SKILLS: Mapping[str, str] = MappingProxyType({"WEI002": "鬼才"})


def replacer_may_act(hero: str, alive: bool) -> bool:
    """Whether a seat with this hero can still replace the waiting judgement card."""
    return alive and hero in REPLACING_SKILLS
