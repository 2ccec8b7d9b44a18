"""Tests for the hero table, candidate dealing and max HP (docs/rules.md §2)."""

from __future__ import annotations

import csv
import dataclasses
import random
import secrets
from collections import Counter
from pathlib import Path

import pytest

from companion.rules import chance
from companion.rules.heroes import (
    LORD_HERO_IDS,
    STANDARD_HEROES,
    Hero,
    deal_candidates,
    hero_by_id,
    lord_candidates,
    max_hp,
)

CSV_PATH = Path(__file__).resolve().parents[2] / "companion" / "data" / "standard_heroes.csv"
ALL_IDS = [hero.id for hero in STANDARD_HEROES]
NON_LORD_IDS = [hero_id for hero_id in ALL_IDS if hero_id not in LORD_HERO_IDS]

# Chi-square critical values at p = 0.001 by degrees of freedom.
CHI2_CRITICAL_P001 = {4: 18.467, 20: 45.315, 21: 46.797, 22: 48.268, 23: 49.728, 24: 51.179}


def chi_square(observed: list[int], expected: list[float]) -> float:
    """Return Pearson's chi-square statistic."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


# ---------------------------------------------------------------- the table


def test_twenty_five_standard_heroes() -> None:
    assert len(STANDARD_HEROES) == 25
    assert len(set(ALL_IDS)) == 25
    assert all(isinstance(hero, Hero) for hero in STANDARD_HEROES)


def test_heroes_match_the_csv_row_for_row() -> None:
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(STANDARD_HEROES)
    for row, hero in zip(rows, STANDARD_HEROES, strict=True):
        assert hero.id == row["id"]
        assert hero.name_zh == row["name_zh"]
        assert hero.name_en == row["name_en"]
        assert hero.kingdom == row["kingdom"]
        assert hero.hp == int(row["hp"])
        assert isinstance(hero.hp, int)
        assert hero.gender == row["gender"]
        assert hero.lord_skill is (row["lord_skill"] == "yes")
        assert hero.skills_zh == tuple(row["skills_zh"].split(";"))


def test_kingdom_counts() -> None:
    assert Counter(hero.kingdom for hero in STANDARD_HEROES) == {
        "wei": 7,
        "shu": 7,
        "wu": 8,
        "qun": 3,
    }


def test_hp_and_gender_facts() -> None:
    three = {hero.name_zh for hero in STANDARD_HEROES if hero.hp == 3}
    assert three == set("司马懿 郭嘉 甄姬 诸葛亮 黄月英 周瑜 大乔 陆逊 孙尚香 华佗 貂蝉".split())
    assert all(hero.hp == 4 for hero in STANDARD_HEROES if hero.name_zh not in three)
    female = {hero.name_zh for hero in STANDARD_HEROES if hero.gender == "female"}
    assert female == {"甄姬", "黄月英", "大乔", "孙尚香", "貂蝉"}
    assert {hero.gender for hero in STANDARD_HEROES} == {"male", "female"}


def test_skills_are_non_empty_tuples() -> None:
    for hero in STANDARD_HEROES:
        assert isinstance(hero.skills_zh, tuple)
        assert hero.skills_zh
        assert all(skill.strip() == skill and skill for skill in hero.skills_zh)
    assert hero_by_id("SHU006").skills_zh == ("马术", "铁骑")


def test_lord_heroes() -> None:
    assert LORD_HERO_IDS == ("WEI001", "SHU001", "WU001")
    assert [hero_by_id(hero_id).name_zh for hero_id in LORD_HERO_IDS] == ["曹操", "刘备", "孙权"]
    assert {hero.id for hero in STANDARD_HEROES if hero.lord_skill} == set(LORD_HERO_IDS)
    assert "护驾" in hero_by_id("WEI001").skills_zh
    assert "激将" in hero_by_id("SHU001").skills_zh
    assert "救援" in hero_by_id("WU001").skills_zh


@pytest.mark.parametrize("hero", STANDARD_HEROES, ids=ALL_IDS)
def test_hero_by_id_finds_each_hero(hero: Hero) -> None:
    assert hero_by_id(hero.id) is hero


@pytest.mark.parametrize("hero_id", ["", "WEI000", "WEI008", "wei001", "QUN004", "曹操"])
def test_hero_by_id_unknown_raises_key_error(hero_id: str) -> None:
    with pytest.raises(KeyError):
        hero_by_id(hero_id)


def test_hero_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD_HEROES[0].hp = 9  # type: ignore[misc]


# ---------------------------------------------------------------- lord candidates


@pytest.mark.parametrize("seed", range(200))
def test_lord_candidates_are_the_three_lords_and_two_others(seed: int) -> None:
    candidates = lord_candidates(random.Random(seed))
    assert len(candidates) == 5
    assert len(set(candidates)) == 5
    assert set(LORD_HERO_IDS) <= set(candidates)
    others = [hero_id for hero_id in candidates if hero_id not in LORD_HERO_IDS]
    assert len(others) == 2
    assert all(hero_id in NON_LORD_IDS for hero_id in others)


def test_lord_candidates_extra_heroes_are_uniform() -> None:
    rng = random.Random(11)
    draws = 10_000
    tally: Counter[str] = Counter()
    for _ in range(draws):
        tally.update(h for h in lord_candidates(rng) if h not in LORD_HERO_IDS)
    assert set(tally) == set(NON_LORD_IDS)  # every other hero can be offered
    expected = [draws * 2 / len(NON_LORD_IDS)] * len(NON_LORD_IDS)
    observed = [tally[hero_id] for hero_id in NON_LORD_IDS]
    assert chi_square(observed, expected) < CHI2_CRITICAL_P001[len(NON_LORD_IDS) - 1]


def test_lord_candidates_order_is_shuffled() -> None:
    rng = random.Random(12)
    draws = 5_000
    positions: Counter[int] = Counter()
    for _ in range(draws):
        positions[lord_candidates(rng).index("WEI001")] += 1
    assert chi_square([positions[i] for i in range(5)], [draws / 5] * 5) < CHI2_CRITICAL_P001[4]


# ---------------------------------------------------------------- candidates for the others


def per_player(player_count: int) -> int:
    return 2 if player_count == 10 else 3


@pytest.mark.parametrize("player_count", range(4, 11))
@pytest.mark.parametrize("lord_pick", ["WEI001", "SHU001", "WU001", "QUN002"])
def test_deal_candidates_shapes(player_count: int, lord_pick: str) -> None:
    rng = random.Random(player_count)
    for _ in range(100):
        hands = deal_candidates(
            taken={lord_pick}, player_count=player_count, non_lord_count=player_count - 1, rng=rng
        )
        assert len(hands) == player_count - 1
        assert all(len(hand) == per_player(player_count) for hand in hands)
        dealt = [hero_id for hand in hands for hero_id in hand]
        assert len(dealt) == len(set(dealt)), "a hero on two phones"
        assert lord_pick not in dealt
        assert set(dealt) <= set(ALL_IDS)


def test_ten_players_get_two_each_and_nine_use_the_whole_pool() -> None:
    hands = deal_candidates(
        taken=["WEI001"], player_count=10, non_lord_count=9, rng=random.Random(1)
    )
    assert [len(hand) for hand in hands] == [2] * 9
    hands = deal_candidates(
        taken=["WEI001"], player_count=9, non_lord_count=8, rng=random.Random(1)
    )
    assert [len(hand) for hand in hands] == [3] * 8
    assert sorted(h for hand in hands for h in hand) == sorted(set(ALL_IDS) - {"WEI001"})


@pytest.mark.parametrize("player_count", [4, 8, 10])
def test_deal_candidates_every_hero_can_appear_uniformly(player_count: int) -> None:
    rng = random.Random(21)
    deals = 5_000
    pool = [hero_id for hero_id in ALL_IDS if hero_id != "SHU001"]
    slots = per_player(player_count) * (player_count - 1)
    tally: Counter[str] = Counter()
    seat_tally: Counter[str] = Counter()
    for _ in range(deals):
        hands = deal_candidates(
            taken=("SHU001",), player_count=player_count, non_lord_count=player_count - 1, rng=rng
        )
        tally.update(h for hand in hands for h in hand)
        seat_tally.update(hands[-1])
    assert set(tally) == set(pool)
    expected = [deals * slots / len(pool)] * len(pool)
    assert chi_square([tally[h] for h in pool], expected) < CHI2_CRITICAL_P001[len(pool) - 1]
    # The last seat too is offered every hero equally often.
    seat_expected = [deals * per_player(player_count) / len(pool)] * len(pool)
    assert (
        chi_square([seat_tally[h] for h in pool], seat_expected) < CHI2_CRITICAL_P001[len(pool) - 1]
    )


def test_deal_candidates_skips_every_taken_hero() -> None:
    taken = {"WEI001", "SHU002", "WU005", "QUN003"}
    for seed in range(100):
        hands = deal_candidates(
            taken=taken, player_count=7, non_lord_count=6, rng=random.Random(seed)
        )
        assert not taken & {h for hand in hands for h in hand}


def test_deal_candidates_fewer_players_than_seats() -> None:
    hands = deal_candidates(taken=[], player_count=8, non_lord_count=2, rng=random.Random(3))
    assert len(hands) == 2
    assert all(len(hand) == 3 for hand in hands)
    assert deal_candidates(taken=[], player_count=8, non_lord_count=0, rng=random.Random(3)) == []


def test_deal_candidates_not_enough_heroes() -> None:
    # 9 players need 8 × 3 = 24 heroes: with two taken only 23 are left.
    with pytest.raises(ValueError):
        deal_candidates(
            taken={"WEI001", "WEI002"}, player_count=9, non_lord_count=8, rng=random.Random(1)
        )
    # 10 players need 9 × 2 = 18; seven taken leaves exactly 18, eight leaves 17.
    seven = ALL_IDS[:7]
    assert (
        len(deal_candidates(taken=seven, player_count=10, non_lord_count=9, rng=random.Random(1)))
        == 9
    )
    with pytest.raises(ValueError):
        deal_candidates(taken=ALL_IDS[:8], player_count=10, non_lord_count=9, rng=random.Random(1))


@pytest.mark.parametrize(
    ("player_count", "non_lord_count"), [(3, 2), (11, 10), (5, 5), (5, -1), (7, 9)]
)
def test_deal_candidates_rejects_bad_counts(player_count: int, non_lord_count: int) -> None:
    with pytest.raises(ValueError):
        deal_candidates(
            taken=[], player_count=player_count, non_lord_count=non_lord_count, rng=random.Random(1)
        )


def test_deal_candidates_rejects_unknown_taken_ids() -> None:
    with pytest.raises(ValueError):
        deal_candidates(taken=["XYZ999"], player_count=5, non_lord_count=4, rng=random.Random(1))


class SpyRandom(random.Random):
    """A stand-in for SystemRandom that records its creation."""

    created: list[SpyRandom] = []

    def __init__(self, *args: object) -> None:
        super().__init__(5)
        SpyRandom.created.append(self)


def test_default_rng_is_secrets_system_random(monkeypatch: pytest.MonkeyPatch) -> None:
    SpyRandom.created = []
    monkeypatch.setattr(secrets, "SystemRandom", SpyRandom)
    # Outside the tests' seeding (tests/conftest.py), as in production.
    monkeypatch.setattr(chance, "_pinned", None)
    assert len(lord_candidates()) == 5
    assert len(SpyRandom.created) == 1
    assert len(deal_candidates(taken=["WU001"], player_count=6, non_lord_count=5)) == 5
    assert len(SpyRandom.created) == 2


# ---------------------------------------------------------------- max HP


@pytest.mark.parametrize("player_count", range(4, 11))
@pytest.mark.parametrize("is_lord", [False, True])
@pytest.mark.parametrize("first_game", [False, True])
@pytest.mark.parametrize("hero_hp", [3, 4])
def test_max_hp_every_case(
    player_count: int, is_lord: bool, first_game: bool, hero_hp: int
) -> None:
    if first_game:
        expected = 5 if is_lord and player_count >= 5 else 4
    elif is_lord and player_count != 4:
        expected = hero_hp + 1
    else:
        expected = hero_hp
    assert (
        max_hp(hero_hp=hero_hp, is_lord=is_lord, player_count=player_count, first_game=first_game)
        == expected
    )


def test_four_player_lord_gets_no_bonus() -> None:
    assert max_hp(hero_hp=4, is_lord=True, player_count=4, first_game=False) == 4
    assert max_hp(hero_hp=4, is_lord=True, player_count=5, first_game=False) == 5
    assert max_hp(hero_hp=None, is_lord=True, player_count=4, first_game=True) == 4
    assert max_hp(hero_hp=None, is_lord=True, player_count=5, first_game=True) == 5


@pytest.mark.parametrize("player_count", range(4, 11))
def test_first_game_ignores_hero_hp(player_count: int) -> None:
    for is_lord in (False, True):
        values = {
            max_hp(hero_hp=hp, is_lord=is_lord, player_count=player_count, first_game=True)
            for hp in (None, 3, 4)
        }
        assert len(values) == 1


def test_max_hp_with_real_heroes() -> None:
    zhuge = hero_by_id("SHU004")
    liu_bei = hero_by_id("SHU001")
    assert max_hp(hero_hp=zhuge.hp, is_lord=False, player_count=8, first_game=False) == 3
    assert max_hp(hero_hp=liu_bei.hp, is_lord=True, player_count=8, first_game=False) == 5


def test_max_hp_needs_hero_hp_outside_first_game() -> None:
    with pytest.raises(ValueError):
        max_hp(hero_hp=None, is_lord=False, player_count=5, first_game=False)


@pytest.mark.parametrize("player_count", [3, 11])
def test_max_hp_rejects_bad_player_count(player_count: int) -> None:
    with pytest.raises(ValueError):
        max_hp(hero_hp=4, is_lord=False, player_count=player_count, first_game=False)
