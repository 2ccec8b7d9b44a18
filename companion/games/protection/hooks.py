"""The protection's hooks: the core asks it of every HP change, death, deal and undo at a table
with the option on, and shows its parts with its own templates."""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.games.protection import actions
from companion.games.protection.forms import DodgedForm, StrikeForm
from companion.models import Event, Seat, Table

PROTECTED = hooks.SeatMark(css="protected", mark="protect-mark", label=_("Protected"))


class ProtectionGame(hooks.Game):
    key: ClassVar[str] = actions.KEY
    order: ClassVar[int] = 10
    templates: ClassVar[dict[str, str]] = {
        "public_notes": "games/protection/public.html",
        "me": "games/protection/me.html",
    }
    forms: ClassVar[dict[str, type]] = {"strike": StrikeForm, "dodged": DodgedForm}
    event_kinds: ClassVar[frozenset[str]] = frozenset({"protection_ended", "protection_attacked"})

    def is_on(self, table: Table) -> bool:
        return actions.enabled(table)

    def at_deal(self, table: Table, seats: list[Seat]) -> None:
        actions.at_deal(table, seats)

    def hp_change(self, ctx: hooks.HpChange) -> None:
        actions.hp_change(ctx)

    def after_death(self, ctx: hooks.Death) -> None:
        # Someone else out ends it (docs/rules.md §9.3).
        ended = actions.after_death(ctx.table, ctx.seat)
        ctx.public.update(ended)
        ctx.after.update(ended)

    def undo(self, table: Table, event: Event) -> set[int]:
        return actions.undo(table, event)

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        # The seat protected now (None: nobody, or it has ended): the public note names him.
        return {"protected": actions.protected_seat(table)}

    def private_parts(self, table: Table, seat: Seat, seats: list[Seat] | None) -> dict[str, Any]:
        # This seat is protected, and the living players who attacked it since (id, name) for
        # its "I attack X" taps; the others, whose dodged 杀 would make them attackers.
        if not (seat.alive and actions.protected_seat(table) == seat.pk):
            return {}
        return {
            "protection": {
                "attackers": tuple(actions.attackers(table, seat)),
                "dodged_from": tuple(actions.not_yet_attackers(table, seat)),
            }
        }

    def seat_marks(self, table: Table, seat: Seat) -> tuple[hooks.SeatMark, ...]:
        if seat.alive and actions.protected_seat(table) == seat.pk:
            return (PROTECTED,)
        return ()
