"""A table's hero box (docs/rules.md §2, §9.5): the standard 25 heroes, on by default, and the
heroes a table owns and adds by hand (汉献帝 and 袁绍, lord heroes, say). Plain data: validating
an added hero (`hero`), a JSON file to export and import and the lord heroes (`contents`), the
offers drawn from the box (the lord's, the others') and its unused heroes, which a game's own
offer or draw takes from (`draws`).

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

from companion.rules.box.contents import (
    Box,
    export_box,
    from_stored,
    import_box,
)
from companion.rules.box.draws import (
    deal_candidates,
    heroes_needed,
    lord_offer,
    unused,
)
from companion.rules.box.hero import (
    FORMAT,
    GENDERS,
    KINGDOMS,
    LORD_OFFER_SIZE,
    MAX_ADDED,
    MAX_FILE_BYTES,
    MAX_HP,
    MAX_NAME,
    MAX_NAME_EN,
    MAX_SKILL_NAME,
    MAX_SKILL_TEXT,
    MAX_SKILLS,
    MIN_HP,
    STANDARD,
    THREE_KINGDOMS,
    VERSION,
    BoxError,
    BoxHero,
    SkillText,
    check_hero,
)

__all__ = [
    "Box",
    "BoxError",
    "BoxHero",
    "FORMAT",
    "GENDERS",
    "KINGDOMS",
    "LORD_OFFER_SIZE",
    "MAX_ADDED",
    "MAX_FILE_BYTES",
    "MAX_HP",
    "MAX_NAME",
    "MAX_NAME_EN",
    "MAX_SKILLS",
    "MAX_SKILL_NAME",
    "MAX_SKILL_TEXT",
    "MIN_HP",
    "STANDARD",
    "SkillText",
    "THREE_KINGDOMS",
    "VERSION",
    "check_hero",
    "deal_candidates",
    "export_box",
    "from_stored",
    "heroes_needed",
    "import_box",
    "lord_offer",
    "unused",
]
