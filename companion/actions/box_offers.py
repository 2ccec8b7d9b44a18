"""The heroes offered from a table's box (issue 16, RULES §9, docs/variants.md).

With the lord pack on, the lord is offered 3 random non-lord heroes and one drawn from the box's
lord heroes (`Mode.leader_offer_from`). The box is the standard 25 (`rules.box.Box()`): a box
kept per session, with heroes a table adds, is not built yet."""

from __future__ import annotations

from companion.actions.inputs import mode_of
from companion.models import Table
from companion.rules import box


def leader_offer(table: Table) -> list[str]:
    """The hero ids offered to the table's leader: the lord pack's four when it is on, else
    the mode's usual offer (unchanged)."""
    mode = mode_of(table)
    offer_from = getattr(mode, "leader_offer_from", None)
    if offer_from is not None and getattr(table.opts, "lord_pack", False):
        return list(offer_from(table.opts, box.Box()))
    return mode.leader_offer()


def table_box(table: Table) -> box.Box:
    return box.Box()
