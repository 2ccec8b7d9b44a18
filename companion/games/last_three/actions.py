"""The last-three rule (docs/rules.md §9.4, `last_three`; docs/variants.md): the countdown and the
HP lost together at the end of each round.

The state lives in `Table.mode_state["last_three"]` (`rules.LastThree`, public), cleared at
each deal. The death that leaves three alive starts it (kept on the death's
event, `after["last_three_started"]`). The turn action that starts a new round takes the loss:
every living player loses 1 HP (HP loss, no source) in that one event, whose `before` and
`after` keep the HP and the state, so the undo of the turn gives the HP back with it
(`undo_round_loss`). If the loss would take them all out together it carries into the next
round (the state counts it). The core reaches it through its hooks (`hooks.py`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError
from companion.games.last_three import rules
from companion.models import Event, Seat, Table

KEY = "last_three"
# Its table option (the identity game's).
OPTION = rules.OPTION


def enabled(table: Table) -> bool:
    """Whether the table plays the last-three rule (an identity game's option)."""
    return table.opts.flag(OPTION)


def current(table: Table) -> rules.LastThree:
    """The rule's state as stored (not started: `started` None)."""
    return rules.LastThree.from_stored((table.mode_state or {}).get(KEY))


def rounds_left(table: Table) -> int | None:
    """During the table's round: the rounds left before the losses begin (0: this round ends
    with the loss; None: the rule is off or not started)."""
    if KEY not in (table.mode_state or {}) or not enabled(table):
        return None
    return rules.rounds_left(current(table), table.round)


def _store(table: Table, value: rules.LastThree | None) -> None:
    state = {k: v for k, v in (table.mode_state or {}).items() if k != KEY}
    if value is not None and value != rules.LastThree():
        state[KEY] = value.stored()
    table.mode_state = state


def at_deal(table: Table) -> None:
    """A new deal: the rule starts over."""
    _store(table, None)


def after_death(
    table: Table, seats: list[Seat], before: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """A player is out (`before` and `after`: the death's event's, with the turn when it
    passed): with three alive the countdown starts in the round of the death; a turn that
    passed into a new round with the death ends that round (its loss, kept in the event).
    Returns the event's public additions, with "seats": the phones whose HP changed."""
    if not enabled(table):
        return {}
    death_round = int(before.get("turn", {}).get("round", table.round))
    found: dict[str, Any] = {}
    state = current(table)
    started = rules.watch(state, alive=sum(1 for s in seats if s.alive), round_number=death_round)
    if started != state:
        _store(table, started)
        found["last_three_started"] = started.started
    if "turn" in after:
        loss = round_end(table, seats, death_round)
        if loss:
            before.update(loss["before"])
            after.update(loss["after"])
            found.update(loss["public"], seats=loss["seats"])
    after.update({k: v for k, v in found.items() if k == "last_three_started"})
    return found


def round_end(table: Table, seats: list[Seat], ended: int) -> dict[str, Any]:
    """The end of round `ended`, inside the turn action that started the next one: the living
    players lose 1 HP each, together, or the loss carries. Returns the event's additions:
    `public` (the history line's), `before` and `after` (for the undo); empty: nothing."""
    if not enabled(table) or table.round == ended:
        return {}
    state = current(table)
    living = [s for s in seats if s.alive]
    hp = {i: s.hp for i, s in enumerate(seats) if s.alive}
    new_state, loss = rules.end_of_round(state, round_number=ended, hp=hp)
    if not loss.losses and not loss.carried:
        return {}
    _store(table, new_state)
    before = {"state": state.stored(), "hp": {str(s.pk): s.hp for s in living}}
    losers = [seats[i] for i in loss.losses]
    for seat in losers:
        seat.hp -= loss.losses[seats.index(seat)]
        if seat.hp <= 0 and not seat.dying:
            seat.dying = True
            seat.damage_source = None
        seat.save(update_fields=["hp", "dying", "damage_source"])
    public = {
        "round_end": ended,
        "carried": loss.carried,
        "losers": [{"seat": s.pk, "name": s.name, "hp": s.hp, "dying": s.dying} for s in losers],
    }
    after = {"state": new_state.stored(), "hp": {str(s.pk): s.hp for s in losers}}
    return {
        "public": {"last_three": public},
        "before": {KEY: before},
        "after": {KEY: after},
        "seats": {s.pk for s in losers},
    }


def undo_round_loss(table: Table, target: Event) -> set[int]:
    """The undo of a turn (or a death that passed the turn) that took the round's loss: every
    loser's HP back, the state as it was. Refused when a loser's HP has changed since. Returns
    the seats changed."""
    done = target.after.get(KEY)
    if not isinstance(done, dict) or KEY not in target.before:
        return set()
    was = target.before[KEY]
    changed: set[int] = set()
    rows = {str(s.pk): s for s in table.seats.filter(pk__in=[int(k) for k in done["hp"]])}
    for key, hp_after in done["hp"].items():
        seat = rows.get(key)
        if seat is None or not seat.alive or seat.hp != hp_after:
            raise ActionError(
                _("That change cannot be undone: the table has changed since."), 409, "changed"
            )
    for key in done["hp"]:
        seat = rows[key]
        seat.hp = int(was["hp"][key])
        seat.dying = seat.hp <= 0
        if not seat.dying:
            seat.damage_source = None
        seat.save(update_fields=["hp", "dying", "damage_source"])
        changed.add(seat.pk)
    _store(table, rules.LastThree.from_stored(was["state"]))
    return changed


def undo_started(table: Table, target: Event) -> None:
    """The undo of the death that started the countdown: not started again."""
    if "last_three_started" in target.after:
        _store(table, None)
