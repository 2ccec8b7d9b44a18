"""The history's lines of the teams picked in the lobby and of the go (3 vs 3), by the core's
actions (companion.words.history has the registry); the draft's lines are its kit's
(companion.games.draft.words), a hero falling 1 vs 1's (companion.games.duel.words)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from companion.words.history import line, line_of
from companion.words.labels import game_word


def answer_label(answer: str) -> str:
    """An answer to the question a mode's flow asks, in its mode's words."""
    return game_word("answer", answer) or answer


def _asking_text(public: dict[str, Any]) -> str:
    return game_word("asking", public.get("asking", "")) or ""


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


@line("flow_answered")
def _flow_answered(public: dict[str, Any], name: str) -> str:
    return _("%(name)s: %(answer)s") % {
        "name": name,
        "answer": answer_label(public.get("answer", "")),
    }
