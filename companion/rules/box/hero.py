"""A hero in a table's box (docs/rules.md §2, §9.5): the standard ones, and checking a hero a
table adds by hand; the limits a hero and a box file keep to."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import heroes, typed

FORMAT = "sanguosha-box"
VERSION = 1

KINGDOMS: tuple[str, ...] = ("wei", "shu", "wu", "qun", "god")
# The three kingdoms (魏, 蜀, 吴): a draw by kingdom may treat a hero of another (群, 神) apart.
THREE_KINGDOMS: frozenset[str] = frozenset({"wei", "shu", "wu"})
GENDERS: tuple[str, ...] = ("male", "female")
MIN_HP, MAX_HP = 1, 8
MAX_NAME = 12
MAX_NAME_EN = 40
MAX_SKILLS = 6
MAX_SKILL_NAME = 8
MAX_SKILL_TEXT = 500
MAX_ADDED = 100
# The largest file an export can be: every added hero with every text at its longest, each
# character 4 bytes in UTF-8 (an escaped one is 2), and the JSON around them, generously. An
# import takes any file up to this, so a box's own export always goes back in.
_HERO_CHARACTERS = MAX_NAME + MAX_NAME_EN + MAX_SKILLS * (MAX_SKILL_NAME + MAX_SKILL_TEXT)
MAX_FILE_BYTES = MAX_ADDED * (4 * _HERO_CHARACTERS + 1024) + 4096

LORD_OFFER_SIZE = 5  # docs/rules.md §2: 曹操, 刘备, 孙权 and 2 others

_CJK = re.compile(r"[\u3400-\u9fff]")
ADDED_ID = re.compile(r"ADD[0-9]{3}")


class BoxError(ValueError):
    """A hero or a box file that does not fit: `code` is stable (for the screens to
    translate), `field` names the bad field, `index` the added hero (from 0) it is in."""

    def __init__(
        self, code: str, message: str, *, field: str | None = None, index: int | None = None
    ) -> None:
        where = f"hero {index + 1}: " if index is not None else ""
        super().__init__(where + message)
        self.code = code
        self.field = field
        self.index = index


@dataclass(frozen=True)
class SkillText:
    """A skill as printed on an added hero's card; `lord`: a lord skill (主公技), which works
    only while the hero is the lord."""

    name: str
    text: str
    lord: bool = False

    def stored(self) -> dict[str, Any]:
        """The skill as the JSON file keeps it (`lord` only when it is a lord skill)."""
        return {"name": self.name, "text": self.text, **({"lord": True} if self.lord else {})}


@dataclass(frozen=True)
class BoxHero:
    """A hero in a box: a standard one (its skills by name; texts in `rules.skills`) or one a
    table added (its skills with their texts)."""

    id: str
    name_zh: str
    name_en: str
    kingdom: str
    hp: int
    gender: str
    lord: bool
    skills: tuple[SkillText, ...] = ()
    standard: bool = False

    def stored(self) -> dict[str, Any]:
        """An added hero as the JSON file keeps it."""
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "kingdom": self.kingdom,
            "hp": self.hp,
            "gender": self.gender,
            "lord": self.lord,
            "skills": [s.stored() for s in self.skills],
        }


def _from_standard(hero: heroes.Hero) -> BoxHero:
    return BoxHero(
        id=hero.id,
        name_zh=hero.name_zh,
        name_en=hero.name_en,
        kingdom=hero.kingdom,
        hp=hero.hp,
        gender=hero.gender,
        lord=hero.lord_skill,
        skills=tuple(SkillText(name, "") for name in hero.skills_zh),
        standard=True,
    )


STANDARD: tuple[BoxHero, ...] = tuple(_from_standard(h) for h in heroes.STANDARD_HEROES)
STANDARD_IDS = frozenset(h.id for h in STANDARD)


def _text(raw: Mapping[str, Any], name: str, *, required: bool, limit: int) -> str:
    value = raw.get(name, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BoxError("bad_field", f"{name} must be text", field=name)
    if not typed.storable(value):
        raise BoxError("bad_text", f"{name} holds a character no text may hold", field=name)
    value = value.strip()
    if required and not value:
        raise BoxError("missing_field", f"{name} is required", field=name)
    if len(value) > limit:
        raise BoxError("too_long", f"{name} is longer than {limit} characters", field=name)
    return value


def check_hero(raw: Mapping[str, Any], *, hero_id: str) -> BoxHero:
    """An added hero from its fields (a form's or a file's), checked; BoxError naming the
    field otherwise. Name in Chinese (at least one Chinese character), English name optional,
    a kingdom of `KINGDOMS`, HP 1 to 8, a gender of `GENDERS`, lord hero or not, up to six
    skills each with a name and a text."""
    if not isinstance(raw, Mapping):
        raise BoxError("not_object", "a hero must be an object")
    unknown = sorted(
        set(raw) - {"id", "name_zh", "name_en", "kingdom", "hp", "gender", "lord", "skills"}
    )
    if unknown:
        raise BoxError("unknown_field", f"unknown fields: {', '.join(unknown)}", field=unknown[0])
    name_zh = _text(raw, "name_zh", required=True, limit=MAX_NAME)
    if not _CJK.search(name_zh):
        raise BoxError("name_not_chinese", "name_zh must be the name in Chinese", field="name_zh")
    name_en = _text(raw, "name_en", required=False, limit=MAX_NAME_EN)
    kingdom = raw.get("kingdom")
    if kingdom not in KINGDOMS:
        raise BoxError(
            "bad_kingdom", f"kingdom must be one of {', '.join(KINGDOMS)}", field="kingdom"
        )
    hp = raw.get("hp")
    if isinstance(hp, bool) or not isinstance(hp, int) or not MIN_HP <= hp <= MAX_HP:
        raise BoxError("bad_hp", f"hp must be a whole number from {MIN_HP} to {MAX_HP}", field="hp")
    gender = raw.get("gender")
    if gender not in GENDERS:
        raise BoxError("bad_gender", "gender must be male or female", field="gender")
    lord = raw.get("lord", False)
    if not isinstance(lord, bool):
        raise BoxError("bad_field", "lord must be true or false", field="lord")
    skills_raw = raw.get("skills", [])
    if not isinstance(skills_raw, list) or len(skills_raw) > MAX_SKILLS:
        raise BoxError(
            "bad_skills", f"skills must be a list of at most {MAX_SKILLS}", field="skills"
        )
    skills: list[SkillText] = []
    for item in skills_raw:
        if not isinstance(item, Mapping) or set(item) - {"name", "text", "lord"}:
            raise BoxError("bad_skills", "each skill has a name and a text", field="skills")
        skill_lord = item.get("lord", False)
        if not isinstance(skill_lord, bool):
            raise BoxError("bad_skills", "a skill's lord must be true or false", field="skills")
        skills.append(
            SkillText(
                name=_text(item, "name", required=True, limit=MAX_SKILL_NAME),
                text=_text(item, "text", required=True, limit=MAX_SKILL_TEXT),
                lord=skill_lord,
            )
        )
    return BoxHero(
        id=hero_id,
        name_zh=name_zh,
        name_en=name_en,
        kingdom=str(kingdom),
        hp=hp,
        gender=str(gender),
        lord=lord,
        skills=tuple(skills),
    )
