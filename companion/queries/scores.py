"""Stored scores read back (docs/rules.md §8): a game's score as the rules' GameRecord, the
identities and score codes a session's standings and export have columns for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.scoring import Breakdown, GameRecord, ScoreLine

IDENTITIES = tuple(identity.value for identity in Identity)
TIE_BREAK = gettext_lazy(
    "Ties: more games won, then more kills, then fewer games played; players still equal "
    "share a rank."
)


def line_codes() -> tuple[str, ...]:
    """Every score line code of every mode, in order (the columns of a session's export): asked
    each time, since a mode's package registers its mode when its app is ready, after this
    module may have been imported."""
    return modes.score_codes()


def game_record(score: Mapping[str, Any]) -> GameRecord:
    """A stored score back as the rules' GameRecord, for standings()."""
    lines = tuple(ScoreLine(ln["code"], ln["points"], ln["count"]) for ln in score["lines"])
    return GameRecord(
        Identity(score["identity"]), bool(score["won"]), Breakdown(lines), score["kills"]
    )
