"""1 vs 1's words: its name on the create form, its winner (by name or by who moved first), its
players as draft sides and places, its order's slots (registered with companion.words.labels
when its app is ready), and the history's line of a hero falling (companion.words.history)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from companion.words.history import hero_name, line
from companion.words.labels import ModeWords, register_mode, register_words


def side_words(side: str, joined: str) -> str:
    """The winner by name (`joined`), or the card's side when no name is known."""
    if side not in ("lord", "renegade"):
        return ""
    if joined:
        return _("%(name)s wins") % {"name": joined}
    return {
        "lord": _("The second player wins"),
        "renegade": _("The first player wins"),
    }[side]


register_mode(
    "duel",
    ModeWords(
        gettext_lazy("1 vs 1"),
        gettext_lazy("Exactly 2 players: three heroes each, in a secret order."),
        side_words,
    ),
)


@line("hero_fell")
def _hero_fell(public: dict[str, Any], name: str) -> str:
    return _("%(name)s's %(fallen)s fell; %(hero)s comes in: discard its cards and draw 4") % {
        "name": name,
        "fallen": hero_name(public.get("fallen_hero", ""), public),
        "hero": hero_name(public.get("hero", ""), public),
    }


def side(code: str) -> str | None:
    """A player as a draft side: by who moves first (the renegade card's) and second."""
    return {"lord": _("the second player"), "renegade": _("the first player")}.get(code)


def side_tag(code: str) -> str | None:
    return {"lord": pgettext("side tag", "2nd"), "renegade": pgettext("side tag", "1st")}.get(code)


def place(code: str) -> str | None:
    return {"first_player": _("First player"), "second_player": _("Second player")}.get(code)


def role_hint(code: str) -> str | None:
    return {
        "first_player": _("You move first, and draw one card fewer in your first draw phase."),
        "second_player": _("You pick first in the draft; the other player moves first."),
    }.get(code)


def slot(code: str) -> str | None:
    return {"first": _("First"), "second": _("Second"), "third": _("Third")}.get(code)


for _kind, _words in (
    ("side", side),
    ("side_tag", side_tag),
    ("place", place),
    ("role_hint", role_hint),
    ("slot", slot),
):
    register_words(_kind, _words)
