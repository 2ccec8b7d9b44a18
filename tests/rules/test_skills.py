"""Hero skill data: matches the hero table, both languages present, phases sane."""

import csv
import json
import re
from pathlib import Path

import pytest

from companion.rules.skills import PHASES, SKILLS_PATH, Skill, hero_ids, skills_for, skills_in_phase

HEROES_CSV = Path(__file__).resolve().parents[2] / "companion" / "data" / "standard_heroes.csv"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LORD_SKILLS = {"护驾", "激将", "救援"}


def _heroes() -> list[dict[str, str]]:
    with HEROES_CSV.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _all() -> list[Skill]:
    return [skill for hero_id in hero_ids() for skill in skills_for(hero_id)]


def _skill(name_zh: str) -> Skill:
    (found,) = [s for s in _all() if s.name_zh == name_zh]
    return found


def test_skills_cover_exactly_the_csv_heroes() -> None:
    assert hero_ids() == tuple(row["id"] for row in _heroes())
    assert len(hero_ids()) == 25


@pytest.mark.parametrize("row", _heroes(), ids=lambda row: row["id"])
def test_skill_names_and_order_match_csv(row: dict[str, str]) -> None:
    assert [s.name_zh for s in skills_for(row["id"])] == row["skills_zh"].split(";")


@pytest.mark.parametrize("row", _heroes(), ids=lambda row: row["id"])
def test_lord_skill_flag_matches_csv(row: dict[str, str]) -> None:
    has_lord_skill = any(s.lord_skill for s in skills_for(row["id"]))
    assert has_lord_skill == (row["lord_skill"] == "yes")


def test_lord_skill_true_exactly_for_hujia_jijiang_jiuyuan() -> None:
    assert {s.name_zh for s in _all() if s.lord_skill} == LORD_SKILLS


def test_ids_and_names_unique() -> None:
    skills = _all()
    assert len({s.id for s in skills}) == len(skills) == 40
    assert len({s.name_zh for s in skills}) == len(skills)
    assert len({s.name_en for s in skills}) == len(skills)
    assert all(re.fullmatch(r"[a-z]+", s.id) for s in skills)


@pytest.mark.parametrize("skill", _all(), ids=lambda s: s.id)
def test_texts_present_in_both_languages(skill: Skill) -> None:
    assert skill.text_zh.strip() and skill.text_en.strip()
    assert skill.name_zh.strip() and skill.name_en.strip()
    assert CJK.search(skill.text_zh) and CJK.search(skill.name_zh)
    assert not CJK.search(skill.text_en) and not CJK.search(skill.name_en)
    assert skill.text_en.isascii() and skill.name_en.isascii()


@pytest.mark.parametrize("skill", _all(), ids=lambda s: s.id)
def test_text_prefix_agrees_with_flags(skill: Skill) -> None:
    assert skill.text_zh.startswith("主公技") == skill.lord_skill
    assert ("锁定技" in skill.text_zh) == skill.compulsory
    assert skill.text_en.startswith("Lord skill") == skill.lord_skill
    assert ("ompulsory" in skill.text_en) == skill.compulsory


@pytest.mark.parametrize("skill", _all(), ids=lambda s: s.id)
def test_phases_valid(skill: Skill) -> None:
    assert skill.phases
    assert set(skill.phases) <= set(PHASES)
    assert len(set(skill.phases)) == len(skill.phases)


@pytest.mark.parametrize(
    ("name_zh", "phase"),
    [
        ("观星", "start"),
        ("洛神", "start"),
        ("闭月", "end"),
        ("英姿", "draw"),
        ("突袭", "draw"),
        ("裸衣", "draw"),
        ("克己", "discard"),
        ("制衡", "play"),
        ("仁德", "play"),
        ("青囊", "play"),
        ("离间", "play"),
        ("武圣", "reaction"),
        ("鬼才", "reaction"),
        ("刚烈", "reaction"),
        ("流离", "reaction"),
        ("护驾", "reaction"),
    ],
)
def test_spot_check_phase(name_zh: str, phase: str) -> None:
    assert phase in _skill(name_zh).phases


def test_compulsory_skills() -> None:
    compulsory = {s.name_zh for s in _all() if s.compulsory}
    assert compulsory == {"马术", "奇才", "无双", "空城", "谦逊", "救援"}


def test_spot_check_meaning() -> None:
    assert "不为红桃" in _skill("刚烈").text_zh
    assert "not a heart" in _skill("刚烈").text_en
    assert "至多为5" in _skill("观星").text_zh
    assert "at most 5" in _skill("观星").text_en
    assert "黑色" in _skill("洛神").text_zh and "black" in _skill("洛神").text_en
    assert "方块" in _skill("国色").text_zh and "Indulgence" in _skill("国色").text_en
    assert "Peach" in _skill("急救").text_en and "Outside your own turn" in _skill("急救").text_en


def test_skills_in_phase_filters() -> None:
    assert [s.name_zh for s in skills_in_phase("SHU004", "start")] == ["观星"]
    assert [s.name_zh for s in skills_in_phase("WEI007", "start")] == ["洛神"]
    assert [s.name_zh for s in skills_in_phase("QUN003", "end")] == ["闭月"]
    assert [s.name_zh for s in skills_in_phase("WU005", "draw")] == ["英姿"]
    assert [s.name_zh for s in skills_in_phase("WU005", "play")] == ["反间"]
    assert skills_in_phase("WU003", "play") == ()


def test_unknown_hero_raises_key_error() -> None:
    with pytest.raises(KeyError):
        skills_for("NOPE999")
    with pytest.raises(KeyError):
        skills_in_phase("NOPE999", "play")


def test_unknown_phase_raises_value_error() -> None:
    with pytest.raises(ValueError):
        skills_in_phase("WEI001", "lunch")


def test_skills_are_frozen_and_cached() -> None:
    skill = skills_for("WEI001")[0]
    assert skills_for("WEI001") is skills_for("WEI001")
    with pytest.raises(AttributeError):
        skill.id = "other"  # type: ignore[misc]


def test_json_is_pretty_utf8() -> None:
    text = SKILLS_PATH.read_text(encoding="utf-8")
    assert "奸雄" in text
    assert "\n  " in text
    assert json.loads(text).keys() == {row["id"] for row in _heroes()}
