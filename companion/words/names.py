"""The names of the game's things as a screen shows them: heroes (with their kingdom, HP, gender
and skills), kingdoms, cards, skills and judgements, Chinese everywhere, with the English names in
the English UI. The names come from the reference tables (companion/data, companion/rules).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from companion.models import Table
from companion.queries.box import table_box
from companion.rules import modes
from companion.rules.box import Box, BoxError, BoxHero, check_hero
from companion.rules.cards import every_expansion, load_deck
from companion.rules.heroes import hero_by_id
from companion.rules.identities import Identity
from companion.rules.skills import Skill, skills_for
from companion.rules.skills import hero_ids as skill_hero_ids

KINGDOMS = {"wei": "魏", "shu": "蜀", "wu": "吴", "qun": "群", "god": "神"}
# The kingdoms' Chinese and English names, for the badges of the English UI.
KINGDOM_NAMES = {
    "wei": ("魏", "Wei"),
    "shu": ("蜀", "Shu"),
    "wu": ("吴", "Wu"),
    "qun": ("群", "Qun"),
    "god": ("神", "God"),
}


@dataclass(frozen=True)
class HeroCard:
    """A hero as the app shows it: names, kingdom, HP, gender and skills."""

    id: str
    name_zh: str
    name_en: str
    kingdom: str
    kingdom_zh: str
    hp: int
    gender: str
    skills: tuple[Skill, ...]
    # A hero the table added to its box; its help entry's key ("added:<code>.<id>",
    # its skills' "added:<skill id>"), the standard heroes' "hero:<id>" and "skill:<id>".
    added: bool = False
    scope: str = ""

    @property
    def help_key(self) -> str:
        """The key of the hero's help entry (`data-help`)."""
        return f"added:{self.scope}.{self.id}" if self.added else f"hero:{self.id}"

    @property
    def english(self) -> bool:
        """Whether the current language shows English names beside the Chinese ones."""
        return (get_language() or "").startswith("en")

    @property
    def display_name(self) -> str:
        """The Chinese name, with the English one in the English UI."""
        return f"{self.name_zh} {self.name_en}" if self.english else self.name_zh

    @property
    def kingdom_en(self) -> str:
        """The kingdom's English name (Wei, Shu, Wu, Qun)."""
        return KINGDOM_NAMES.get(self.kingdom, ("", ""))[1]


def hero_card(hero_id: str, box: Box | None = None, scope: str = "") -> HeroCard | None:
    """The card of a hero id, or None for an empty or unknown id. A hero the table added is
    known from its box (`queries.box.table_box`), its help entries under `scope` (the
    table's code)."""
    if not hero_id:
        return None
    try:
        hero = hero_by_id(hero_id)
    except KeyError:
        added = box.lookup(hero_id) if box is not None else None
        return _added_card(added, scope) if added is not None else None
    return HeroCard(
        id=hero.id,
        name_zh=hero.name_zh,
        name_en=hero.name_en,
        kingdom=hero.kingdom,
        kingdom_zh=KINGDOMS.get(hero.kingdom, ""),
        hp=hero.hp,
        gender=hero.gender,
        skills=skills_for(hero.id),
    )


def table_hero_card(hero_id: str, table: Table) -> HeroCard | None:
    """The card of a hero a seat of this table holds or is offered: a standard hero's at
    once, a hero the table added from the table's box (read only then)."""
    card = hero_card(hero_id)
    if card is None and hero_id:
        card = hero_card(hero_id, table_box(table), table.code)
    if card is not None and not _lord_skills_played(table.mode):
        # A mode without a lord plays no lord skill (主公技): its card does not offer them.
        card = replace(card, skills=tuple(s for s in card.skills if not s.lord_skill))
    return card


@cache
def _lord_skills_played(mode: str) -> bool:
    """Whether any seat of this mode plays its hero's lord skills (`Mode.lord_skills`)."""
    return any(modes.get(mode).lord_skills(identity) for identity in Identity)


def added_card(hero_id: str, stored: dict[str, Any]) -> HeroCard | None:
    """An added hero's card from its stored fields (a finished game's record keeps them)."""
    try:
        return _added_card(check_hero(stored, hero_id=hero_id), "")
    except BoxError:
        return None


def _added_card(hero: BoxHero, scope: str) -> HeroCard:
    """An added hero's card: the names, kingdom, HP, gender and skill texts the table typed
    (shown as typed in both languages; a lord skill marked as one)."""
    return HeroCard(
        id=hero.id,
        name_zh=hero.name_zh,
        name_en=hero.name_en,
        kingdom=hero.kingdom,
        kingdom_zh=KINGDOMS.get(hero.kingdom, ""),
        hp=hero.hp,
        gender=hero.gender,
        skills=tuple(
            Skill(
                id=f"{scope}.{hero.id}.{index}",
                name_zh=skill.name,
                name_en="",
                lord_skill=skill.lord,
                compulsory=False,
                phases=(),
                text_zh=skill.text,
                text_en=skill.text,
            )
            for index, skill in enumerate(hero.skills)
        ),
        added=True,
        scope=scope,
    )


def hero_name_of(hero_id: str, box: Box | None = None) -> str:
    """A hero's name as a line names it: Chinese, with the English name in the English UI."""
    card = hero_card(hero_id, box)
    if card is None:
        return ""
    return f"{card.name_zh} {card.name_en}" if card.english and card.name_en else card.name_zh


CHECK_NAMES = {
    "indulgence": ("乐不思蜀", "Indulgence"),
    "supply_shortage": ("兵粮寸断", "Supply Shortage"),
    "lightning": ("闪电", "Lightning"),
    "eight_trigrams": ("八卦阵", "Eight Diagram"),
    "iron_cavalry": ("铁骑", "Iron Cavalry"),
    "ganglie": ("刚烈", "Unyielding"),
    "luoshen": ("洛神", "Goddess of the Luo"),
}


def english_ui() -> bool:
    """Whether the active language is English (which shows English names beside Chinese ones)."""
    return (get_language() or "").startswith("en")


def check_label(check: str) -> str:
    """A judgement's name: Chinese always, with the English name before it in the English UI."""
    if check == "free":
        return _("Free judgement")
    zh, en = CHECK_NAMES.get(check, (check, check))
    return f"{en} {zh}" if english_ui() else zh


@cache
def _card_names() -> dict[str, str]:
    return {card.name_zh: card.name_en for card in load_deck(ex=True, **every_expansion())}


def card_english(name_zh: str) -> str:
    """The English name of a card of the real deck (standard, EX, the expansions), or ""."""
    return _card_names().get(name_zh, "")


def card_label(name_zh: str) -> str:
    """A card as a screen names it: the Chinese name printed on the card, and in the English UI
    its English name before it ("Indulgence 乐不思蜀")."""
    english = card_english(name_zh)
    return f"{english} {name_zh}" if english and english_ui() else name_zh


@cache
def _skill_names() -> dict[str, str]:
    return {
        skill.name_zh: skill.name_en
        for hero_id in skill_hero_ids()
        for skill in skills_for(hero_id)
    }


def skill_list(names_zh: list[str]) -> str:
    """Skill names as a line lists them: 奸雄、反馈, or "Villainous Hero 奸雄, Feedback 反馈"."""
    if not english_ui():
        return "、".join(names_zh)
    return ", ".join(f"{_skill_names()[n]} {n}" if n in _skill_names() else n for n in names_zh)


def skill_label(skill: Skill) -> str:
    """A skill's name: Chinese, with the English name before it in the English UI."""
    return f"{skill.name_en} {skill.name_zh}" if english_ui() else skill.name_zh
