"""A table's hero box (docs/rules.md §2, §9.5): the standard 25 heroes, on by default, and the
heroes a table owns and adds by hand (the lord pack's 汉献帝 and 袁绍, say). Plain data: validating
an added hero, a JSON file to export and import, the lord heroes, the offers drawn from the box
(the lord's, the lord pack's, the others'), and the rebirth draw.

The JSON file:

    {"format": "sanguosha-box", "version": 1,
     "standard_off": ["QUN003"],
     "added": [{"id": "ADD001", "name_zh": "汉献帝", "name_en": "Emperor Xian", "kingdom": "qun",
                "hp": 3, "gender": "male", "lord": true,
                "skills": [{"name": "天命", "text": "…"},
                           {"name": "汉统", "text": "…", "lord": true}]}]}

`standard_off` lists standard heroes the table has switched off; `added` the table's own; a
skill's `lord` (optional) marks a lord skill (主公技), which works only while the hero is the lord.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules import chance, heroes, typed

FORMAT = "sanguosha-box"
VERSION = 1

KINGDOMS: tuple[str, ...] = ("wei", "shu", "wu", "qun", "god")
# Rebirth looks for a hero of the dead player's kingdom among these; a hero of another kingdom
# (群, 神) is reborn as the first hero flipped, whatever its kingdom (000: 如果是其他国家角色，
# 将翻开的第一张牌作为他转世后的角色).
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

LORD_PACK_OTHERS = 3  # the lord pack: 3 random non-lord heroes and one lord hero
LORD_OFFER_SIZE = 5  # docs/rules.md §2: 曹操, 刘备, 孙权 and 2 others

_CJK = re.compile(r"[\u3400-\u9fff]")
_ADDED_ID = re.compile(r"ADD[0-9]{3}")


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
_STANDARD_IDS = frozenset(h.id for h in STANDARD)


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


@dataclass(frozen=True)
class Box:
    """The heroes a table plays with: the standard ones not switched off, then its own."""

    added: tuple[BoxHero, ...] = ()
    standard_off: frozenset[str] = field(default_factory=frozenset)

    def heroes(self) -> tuple[BoxHero, ...]:
        """Every hero in the box, the standard first in their table's order."""
        return (*(h for h in STANDARD if h.id not in self.standard_off), *self.added)

    def ids(self) -> tuple[str, ...]:
        return tuple(h.id for h in self.heroes())

    def hero(self, hero_id: str) -> BoxHero:
        """The hero of this id in the box; KeyError if none."""
        for hero in self.heroes():
            if hero.id == hero_id:
                return hero
        raise KeyError(hero_id)

    def lookup(self, hero_id: str) -> BoxHero | None:
        """The hero of this id, standard (switched off too: a seat may hold one switched off
        mid-game) or added; None if none."""
        for hero in (*STANDARD, *self.added):
            if hero.id == hero_id:
                return hero
        return None

    def lord_heroes(self) -> tuple[BoxHero, ...]:
        """The lord heroes (曹操, 刘备, 孙权, and any added as a lord, 汉献帝 or 袁绍)."""
        return tuple(h for h in self.heroes() if h.lord)

    def add(self, raw: Mapping[str, Any]) -> Box:
        """The box with one more hero, checked (`check_hero`); its id is the next ADDnnn. A
        name already in the box is refused."""
        if len(self.added) >= MAX_ADDED:
            raise BoxError("too_many", f"a box holds at most {MAX_ADDED} added heroes")
        used = {int(h.id[3:]) for h in self.added}
        hero = check_hero({**raw, "id": None}, hero_id=f"ADD{max(used, default=0) + 1:03d}")
        _check_unique([*self.heroes(), hero])
        return Box(added=(*self.added, hero), standard_off=self.standard_off)

    def remove(self, hero_id: str) -> Box:
        """The box without this added hero (a standard one is switched off with `switch`)."""
        if hero_id not in {h.id for h in self.added}:
            raise KeyError(hero_id)
        return Box(
            added=tuple(h for h in self.added if h.id != hero_id), standard_off=self.standard_off
        )

    def switch(self, hero_id: str, *, on: bool) -> Box:
        """The box with a standard hero switched on or off."""
        if hero_id not in _STANDARD_IDS:
            raise KeyError(hero_id)
        off = self.standard_off - {hero_id} if on else self.standard_off | {hero_id}
        return Box(added=self.added, standard_off=frozenset(off))

    def stored(self) -> dict[str, Any]:
        """The JSON file's object."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "standard_off": sorted(self.standard_off),
            "added": [h.stored() for h in self.added],
        }


def _check_unique(box_heroes: Sequence[BoxHero]) -> None:
    names: set[str] = set()
    ids: set[str] = set()
    for hero in box_heroes:
        index = None if hero.standard else _added_index(box_heroes, hero)
        if hero.name_zh in names:
            raise BoxError(
                "duplicate_name",
                f"{hero.name_zh} is already in the box",
                field="name_zh",
                index=index,
            )
        if hero.id in ids:
            raise BoxError("duplicate_id", f"id {hero.id} appears twice", field="id", index=index)
        names.add(hero.name_zh)
        ids.add(hero.id)


def _added_index(box_heroes: Sequence[BoxHero], hero: BoxHero) -> int:
    added = [h for h in box_heroes if not h.standard]
    return added.index(hero)


def export_box(box: Box) -> str:
    """The box as a JSON file's text (UTF-8, Chinese kept readable)."""
    return json.dumps(box.stored(), ensure_ascii=False, indent=2)


def import_box(text: str | bytes) -> Box:
    """The box a JSON file holds; BoxError with a clear reason for a bad file."""
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise BoxError("not_json", "the file is not JSON") from None
    except RecursionError:
        # Arrays or objects nested thousands deep: valid JSON, never a box (a box nests four).
        raise BoxError("wrong_format", "the file nests too deep for a hero box") from None
    return from_stored(raw)


def from_stored(raw: Any) -> Box:
    """The box an object in the JSON file's shape holds (a session keeps `Box.stored()`); an
    empty object is the standard box. BoxError as for `import_box`."""
    if raw == {}:
        return Box()
    if not isinstance(raw, dict):
        raise BoxError("not_object", "the file does not hold a box")
    if raw.get("format") != FORMAT:
        raise BoxError("wrong_format", "the file is not a hero box of this app")
    if raw.get("version") != VERSION:
        raise BoxError("wrong_version", f"the box is version {raw.get('version')!r}, not {VERSION}")
    unknown = sorted(set(raw) - {"format", "version", "standard_off", "added"})
    if unknown:
        raise BoxError("unknown_field", f"unknown fields: {', '.join(unknown)}")
    off = raw.get("standard_off", [])
    if not isinstance(off, list) or not all(isinstance(i, str) for i in off):
        raise BoxError("bad_field", "standard_off must be a list of hero ids", field="standard_off")
    strange = sorted(set(off) - _STANDARD_IDS)
    if strange:
        raise BoxError(
            "unknown_standard", f"not standard heroes: {', '.join(strange)}", field="standard_off"
        )
    added_raw = raw.get("added", [])
    if not isinstance(added_raw, list):
        raise BoxError("bad_field", "added must be a list of heroes", field="added")
    if len(added_raw) > MAX_ADDED:
        raise BoxError("too_many", f"a box holds at most {MAX_ADDED} added heroes")
    added: list[BoxHero] = []
    for index, item in enumerate(added_raw):
        hero_id = item.get("id") if isinstance(item, Mapping) else None
        if not isinstance(hero_id, str) or not _ADDED_ID.fullmatch(hero_id):
            raise BoxError("bad_id", "id must be ADD and three digits", field="id", index=index)
        try:
            added.append(check_hero(item, hero_id=hero_id))
        except BoxError as error:
            raise BoxError(error.code, str(error), field=error.field, index=index) from None
    box = Box(added=tuple(added), standard_off=frozenset(off))
    _check_unique(box.heroes())
    return box


# Offers drawn from the box -------------------------------------------------------------------


def _rng(rng: random.Random | None) -> random.Random:
    return chance.given_or_source(rng)


def heroes_needed(player_count: int) -> int:
    """How many heroes a deal needs: the lord's choice, then every other player's candidates
    (docs/rules.md §2), so a box smaller than this cannot deal to this many players."""
    return 1 + heroes.candidates_per_player(player_count) * (player_count - 1)


def lord_offer(box: Box, rng: random.Random | None = None) -> list[str]:
    """The lord's five (docs/rules.md §2): the standard lord heroes in the box (曹操, 刘备, 孙权)
    and others at random to make five, shuffled."""
    rng = _rng(rng)
    lords = [h.id for h in box.heroes() if h.standard and h.lord]
    others = [h.id for h in box.heroes() if h.id not in lords]
    count = min(LORD_OFFER_SIZE - len(lords), len(others))
    offer = [*lords, *rng.sample(others, max(count, 0))]
    rng.shuffle(offer)
    return offer


def lord_pack_offer(box: Box, rng: random.Random | None = None) -> list[str]:
    """The lord pack (docs/rules.md §9.5, 004): 3 random non-lord heroes, then one drawn from the
    box's lord heroes (the last of the four). ValueError if the box has no lord hero or too few
    others."""
    rng = _rng(rng)
    lords = [h.id for h in box.lord_heroes()]
    others = [h.id for h in box.heroes() if not h.lord]
    if not lords:
        raise ValueError("the box has no lord hero")
    if len(others) < LORD_PACK_OTHERS:
        raise ValueError(f"the box has fewer than {LORD_PACK_OTHERS} non-lord heroes")
    return [*rng.sample(others, LORD_PACK_OTHERS), rng.choice(lords)]


def deal_candidates(
    box: Box,
    *,
    taken: Collection[str],
    player_count: int,
    count: int,
    rng: random.Random | None = None,
) -> list[list[str]]:
    """The other players' candidates from the box (docs/rules.md §2): the heroes not taken,
    shuffled, three each (two at ten players), disjoint."""
    per_player = heroes.candidates_per_player(player_count)
    pool = [h.id for h in box.heroes() if h.id not in taken]
    if per_player * count > len(pool):
        raise ValueError(f"{per_player * count} candidates needed, only {len(pool)} heroes left")
    rng = _rng(rng)
    rng.shuffle(pool)
    return [pool[i * per_player : (i + 1) * per_player] for i in range(count)]


def first_of_kingdom(kingdom: str, flipped: Sequence[BoxHero]) -> BoxHero | None:
    """The rebirth's hero from the unused heroes in the order they are flipped: the first of
    the dead hero's kingdom; for a hero of 群 or 神, the first flipped; None if none fits."""
    if kingdom not in THREE_KINGDOMS:
        return flipped[0] if flipped else None
    return next((h for h in flipped if h.kingdom == kingdom), None)


def unused(box: Box, held: Collection[str]) -> list[BoxHero]:
    """The heroes of the box no seat holds (the dead keep theirs aside until reborn)."""
    return [h for h in box.heroes() if h.id not in held]


def rebirth_hero(
    box: Box, *, old_hero: str, held: Collection[str], rng: random.Random | None = None
) -> BoxHero | None:
    """The hero a dead player is reborn as (docs/rules.md §9.1): the unused heroes shuffled and
    flipped, the first of his old hero's kingdom (any, for 群 and 神). `held` is every seat's hero,
    his old one too: his old hero goes back among the unused only after the draw. None: no hero
    of his kingdom is left (he keeps his cards and takes no more gifts)."""
    kingdom = box.hero(old_hero).kingdom
    pile = unused(box, {*held, old_hero})
    _rng(rng).shuffle(pile)
    return first_of_kingdom(kingdom, pile)
