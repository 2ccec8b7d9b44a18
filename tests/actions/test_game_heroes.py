"""A game through the services: the start and the heroes (candidates, the lord's pick, private
picks revealed together, HP from the hero, redeals).
"""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.models import Event
from companion.rules.heroes import LORD_HERO_IDS, hero_by_id
from tests.support.game import by_identity, fresh, picked_all, snapshot, started

pytestmark = pytest.mark.django_db


# Heroes ---------------------------------------------------------------------------------------


def test_start_offers_the_lord_five_with_the_three_lords() -> None:
    table, seats = started(5)
    assert table.status == "heroes" and table.hero_stage == "lord"
    lord = by_identity(table, "lord")[0]
    assert len(lord.hero_candidates) == 5
    assert set(LORD_HERO_IDS) <= set(lord.hero_candidates)
    assert all(not s.hero_candidates for s in seats if s.pk != lord.pk)


def test_first_game_mode_skips_heroes_with_hp_four_and_lord_five() -> None:
    table, seats = started(5, first_game_mode=True)
    assert table.status == "playing"
    for seat in seats:
        assert seat.hero == ""
        assert seat.max_hp == seat.hp == (5 if seat.identity == "lord" else 4)


def test_first_game_mode_four_players_lord_has_four() -> None:
    table, seats = started(4, first_game_mode=True)
    assert {s.max_hp for s in seats} == {4}


def test_others_wait_for_the_lord() -> None:
    table, seats = started(4)
    other = next(s for s in seats if s.identity != "lord")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=other.token, hero_id="WEI002")
    assert err.value.code == "lord_first"
    assert snapshot(table) == before


def test_lord_pick_is_public_at_once_and_others_get_disjoint_candidates() -> None:
    table, seats = started(8)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="SHU001")
    table.refresh_from_db()
    assert table.hero_stage == "others"
    lord = fresh(lord)
    assert lord.hero == "SHU001"
    hands = [fresh(s).hero_candidates for s in seats if s.pk != lord.pk]
    assert all(len(h) == 3 for h in hands)
    flat = [h for hand in hands for h in hand]
    assert len(flat) == len(set(flat)) and "SHU001" not in flat


def test_ten_players_get_two_candidates_each() -> None:
    table, seats = started(10)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    hands = [fresh(s).hero_candidates for s in seats if s.pk != lord.pk]
    assert [len(h) for h in hands] == [2] * 9


def test_picks_stay_private_until_the_last_then_all_reveal_with_hp() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="WEI001")
    others = [fresh(s) for s in seats if s.pk != lord.pk]
    actions.hero_pick(token=others[0].token, hero_id=others[0].hero_candidates[0])
    # A change of mind is allowed until everyone has picked.
    actions.hero_pick(token=others[0].token, hero_id=others[0].hero_candidates[1])
    assert (
        fresh(others[0]).hero == "" and fresh(others[0]).hero_pick == others[0].hero_candidates[1]
    )
    actions.hero_pick(token=others[1].token, hero_id=others[1].hero_candidates[0])
    table.refresh_from_db()
    assert table.status == "heroes"
    actions.hero_pick(token=others[2].token, hero_id=others[2].hero_candidates[2])
    table.refresh_from_db()
    assert table.status == "playing" and table.hero_stage == ""
    for seat in map(fresh, seats):
        assert seat.hero == seat.hero_pick
        hero_hp = hero_by_id(seat.hero).hp
        # Four players: no lord bonus.
        assert seat.max_hp == seat.hp == hero_hp
    kinds = list(Event.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds.count("heroes_revealed") == 1
    assert kinds.count("hero_repicked") == 1
    picked = Event.objects.filter(table=table, kind="hero_picked").first()
    assert "hero" not in picked.public and "pick" not in picked.public


def test_lord_gets_plus_one_from_five_players() -> None:
    table, seats = picked_all(5)
    lord = by_identity(table, "lord")[0]
    assert lord.max_hp == hero_by_id(lord.hero).hp + 1


def test_picking_a_hero_not_offered_or_twice_after_reveal_is_refused() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    not_offered = next(
        h for h in ["WU002", "WU003", "WU004", "QUN002"] if h not in lord.hero_candidates
    )
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=lord.token, hero_id=not_offered)
    assert err.value.code == "not_offered"
    assert snapshot(table) == before
    table, seats = picked_all(4)
    other = next(s for s in seats if s.identity != "lord")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=other.token, hero_id=other.hero_candidates[0])
    assert err.value.code == "not_picking"
    assert snapshot(table) == before


def test_host_redeals_candidates_with_confirmation() -> None:
    table, seats = started(6)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="WU001")
    other = next(s for s in seats if s.pk != lord.pk)
    actions.hero_pick(token=other.token, hero_id=fresh(other).hero_candidates[0])
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.heroes_redeal(token=table.host_token)
    with pytest.raises(ActionError):
        actions.heroes_redeal(token=other.token, confirm=True)
    assert snapshot(table) == before
    actions.heroes_redeal(token=table.host_token, confirm=True)
    assert fresh(other).hero_pick == ""
    assert fresh(lord).hero == "WU001"
    assert Event.objects.filter(table=table, kind="heroes_redealt").count() == 1
