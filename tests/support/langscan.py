"""Scanning rendered pages for Chinese text that an English-speaking player cannot read.

`visible_text` collects what a person sees or hears from a page: text nodes and the attributes
a browser shows (title, aria-label, placeholder, hx-confirm, the announcement and timer words),
never scripts, styles, hidden inputs or URLs. `stray_cjk` lists the runs of Chinese characters in
that text that are not a known name (card, equipment, hero, skill, kingdom, judgement) standing
right beside its English name.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from companion.rules.cards import equipment_catalogue, load_deck
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.skills import skills_for
from companion.words.names import CHECK_NAMES, KINGDOM_NAMES

CJK_RUN = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+")
SHOWN_ATTRIBUTES = (
    "title",
    "aria-label",
    "placeholder",
    "hx-confirm",
    "data-announce",
    "data-expired",
    "alt",
)
SKIPPED_TAGS = ("script", "style", "template-none")
# The language switch names the other language in that language (简体中文): it is meant to be
# read by a Chinese speaker.
ALLOWED_ALONE = frozenset({"简体中文", "中文"})
# Names the app spells out beside their Chinese name that are not a card, hero or skill.
OTHER_NAMES = {
    "军争": "Maneuvering",
    "失去体力": "Lose HP",
    "酒": "Wine",
    # The dark souls (companion.games.afterlife.words.SOUL_LABELS).
    "罗汉": "Luohan",
    "玄武": "Xuanwu",
    "祝由": "Zhuyou",
}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self._skip += 1
        values = dict(attrs)
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.parts.append(f" {values[name]} ")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The words a page shows or reads out, whitespace collapsed."""
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", "".join(parser.parts))


@cache
def english_names() -> dict[str, str]:
    """Every Chinese name the app shows with an English one: cards, equipment, heroes, skills,
    kingdoms and judgements."""
    names: dict[str, str] = {}
    for card in load_deck(ex=True, maneuvering=True):
        names[card.name_zh] = card.name_en
    for equipment in equipment_catalogue(maneuvering=True):
        names[equipment.name_zh] = equipment.name_en
    for hero in STANDARD_HEROES:
        names[hero.name_zh] = hero.name_en
        for skill in skills_for(hero.id):
            names[skill.name_zh] = skill.name_en
    for zh, en in CHECK_NAMES.values():
        names[zh] = en
    for zh, en in KINGDOM_NAMES.values():
        names[zh] = en
    names.update(OTHER_NAMES)
    return names


def stray_cjk(text: str, room: int = 3) -> list[str]:
    """Chinese runs in `text` that are not a known name with its English name right beside it
    (within `room` characters before or after), each with some context."""
    names = english_names()
    stray = []
    for match in CJK_RUN.finditer(text):
        if match.group() in ALLOWED_ALONE:
            continue
        for start, end in _segments(match.group(), names):
            start, end = match.start() + start, match.start() + end
            english = names.get(text[start:end])
            if english:
                before = text[max(0, start - len(english) - room) : start]
                after = text[end : end + len(english) + room]
                if english in before or english in after:
                    continue
            stray.append(text[max(0, start - 30) : end + 30])
    return stray


def _segments(run: str, names: dict[str, str]) -> list[tuple[int, int]]:
    """A run of Chinese characters cut into known names, longest first from the left (two names
    may touch, e.g. a kingdom badge and a hero name); the rest stays whole."""
    cuts = []
    i = 0
    while i < len(run):
        end = next((j for j in range(len(run), i, -1) if run[i:j] in names), None)
        if end is None:
            rest = i
            while i < len(run) and not any(run[i:j] in names for j in range(i + 1, len(run) + 1)):
                i += 1
            cuts.append((rest, i))
        else:
            cuts.append((i, end))
            i = end
    return cuts
