"""The last three's words (docs/rules.md §9.4): the countdown, and the history's clauses after a
death that starts it and the turn (or death) that ends a round with its loss (registered in
companion.words.history when its app is ready)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from companion.games.last_three import rules
from companion.games.last_three.rules import COUNTDOWN_ROUNDS
from companion.rules.flow import shown_hp
from companion.words import variants
from companion.words.history import clause


def last_three_words(left: int | None) -> str:
    """The countdown in words, from the rounds left this round included
    (`actions.rounds_left`): "" before it starts."""
    if left is None:
        return ""
    if left == 0:
        return _("Last three: everyone loses 1 HP at the end of this round")
    if left > COUNTDOWN_ROUNDS:
        return _("Last three: %(n)s rounds after this one, then everyone loses 1 HP a round") % {
            "n": COUNTDOWN_ROUNDS
        }
    return ngettext(
        "Last three: %(n)s round left, then everyone loses 1 HP at each round's end",
        "Last three: %(n)s rounds left, then everyone loses 1 HP at each round's end",
        left,
    ) % {"n": left}


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


@clause("died")
def _died_clauses(public: dict[str, Any]) -> list[str]:
    return [*_last_three_started(public), *_round_loss(public)]


# Its variant (docs/rules.md §9.4): name: (label, one line on what it changes).
variants.add_words(
    {},
    {
        rules.OPTION: (
            gettext_lazy("Last three"),
            gettext_lazy(
                "With three alive, after three rounds everyone loses 1 HP at the end of each round "
                "(from 4 players: at 4 the first death starts it)."
            ),
        ),
    },
)
