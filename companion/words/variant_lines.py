"""The history's words of the variants (docs/variants.md): the protection of the first out and
the last three (docs/rules.md §9.3, §9.4), added as clauses to the lines of the changes they
follow, and the lines of rebirth 转世 and dark souls 暗魂 (companion/actions/afterlife.py)
(companion.words.history has the registry)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.rules.flow import shown_hp
from companion.words.history import clause, hero_name, line
from companion.words.labels import soul_label

# The protection of the first out and the last three -----------------------------------------


@clause("damage", "lose_hp", "damage_resolved", "chain_continued", "judgement")
def _protection_clauses(public: dict[str, Any]) -> list[str]:
    found = []
    if public.get("protected"):
        found.append(_("protected: the last game's first out keeps their last HP"))
    if public.get("protection_ended"):
        found.append(_("the protection of the last game's first out ends"))
    return found


def _last_three_started(public: dict[str, Any]) -> list[str]:
    if public.get("last_three_started") is None:
        return []
    return [_("three alive: the last three's countdown begins (3 rounds after this one)")]


@clause("turn", "turn_ended", "phase")
def _round_loss(public: dict[str, Any]) -> list[str]:
    loss = public.get("last_three")
    if not isinstance(loss, dict):
        return []
    if loss.get("carried"):
        return [
            _("Last three: the loss would take everyone out together; it carries to the next round")
        ]
    losers = ", ".join(
        _("%(name)s HP %(hp)s") % {"name": s.get("name", ""), "hp": shown_hp(s.get("hp", 0))}
        for s in loss.get("losers", [])
    )
    return [
        _("Last three: end of round %(round)s, everyone loses 1 HP (%(losers)s)")
        % {"round": loss.get("round_end"), "losers": losers}
    ]


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


@clause("died")
def _died_clauses(public: dict[str, Any]) -> list[str]:
    return [
        *_protection_clauses(public),
        *_last_three_started(public),
        *_round_loss(public),
    ]


@line("protection_attacked")
def _protection_attacked(public: dict[str, Any], name: str) -> str:
    return _("%(name)s dodged a Slash from %(attacker)s: an attack all the same") % {
        "name": name,
        "attacker": public.get("attacker_name", ""),
    }


@line("protection_ended")
def _protection_ended(public: dict[str, Any], name: str) -> str:
    return _("%(name)s attacks %(target)s, who attacked them: the protection ends") % {
        "name": name,
        "target": public.get("target_name", ""),
    }


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
