"""Standard-edition heroes (武将): the fact table, candidate dealing and max HP."""

from __future__ import annotations

import csv
import random
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from companion.rules import chance
from companion.rules.identities import check_player_count

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
HEROES_CSV = DATA_DIR / "standard_heroes.csv"

LORD_HERO_IDS: tuple[str, ...] = ("WEI001", "SHU001", "WU001")
LORD_EXTRA_CANDIDATES = 2
CANDIDATES_PER_PLAYER = 3
CANDIDATES_PER_PLAYER_TEN = 2


@dataclass(frozen=True)
class Hero:
    """One hero card."""

    id: str
    name_zh: str
    name_en: str
    kingdom: str
    hp: int
    gender: str
    lord_skill: bool
    skills_zh: tuple[str, ...]


def load_heroes(path: Path = HEROES_CSV) -> tuple[Hero, ...]:
    """Read the hero fact table from a CSV file."""
    with path.open(encoding="utf-8", newline="") as handle:
        return tuple(
            Hero(
                id=row["id"],
                name_zh=row["name_zh"],
                name_en=row["name_en"],
                kingdom=row["kingdom"],
                hp=int(row["hp"]),
                gender=row["gender"],
                lord_skill=row["lord_skill"] == "yes",
                skills_zh=tuple(row["skills_zh"].split(";")),
            )
            for row in csv.DictReader(handle)
        )


STANDARD_HEROES: tuple[Hero, ...] = load_heroes()
_BY_ID: dict[str, Hero] = {hero.id: hero for hero in STANDARD_HEROES}


def hero_by_id(hero_id: str) -> Hero:
    """Return the standard hero with this id; KeyError if there is none."""
    return _BY_ID[hero_id]


def lord_candidates(rng: random.Random | None = None) -> list[str]:
    """Return the lord's 5 candidates: 曹操, 刘备, 孙权 and 2 other random heroes, shuffled."""
    rng = chance.given_or_source(rng)
    others = [hero.id for hero in STANDARD_HEROES if hero.id not in LORD_HERO_IDS]
    candidates = [*LORD_HERO_IDS, *rng.sample(others, LORD_EXTRA_CANDIDATES)]
    rng.shuffle(candidates)
    return candidates


def candidates_per_player(player_count: int) -> int:
    """Return how many candidates each non-lord player gets (2 at 10 players, else 3)."""
    check_player_count(player_count)
    return CANDIDATES_PER_PLAYER_TEN if player_count == 10 else CANDIDATES_PER_PLAYER


def deal_candidates(
    *,
    taken: Collection[str],
    player_count: int,
    non_lord_count: int,
    rng: random.Random | None = None,
) -> list[list[str]]:
    """Shuffle the heroes not taken and give each non-lord player a disjoint candidate list."""
    per_player = candidates_per_player(player_count)
    if not 0 <= non_lord_count < player_count:
        raise ValueError(f"non_lord_count {non_lord_count} outside 0..{player_count - 1}")
    unknown = sorted(set(taken) - _BY_ID.keys())
    if unknown:
        raise ValueError(f"unknown hero ids in taken: {unknown}")
    pool = [hero.id for hero in STANDARD_HEROES if hero.id not in taken]
    needed = per_player * non_lord_count
    if needed > len(pool):
        raise ValueError(f"{needed} candidates needed, only {len(pool)} heroes left")
    rng = chance.given_or_source(rng)
    rng.shuffle(pool)
    return [pool[i * per_player : (i + 1) * per_player] for i in range(non_lord_count)]


def max_hp(*, hero_hp: int | None, is_lord: bool, player_count: int, first_game: bool) -> int:
    """Return a player's max HP (also the starting HP)."""
    check_player_count(player_count)
    if first_game:
        # 000/002 first-game mode: no heroes, HP 4; the lord 5 in games of 5 or more.
        return 5 if is_lord and player_count >= 5 else 4
    if hero_hp is None:
        raise ValueError("hero_hp is required outside first-game mode")
    # Official rule (000/002): the lord's +1 does not apply in a 4-player game.
    return hero_hp + 1 if is_lord and player_count > 4 else hero_hp
