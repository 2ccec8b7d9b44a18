"""军争's hooks: the core reaches its taps (a damage resolved by the rules, a chain, a 酒), its
dialog (the damage dialog), their undo and what every screen shows of a paused chain only
through these, at a table with the expansion on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import ActionError
from companion.games.maneuvering import actions
from companion.games.maneuvering.forms import ChainForm, ChainGoForm, ResolveForm, WineForm
from companion.games.maneuvering.rules import KEY
from companion.games.maneuvering.rules.cards import at_turn_end, silver_lion_recovery
from companion.games.maneuvering.rules.offers import maneuver_controls
from companion.games.maneuvering.state import chain_pause
from companion.games.maneuvering.views import damage_dialog
from companion.models import Event, Seat, Table
from companion.rules.damage import DamageType
from companion.rules.offers import Asker, TableTurn
from companion.words.names import card_label

# A whole resolved damage, the rest of a chain, a seat's chain and its 酒: undone by this game.
OWN_KINDS = frozenset({actions.RESOLVED, actions.CONTINUED, *actions.SEAT_STATE_KINDS})
# The span a seat's chain and 酒 share in the ring.
MARKS = "maneuver-marks"


CHAINED = hooks.SeatMark(
    css="chained", mark="chain-mark", label=_("Chained"), titled=True, group=MARKS
)


def _wine_words(marker: str) -> str:
    words = _("drank %(card)s") if marker == "active" else _("%(card)s used")
    return str(words) % {"card": card_label("酒")}


def _wine_mark(marker: str) -> hooks.SeatMark:
    # The words in the language of the screen that shows them (str() when rendered).
    label = lazy(_wine_words, str)(marker)
    return hooks.SeatMark(css="", mark=f"wine-mark wine-{marker}", label=label, group=MARKS)


class ManeuveringGame(hooks.Game):
    key: ClassVar[str] = KEY
    # First: the paused chain leads the now strip, and a resolved damage's seats come back
    # before the other games revert what it did to theirs.
    order: ClassVar[int] = 1
    templates: ClassVar[dict[str, str]] = {
        "now_strip": "games/maneuvering/now_strip.html",
        "seat_controls": "games/maneuvering/seat_controls.html",
        "dying_strip": "games/maneuvering/dying_strip.html",
        "dying_me": "games/maneuvering/dying_me.html",
    }
    forms: ClassVar[dict[str, type]] = {
        "resolve": ResolveForm,
        "chain": ChainForm,
        "wine": WineForm,
        "chaingo": ChainGoForm,
    }
    dialogs: ClassVar[dict[str, Callable[..., Any]]] = {"damage": damage_dialog}
    event_kinds: ClassVar[frozenset[str]] = OWN_KINDS
    # A whole resolved damage and the rest of a chain, in the HP history of the seat they name.
    hp_kinds: ClassVar[frozenset[str]] = frozenset({actions.RESOLVED, actions.CONTINUED})
    damage_types: ClassVar[tuple[str, ...]] = (DamageType.FIRE, DamageType.THUNDER)
    # 酒 saves its dying drinker (docs/rules.md §6).
    rescue_cards: ClassVar[dict[str, hooks.RescueCard]] = {
        "wine": hooks.RescueCard(
            off=_("Wine is a Maneuvering (军争) card; that expansion is off."),
            not_own=_("Only the dying player can drink Wine."),
        )
    }

    def is_on(self, table: Table) -> bool:
        return table.opts.flag(KEY)

    def turn_ending(self, table: Table, seat: Seat) -> None:
        if seat.wine:  # 酒 lasts one turn (rules.cards.at_turn_end)
            seat.wine = at_turn_end(seat.wine).value
            seat.save(update_fields=["wine"])

    def equipment_left(self, table: Table, seat: Seat, slot: str, card: str) -> int:
        # 白银狮子 leaving the seat recovers 1 HP if wounded (001:463).
        if slot != "armor":
            return 0
        return silver_lion_recovery(armor_leaving=card, hp=seat.hp, max_hp=seat.max_hp)

    def undo(self, table: Table, event: Event) -> set[int]:
        if event.kind in (actions.RESOLVED, actions.CONTINUED):
            # A whole resolved damage: every seat it changed comes back at once.
            return {s.pk for s in actions.undo_resolved(table, event)}
        if event.kind in actions.SEAT_STATE_KINDS:
            seat = Seat.objects.get(pk=event.subject_seat_id or 0)
            if not seat.alive:
                raise ActionError(_("That player is dead; undo the death first."), 409, "dead")
            actions.undo_seat_state(seat, event)
            seat.save()
        return set()

    def public_parts(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        # Read by the now strip only (a query): a seat's dialog never works it out.
        return {"chain_pause": hooks.Later(lambda: chain_pause(table, seats))}

    def seat_marks(self, table: Table, seat: Seat) -> tuple[hooks.SeatMark, ...]:
        # A living seat's chain (铁索连环) and its 酒 this turn, on every screen.
        if not seat.alive:
            return ()
        marks: tuple[hooks.SeatMark, ...] = (CHAINED,) if seat.chained else ()
        if seat.wine:
            marks += (_wine_mark(seat.wine),)
        return marks

    def seat_dialog_parts(
        self, table: Table, seat: Any, asker: Asker | None, turn: TableTurn
    ) -> dict[str, Any]:
        # Damage by card, chain or free, drink 酒: for whom, on this seat.
        controls = maneuver_controls(
            asker,
            turn,
            seat_id=seat.id,
            seat_alive=seat.alive,
            seat_dying=seat.dying,
            maneuvering=True,
        )
        return {"maneuver": controls}
