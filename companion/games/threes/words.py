"""3 vs 3's words: its name on the create form, its winning side (the warm or the cold, with the
side's players), its colours, places and slots, and the go's questions and answers (registered
with companion.words.labels when its app is ready); the history's lines of its teams in the
lobby (companion.words.history)."""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from companion.words.history import line
from companion.words.labels import ModeWords, draft_side_label, register_mode, register_words


def side_words(side: str, joined: str) -> str:
    """The winning colour, with its players when their names are known (`joined`)."""
    text = {
        "lord": _("The warm side wins"),
        "renegade": _("The cold side wins"),
    }.get(side, "")
    if text and joined:
        return _("%(side)s: %(names)s") % {"side": text, "names": joined}
    return text


register_mode(
    "threes",
    ModeWords(
        gettext_lazy("3 vs 3"),
        gettext_lazy("Exactly 6 players: two teams, a commander each, a draft."),
        side_words,
    ),
)


def side(code: str) -> str | None:
    """A colour as a draft side."""
    return {"warm": _("the warm side"), "cold": _("the cold side")}.get(code)


def side_tag(code: str) -> str | None:
    return {"warm": pgettext("side tag", "Warm"), "cold": pgettext("side tag", "Cold")}.get(code)


def place(code: str) -> str | None:
    """A seat's colour and place ("cold_vanguard_a") or role ("warm_commander")."""
    colour, _sep, role = code.partition("_")
    words = {
        "commander": _("%(side)s: commander"),
        "vanguard_a": _("%(side)s: vanguard A"),
        "vanguard_b": _("%(side)s: vanguard B"),
        "vanguard": _("%(side)s: vanguard"),
    }.get(role)
    if words is None:
        return None
    return words % {"side": capfirst(draft_side_label(colour))}


def role_hint(code: str) -> str | None:
    colour, _sep, _role = code.partition("_")
    return _("Every identity is public in 3 vs 3.") if colour in ("warm", "cold") else None


def slot(code: str) -> str | None:
    return {
        "commander": _("Commander"),
        "vanguard_a": _("Vanguard A"),
        "vanguard_b": _("Vanguard B"),
    }.get(code)


def question(code: str) -> str | None:
    return {
        "first_side": _("Which side acts first?"),
        "who_acts": _("Commander or vanguards?"),
    }.get(code)


def asking(code: str) -> str | None:
    return {
        "first_side": _("the cold commander chooses the side that acts first"),
        "who_acts": _("the commander chooses: commander or vanguards"),
    }.get(code)


def answer(code: str) -> str | None:
    return {
        "warm": _("the warm side acts first"),
        "cold": _("the cold side acts first"),
        "commander": _("the commander acts"),
        "vanguards": _("the vanguards act"),
    }.get(code)


for _kind, _words in (
    ("side", side),
    ("side_tag", side_tag),
    ("place", place),
    ("role_hint", role_hint),
    ("slot", slot),
    ("question", question),
    ("asking", asking),
    ("answer", answer),
):
    register_words(_kind, _words)


@line("team_joined")
def _team_joined(public: dict[str, Any], name: str) -> str:
    return _("%(name)s joined team %(team)s") % {"name": name, "team": public.get("team", 0) + 1}


@line("team_commander")
def _team_commander(public: dict[str, Any], name: str) -> str:
    return _("%(name)s commands team %(team)s") % {
        "name": name,
        "team": (public.get("team") or 0) + 1,
    }
