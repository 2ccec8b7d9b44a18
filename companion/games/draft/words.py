"""The draft's history lines (registered in companion.words.history when its app is ready). Each
reads only the event's public part: a face-down pick names no hero, a placement no place."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.words.history import hero_name, line
from companion.words.labels import draft_side_label


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
