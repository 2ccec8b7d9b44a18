"""The history's lines of 3 vs 3 and 1 vs 1: teams, the draft, the go, a hero falling
(companion.words.history has the registry). Each line reads only the event's public part: a
face-down pick names no hero, a placement no place."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.words.history import hero_name, line, line_of
from companion.words.labels import draft_side_label


def answer_label(answer: str) -> str:
    """An answer to the go's question."""
    return {
        "warm": _("the warm side acts first"),
        "cold": _("the cold side acts first"),
        "commander": _("the commander acts"),
        "vanguards": _("the vanguards act"),
    }.get(answer, answer)


def _asking_text(public: dict[str, Any]) -> str:
    return {
        "first_side": _("the cold commander chooses the side that acts first"),
        "who_acts": _("the commander chooses: commander or vanguards"),
    }.get(public.get("asking", ""), "")


# The line of a turn's end (companion.words.play_lines, imported before this module), kept for
# a turn that ends with no question asked.
_plain_turn_ended = line_of("turn_ended")


@line("turn_ended", replace=True)
def _turn_ended(public: dict[str, Any], name: str) -> str:
    if public.get("asking"):
        return _("%(from)s ended the turn · %(asking)s") % {
            "from": public.get("from_name", ""),
            "asking": _asking_text(public),
        }
    return _plain_turn_ended(public, name)


@line("team_joined")
def _team_joined(public: dict[str, Any], name: str) -> str:
    return _("%(name)s joined team %(team)s") % {"name": name, "team": public.get("team", 0) + 1}


@line("team_commander")
def _team_commander(public: dict[str, Any], name: str) -> str:
    return _("%(name)s commands team %(team)s") % {
        "name": name,
        "team": (public.get("team") or 0) + 1,
    }


@line("draft_started")
def _draft_started(public: dict[str, Any], name: str) -> str:
    return _("The hero draft has begun")


@line("draft_first")
def _draft_first(public: dict[str, Any], name: str) -> str:
    return _("%(name)s chose: %(side)s picks first") % {
        "name": name,
        "side": draft_side_label(public.get("side", "")),
    }


@line("draft_picked")
def _draft_picked(public: dict[str, Any], name: str) -> str:
    heroes = [
        hero_name(h, public) if h else _("a face-down hero") for h in public.get("heroes", [])
    ]
    return _("%(name)s picked %(heroes)s") % {"name": name, "heroes": ", ".join(heroes)}


@line("draft_placed")
def _draft_placed(public: dict[str, Any], name: str) -> str:
    return _("%(name)s placed the heroes of %(side)s face down") % {
        "name": name,
        "side": draft_side_label(public.get("side", "")),
    }


@line("draft_revealed")
def _draft_revealed(public: dict[str, Any], name: str) -> str:
    return _("The heroes are revealed: take your hero card from the table")


@line("draft_undone")
def _draft_undone(public: dict[str, Any], name: str) -> str:
    return _("%(side)s took back a step of the draft") % {
        "side": draft_side_label(public.get("side", ""))
    }


@line("flow_answered")
def _flow_answered(public: dict[str, Any], name: str) -> str:
    return _("%(name)s: %(answer)s") % {
        "name": name,
        "answer": answer_label(public.get("answer", "")),
    }


@line("hero_fell")
def _hero_fell(public: dict[str, Any], name: str) -> str:
    return _("%(name)s's %(fallen)s fell; %(hero)s comes in: discard its cards and draw 4") % {
        "name": name,
        "fallen": hero_name(public.get("fallen_hero", ""), public),
        "hero": hero_name(public.get("hero", ""), public),
    }
