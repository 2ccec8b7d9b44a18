"""Judgement verdicts (docs/rules.md §5) and odds against reference/README.md's judgement table."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion.rules.cards import Suit, load_deck
from companion.rules.judgement import (
    JUDGED_DELAYED_TRICKS,
    Check,
    Verdict,
    judge,
    odds,
)

S, H, C, D = Suit.SPADE, Suit.HEART, Suit.CLUB, Suit.DIAMOND
ALL_CARDS = [(suit, rank) for suit in (S, H, C, D) for rank in range(1, 14)]
STRIKE_RANKS = {2, 3, 4, 5, 6, 7, 8, 9}


def expected_verdict(check: Check, suit: Suit, rank: int) -> tuple[bool, str, str]:
    """(favourable, outcome, next_step) written out from the docs/rules.md §5 table."""
    red = suit in (H, D)
    if check is Check.INDULGENCE:
        return (True, "escaped", "none") if suit == H else (False, "skip_play", "skip_play_phase")
    if check is Check.SUPPLY_SHORTAGE:
        return (True, "escaped", "none") if suit == C else (False, "skip_draw", "skip_draw_phase")
    if check is Check.LIGHTNING:
        if suit == S and rank in STRIKE_RANKS:
            return (False, "struck", "take_3_thunder_damage_and_discard")
        return (True, "passes_on", "move_to_next_player")
    if check is Check.EIGHT_TRIGRAMS:
        return (True, "dodge", "counts_as_dodge") if red else (False, "no_dodge", "may_play_dodge")
    if check is Check.IRON_CAVALRY:
        if red:
            return (True, "unblockable", "slash_cannot_be_dodged")
        return (False, "normal", "may_play_dodge")
    if check is Check.GANGLIE:
        if suit != H:
            return (True, "succeeds", "source_discards_2_or_takes_1")
        return (False, "fails", "none")
    if check is Check.LUOSHEN:
        if not red:
            return (True, "gain_card_again", "gain_card_and_may_judge_again")
        return (False, "stop", "stop_judging")
    return (False, suit.value, "none")


@pytest.mark.parametrize("check", list(Check))
@pytest.mark.parametrize(("suit", "rank"), ALL_CARDS)
def test_every_check_every_card(check: Check, suit: Suit, rank: int) -> None:
    verdict = judge(check, suit, rank)
    assert isinstance(verdict, Verdict)
    assert (verdict.check, verdict.suit, verdict.rank) == (check, suit, rank)
    assert (verdict.favourable, verdict.outcome, verdict.next_step) == expected_verdict(
        check, suit, rank
    )


@pytest.mark.parametrize(
    ("suit", "rank", "outcome"),
    [
        (S, 1, "passes_on"),
        (S, 2, "struck"),
        (S, 5, "struck"),
        (S, 9, "struck"),
        (S, 10, "passes_on"),
        (S, 11, "passes_on"),
        (S, 13, "passes_on"),
        (C, 2, "passes_on"),
        (C, 9, "passes_on"),
        (H, 2, "passes_on"),
        (D, 9, "passes_on"),
    ],
)
def test_lightning_rank_edges(suit: Suit, rank: int, outcome: str) -> None:
    assert judge(Check.LIGHTNING, suit, rank).outcome == outcome


@pytest.mark.parametrize(
    ("check", "suit", "favourable"),
    [
        (Check.INDULGENCE, H, True),
        (Check.INDULGENCE, D, False),
        (Check.INDULGENCE, S, False),
        (Check.INDULGENCE, C, False),
        (Check.SUPPLY_SHORTAGE, C, True),
        (Check.SUPPLY_SHORTAGE, S, False),
        (Check.SUPPLY_SHORTAGE, H, False),
        (Check.SUPPLY_SHORTAGE, D, False),
        (Check.EIGHT_TRIGRAMS, H, True),
        (Check.EIGHT_TRIGRAMS, D, True),
        (Check.EIGHT_TRIGRAMS, S, False),
        (Check.EIGHT_TRIGRAMS, C, False),
        (Check.IRON_CAVALRY, H, True),
        (Check.IRON_CAVALRY, D, True),
        (Check.IRON_CAVALRY, S, False),
        (Check.IRON_CAVALRY, C, False),
        (Check.GANGLIE, S, True),
        (Check.GANGLIE, C, True),
        (Check.GANGLIE, D, True),
        (Check.GANGLIE, H, False),
        (Check.LUOSHEN, S, True),
        (Check.LUOSHEN, C, True),
        (Check.LUOSHEN, H, False),
        (Check.LUOSHEN, D, False),
    ],
)
@pytest.mark.parametrize("rank", [1, 2, 9, 10, 13])
def test_suit_checks_at_rank_edges(check: Check, suit: Suit, favourable: bool, rank: int) -> None:
    assert judge(check, suit, rank).favourable is favourable


@pytest.mark.parametrize("rank", [0, 14, -1, 100])
@pytest.mark.parametrize("check", list(Check))
def test_rank_out_of_range(check: Check, rank: int) -> None:
    with pytest.raises(ValueError):
        judge(check, S, rank)


@pytest.mark.parametrize("suit", ["joker", "", "red"])
def test_unknown_suit(suit: str) -> None:
    with pytest.raises(ValueError):
        judge(Check.LIGHTNING, suit, 5)  # type: ignore[arg-type]


def test_unknown_check() -> None:
    with pytest.raises(ValueError):
        judge("weather", S, 5)  # type: ignore[arg-type]


def test_judge_accepts_codes() -> None:
    assert judge("lightning", "spade", 2).outcome == "struck"  # type: ignore[arg-type]


def test_check_values() -> None:
    assert [c.value for c in Check] == [
        "indulgence",
        "supply_shortage",
        "lightning",
        "eight_trigrams",
        "iron_cavalry",
        "ganglie",
        "luoshen",
        "free",
    ]


def test_judged_delayed_tricks() -> None:
    assert dict(JUDGED_DELAYED_TRICKS) == {
        "乐不思蜀": Check.INDULGENCE,
        "兵粮寸断": Check.SUPPLY_SHORTAGE,
        "闪电": Check.LIGHTNING,
    }
    delayed = {c.name_zh for c in load_deck(ex=True, maneuvering=True) if c.type == "delayed_trick"}
    assert delayed == set(JUDGED_DELAYED_TRICKS)


# reference/README.md "Judgement facts": (deck flags) -> total and the count per outcome.
DECK_FLAGS = {104: (False, False), 108: (True, False), 156: (False, True), 160: (True, True)}
PUBLISHED = {
    # (check, outcome): counts for 104, 108, 156, 160
    (Check.LIGHTNING, "struck"): (16, 17, 24, 25),
    (Check.INDULGENCE, "escaped"): (26, 27, 39, 40),
    (Check.SUPPLY_SHORTAGE, "escaped"): (26, 27, 39, 40),
    (Check.EIGHT_TRIGRAMS, "dodge"): (52, 54, 78, 80),
    (Check.IRON_CAVALRY, "unblockable"): (52, 54, 78, 80),
    (Check.GANGLIE, "succeeds"): (78, 81, 117, 120),
    (Check.LUOSHEN, "gain_card_again"): (52, 54, 78, 80),
}
OTHER_OUTCOME = {
    Check.LIGHTNING: "passes_on",
    Check.INDULGENCE: "skip_play",
    Check.SUPPLY_SHORTAGE: "skip_draw",
    Check.EIGHT_TRIGRAMS: "no_dodge",
    Check.IRON_CAVALRY: "normal",
    Check.GANGLIE: "fails",
    Check.LUOSHEN: "stop",
}


@pytest.mark.parametrize(("key", "counts"), PUBLISHED.items(), ids=lambda v: str(v))
@pytest.mark.parametrize("size", list(DECK_FLAGS))
def test_odds_match_published_counts(
    key: tuple[Check, str], counts: tuple[int, ...], size: int
) -> None:
    check, outcome = key
    ex, maneuvering = DECK_FLAGS[size]
    deck = load_deck(ex=ex, maneuvering=maneuvering)
    count = counts[list(DECK_FLAGS).index(size)]
    result = odds(check, deck)
    assert result == {
        outcome: Fraction(count, size),
        OTHER_OUTCOME[check]: Fraction(size - count, size),
    }


@pytest.mark.parametrize(
    ("size", "struck"),
    [
        (104, Fraction(2, 13)),
        (108, Fraction(17, 108)),
        (156, Fraction(2, 13)),
        (160, Fraction(5, 32)),
    ],
)
def test_lightning_odds_reduced(size: int, struck: Fraction) -> None:
    ex, maneuvering = DECK_FLAGS[size]
    assert odds(Check.LIGHTNING, load_deck(ex=ex, maneuvering=maneuvering))["struck"] == struck


@pytest.mark.parametrize("size", list(DECK_FLAGS))
def test_free_odds(size: int) -> None:
    ex, maneuvering = DECK_FLAGS[size]
    result = odds(Check.FREE, load_deck(ex=ex, maneuvering=maneuvering))
    quarter, half = Fraction(1, 4), Fraction(1, 2)
    assert result == {
        "spade": quarter,
        "heart": quarter,
        "club": quarter,
        "diamond": quarter,
        "red": half,
        "black": half,
    }


@pytest.mark.parametrize("check", [c for c in Check if c is not Check.FREE])
@pytest.mark.parametrize("size", list(DECK_FLAGS))
def test_odds_sum_to_one(check: Check, size: int) -> None:
    ex, maneuvering = DECK_FLAGS[size]
    assert sum(odds(check, load_deck(ex=ex, maneuvering=maneuvering)).values()) == 1


def test_seen_cards_are_removed() -> None:
    deck = load_deck(ex=False)
    seen = [(S, 2), (S, 3), (H, 1)]
    assert odds(Check.LIGHTNING, deck, seen)["struck"] == Fraction(14, 101)
    assert odds(Check.INDULGENCE, deck, seen)["escaped"] == Fraction(25, 101)
    assert odds(Check.SUPPLY_SHORTAGE, deck, seen)["escaped"] == Fraction(26, 101)
    assert odds(Check.EIGHT_TRIGRAMS, deck, seen)["dodge"] == Fraction(51, 101)
    assert odds(Check.GANGLIE, deck, seen)["succeeds"] == Fraction(76, 101)
    assert odds(Check.LUOSHEN, deck, seen)["gain_card_again"] == Fraction(50, 101)
    free = odds(Check.FREE, deck, seen)
    assert free["spade"] == Fraction(24, 101)
    assert free["heart"] == Fraction(25, 101)
    assert free["red"] == Fraction(51, 101)
    assert free["black"] == Fraction(50, 101)


def test_seen_non_striking_spade_raises_strike_odds() -> None:
    deck = load_deck()
    seen = [(S, 1), (S, 10), (S, 13), (H, 12)]
    assert odds(Check.LIGHTNING, deck, seen)["struck"] == Fraction(17, 104)


def test_every_strike_card_seen() -> None:
    deck = load_deck(ex=True)
    seen = [(S, r) for r in STRIKE_RANKS for _ in range(2)] + [(S, 2)]
    assert len(seen) == 17
    assert odds(Check.LIGHTNING, deck, seen) == {"struck": Fraction(0), "passes_on": Fraction(1)}


def test_seen_accepts_codes() -> None:
    deck = load_deck(ex=False)
    assert odds(Check.LIGHTNING, deck, [("spade", 2)])["struck"] == Fraction(15, 103)  # type: ignore[list-item]


def test_seen_more_than_the_deck_holds() -> None:
    deck = load_deck(ex=False)
    with pytest.raises(ValueError):
        odds(Check.LIGHTNING, deck, [(S, 2), (S, 2), (S, 2)])
    # The EX 寒冰剑 is a third ♠2.
    odds(Check.LIGHTNING, load_deck(ex=True), [(S, 2), (S, 2), (S, 2)])


@pytest.mark.parametrize("seen", [[(S, 0)], [(S, 14)], [("joker", 3)]])
def test_seen_bad_card(seen: list[tuple[Suit, int]]) -> None:
    with pytest.raises(ValueError):
        odds(Check.LIGHTNING, load_deck(), seen)


def test_no_cards_left() -> None:
    deck = load_deck(ex=False)
    seen = [(c.suit, c.rank) for c in deck]
    with pytest.raises(ValueError):
        odds(Check.FREE, deck, seen)
    assert odds(Check.LUOSHEN, deck, seen[:-1]) == {
        "gain_card_again": Fraction(0),
        "stop": Fraction(1),
    }


def test_odds_agree_with_verdicts_exhaustively() -> None:
    deck = load_deck(ex=True, maneuvering=True)
    for check in (c for c in Check if c is not Check.FREE):
        for seen in itertools.combinations(ALL_CARDS[::7], 3):
            left = list(deck)
            for key in seen:
                left.remove(next(c for c in left if (c.suit, c.rank) == key))
            expected: dict[str, int] = {}
            for card in left:
                outcome = expected_verdict(check, card.suit, card.rank)[1]
                expected[outcome] = expected.get(outcome, 0) + 1
            result = odds(check, deck, list(seen))
            assert {k: v for k, v in result.items() if v} == {
                k: Fraction(v, len(left)) for k, v in expected.items()
            }


def test_only_lightning_s_rank_decides_its_outcome() -> None:
    """docs/rules.md §5: 闪电 strikes on ♠2-9; every other check reads the suit alone, so the helper
    asks the rank only for 闪电."""
    from companion.rules.judgement import rank_decides

    assert [c for c in Check if rank_decides(c)] == [Check.LIGHTNING]


@pytest.mark.parametrize("check", [c for c in Check if c is not Check.LIGHTNING])
@pytest.mark.parametrize("suit", [S, H, C, D])
def test_a_suit_alone_gives_the_same_verdict_as_any_rank(check: Check, suit: Suit) -> None:
    verdict = judge(check, suit, None)
    assert verdict.rank is None
    for rank in range(1, 14):
        full = judge(check, suit, rank)
        assert (verdict.outcome, verdict.favourable, verdict.next_step) == (
            full.outcome,
            full.favourable,
            full.next_step,
        )


def test_lightning_without_a_rank_is_refused() -> None:
    with pytest.raises(ValueError, match="rank"):
        judge(Check.LIGHTNING, S, None)
