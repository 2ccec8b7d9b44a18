"""Where a help answer comes from, named for a player in either language.

The FAQ cites its sources as the project does (companion/rules/help/faq.py): a seed file by number
("seed 003", docs/rules.md's table) or a section of docs/rules.md ("RULES §5"), several joined by
"; ". Neither name means anything at a table, and they are English in the Chinese page; these
are the names the help page shows instead. A source not listed here is shown as written."""

from __future__ import annotations

import re

SEEDS: dict[str, tuple[str, str]] = {
    "000": ("百科规则汇编", "the encyclopedia's collected rules"),
    "001": ("三国杀说明书", "the box's rule book"),
    "002": ("最新官方规则", "the newest official rules"),
    "003": ("玩家规则总结（含常见约定）", "a players' summary, with house readings"),
    "004": ("扩展版说明书", "the extended box's rule book"),
}
# docs/rules.md's sections, by number.
RULES_SECTIONS: dict[str, tuple[str, str]] = {
    "1": ("身份", "Identities"),
    "2": ("武将与体力", "Heroes and HP"),
    "3": ("回合与阶段", "Turns and phases"),
    "4": ("距离", "Distance"),
    "5": ("判定", "Judgement"),
    "6": ("濒死与死亡", "Dying and death"),
    "7": ("游戏结束", "End of the game"),
    "8": ("计分", "Scoring"),
    "9": ("变体与其他玩法", "Variants and other ways to play"),
}
RULES_NAME = ("本助手规则说明", "this companion's rules")
NEWEST_WORDING = ("最新官方措辞", "newest official wording")
_SEED_RE = re.compile(r"seed (\d{3})")
_SECTION_RE = re.compile(r"RULES §(\d+)")


def _one(source: str) -> tuple[str, str]:
    seed = _SEED_RE.fullmatch(source)
    if seed and seed.group(1) in SEEDS:
        return SEEDS[seed.group(1)]
    section = _SECTION_RE.fullmatch(source)
    if section and section.group(1) in RULES_SECTIONS:
        zh, en = RULES_SECTIONS[section.group(1)]
        return f"{RULES_NAME[0]}·{zh}", f"{RULES_NAME[1]}: {en}"
    if source == "RULES (newest official wording)":
        return f"{RULES_NAME[0]}（{NEWEST_WORDING[0]}）", f"{RULES_NAME[1]} ({NEWEST_WORDING[1]})"
    return source, source


def source_names(source: str) -> tuple[str, str]:
    """The sources of an answer (as the FAQ cites them) named in Chinese and in English."""
    parts = [_one(part.strip()) for part in source.split(";") if part.strip()]
    return "；".join(zh for zh, _en in parts), "; ".join(en for _zh, en in parts)
