"""Game cards of the real deck: suits, ranks, the card lists and the equipment catalogue.

The deck is the standard 104 and the 4 EX cards; an expansion's cards (a game package's, added
to the deck where its option is on) are registered by its package (`add_expansion`), and the deck
functions take the expansions on by their keys (`load_deck(ex=True, **expansions_on(flag))`).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

STANDARD_FILE = "standard_deck.csv"
EX_FILE = "ex_cards.csv"

MIN_RANK = 1
MAX_RANK = 13


class Suit(StrEnum):
    """The four suits of the game cards."""

    SPADE = "spade"
    HEART = "heart"
    CLUB = "club"
    DIAMOND = "diamond"

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEART, Suit.DIAMOND)

    @property
    def is_black(self) -> bool:
        """True for spades and clubs."""
        return not self.is_red

    @property
    def symbol(self) -> str:
        """The suit symbol (♠ ♥ ♣ ♦)."""
        return _SUIT_SYMBOLS[self]

    @property
    def name_zh(self) -> str:
        """The Chinese suit name (黑桃 红桃 梅花 方块)."""
        return _SUIT_NAMES_ZH[self]


_SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.SPADE: "♠",
    Suit.HEART: "♥",
    Suit.CLUB: "♣",
    Suit.DIAMOND: "♦",
}

_SUIT_NAMES_ZH: dict[Suit, str] = {
    Suit.SPADE: "黑桃",
    Suit.HEART: "红桃",
    Suit.CLUB: "梅花",
    Suit.DIAMOND: "方块",
}

# Every spelling a player may type or a form may post, lower-cased.
_SUIT_ALIASES: dict[str, Suit] = {
    **{suit.value: suit for suit in Suit},
    **{suit.value + "s": suit for suit in Suit},
    **{symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()},
    **{name: suit for suit, name in _SUIT_NAMES_ZH.items()},
    "♤": Suit.SPADE,
    "♡": Suit.HEART,
    "♧": Suit.CLUB,
    "♢": Suit.DIAMOND,
    "s": Suit.SPADE,
    "h": Suit.HEART,
    "c": Suit.CLUB,
    "d": Suit.DIAMOND,
    "红心": Suit.HEART,
    "草花": Suit.CLUB,
    "方片": Suit.DIAMOND,
}

_FACE_RANKS: dict[str, int] = {"A": 1, "J": 11, "Q": 12, "K": 13}
_RANK_LABELS: dict[int, str] = {rank: label for label, rank in _FACE_RANKS.items()}


def parse_suit(value: str | Suit) -> Suit:
    """Read a suit from its code, plural, symbol, one-letter or Chinese name."""
    if isinstance(value, Suit):
        return value
    if not isinstance(value, str):
        raise ValueError(f"unknown suit: {value!r}")
    suit = _SUIT_ALIASES.get(value.strip().lower())
    if suit is None:
        raise ValueError(f"unknown suit: {value!r}")
    return suit


def parse_rank(value: str | int) -> int:
    """Read a rank 1..13 from an int, a digit string or A/J/Q/K."""
    if isinstance(value, bool):
        raise ValueError(f"invalid rank: {value!r}")
    if isinstance(value, int):
        rank = value
    elif isinstance(value, str):
        text = value.strip().upper()
        if text in _FACE_RANKS:
            return _FACE_RANKS[text]
        if not text.isascii() or not text.isdigit():
            raise ValueError(f"invalid rank: {value!r}")
        rank = int(text)
    else:
        raise ValueError(f"invalid rank: {value!r}")
    if not MIN_RANK <= rank <= MAX_RANK:
        raise ValueError(f"rank out of range 1..13: {value!r}")
    return rank


def rank_label(rank: int) -> str:
    """The printed rank: A, 2..10, J, Q, K."""
    if isinstance(rank, bool) or not isinstance(rank, int) or not MIN_RANK <= rank <= MAX_RANK:
        raise ValueError(f"rank out of range 1..13: {rank!r}")
    return _RANK_LABELS.get(rank, str(rank))


def corner_label(suit: Suit, rank: int | None) -> str:
    """A card's corner as the table told it: the suit's symbol and the printed rank, or the
    symbol alone when only the suit was asked (a judgement the rank does not decide)."""
    return suit.symbol if rank is None else f"{suit.symbol}{rank_label(rank)}"


@dataclass(frozen=True)
class Card:
    """One physical game card."""

    id: str
    name_zh: str
    name_en: str
    type: str
    subtype: str
    suit: Suit
    rank: int
    range: int | None

    @property
    def is_red(self) -> bool:
        """True for a heart or diamond card."""
        return self.suit.is_red

    @property
    def label(self) -> str:
        """Suit symbol and rank, e.g. ♠A."""
        return f"{self.suit.symbol}{rank_label(self.rank)}"


def _read_cards(filename: str | Path) -> tuple[Card, ...]:
    """Parse one card CSV from the data directory (or at its own path)."""
    with (DATA_DIR / filename).open(encoding="utf-8", newline="") as handle:
        return tuple(
            Card(
                id=row["id"],
                name_zh=row["name_zh"],
                name_en=row["name_en"],
                type=row["type"],
                subtype=row["subtype"] or "",
                suit=parse_suit(row["suit"]),
                rank=parse_rank(row["rank"]),
                range=int(row["range"]) if row["range"] else None,
            )
            for row in csv.DictReader(handle)
        )


@cache
def cards_in(filename: str | Path) -> tuple[Card, ...]:
    """Cached cards of one CSV file (a name in the data directory, or a path)."""
    return _read_cards(filename)


@dataclass(frozen=True)
class Expansion:
    """A game package's cards, added to the deck where its option is on: `key`, its option's
    name; `path`, its card file (the CSV columns of the standard deck's); `name`, the deck's
    name in Chinese and in English (the help's copies)."""

    key: str
    path: Path
    name: tuple[str, str]


# The expansions registered (`add_expansion`), in their order in the deck.
_EXPANSIONS: dict[str, Expansion] = {}


def add_expansion(expansion: Expansion) -> None:
    """Make an expansion's cards part of the deck where it is on (a game package's
    `AppConfig.ready()`); registering a key again replaces it."""
    _EXPANSIONS[expansion.key] = expansion
    _deck.cache_clear()
    _catalogue.cache_clear()
    _by_name.cache_clear()


def expansions() -> tuple[Expansion, ...]:
    """The expansions registered, in their order in the deck."""
    return tuple(_EXPANSIONS.values())


def expansions_on(flag: Callable[[str], bool]) -> dict[str, bool]:
    """Each expansion's key and whether it is on, by a table's `opts.flag`: the keywords of the
    deck functions for that table."""
    return {key: flag(key) for key in _EXPANSIONS}


def every_expansion() -> dict[str, bool]:
    """Every expansion on: the keywords of the deck functions for any card of the box (a card
    already on the table, whatever the options)."""
    return dict.fromkeys(_EXPANSIONS, True)


def _on(expansions: dict[str, bool]) -> tuple[str, ...]:
    """The keys of the expansions on, in deck order; TypeError for one not registered."""
    if not expansions:
        return ()
    on = []
    for key, value in expansions.items():
        if key not in _EXPANSIONS:
            raise TypeError(f"unknown card expansion: {key}")
        if value:
            on.append(key)
    if len(on) > 1:
        order = list(_EXPANSIONS)
        on.sort(key=order.index)
    return tuple(on)


def load_deck(*, ex: bool = True, **expansions: bool) -> tuple[Card, ...]:
    """The real deck: 104 standard cards, plus the 4 EX cards and/or the cards of each
    expansion on (`expansions`: key -> on)."""
    return _deck(bool(ex), _on(expansions))


@cache
def _deck(ex: bool, on: tuple[str, ...]) -> tuple[Card, ...]:
    """Cached deck for one combination of flags."""
    cards = cards_in(STANDARD_FILE)
    if ex:
        cards += cards_in(EX_FILE)
    for key in on:
        cards += cards_in(_EXPANSIONS[key].path)
    return cards


class EquipmentSlot(StrEnum):
    """The four equipment slots; one card of each at most."""

    WEAPON = "weapon"
    ARMOR = "armor"
    PLUS_HORSE = "defensive_horse"
    MINUS_HORSE = "offensive_horse"


@dataclass(frozen=True)
class Equipment:
    """One distinct equipment card name, with its slot and (weapons only) attack range."""

    name_zh: str
    name_en: str
    slot: EquipmentSlot
    range: int | None
    expansion: str


def equipment_catalogue(**expansions: bool) -> tuple[Equipment, ...]:
    """Distinct equipment in the standard + EX deck (and each expansion on), in deck order."""
    return _catalogue(_on(expansions))


@cache
def _catalogue(on: tuple[str, ...]) -> tuple[Equipment, ...]:
    """Cached equipment catalogue for one choice of expansions."""
    seen: dict[str, Equipment] = {}
    files: list[tuple[str, str | Path]] = [("standard", STANDARD_FILE), ("ex", EX_FILE)]
    files += [(key, _EXPANSIONS[key].path) for key in on]
    for expansion, filename in files:
        for card in cards_in(filename):
            if card.type != "equipment" or card.name_zh in seen:
                continue
            seen[card.name_zh] = Equipment(
                name_zh=card.name_zh,
                name_en=card.name_en,
                slot=EquipmentSlot(card.subtype),
                range=card.range,
                expansion=expansion,
            )
    return tuple(seen.values())


def equipment_by_name(name_zh: str, **expansions: bool) -> Equipment:
    """Look up equipment by Chinese name; KeyError if unknown or not in the chosen deck."""
    return _by_name(_on(expansions))[name_zh]


@cache
def _by_name(on: tuple[str, ...]) -> dict[str, Equipment]:
    """The catalogue for one choice of expansions, by Chinese name (read on every screen)."""
    return {equipment.name_zh: equipment for equipment in _catalogue(on)}
