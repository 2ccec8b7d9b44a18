"""The rules help's entries: every card, hero and skill of the box, the FAQ, and a hero a table
added, both languages side by side."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.rules.box import BoxHero
from companion.rules.cards import (
    EX_FILE,
    STANDARD_FILE,
    Card,
    Expansion,
    cards_in,
    expansions,
    load_deck,
)
from companion.rules.help.card_texts import CARD_TEXTS, CardText
from companion.rules.help.faq import Faq, all_faqs
from companion.rules.heroes import STANDARD_HEROES, Hero
from companion.rules.skills import Skill, skills_for

Pair = tuple[str, str]

KINDS = ("card", "hero", "skill", "faq")

_TYPE_NAMES: dict[str, Pair] = {
    "basic": ("基本牌", "Basic card"),
    "trick": ("锦囊牌", "Trick"),
    "delayed_trick": ("延时锦囊", "Delayed trick"),
    "weapon": ("装备 · 武器", "Equipment · weapon"),
    "armor": ("装备 · 防具", "Equipment · armour"),
    "defensive_horse": ("装备 · +1马", "Equipment · +1 horse"),
    "offensive_horse": ("装备 · -1马", "Equipment · -1 horse"),
}
# The core's parts of the deck (the expansions' names are theirs, `cards.Expansion`).
_DECK_NAMES: dict[str, Pair] = {
    "standard": ("标准版", "Standard"),
    "ex": ("EX", "EX"),
}
_KINGDOMS: dict[str, Pair] = {
    "wei": ("魏", "Wei"),
    "shu": ("蜀", "Shu"),
    "wu": ("吴", "Wu"),
    "qun": ("群", "Qun"),
    "god": ("神", "God"),
}
_LORD_NOTE: Pair = (
    "主公技：只有这名武将身为主公时才有效。",
    "Lord skill: it works only while this hero is the lord.",
)
_COMPULSORY_NOTE: Pair = ("锁定技：必须发动。", "Compulsory: it always applies.")

# The judgements the helper names by a code (companion.words.names.CHECK_NAMES), and their entries.
CHECK_KEYS: dict[str, str] = {
    "indulgence": "card:乐不思蜀",
    "supply_shortage": "card:兵粮寸断",
    "lightning": "card:闪电",
    "eight_trigrams": "card:八卦阵",
    "iron_cavalry": "skill:tieji",
    "ganglie": "skill:ganglie",
    "luoshen": "skill:luoshen",
}


@dataclass(frozen=True)
class Section:
    """One labelled paragraph of an entry."""

    label: Pair
    text: Pair


@dataclass(frozen=True)
class Entry:
    """One help entry, both languages side by side."""

    key: str
    kind: str
    name_zh: str
    name_en: str
    kind_label: Pair
    sections: tuple[Section, ...]
    copies: tuple[tuple[Pair, str], ...] = ()
    links: tuple[str, ...] = ()
    # The key of the card expansion whose card or question it is ("": the core deck's).
    expansion: str = ""
    source: str = ""

    if not TYPE_CHECKING:  # the type checker sees the declared fields only

        def __getattr__(self, name: str) -> bool:
            # Whether it is an expansion's, read by the expansion's key, as a table's option is.
            if name in _expansion_keys():
                return self.expansion == name
            raise AttributeError(name)

    def texts(self) -> tuple[str, ...]:
        """Every word of the entry, for the search and the tests."""
        words = [self.name_zh, self.name_en, *self.kind_label]
        for section in self.sections:
            words.extend((*section.label, *section.text))
        return tuple(words)


def _card_sections(card: Card, text: CardText) -> tuple[Section, ...]:
    sections = [
        Section(("作用", "What it does"), text.does),
        Section(("何时使用", "When"), text.when),
    ]
    if text.answer[0]:
        sections.append(Section(("如何应对", "Answered by"), text.answer))
    if card.range is not None:
        sections.append(
            Section(
                ("攻击范围", "Attack range"),
                (f"攻击范围 {card.range}。", f"Attack range {card.range}."),
            )
        )
    if text.facts[0]:
        sections.append(Section(("要点", "Facts"), text.facts))
    return tuple(sections)


def _card_type(card: Card) -> Pair:
    return _TYPE_NAMES[card.subtype or card.type]


def _expansion_keys() -> set[str]:
    return {expansion.key for expansion in expansions()}


def expansion_name(key: str) -> Pair:
    """The name of the card expansion of this key, in Chinese and in English (("", ""): none)."""
    found = {expansion.key: expansion.name for expansion in expansions()}
    return found.get(key, ("", ""))


def _card_entries() -> dict[str, Entry]:
    # Built again only when the expansions registered change (at startup).
    return _card_entries_of(expansions())


@cache
def _card_entries_of(registered: tuple[Expansion, ...]) -> dict[str, Entry]:
    copies: dict[str, dict[str, list[Card]]] = defaultdict(lambda: defaultdict(list))
    first: dict[str, Card] = {}
    deck_of: dict[str, str] = {}
    names = dict(_DECK_NAMES)
    files: list[tuple[str, str | Path]] = [("standard", STANDARD_FILE), ("ex", EX_FILE)]
    for expansion in registered:
        files.append((expansion.key, expansion.path))
        names[expansion.key] = expansion.name
    for deck, filename in files:
        for card in cards_in(filename):
            copies[card.name_zh][deck].append(card)
            first.setdefault(card.name_zh, card)
            deck_of.setdefault(card.name_zh, deck)
    entries: dict[str, Entry] = {}
    for name, card in first.items():
        text = CARD_TEXTS[name]
        entries[name] = Entry(
            key=f"card:{name}",
            kind="card",
            name_zh=name,
            name_en=card.name_en,
            kind_label=_card_type(card),
            sections=_card_sections(card, text),
            copies=tuple(
                (names[deck], " ".join(c.label for c in cards))
                for deck, cards in copies[name].items()
            ),
            expansion="" if deck_of[name] in _DECK_NAMES else deck_of[name],
        )
    return entries


def _skill_sections(skill: Skill) -> tuple[Section, ...]:
    sections = [Section(("技能", "Skill"), (skill.text_zh, skill.text_en))]
    if skill.lord_skill:
        sections.append(Section(("主公技", "Lord skill"), _LORD_NOTE))
    if skill.compulsory:
        sections.append(Section(("锁定技", "Compulsory"), _COMPULSORY_NOTE))
    return tuple(sections)


def _hero_label(hero: Hero) -> Pair:
    zh_k, en_k = _KINGDOMS.get(hero.kingdom, ("", ""))
    gender = ("女", "female") if hero.gender == "female" else ("男", "male")
    return (
        f"武将 · {zh_k} · {hero.hp}体力 · {gender[0]}",
        f"Hero · {en_k} · {hero.hp} HP · {gender[1]}",
    )


@cache
def _hero_and_skill_entries() -> tuple[dict[str, Entry], dict[str, Entry]]:
    heroes: dict[str, Entry] = {}
    skills: dict[str, Entry] = {}
    for hero in STANDARD_HEROES:
        hero_skills = skills_for(hero.id)
        sections = []
        for skill in hero_skills:
            text_zh, text_en = skill.text_zh, skill.text_en
            if skill.lord_skill:
                text_zh, text_en = f"{text_zh}（{_LORD_NOTE[0]}）", f"{text_en} ({_LORD_NOTE[1]})"
            sections.append(
                Section((skill.name_zh, f"{skill.name_en} {skill.name_zh}"), (text_zh, text_en))
            )
            skills[skill.id] = Entry(
                key=f"skill:{skill.id}",
                kind="skill",
                name_zh=skill.name_zh,
                name_en=skill.name_en,
                kind_label=(
                    f"{hero.name_zh}的技能",
                    f"Skill of {hero.name_en} {hero.name_zh}",
                ),
                sections=_skill_sections(skill),
                links=(f"hero:{hero.id}",),
            )
        heroes[hero.id] = Entry(
            key=f"hero:{hero.id}",
            kind="hero",
            name_zh=hero.name_zh,
            name_en=hero.name_en,
            kind_label=_hero_label(hero),
            sections=tuple(sections),
            links=tuple(f"skill:{s.id}" for s in hero_skills),
        )
    return heroes, skills


def added_entries(hero: BoxHero, scope: str) -> dict[str, Entry]:
    """The entries of a hero a table added to its box: the hero and each skill,
    with the text the table typed (the same in both languages); a lord skill says it works
    only while the hero is the lord. Keys "added:<scope>.<hero id>" and
    "added:<scope>.<hero id>.<n>" (`scope`: the table's code)."""
    base = f"added:{scope}.{hero.id}"
    gender = ("女", "female") if hero.gender == "female" else ("男", "male")
    zh_k, en_k = _KINGDOMS.get(hero.kingdom, ("神", "God"))
    name_en = hero.name_en
    sections = []
    entries: dict[str, Entry] = {}
    for index, skill in enumerate(hero.skills):
        text: Pair = (skill.text, skill.text)
        if skill.lord:
            text = (f"{skill.text}（{_LORD_NOTE[0]}）", f"{skill.text} ({_LORD_NOTE[1]})")
        sections.append(Section((skill.name, skill.name), text))
        skill_sections = [Section(("技能", "Skill"), (skill.text, skill.text))]
        if skill.lord:
            skill_sections.append(Section(("主公技", "Lord skill"), _LORD_NOTE))
        entries[f"{base}.{index}"] = Entry(
            key=f"{base}.{index}",
            kind="skill",
            name_zh=skill.name,
            name_en="",
            kind_label=(
                f"{hero.name_zh}的技能",
                f"Skill of {name_en} {hero.name_zh}" if name_en else f"Skill of {hero.name_zh}",
            ),
            sections=tuple(skill_sections),
            links=(base,),
        )
    entries[base] = Entry(
        key=base,
        kind="hero",
        name_zh=hero.name_zh,
        name_en=name_en,
        kind_label=(
            f"武将（本桌添加） · {zh_k} · {hero.hp}体力 · {gender[0]}"
            + (" · 主公武将" if hero.lord else ""),
            f"Hero (added by this table) · {en_k} · {hero.hp} HP · {gender[1]}"
            + (" · lord hero" if hero.lord else ""),
        ),
        sections=tuple(sections),
        links=tuple(f"{base}.{index}" for index in range(len(hero.skills))),
    )
    return entries


def _faq_entry(faq: Faq) -> Entry:
    return Entry(
        key=f"faq:{faq.id}",
        kind="faq",
        name_zh=faq.q_zh,
        name_en=faq.q_en,
        kind_label=("常见问题", "FAQ"),
        sections=(Section(("答", "Answer"), (faq.a_zh, faq.a_en)),),
        expansion=faq.expansion,
        source=faq.source,
    )


def _faq_entries() -> dict[str, Entry]:
    # Built again only when the questions the game packages added change (at startup).
    return _faq_entries_of(all_faqs())


@cache
def _faq_entries_of(faqs: tuple[Faq, ...]) -> dict[str, Entry]:
    return {faq.id: _faq_entry(faq) for faq in faqs}


def card_entries() -> tuple[Entry, ...]:
    """Every card name of the standard deck, EX and the expansions: basic cards, tricks, delayed
    tricks, weapons, armour, horses; in deck order within each."""
    order = {pair: i for i, pair in enumerate(_TYPE_NAMES.values())}
    return tuple(sorted(_card_entries().values(), key=lambda e: order[e.kind_label]))


def hero_entries() -> tuple[Entry, ...]:
    """The 25 heroes of the box."""
    return tuple(_hero_and_skill_entries()[0].values())


def skill_entries() -> tuple[Entry, ...]:
    """Every skill of the 25 heroes."""
    return tuple(_hero_and_skill_entries()[1].values())


def faq_entries() -> tuple[Entry, ...]:
    """The FAQ, in its order."""
    return tuple(_faq_entries().values())


def all_entries() -> tuple[Entry, ...]:
    """Every entry: cards, heroes, skills, FAQ."""
    return card_entries() + hero_entries() + skill_entries() + faq_entries()


def entry(key: str) -> Entry | None:
    """The entry of a key ("card:杀", "hero:WEI001", "skill:guicai", "faq:priority"), or None."""
    kind, _, name = key.partition(":")
    table: dict[str, Entry]
    if kind == "card":
        table = _card_entries()
    elif kind == "hero":
        table = _hero_and_skill_entries()[0]
    elif kind == "skill":
        table = _hero_and_skill_entries()[1]
    elif kind == "faq":
        table = _faq_entries()
    else:
        return None
    return table.get(name)


def card_key(name_zh: str) -> str:
    """The help key of a card name ("" if it is not a card of the box)."""
    return f"card:{name_zh}" if name_zh in _card_entries() else ""


def deck_names(**expansions: bool) -> tuple[str, ...]:
    """The card names of the deck in play (`expansions`: those on, by key), in deck order."""
    seen: dict[str, None] = {}
    for card in load_deck(ex=True, **expansions):
        seen.setdefault(card.name_zh, None)
    return tuple(seen)
