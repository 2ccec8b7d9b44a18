"""The rules help: an entry for every card of the reference files and every skill of
the 25 heroes in both languages, the FAQ, the identity tips, the first game and the search."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from companion import games
from companion.rules import help as rules_help
from companion.rules.cards import DATA_DIR
from companion.rules.help import first_game
from companion.rules.help.roles import ROLE_TIPS
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, distribution
from companion.rules.skills import skills_for

REFERENCE = Path("/work/shared/reference")
CARD_FILES = ("standard_deck.csv", "ex_cards.csv", "maneuvering_deck.csv")


# Where the reference folder is missing (a clean clone), the app's own copies: the core's deck
# and each expansion's cards in its game's package.
OWN_COPIES = (DATA_DIR, Path(games.__file__).parent / "maneuvering" / "data")


def _rows(filename: str) -> list[dict[str, str]]:
    folders = (REFERENCE, *OWN_COPIES)
    folder = next(f for f in folders if (f / filename).exists())
    with (folder / filename).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _filled(entry: rules_help.Entry) -> None:
    assert entry.name_zh and entry.name_en, entry.key
    assert all(entry.kind_label), entry.key
    assert entry.sections, entry.key
    for section in entry.sections:
        zh, en = section.text
        assert zh.strip() and en.strip(), (entry.key, section.label)
        assert all(section.label), entry.key


@pytest.mark.parametrize("filename", CARD_FILES)
def test_every_card_of_the_reference_files_has_an_entry_in_both_languages(filename: str) -> None:
    rows = _rows(filename)
    for name, count in Counter(row["name_zh"] for row in rows).items():
        entry = rules_help.entry(f"card:{name}")
        assert entry is not None, name
        _filled(entry)
        labels = {"what it does", "when"}
        assert labels <= {s.label[1].lower() for s in entry.sections}, name
        # The copies in the box: every suit and rank of this file's rows, none invented.
        shown = " ".join(cards for _deck, cards in entry.copies).split()
        symbols = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
        ranks = {"1": "A", "11": "J", "12": "Q", "13": "K"}
        for row in rows:
            if row["name_zh"] == name:
                assert f"{symbols[row['suit']]}{ranks.get(row['rank'], row['rank'])}" in shown
        assert len(shown) >= count
        if rows[0]["type"] and any(r["range"] for r in rows if r["name_zh"] == name):
            rng = next(r["range"] for r in rows if r["name_zh"] == name)
            assert any(f"range {rng}" in s.text[1] for s in entry.sections), name


def test_card_entries_are_exactly_the_names_of_the_box() -> None:
    names = {row["name_zh"] for f in CARD_FILES for row in _rows(f)}
    assert {e.name_zh for e in rules_help.card_entries()} == names
    assert len(names) == 43


def test_delayed_tricks_and_judging_equipment_give_their_judgement() -> None:
    facts = {
        "乐不思蜀": ("红桃", "heart"),
        "兵粮寸断": ("梅花", "club"),
        "闪电": ("黑桃2–9", "spade 2–9"),
        "八卦阵": ("红色", "red"),
    }
    for name, (zh, en) in facts.items():
        entry = rules_help.entry(f"card:{name}")
        assert entry is not None
        assert any(zh in s.text[0] for s in entry.sections), name
        assert any(en in s.text[1] for s in entry.sections), name


def _section(entry: rules_help.Entry, label_en: str) -> tuple[str, str]:
    found = [s.text for s in entry.sections if s.label[1] == label_en]
    return found[0] if found else ("", "")


def test_each_card_says_what_answers_it_and_its_distance() -> None:
    for entry in rules_help.card_entries():
        kind = entry.kind_label[1]
        zh, en = _section(entry, "Answered by")
        if kind in ("Trick", "Delayed trick"):
            # Every trick can be cancelled by 无懈可击 (itself by another one).
            assert "无懈可击" in zh and "Nullification" in en, entry.name_zh
        if entry.name_zh in ("杀", "火杀", "雷杀"):
            assert "闪" in zh and "Dodge" in en, entry.name_zh
        if kind.startswith("Equipment · ") and "horse" in kind:
            words = " ".join(s.text[1] for s in entry.sections)
            sign = "1 more" if "+1" in kind else "1 less"
            assert sign in words and "distance" in words, entry.name_zh
    for name in ("顺手牵羊", "兵粮寸断"):
        entry = rules_help.entry(f"card:{name}")
        assert entry is not None
        zh, en = _section(entry, "What it does")
        assert "距离1" in zh and "distance 1" in en, name
    fire = rules_help.entry("card:火攻")
    assert fire is not None and "No distance limit" in _section(fire, "When")[1]


def test_every_skill_of_the_25_heroes_has_an_entry_in_both_languages() -> None:
    assert len(STANDARD_HEROES) == 25
    count = 0
    for hero in STANDARD_HEROES:
        hero_entry = rules_help.entry(f"hero:{hero.id}")
        assert hero_entry is not None
        _filled(hero_entry)
        assert len(hero_entry.sections) == len(hero.skills_zh)
        for skill in skills_for(hero.id):
            count += 1
            entry = rules_help.entry(f"skill:{skill.id}")
            assert entry is not None, skill.id
            _filled(entry)
            assert entry.sections[0].text == (skill.text_zh, skill.text_en)
            assert f"skill:{skill.id}" in hero_entry.links
            lord_words = [
                s for s in entry.sections if "only while this hero is the lord" in s.text[1]
            ]
            assert bool(lord_words) == skill.lord_skill, skill.id
            if skill.lord_skill:
                assert "主公" in lord_words[0].text[0]
    assert count == sum(len(h.skills_zh) for h in STANDARD_HEROES)


def test_the_faq_has_forty_answers_with_sources_in_both_languages() -> None:
    faqs = rules_help.faq_entries()
    assert len(faqs) >= 40
    for entry in faqs:
        _filled(entry)
        assert entry.source, entry.key
        assert "seed" in entry.source or "RULES" in entry.source
    keys = {e.key.partition(":")[2] for e in faqs}
    asked = {
        "priority", "judge-summary", "guicai", "nullify-nullify", "lightning-move",
        "delayed-order", "qinggang", "jiedao", "wugu-order", "taoyuan-order", "dying-wine",
        "dying-who", "lord-loyalist", "renegade-win", "chain", "vine", "silver-lion",
        "fire-attack",
    }  # fmt: skip
    assert asked <= keys
    assert {e.key for e in faqs if e.maneuvering} >= {"faq:chain", "faq:vine", "faq:fire-attack"}
    summary = rules_help.entry("faq:judge-summary")
    assert summary is not None
    for word in ("洛神", "铁骑", "刚烈", "乐不思蜀", "闪电", "八卦阵", "黑桃2–9"):
        assert word in summary.sections[0].text[0]


def test_role_tips_for_all_four_identities_in_both_languages() -> None:
    assert set(ROLE_TIPS) == {"lord", "loyalist", "rebel", "renegade"}
    for tips in ROLE_TIPS.values():
        for lang in ("zh", "en"):
            assert str(tips[lang]["goal"]).strip()
            assert tips[lang]["tips"] and all(str(t).strip() for t in tips[lang]["tips"])  # type: ignore[union-attr]


PINYIN = {
    "sha": "card:杀",
    "shan": "card:闪",
    "tao": "card:桃",
    "bagua": "card:八卦阵",
    "baguazhen": "card:八卦阵",
    "lebusishu": "card:乐不思蜀",
    "shandian": "card:闪电",
    "wuxiekeji": "card:无懈可击",
    "jiedaosharen": "card:借刀杀人",
    "zhangbashemao": "card:丈八蛇矛",
    "qinggangjian": "card:青釭剑",
    "tengjia": "card:藤甲",
    "dilu": "card:的卢",
    "chitu": "card:赤兔",
    "caocao": "hero:WEI001",
    "simayi": "hero:WEI002",
    "lvbu": "hero:QUN002",
    "lubu": "hero:QUN002",
    "diaochan": "hero:QUN003",
    "guicai": "skill:guicai",
    "luoshen": "skill:luoshen",
    "tieqi": "skill:tieji",
    "tieji": "skill:tieji",
}


@pytest.mark.parametrize(("query", "key"), sorted(PINYIN.items()))
def test_pinyin_without_tones_finds_the_name_first(query: str, key: str) -> None:
    found = [e.key for e in rules_help.search(query)]
    assert found and found[0] == key, found[:5]


def test_search_by_chinese_english_and_words_of_the_text() -> None:
    assert rules_help.search("八卦阵")[0].key == "card:八卦阵"
    assert rules_help.search("eight diagram")[0].key == "card:八卦阵"
    assert rules_help.search("Demonic")[0].key == "skill:guicai"
    by_words = {e.key for e in rules_help.search("spade 2–9")}
    assert "card:闪电" in by_words
    assert rules_help.search("zzzzqqq") == ()
    assert rules_help.search("   ") == ()


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_first_game_takes_the_right_cards_out_of_the_box(players: int) -> None:
    steps = first_game.steps(players)
    assert len(steps) == 4
    box = steps[0]
    identities = [zh for _corner, zh, _en in box.pictures[0].cards]
    counts = distribution(players)
    assert len(identities) == players
    assert identities.count("反贼") == counts[next(i for i in counts if i.value == "rebel")]
    heroes = box.pictures[1].cards
    assert len(heroes) == 14 and ("", "关羽", "Guan Yu") in heroes
    aside = box.pictures[2].cards
    assert len(aside) == 26 and all(corner[1] in "JQK" and en for corner, _zh, en in aside)
    assert first_game.kept_count() == 108 - 26
    for step in steps:
        assert all(step.title) and all(step.sentence)
        assert all(zh and en for zh, en in step.checklist)
    lord_hp = 5 if players >= 5 else 4
    assert any(f"lord {lord_hp}" in en for _zh, en in steps[2].checklist)


def test_every_phase_has_a_one_line_hint_in_both_languages() -> None:
    for phase in ("start", "judgement", "draw", "play", "discard", "end"):
        zh, en = first_game.PHASE_HINTS[phase]
        assert zh and en
