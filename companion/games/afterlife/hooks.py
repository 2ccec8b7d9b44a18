"""The afterlife's hooks: the core asks it of every death, damage, deal, undo and count of the
living at a table with rebirth or dark souls on, and shows its parts with its own templates."""

from __future__ import annotations

from typing import Any, ClassVar

from companion import hooks
from companion.games.afterlife import actions
from companion.games.afterlife.forms import GiveForm, HauntForm, SoulUseForm
from companion.games.afterlife.read import afterlife_view
from companion.models import Event, Seat, Table
from companion.rules.damage import DamageStep
from companion.rules.victory import SeatStatus

# A gift and its rebirth, a haunting, a soul used: undone by this game alone.
OWN_KINDS = frozenset({"rebirth_gift", "rebirth_reborn", "soul_haunted", "soul_used"})


class AfterlifeGame(hooks.Game):
    key: ClassVar[str] = actions.KEY
    # Before the others: 罗汉's point comes off a damage before it lands, before a game keeps
    # a last HP.
    order: ClassVar[int] = 5
    templates: ClassVar[dict[str, str]] = {
        "public_end": "games/afterlife/public.html",
        "result_fate": "games/afterlife/result_fate.html",
        "damage_note": "games/afterlife/damage_note.html",
    }
    forms: ClassVar[dict[str, type]] = {
        "give": GiveForm,
        "haunt": HauntForm,
        "souluse": SoulUseForm,
    }
    event_kinds: ClassVar[frozenset[str]] = OWN_KINDS

    def is_on(self, table: Table) -> bool:
        return actions.enabled(table)

    # Write side -------------------------------------------------------------------------------

    def hp_change(self, ctx: hooks.HpChange) -> None:
        actions.hp_change(ctx)

    def damage_steps(
        self, table: Table, seats: list[Seat], steps: tuple[DamageStep, ...]
    ) -> tuple[DamageStep, ...]:
        # docs/rules.md §9.2: a 罗汉 prevents 1 point of its haunted seat's step before it lands.
        return actions.luohan_steps(table, seats, steps)

    def steps_landed(self, ctx: hooks.StepsLanded) -> None:
        spent = actions.spend_luohan(ctx.table, ctx.seats, ctx.steps)
        if spent:
            # A 罗汉 used is gone from every screen's list of souls: the whole page.
            ctx.public.update(spent)
            ctx.whole_page = True

    def after_death(self, ctx: hooks.Death) -> None:
        # The dead waits for gifts or chooses whom to haunt; the state before, for the undo.
        kept = actions.stored_before(ctx.table)
        actions.died(ctx.table, ctx.seats, ctx.seat)
        if kept or actions.KEY in ctx.table.mode_state:
            ctx.before[actions.KEY] = kept

    def statuses(
        self, table: Table, seats: list[Seat], found: list[SeatStatus]
    ) -> list[SeatStatus]:
        # A reborn player is alive, and still dead for the end of the game (docs/rules.md §9.1).
        return actions.with_reborn(table, found)

    def undo(self, table: Table, event: Event) -> set[int]:
        if event.kind in OWN_KINDS:
            # The state back, and the seat it changed (a reborn player dead again).
            changed = actions.undo(table, event)
            return {changed.pk} if changed is not None else set()
        if event.kind == "died":
            actions.undo_death(table, event)
        actions.unspend_luohan(table, event)  # a 罗汉 the damage used haunts again
        return set()

    # Read side --------------------------------------------------------------------------------

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        return {"afterlife": afterlife_view(table, seats)}

    def identity_shown(self, table: Table, seats: list[Seat]) -> set[int]:
        # A reborn player's identity, public since his death, stays shown.
        view = afterlife_view(table, seats)
        return set(view.reborn_ids) if view is not None else set()
