"""A table's hero box and the lord pack (docs/rules.md §2, §9.5).

docs/rules.md §9.5: "Lord pack (`004`): the lord is offered 3 random non-lord heroes plus one he draws
from the five lord heroes 曹操, 刘备, 孙权, 汉献帝, 袁绍 (the last two are not in the standard box:
a table that owns them adds them, with their skills, to its box)."
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from companion.games.afterlife.rules import draw
from companion.games.house import rules as house
from companion.rules import box as hero_box
from companion.rules import heroes, modes
from companion.rules.box import Box, BoxError

XIANDI: dict[str, Any] = {
    "name_zh": "汉献帝",
    "name_en": "Emperor Xian of Han",
    "kingdom": "qun",
    "hp": 3,
    "gender": "male",
    "lord": True,
    "skills": [{"name": "天命", "text": "锁定技，……"}],
}
YUANSHAO: dict[str, Any] = {
    "name_zh": "袁绍",
    "kingdom": "qun",
    "hp": 4,
    "gender": "male",
    "lord": True,
    "skills": [
        {"name": "乱击", "text": "出牌阶段，你可以将两张相同花色的手牌当【万箭齐发】使用。"}
    ],
}


def owned_box() -> Box:
    return Box().add(XIANDI).add(YUANSHAO)


def test_the_standard_25_are_in_the_box_by_default() -> None:
    box = Box()
    assert len(box.heroes()) == 25 == len(heroes.STANDARD_HEROES)
    assert [h.id for h in box.heroes()] == [h.id for h in heroes.STANDARD_HEROES]
    assert [h.name_zh for h in box.lord_heroes()] == ["曹操", "刘备", "孙权"]
    assert box.switch("QUN003", on=False).ids() == tuple(
        h.id for h in heroes.STANDARD_HEROES if h.id != "QUN003"
    )
    assert box.switch("QUN003", on=False).switch("QUN003", on=True) == box
    with pytest.raises(KeyError):
        box.switch("ADD001", on=False)


def test_a_table_that_owns_them_adds_them_with_their_skills_to_its_box() -> None:
    """ "a table that owns them adds them, with their skills, to its box"."""
    box = owned_box()
    xiandi, yuanshao = box.added
    assert (xiandi.id, yuanshao.id) == ("ADD001", "ADD002")
    assert xiandi.skills == (hero_box.SkillText("天命", "锁定技，……"),)
    assert yuanshao.name_en == "" and not yuanshao.standard
    assert [h.name_zh for h in box.lord_heroes()] == ["曹操", "刘备", "孙权", "汉献帝", "袁绍"]
    assert box.hero("ADD002") == yuanshao and len(box.heroes()) == 27
    assert box.remove("ADD001").add(XIANDI).added[1].id == "ADD003"
    with pytest.raises(KeyError):
        box.remove("WEI001")


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"name_zh": ""}, "missing_field", "name_zh"),
        ({"name_zh": "Liu Xie"}, "name_not_chinese", "name_zh"),
        ({"name_zh": "刘" * 13}, "too_long", "name_zh"),
        ({"name_zh": 3}, "bad_field", "name_zh"),
        ({"kingdom": "jin"}, "bad_kingdom", "kingdom"),
        ({"hp": 0}, "bad_hp", "hp"),
        ({"hp": 9}, "bad_hp", "hp"),
        ({"hp": "3"}, "bad_hp", "hp"),
        ({"hp": True}, "bad_hp", "hp"),
        ({"gender": "other"}, "bad_gender", "gender"),
        ({"lord": "yes"}, "bad_field", "lord"),
        ({"skills": "天命"}, "bad_skills", "skills"),
        ({"skills": [{"name": "天命"}]}, "missing_field", "text"),
        ({"skills": [{"name": "", "text": "x"}]}, "missing_field", "name"),
        ({"skills": [{"name": "a", "text": "x"}] * 7}, "bad_skills", "skills"),
        ({"power": 3}, "unknown_field", "power"),
    ],
)
def test_an_added_hero_is_checked_field_by_field(
    change: dict[str, Any], code: str, field: str
) -> None:
    with pytest.raises(BoxError) as caught:
        Box().add({**XIANDI, **change})
    assert (caught.value.code, caught.value.field) == (code, field)
    assert str(caught.value)


def test_a_name_already_in_the_box_is_refused() -> None:
    with pytest.raises(BoxError) as caught:
        Box().add({**XIANDI, "name_zh": "刘备"})
    assert caught.value.code == "duplicate_name"
    with pytest.raises(BoxError):
        owned_box().add(XIANDI)


def test_the_box_exports_and_imports_as_a_json_file() -> None:
    box = owned_box().switch("QUN003", on=False)
    text = hero_box.export_box(box)
    assert "汉献帝" in text  # readable Chinese, not escapes
    assert json.loads(text)["format"] == "sanguosha-box"
    assert hero_box.import_box(text) == box
    assert hero_box.import_box(text.encode()) == box
    assert hero_box.import_box(hero_box.export_box(Box())) == Box()


def test_the_largest_box_exports_within_the_file_limit_and_imports_again() -> None:
    """Every added hero with every text at its longest, in 4-byte characters (the widest; an
    escaped one is 2): the export fits `MAX_FILE_BYTES`, which the import takes, and reads
    back."""
    wide = "\U00020000"  # 𠀀, 4 bytes in UTF-8

    def text(limit: int, first: str) -> str:
        return first + wide * (limit - 1)

    box = Box(standard_off=frozenset(h.id for h in hero_box.STANDARD))
    for i in range(hero_box.MAX_ADDED):
        box = box.add(
            {
                "name_zh": text(hero_box.MAX_NAME, chr(0x4E00 + i)),
                "name_en": text(hero_box.MAX_NAME_EN, "x"),
                "kingdom": "god",
                "hp": 8,
                "gender": "female",
                "lord": True,
                "skills": [
                    {
                        "name": text(hero_box.MAX_SKILL_NAME, str(j)),
                        "text": text(hero_box.MAX_SKILL_TEXT, str(j)),
                        "lord": True,
                    }
                    for j in range(hero_box.MAX_SKILLS)
                ],
            }
        )
    exported = hero_box.export_box(box).encode()
    assert len(exported) <= hero_box.MAX_FILE_BYTES
    assert len(exported) > hero_box.MAX_FILE_BYTES * 0.8, "the limit is not far above it"
    assert hero_box.import_box(exported) == box


def _file(**changes: Any) -> str:
    raw = {**owned_box().stored(), **changes}
    return json.dumps(raw, ensure_ascii=False)


@pytest.mark.parametrize(
    ("text", "code", "index"),
    [
        ("{not json", "not_json", None),
        (b"\xff\xfe\x00", "not_json", None),
        ("[1, 2]", "not_object", None),
        (json.dumps({"format": "other", "version": 1}), "wrong_format", None),
        (_file(version=2), "wrong_version", None),
        (_file(extra=1), "unknown_field", None),
        (_file(standard_off=["WEI999"]), "unknown_standard", None),
        (_file(standard_off="WEI001"), "bad_field", None),
        (_file(added={"a": 1}), "bad_field", None),
        (
            _file(added=[{**XIANDI, "id": "ADD001"}, {**XIANDI, "id": "ADD002"}]),
            "duplicate_name",
            1,
        ),
        (
            _file(added=[{**XIANDI, "id": "ADD001"}, {**YUANSHAO, "id": "ADD001"}]),
            "duplicate_id",
            1,
        ),
        (_file(added=[{**XIANDI, "id": "WEI001"}]), "bad_id", 0),
        (
            _file(added=[{**XIANDI, "id": "ADD001"}, {**YUANSHAO, "id": "ADD002", "hp": 0}]),
            "bad_hp",
            1,
        ),
        (_file(added=["汉献帝"]), "bad_id", 0),
        # Nested thousands deep: no RecursionError, not a box.
        ("[" * 3000 + "]" * 3000, "wrong_format", None),
        (
            '{"format": "sanguosha-box", "version": 1, "added": ' + "[" * 3000 + "]" * 3000 + "}",
            "wrong_format",
            None,
        ),
        (_file(added=[{**XIANDI, "id": "ADD001\n"}]), "bad_id", 0),
        (_file(added=[{**XIANDI, "id": "ADD٠٠١"}]), "bad_id", 0),
        # What neither database keeps as typed (PostgreSQL refuses NUL; SQLite keeps it).
        (_file(added=[{**XIANDI, "id": "ADD001", "name_zh": "汉献帝\u0000"}]), "bad_text", 0),
        (_file(added=[{**XIANDI, "id": "ADD001", "name_en": "\ud800"}]), "bad_text", 0),
        (
            _file(
                added=[{**XIANDI, "id": "ADD001", "skills": [{"name": "天", "text": "a\u0000"}]}]
            ),
            "bad_text",
            0,
        ),
    ],
)
def test_a_bad_file_is_refused_with_a_clear_reason(
    text: str | bytes, code: str, index: int | None
) -> None:
    with pytest.raises(BoxError) as caught:
        hero_box.import_box(text)
    assert caught.value.code == code and caught.value.index == index
    if index is not None:
        assert str(caught.value).startswith(f"hero {index + 1}: ")


def test_the_lord_is_offered_3_random_non_lord_heroes_plus_one_lord_hero() -> None:
    """ "the lord is offered 3 random non-lord heroes plus one he draws from the five lord
    heroes 曹操, 刘备, 孙权, 汉献帝, 袁绍"."""
    box = owned_box()
    lords = {h.id for h in box.lord_heroes()}
    drawn: Counter[str] = Counter()
    seen_others: set[str] = set()
    for seed in range(400):
        offer = house.lord_pack_offer(box, random.Random(seed))
        assert len(offer) == 4 and len(set(offer)) == 4
        assert offer[3] in lords and not lords & set(offer[:3])
        drawn[offer[3]] += 1
        seen_others |= set(offer[:3])
    assert set(drawn) == lords  # each of the five can be drawn
    assert seen_others == {h.id for h in box.heroes() if not h.lord}
    with pytest.raises(ValueError, match="no lord hero"):
        house.lord_pack_offer(
            Box().switch("WEI001", on=False).switch("SHU001", on=False).switch("WU001", on=False)
        )


def test_the_mode_offers_the_lords_five_from_the_box() -> None:
    """The lord pack is its package's offer (tests/games/house/test_lord_pack.py)."""
    box = owned_box()
    offer = modes.get("identity").leader_offer_from(modes.get("identity").options({}), box)
    assert offer is not None and len(offer) == 5 and {"WEI001", "SHU001", "WU001"} <= set(offer)


def test_without_the_pack_the_lords_five_come_from_the_box() -> None:
    """docs/rules.md §2: 曹操, 刘备, 孙权 and 2 others at random; the others may be added heroes."""
    box = owned_box()
    seen: set[str] = set()
    for seed in range(300):
        offer = hero_box.lord_offer(box, random.Random(seed))
        assert len(offer) == 5 == len(set(offer)) and {"WEI001", "SHU001", "WU001"} <= set(offer)
        seen |= set(offer)
    assert {"ADD001", "ADD002"} <= seen


@pytest.mark.parametrize("count", range(4, 11))
def test_the_others_candidates_come_from_the_box(count: int) -> None:
    box = owned_box()
    taken = {"ADD001"}
    offers = hero_box.deal_candidates(
        box, taken=taken, player_count=count, count=count - 1, rng=random.Random(count)
    )
    flat = [h for offer in offers for h in offer]
    assert len(flat) == len(set(flat)) == heroes.candidates_per_player(count) * (count - 1)
    assert not taken & set(flat) and set(flat) <= set(box.ids())
    assert hero_box.heroes_needed(count) <= len(box.heroes())
    small = Box(standard_off=frozenset(h.id for h in heroes.STANDARD_HEROES[:10]))
    if hero_box.heroes_needed(count) > len(small.heroes()):
        with pytest.raises(ValueError, match="candidates needed"):
            hero_box.deal_candidates(
                small, taken=set(), player_count=count, count=count, rng=random.Random(0)
            )


def test_the_rebirth_draw_comes_from_the_box_with_added_heroes() -> None:
    """An added 群 hero (袁绍) is reborn as the first hero flipped, of any kingdom, from the
    box's unused heroes; an added wei hero as the first wei one, added heroes included."""
    box = Box(standard_off=frozenset(h.id for h in heroes.STANDARD_HEROES if h.kingdom == "wei"))
    box = box.add(YUANSHAO).add({**XIANDI, "name_zh": "曹丕", "kingdom": "wei", "lord": False})
    held = {"SHU001", "QUN002"}
    for seed in range(20):
        hero = draw.rebirth_hero(box, old_hero="ADD001", held=held, rng=random.Random(seed))
        assert hero is not None and hero.id not in {"ADD001", *held}
    # The only wei hero in the box is 曹丕 (ADD002): a dead 曹丕 finds none.
    assert draw.rebirth_hero(box, old_hero="ADD002", held=held) is None
    reborn = draw.rebirth_hero(
        box.add({**XIANDI, "name_zh": "曹植", "kingdom": "wei", "lord": False}),
        old_hero="ADD002",
        held=held,
    )
    assert reborn is not None and reborn.name_zh == "曹植"
