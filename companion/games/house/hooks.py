"""The house rules' hooks: what a phone shows (a rebel's fellow rebels, the lord's start cards),
the header's reminder of the start cards, and the lord pack's offer to the lord. No write hook:
the rules read the deal."""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.html import conditional_escape

from companion import hooks
from companion.games.house import rules
from companion.models import Seat, Table
from companion.rules import box, modes
from companion.rules.identities import Identity

KEY = "house"
REBELS = rules.REBELS
LORD_FIVE = rules.LORD_FIVE
LORD_PACK = rules.LORD_PACK


def _at_start(table: Table) -> bool:
    """From the deal to the end of the first round: when the start cards are drawn."""
    return table.status in (Table.Status.DEALT, Table.Status.HEROES) or (
        table.status == Table.Status.PLAYING and table.round <= 1
    )


class HouseGame(hooks.Game):
    key: ClassVar[str] = KEY
    order: ClassVar[int] = 30
    templates: ClassVar[dict[str, str]] = {
        "header": "games/house/header.html",
        "covered_card": "games/house/covered_card.html",
        "leader_card": "games/house/leader_card.html",
    }

    def is_on(self, table: Table) -> bool:
        # On wherever the mode offers the rule, on or off: the covered card's fellows slot is
        # padded alike for every seat whether the option is on or not, so neither a phone's
        # size nor switching the option tells anyone who is a rebel.
        return (
            REBELS in type(table.opts).names()
            or table.opts.flag(LORD_FIVE)
            or table.opts.flag(LORD_PACK)
        )

    def leader_offer(self, table: Table, hero_box: box.Box) -> list[str] | None:
        # The lord pack (docs/rules.md §9.5, seed 004): 3 random non-lord heroes and one of the
        # box's lord heroes, at the start and on a re-deal.
        if table.opts.flag(LORD_PACK):
            return rules.lord_pack_offer(hero_box)
        return None

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        # The header's reminder that the lord draws five, while the start cards are drawn.
        if table.opts.flag(LORD_FIVE) and _at_start(table):
            return {"lord_five_cards": True}
        return {}

    def private_parts(self, table: Table, seat: Seat, seats: list[Seat] | None) -> dict[str, Any]:
        if not seat.identity:
            return {}
        found = _fellows(table, seat, seats)
        if table.opts.flag(LORD_FIVE) and _at_start(table) and seat.identity == Identity.LORD:
            # Only the lord's phone says it (the lord being public).
            found["start_cards"] = rules.starting_cards(Identity.LORD, lord_five_cards=True)
        return found


def _fellows(table: Table, seat: Seat, seats: list[Seat] | None) -> dict[str, Any]:
    """The other rebels this phone shows (names, in seat order; a rebel's with the option on,
    nobody else's), and the names the slot is padded to: the table's longest, one fewer than
    its rebels, the same for every seat with the option on or off. From `seats` (the table's
    seats in seat order) when given: a change redrawing every phone reads them once."""
    if REBELS not in type(table.opts).names():
        return {}
    if seats is None:
        rows = list(
            table.seats.order_by("position", "slot").values_list("pk", "name", "identity", "alive")
        )
    else:
        rows = [(s.pk, s.name, s.identity, s.alive) for s in seats]
    found: dict[str, Any] = {}
    try:
        rebels = modes.get(table.mode).identity_counts(len(rows), table.opts).get(Identity.REBEL, 0)
    except (NotImplementedError, KeyError, ValueError):
        rebels = 0
    if rebels > 1:
        names = [r[1] for r in rows]
        longest = sorted(names, key=lambda n: -len(str(conditional_escape(n)).encode()))
        found["fellows_pad"] = tuple(longest[: rebels - 1])
    if table.opts.flag(REBELS) and all(r[2] for r in rows):
        me = next(i for i, r in enumerate(rows) if r[0] == seat.pk)
        known = rules.known_identities(
            [Identity(r[2]) for r in rows],
            alive=[r[3] for r in rows],
            game_over=table.status == Table.Status.FINISHED,
            rebels_know_each_other=True,
        )[me]
        if rows[me][2] == Identity.REBEL:
            found["fellows"] = tuple(
                rows[i][1]
                for i, ident in sorted(known.items())
                if i != me and ident == Identity.REBEL
            )
    return found
