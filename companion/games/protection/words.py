"""The protection's history words (docs/rules.md §9.3): clauses after the lines of the changes
it kept a last HP in or ended with, and the lines of its own taps (registered in
companion.words.history when its app is ready)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.actions.variants import add_refusals
from companion.games.protection import rules
from companion.words import variants
from companion.words.history import WORKED_DAMAGE, clause, line


@clause("damage", "lose_hp", WORKED_DAMAGE, "judgement", "died")
def _protection_clauses(public: dict[str, Any]) -> list[str]:
    found = []
    if public.get("protected"):
        found.append(_("protected: the last game's first out keeps their last HP"))
    if public.get("protection_ended"):
        found.append(_("the protection of the last game's first out ends"))
    return found


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


# Its variant (docs/rules.md §9.3): name: (label, one line on what it changes).
variants.add_words(
    {},
    {
        rules.OPTION: (
            gettext_lazy("Protect the first out"),
            gettext_lazy(
                "The previous game's first player out keeps his last HP until someone else is out "
                "or he strikes back."
            ),
        ),
    },
)

# Why its option is refused (`OptionRefusal.code`, rules.py).
add_refusals(
    {
        rules.CLASH: gettext_lazy(
            "The protection of the first player out is the rule for tables without dark souls."
        ),
    }
)
