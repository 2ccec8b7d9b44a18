"""The last three's hooks: the core asks it of every death, turn action, deal and undo at a table
with the option on, and shows its countdown with its own templates."""

from __future__ import annotations

from typing import Any, ClassVar

from companion import hooks
from companion.games.last_three import actions
from companion.models import Event, Seat, Table


class LastThreeGame(hooks.Game):
    key: ClassVar[str] = actions.KEY
    order: ClassVar[int] = 20
    templates: ClassVar[dict[str, str]] = {
        "turn_bar": "games/last_three/turn_bar.html",
        "now_strip": "games/last_three/now_strip.html",
    }

    def is_on(self, table: Table) -> bool:
        return actions.enabled(table)

    def at_deal(self, table: Table, seats: list[Seat]) -> None:
        actions.at_deal(table)

    def after_death(self, ctx: hooks.Death) -> None:
        # Three alive start the countdown; a turn passed into a new round ends the round.
        found = actions.after_death(ctx.table, ctx.seats, ctx.before, ctx.after)
        ctx.private_seats |= found.pop("seats", set())
        ctx.public.update(found)

    def turn_passed(self, ctx: hooks.TurnEnd) -> None:
        # docs/rules.md §9.4: the round's loss, in the turn action that starts the next round;
        # every screen is redrawn, the losers' phones too.
        loss = actions.round_end(ctx.table, ctx.seats, ctx.round_before)
        if not loss:
            return
        ctx.public.update(loss["public"])
        ctx.before.update(loss["before"])
        ctx.after.update(loss["after"])
        ctx.private_seats |= loss["seats"]
        ctx.whole_page = True

    def undo(self, table: Table, event: Event) -> set[int]:
        changed = actions.undo_round_loss(table, event)  # a turn's (or death's) round loss
        actions.undo_started(table, event)
        return changed

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        # The rounds left before the losses (0: this round ends with one; None: not started).
        return {"last_three": actions.rounds_left(table)}
