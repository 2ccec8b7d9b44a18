"""The history's words of the variants still in the core (docs/variants.md): rebirth 转世 and
dark souls 暗魂 (companion/actions/afterlife.py), with 罗汉's clause after the damage it
prevented (companion.words.history has the registry; the game packages register their own)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.words.history import clause, hero_name, line
from companion.words.labels import soul_label

# Dark souls 暗魂: 罗汉 ------------------------------------------------------------------------


@clause("damage", "damage_resolved", "chain_continued", "judgement")
def _luohan_clauses(public: dict[str, Any]) -> list[str]:
    """docs/rules.md §9.2: each 罗汉 that prevented a point of this damage before it landed."""
    return [
        _(
            "Luohan 罗汉 (%(owner)s's soul) prevented 1 point before it landed; %(host)s "
            "discards a hand card"
        )
        % {"owner": row.get("owner_name", ""), "host": row.get("host_name", "")}
        for row in public.get("luohan") or []
    ]


# Rebirth 转世 and dark souls 暗魂 ------------------------------------------------------------


def _soul_words(public: dict[str, Any]) -> dict[str, str]:
    return {
        "name": public.get("name", ""),
        "soul": soul_label(public.get("soul", "")),
        "host": public.get("host_name", ""),
    }


@line("rebirth_gift")
@line("rebirth_reborn")
def _gift_text(public: dict[str, Any], name: str) -> str:
    text = _("%(giver)s gave %(name)s a card for rebirth (%(n)s of %(of)s)") % {
        "giver": public.get("giver_name", ""),
        "name": name,
        "n": public.get("cards", 0),
        "of": public.get("threshold", 0),
    }
    if public.get("reborn"):
        text += " · " + _("%(name)s is reborn as %(hero)s with 1 HP") % {
            "name": name,
            "hero": hero_name(public.get("hero", "")),
        }
    elif public.get("no_hero"):
        text += " · " + _("no hero of his kingdom is left: he keeps his cards")
    return text


@line("soul_used")
def _soul_used_text(public: dict[str, Any], name: str) -> str:
    words = _soul_words(public)
    if public.get("soul") == "luohan":
        return _("%(soul)s (%(name)s's) blocked 1 point of damage to %(host)s (HP %(hp)s)") % {
            **words,
            "hp": public.get("hp", ""),
        }
    return _("%(soul)s (%(name)s's) was used on %(host)s and is gone") % words


@line("soul_haunted")
def _soul_haunted(public: dict[str, Any], name: str) -> str:
    return _("%(name)s's dark soul %(soul)s haunts %(host)s") % _soul_words(public)
