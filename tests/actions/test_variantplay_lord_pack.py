"""The lord pack (docs/rules.md §9.5, seed 004): with it on, the lord is offered 3 random
non-lord heroes and one drawn from the box's lord heroes, at the start and on a re-deal; the
lord may pick any of the four; without it, docs/rules.md §2's five with 曹操, 刘备 and 孙权."""

from __future__ import annotations

import pytest

from companion import actions
from companion.models import Seat, Table
from companion.rules import box
from tests.support.game import started

pytestmark = pytest.mark.django_db

LORDS = {h.id for h in box.Box().lord_heroes()}
HEROES = set(box.Box().ids())


def lord_of(table: Table) -> Seat:
    return Seat.objects.get(table=table, identity="lord")


def assert_lord_pack(offer: list[str]) -> None:
    assert len(offer) == 4 and len(set(offer)) == 4
    assert set(offer) <= HEROES
    assert offer[3] in LORDS, "the fourth is drawn from the box's lord heroes"
    assert not set(offer[:3]) & LORDS, "the three others are not lord heroes"


def test_with_the_lord_pack_the_lord_is_offered_three_heroes_and_one_lord_hero() -> None:
    seen_lords: set[str] = set()
    seen_others: set[str] = set()
    for _ in range(12):
        table, _seats = started(5, lord_pack=True)
        offer = lord_of(table).hero_candidates
        assert_lord_pack(offer)
        seen_lords.add(offer[3])
        seen_others |= set(offer[:3])
        actions.heroes_redeal(token=table.host_token, confirm=True)
        assert_lord_pack(lord_of(table).hero_candidates)
    # Drawn at random, not a fixed offer.
    assert len(seen_lords) >= 2 and len(seen_others) >= 6


def test_the_lord_picks_a_non_lord_hero_from_the_pack_and_the_others_choose() -> None:
    table, _seats = started(5, lord_pack=True)
    lord = lord_of(table)
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    table.refresh_from_db()
    assert table.hero_stage == Table.HeroStage.OTHERS
    assert Seat.objects.get(pk=lord.pk).hero == lord.hero_candidates[0]
    for seat in Seat.objects.filter(table=table).exclude(pk=lord.pk):
        assert (
            len(seat.hero_candidates) == 3 and lord.hero_candidates[0] not in seat.hero_candidates
        )


def test_without_the_lord_pack_the_usual_five() -> None:
    table, _seats = started(5)
    offer = lord_of(table).hero_candidates
    assert len(offer) == 5 and LORDS <= set(offer)
