"""The box itself (the standard heroes on or off, the table's own added), and its JSON file:
export, import, and the stored form a session keeps."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules.box.hero import (
    ADDED_ID,
    FORMAT,
    MAX_ADDED,
    STANDARD,
    STANDARD_IDS,
    VERSION,
    BoxError,
    BoxHero,
    check_hero,
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
        if hero_id not in STANDARD_IDS:
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
    strange = sorted(set(off) - STANDARD_IDS)
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
        if not isinstance(hero_id, str) or not ADDED_ID.fullmatch(hero_id):
            raise BoxError("bad_id", "id must be ADD and three digits", field="id", index=index)
        try:
            added.append(check_hero(item, hero_id=hero_id))
        except BoxError as error:
            raise BoxError(error.code, str(error), field=error.field, index=index) from None
    box = Box(added=tuple(added), standard_off=frozenset(off))
    _check_unique(box.heroes())
    return box
