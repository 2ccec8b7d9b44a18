"""Hero skills of the standard edition, loaded from data/hero_skills.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SKILLS_PATH = Path(__file__).resolve().parent.parent / "data" / "hero_skills.json"

PHASES: tuple[str, ...] = (
    "start",
    "judgement",
    "draw",
    "play",
    "discard",
    "end",
    "reaction",
    "passive",
)


@dataclass(frozen=True)
class Skill:
    """One skill printed on a hero card, in Chinese and English."""

    id: str
    name_zh: str
    name_en: str
    lord_skill: bool
    compulsory: bool
    phases: tuple[str, ...]
    text_zh: str
    text_en: str


def _skill_from_json(raw: dict[str, Any]) -> Skill:
    """Build a Skill from one JSON object."""
    return Skill(
        id=raw["id"],
        name_zh=raw["name_zh"],
        name_en=raw["name_en"],
        lord_skill=bool(raw["lord_skill"]),
        compulsory=bool(raw["compulsory"]),
        phases=tuple(raw["phases"]),
        text_zh=raw["text_zh"],
        text_en=raw["text_en"],
    )


@cache
def _all_skills() -> dict[str, tuple[Skill, ...]]:
    """Read the JSON file once and map each hero id to its skills."""
    raw = json.loads(SKILLS_PATH.read_text(encoding="utf-8"))
    return {hero_id: tuple(_skill_from_json(s) for s in skills) for hero_id, skills in raw.items()}


def hero_ids() -> tuple[str, ...]:
    """Return the ids of all heroes that have skills, in file order."""
    return tuple(_all_skills())


def skills_for(hero_id: str) -> tuple[Skill, ...]:
    """Return the hero's skills in card order; KeyError for an unknown hero."""
    return _all_skills()[hero_id]


def has_skills(hero_id: str) -> bool:
    """Whether the hero is one of the reference table's (a hero a table added to its box has
    only the texts it typed, and no skill the app acts on)."""
    return hero_id in _all_skills()


def skills_in_phase(hero_id: str, phase: str) -> tuple[Skill, ...]:
    """Return the hero's skills relevant in the given phase; ValueError for an unknown phase."""
    if phase not in PHASES:
        raise ValueError(f"unknown phase: {phase!r}")
    return tuple(skill for skill in skills_for(hero_id) if phase in skill.phases)
