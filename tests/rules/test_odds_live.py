"""Judgement odds from the live deck (docs/rules.md §5; reference/README.md "Judgement facts")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules.cards import Suit, load_deck
from companion.rules.judgement import Check, odds
from companion.rules.odds import OutReason, live_odds, live_odds_of

S, H, C, D = Suit.SPADE, Suit.HEART, Suit.CLUB, Suit.DIAMOND


@pytest.mark.parametrize(
    ("ex", "maneuvering", "size", "struck"),
    [
        (False, False, 104, 16),
        (True, False, 108, 17),
        (False, True, 156, 24),
        (True, True, 160, 25),
    ],
)
def test_a_full_deck_matches_the_reference_table(
    ex: bool, maneuvering: bool, size: int, struck: int
) -> None:
    """reference/README.md: ♠2-9 strikes 16 / 17 / 24 / 25 times in 104 / 108 / 156 / 160."""
    live = live_odds(Check.LIGHTNING, ex=ex, maneuvering=maneuvering)
    assert (live.deck_size, live.remaining, live.taken_out) == (size, size, ())
    assert live.counts["struck"] == struck
    assert live.odds == odds(Check.LIGHTNING, load_deck(ex=ex, maneuvering=maneuvering))


def test_revealed_judgement_cards_are_taken_out_exactly() -> None:
    live = live_odds(Check.LIGHTNING, revealed=[(S, 5), ("heart", 12)])
    assert live.remaining == 106
    assert live.odds["struck"] == Fraction(16, 106)
    assert [(t.reason, t.cards) for t in live.taken_out] == [
        (OutReason.JUDGEMENT, (("♠5", Fraction(1)),)),
        (OutReason.JUDGEMENT, (("♥Q", Fraction(1)),)),
    ]


def test_a_unique_equipment_card_is_known_exactly() -> None:
    """寒冰剑 is the EX ♠2 (reference/ex_cards.csv): one ♠2 fewer."""
    live = live_odds(Check.LIGHTNING, equipment=["寒冰剑"])
    assert live.remaining == 107
    assert live.counts["struck"] == 16
    assert live.taken_out[0].cards == (("♠2", Fraction(1)),)
    assert live.taken_out[0].reason is OutReason.EQUIPMENT


def test_a_card_with_two_copies_is_taken_out_half_and_half() -> None:
    """八卦阵 is ♠2 or ♣2 (reference/standard_deck.csv): each is half out."""
    live = live_odds(Check.LIGHTNING, equipment=["八卦阵"])
    assert live.taken_out[0].cards == (("♠2", Fraction(1, 2)), ("♣2", Fraction(1, 2)))
    assert live.counts["struck"] == Fraction(33, 2)
    assert live.odds["struck"] == Fraction(33, 2) / 107
    both = live_odds(Check.LIGHTNING, equipment=["八卦阵", "八卦阵"])
    assert both.taken_out[0].count == 2
    assert both.taken_out[0].cards == (("♠2", Fraction(1)), ("♣2", Fraction(1)))


def test_delayed_tricks_in_the_zones_are_out_of_the_pile() -> None:
    """闪电 is ♠A or ♥Q: the chance of a heart for 乐不思蜀 drops by half a card."""
    live = live_odds(Check.INDULGENCE, delayed_tricks=["闪电", "乐不思蜀"])
    assert live.remaining == 106
    hearts = 27 - Fraction(1, 2) - Fraction(1, 3)  # 乐不思蜀 is ♠6, ♥6 or ♣6
    assert live.counts["escaped"] == hearts
    assert {t.reason for t in live.taken_out} == {OutReason.DELAYED_TRICK}


def test_a_card_known_elsewhere_narrows_the_copies() -> None:
    """Three ♠2 in std+EX (雌雄双股剑, 八卦阵, 寒冰剑): two revealed and 寒冰剑 on a seat leave no
    ♠2, so the 八卦阵 on a seat is the ♣2."""
    live = live_odds(Check.FREE, equipment=["八卦阵", "寒冰剑"], revealed=[(S, 2), (S, 2)])
    by_name = {t.name: t.cards for t in live.taken_out if t.name}
    assert by_name == {"寒冰剑": (("♠2", Fraction(1)),), "八卦阵": (("♣2", Fraction(1)),)}
    assert live.remaining == 104
    assert live.counts["spade"] == 27 - 3 and live.counts["club"] == 27 - 1


def test_maneuvering_cards_and_the_free_check() -> None:
    live = live_odds(Check.SUPPLY_SHORTAGE, maneuvering=True, equipment=["藤甲", "藤甲"])
    assert live.remaining == 158
    assert live.counts["escaped"] == 40 - 1  # the ♣2 藤甲
    free = live_odds(Check.FREE, maneuvering=True, delayed_tricks=["兵粮寸断"])
    assert free.counts["black"] == 80 - 1
    assert sum(free.counts[s.value] for s in Suit) == free.remaining


@pytest.mark.parametrize(
    "kwargs",
    [
        {"delayed_tricks": ["兵粮寸断"]},  # 军争 is off
        {"equipment": ["藤甲"]},
        {"equipment": ["八卦阵"] * 3},
        {"revealed": [(S, 2)] * 4},
        {"ex": False, "equipment": ["寒冰剑"]},
        {"equipment": ["赤兔"], "revealed": [(H, 5), (H, 5)]},  # 赤兔 is the only ♥5 left: no
    ],
)
def test_impossible_counts_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        live_odds(Check.LIGHTNING, **kwargs)  # type: ignore[arg-type]


def test_a_judgement_card_known_by_suit_only_takes_one_card_of_that_suit_out() -> None:
    """A judgement the rank does not decide is told by its suit: one heart less in the pile,
    spread over the hearts (so 闪电's odds, which no heart decides, keep their strikes)."""
    live = live_odds(Check.INDULGENCE, revealed=[("heart", None)])
    assert live.remaining == 107
    assert live.counts["escaped"] == 27 - 1  # 27 hearts in the 108 (26 + the EX ♥)
    assert live.odds["escaped"] == Fraction(26, 107)
    assert [(t.reason, t.cards) for t in live.taken_out] == [
        (OutReason.JUDGEMENT, (("♥", Fraction(1)),))
    ]
    lightning = live_odds(Check.LIGHTNING, revealed=[("heart", None), (S, 5)])
    assert lightning.counts["struck"] == 16 and lightning.remaining == 106


def test_every_check_at_once_gives_each_checks_own_odds() -> None:
    """The judgement helper asks for every check over one pile: the same odds, counts and cards
    taken out as each check asked alone."""
    known = {
        "maneuvering": True,
        "equipment": ["八卦阵", "寒冰剑"],
        "delayed_tricks": ["闪电"],
        "revealed": [(S, 5), ("heart", None)],
    }
    together = live_odds_of(list(Check), **known)  # type: ignore[arg-type]
    assert list(together) == list(Check)
    for check in Check:
        assert together[check] == live_odds(check, **known)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deck holds"):
        live_odds_of(list(Check), equipment=["寒冰剑", "寒冰剑"])
