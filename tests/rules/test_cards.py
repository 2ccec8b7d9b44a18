"""Deck facts against the published counts in reference/README.md."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from companion.rules.cards import (
    Card,
    Equipment,
    EquipmentSlot,
    Suit,
    equipment_by_name,
    equipment_catalogue,
    load_deck,
    parse_rank,
    parse_suit,
    rank_label,
)

# (ex, maneuvering) -> deck size, from the "Verified counts" table.
DECKS = {
    (False, False): 104,
    (True, False): 108,
    (False, True): 156,
    (True, True): 160,
}

# name: (104, EX, 108, 军争 52, 160), transcribed from the per-name table.
PER_NAME = {
    "杀": (30, 0, 30, 0, 30),
    "闪": (15, 0, 15, 9, 24),
    "桃": (8, 0, 8, 4, 12),
    "雷杀": (0, 0, 0, 9, 9),
    "酒": (0, 0, 0, 5, 5),
    "火杀": (0, 0, 0, 5, 5),
    "过河拆桥": (6, 0, 6, 0, 6),
    "无懈可击": (3, 1, 4, 3, 7),
    "铁索连环": (0, 0, 0, 6, 6),
    "顺手牵羊": (5, 0, 5, 0, 5),
    "无中生有": (4, 0, 4, 0, 4),
    "决斗": (3, 0, 3, 0, 3),
    "南蛮入侵": (3, 0, 3, 0, 3),
    "火攻": (0, 0, 0, 3, 3),
    "五谷丰登": (2, 0, 2, 0, 2),
    "借刀杀人": (2, 0, 2, 0, 2),
    "万箭齐发": (1, 0, 1, 0, 1),
    "桃园结义": (1, 0, 1, 0, 1),
    "乐不思蜀": (3, 0, 3, 0, 3),
    "兵粮寸断": (0, 0, 0, 2, 2),
    "闪电": (1, 1, 2, 0, 2),
    "诸葛连弩": (2, 0, 2, 0, 2),
    "雌雄双股剑": (1, 0, 1, 0, 1),
    "青龙偃月刀": (1, 0, 1, 0, 1),
    "青釭剑": (1, 0, 1, 0, 1),
    "丈八蛇矛": (1, 0, 1, 0, 1),
    "麒麟弓": (1, 0, 1, 0, 1),
    "贯石斧": (1, 0, 1, 0, 1),
    "方天画戟": (1, 0, 1, 0, 1),
    "古锭刀": (0, 0, 0, 1, 1),
    "朱雀羽扇": (0, 0, 0, 1, 1),
    "寒冰剑": (0, 1, 1, 0, 1),
    "八卦阵": (2, 0, 2, 0, 2),
    "藤甲": (0, 0, 0, 2, 2),
    "白银狮子": (0, 0, 0, 1, 1),
    "仁王盾": (0, 1, 1, 0, 1),
    "绝影": (1, 0, 1, 0, 1),
    "爪黄飞电": (1, 0, 1, 0, 1),
    "的卢": (1, 0, 1, 0, 1),
    "骅骝": (0, 0, 0, 1, 1),
    "大宛": (1, 0, 1, 0, 1),
    "赤兔": (1, 0, 1, 0, 1),
    "紫骍": (1, 0, 1, 0, 1),
}

# Column of PER_NAME for each part or deck.
COLUMN = {"standard": 0, "ex": 1, "std+ex": 2, "maneuvering": 3, "all": 4}

# (total, per suit, basic, trick, delayed, weapon, armor, +1, -1) per part or deck.
COMPOSITION = {
    "standard": (104, 26, 53, 30, 4, 9, 2, 3, 3),
    "ex": (4, 1, 0, 1, 1, 1, 1, 0, 0),
    "std+ex": (108, 27, 53, 31, 5, 10, 3, 3, 3),
    "maneuvering": (52, 13, 32, 12, 2, 2, 3, 1, 0),
    "all": (160, 40, 85, 43, 7, 12, 6, 4, 3),
}

WEAPON_RANGES = {
    "诸葛连弩": 1,
    "青釭剑": 2,
    "雌雄双股剑": 2,
    "寒冰剑": 2,
    "古锭刀": 2,
    "贯石斧": 3,
    "青龙偃月刀": 3,
    "丈八蛇矛": 3,
    "方天画戟": 4,
    "朱雀羽扇": 4,
    "麒麟弓": 5,
}

ID_PREFIX = {"standard": "STD", "ex": "EX", "maneuvering": "MNV"}


def part(name: str) -> list[Card]:
    """Cards of one part or deck, split by the CSV id prefix."""
    everything = load_deck(ex=True, maneuvering=True)
    if name == "std+ex":
        return [c for c in everything if c.id.startswith(("STD", "EX"))]
    if name == "all":
        return list(everything)
    return [c for c in everything if c.id.startswith(ID_PREFIX[name])]


@pytest.mark.parametrize(("flags", "total"), DECKS.items())
def test_deck_totals(flags: tuple[bool, bool], total: int) -> None:
    ex, maneuvering = flags
    assert len(load_deck(ex=ex, maneuvering=maneuvering)) == total


@pytest.mark.parametrize(("flags", "total"), DECKS.items())
def test_deck_suits_equal(flags: tuple[bool, bool], total: int) -> None:
    ex, maneuvering = flags
    suits = Counter(c.suit for c in load_deck(ex=ex, maneuvering=maneuvering))
    assert suits == {suit: total // 4 for suit in Suit}


def test_default_deck_is_standard_plus_ex() -> None:
    assert len(load_deck()) == 108
    assert load_deck() is load_deck(ex=True, maneuvering=False)


@pytest.mark.parametrize("name", list(COMPOSITION))
def test_composition(name: str) -> None:
    total, per_suit, basic, trick, delayed, weapon, armor, plus, minus = COMPOSITION[name]
    cards = part(name)
    assert len(cards) == total
    assert Counter(c.suit for c in cards) == {suit: per_suit for suit in Suit}
    types = Counter(c.type for c in cards)
    assert types["basic"] == basic
    assert types["trick"] == trick
    assert types["delayed_trick"] == delayed
    assert types["equipment"] == weapon + armor + plus + minus
    assert set(types) <= {"basic", "trick", "delayed_trick", "equipment"}
    subtypes = Counter(c.subtype for c in cards if c.type == "equipment")
    assert subtypes == Counter(
        {"weapon": weapon, "armor": armor, "defensive_horse": plus, "offensive_horse": minus}
    )


@pytest.mark.parametrize("column", list(COLUMN))
def test_per_name_counts(column: str) -> None:
    expected = {name: row[COLUMN[column]] for name, row in PER_NAME.items() if row[COLUMN[column]]}
    assert Counter(c.name_zh for c in part(column)) == expected


@pytest.mark.parametrize("name", list(PER_NAME))
def test_per_name_table_adds_up(name: str) -> None:
    std, ex, std_ex, mnv, total = PER_NAME[name]
    assert std + ex == std_ex
    assert std_ex + mnv == total


def test_per_name_table_totals() -> None:
    sums = [sum(row[i] for row in PER_NAME.values()) for i in range(5)]
    assert sums == [104, 4, 108, 52, 160]


def test_standard_every_suit_rank_twice() -> None:
    counts = Counter((c.suit, c.rank) for c in load_deck(ex=False))
    assert counts == {(suit, rank): 2 for suit in Suit for rank in range(1, 14)}


def test_maneuvering_every_suit_rank_once() -> None:
    counts = Counter((c.suit, c.rank) for c in part("maneuvering"))
    assert counts == {(suit, rank): 1 for suit in Suit for rank in range(1, 14)}


def test_ex_cards() -> None:
    found = {(c.name_zh, c.suit, c.rank) for c in part("ex")}
    assert found == {
        ("寒冰剑", Suit.SPADE, 2),
        ("仁王盾", Suit.CLUB, 2),
        ("闪电", Suit.HEART, 12),
        ("无懈可击", Suit.DIAMOND, 12),
    }


def test_ids_unique() -> None:
    ids = [c.id for c in load_deck(ex=True, maneuvering=True)]
    assert len(ids) == len(set(ids)) == 160


@pytest.mark.parametrize("card", load_deck(ex=True, maneuvering=True), ids=lambda c: c.id)
def test_card_fields(card: Card) -> None:
    assert isinstance(card.suit, Suit)
    assert 1 <= card.rank <= 13
    if card.subtype == "weapon":
        assert card.range == WEAPON_RANGES[card.name_zh]
    else:
        assert card.range is None
    if card.type != "equipment":
        assert card.subtype == ""


@pytest.mark.parametrize(("name", "rng"), WEAPON_RANGES.items())
def test_weapon_range(name: str, rng: int) -> None:
    equipment = equipment_by_name(name, maneuvering=True)
    assert equipment.slot is EquipmentSlot.WEAPON
    assert equipment.range == rng


def test_every_weapon_has_a_published_range() -> None:
    weapons = {e.name_zh for e in equipment_catalogue(maneuvering=True) if e.range is not None}
    assert weapons == set(WEAPON_RANGES)


EQUIPMENT_SLOTS = {
    "诸葛连弩": ("weapon", "standard"),
    "雌雄双股剑": ("weapon", "standard"),
    "青龙偃月刀": ("weapon", "standard"),
    "青釭剑": ("weapon", "standard"),
    "丈八蛇矛": ("weapon", "standard"),
    "麒麟弓": ("weapon", "standard"),
    "贯石斧": ("weapon", "standard"),
    "方天画戟": ("weapon", "standard"),
    "寒冰剑": ("weapon", "ex"),
    "古锭刀": ("weapon", "maneuvering"),
    "朱雀羽扇": ("weapon", "maneuvering"),
    "八卦阵": ("armor", "standard"),
    "仁王盾": ("armor", "ex"),
    "藤甲": ("armor", "maneuvering"),
    "白银狮子": ("armor", "maneuvering"),
    "绝影": ("defensive_horse", "standard"),
    "爪黄飞电": ("defensive_horse", "standard"),
    "的卢": ("defensive_horse", "standard"),
    "骅骝": ("defensive_horse", "maneuvering"),
    "大宛": ("offensive_horse", "standard"),
    "赤兔": ("offensive_horse", "standard"),
    "紫骍": ("offensive_horse", "standard"),
}


@pytest.mark.parametrize(("name", "expected"), EQUIPMENT_SLOTS.items())
def test_equipment_slot_and_expansion(name: str, expected: tuple[str, str]) -> None:
    slot, expansion = expected
    equipment = equipment_by_name(name, maneuvering=True)
    assert equipment.slot == slot
    assert equipment.expansion == expansion
    assert (equipment.range is not None) == (slot == "weapon")
    if expansion != "maneuvering":
        assert equipment_by_name(name) == equipment


@pytest.mark.parametrize(("maneuvering", "count"), [(False, 17), (True, 22)])
def test_equipment_catalogue(maneuvering: bool, count: int) -> None:
    catalogue = equipment_catalogue(maneuvering=maneuvering)
    assert len(catalogue) == count
    assert len({e.name_zh for e in catalogue}) == count
    expected = {
        name
        for name, (_, expansion) in EQUIPMENT_SLOTS.items()
        if maneuvering or expansion != "maneuvering"
    }
    assert {e.name_zh for e in catalogue} == expected
    assert all(isinstance(e, Equipment) for e in catalogue)


@pytest.mark.parametrize("name", ["古锭刀", "朱雀羽扇", "藤甲", "白银狮子", "骅骝"])
def test_maneuvering_equipment_needs_the_expansion(name: str) -> None:
    with pytest.raises(KeyError):
        equipment_by_name(name)
    assert equipment_by_name(name, maneuvering=True).name_zh == name


@pytest.mark.parametrize("name", ["", "杀", "木牛流马", "Zhuge Crossbow", "诸葛连弩 "])
def test_unknown_equipment(name: str) -> None:
    with pytest.raises(KeyError):
        equipment_by_name(name, maneuvering=True)


@pytest.mark.parametrize(
    ("value", "rank"),
    [
        *((n, n) for n in range(1, 14)),
        *((str(n), n) for n in range(1, 14)),
        ("A", 1),
        ("a", 1),
        ("J", 11),
        ("j", 11),
        ("Q", 12),
        ("q", 12),
        ("K", 13),
        ("k", 13),
        (" 10 ", 10),
    ],
)
def test_parse_rank(value: str | int, rank: int) -> None:
    assert parse_rank(value) == rank


@pytest.mark.parametrize(
    "value", [0, 14, -1, 100, "0", "14", "", "X", "1.0", "1 0", "AA", "-1", True, 1.0, None, "１"]
)
def test_parse_rank_rejects(value: object) -> None:
    with pytest.raises(ValueError, match="rank"):
        parse_rank(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "label"),
    [(1, "A"), (2, "2"), (9, "9"), (10, "10"), (11, "J"), (12, "Q"), (13, "K")],
)
def test_rank_label(rank: int, label: str) -> None:
    assert rank_label(rank) == label
    assert parse_rank(label) == rank


@pytest.mark.parametrize("rank", [0, 14, -1])
def test_rank_label_rejects(rank: int) -> None:
    with pytest.raises(ValueError):
        rank_label(rank)


@pytest.mark.parametrize(
    ("value", "suit"),
    [
        ("spade", Suit.SPADE),
        ("SPADE", Suit.SPADE),
        ("spades", Suit.SPADE),
        ("♠", Suit.SPADE),
        ("黑桃", Suit.SPADE),
        ("heart", Suit.HEART),
        ("♥", Suit.HEART),
        ("红桃", Suit.HEART),
        ("club", Suit.CLUB),
        ("♣", Suit.CLUB),
        ("梅花", Suit.CLUB),
        ("diamond", Suit.DIAMOND),
        (" Diamond ", Suit.DIAMOND),
        ("♦", Suit.DIAMOND),
        ("方块", Suit.DIAMOND),
        (Suit.CLUB, Suit.CLUB),
    ],
)
def test_parse_suit(value: str, suit: Suit) -> None:
    assert parse_suit(value) is suit


@pytest.mark.parametrize("value", ["", "joker", "spadez", "♛", "red", "black", "王", None, 1])
def test_parse_suit_rejects(value: object) -> None:
    with pytest.raises(ValueError, match="suit"):
        parse_suit(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("suit", "red", "symbol"),
    [
        (Suit.SPADE, False, "♠"),
        (Suit.HEART, True, "♥"),
        (Suit.CLUB, False, "♣"),
        (Suit.DIAMOND, True, "♦"),
    ],
)
def test_suit_properties(suit: Suit, red: bool, symbol: str) -> None:
    assert suit.is_red is red
    assert suit.symbol == symbol
    assert suit == suit.value


def test_suit_values() -> None:
    assert [s.value for s in Suit] == ["spade", "heart", "club", "diamond"]
    assert [s.value for s in EquipmentSlot] == [
        "weapon",
        "armor",
        "defensive_horse",
        "offensive_horse",
    ]


def test_card_is_frozen_and_labelled() -> None:
    card = load_deck()[0]
    assert (card.name_zh, card.label) == ("决斗", "♠A")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 2  # type: ignore[misc]


def test_load_deck_is_cached() -> None:
    assert load_deck(ex=False, maneuvering=True) is load_deck(ex=False, maneuvering=True)
