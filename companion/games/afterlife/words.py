"""The afterlife's words (docs/variants.md): the dark souls' names and effects, and the history
lines of rebirth 转世 and dark souls 暗魂, with 罗汉's clause after the damage it prevented and
its point in the damage's steps (registered in companion.words.history when its app is ready)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.actions.variants import add_refusals
from companion.games.afterlife.rules import options, souls
from companion.words import variants
from companion.words.history import WORKED_DAMAGE, change, clause, hero_name, line

# The dark souls 暗魂 (docs/rules.md §9.2, rules/souls.py).
SOUL_LABELS: dict[str, Promise] = {
    "luohan": gettext_lazy("Luohan 罗汉"),
    "xuanwu": gettext_lazy("Xuanwu 玄武"),
    "zhuyou": gettext_lazy("Zhuyou 祝由"),
}

SOUL_EFFECTS: dict[str, Promise] = {
    "luohan": gettext_lazy(
        "Prevents 1 point of the haunted player's next damage before it lands, by itself; "
        "the haunted player discards a hand card."
    ),
    "xuanwu": gettext_lazy(
        "Draws a card from the deck now; at any time it may swap it for a hand card of the "
        "haunted player's that the soul names."
    ),
    "zhuyou": gettext_lazy(
        "In the haunted player's play phase, it may make him discard his whole hand and draw "
        "as many cards."
    ),
}


def soul_label(soul: str) -> str:
    """A soul's name: Chinese, with its reading in the English UI."""
    return str(SOUL_LABELS.get(soul, soul))


# Dark souls 暗魂: 罗汉 ------------------------------------------------------------------------


@change(souls.LUOHAN_PREVENTED)
def _luohan_change(before: int, after: int) -> str:
    """In a damage step (the damage dialog's and the history's): the point 罗汉 prevented."""
    return _("Luohan 罗汉 prevents 1 before it lands: %(before)s → %(after)s") % {
        "before": before,
        "after": after,
    }


@clause("damage", WORKED_DAMAGE, "judgement")
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


# Its variants (docs/rules.md §9.1, §9.2): name: (label, one line on what it changes).
variants.add_words(
    {},
    {
        options.REBIRTH: (
            gettext_lazy("Rebirth"),
            gettext_lazy(
                "The dead stay: each player may give them one card a turn; at 4 cards (3 with 4–5 "
                "players) they come back with a new hero at 1 HP, still dead for victory."
            ),
        ),
        options.DARK_SOULS: (
            gettext_lazy("Dark souls"),
            gettext_lazy(
                "A dead loyalist, rebel or renegade becomes a dark soul and haunts a living player "
                "with a one-off effect."
            ),
        ),
    },
)

# Why one of its options is refused (`OptionRefusal.code`, rules/options.py).
add_refusals(
    {
        options.CLASH_DARK_SOULS: gettext_lazy(
            "Rebirth and dark souls both decide what becomes of the dead: choose one."
        ),
        options.CLASH_FIRST_GAME: gettext_lazy(
            "Rebirth draws a new hero, and first-game mode plays without heroes."
        ),
    }
)
