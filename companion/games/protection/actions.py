"""The protection of the first player out (docs/rules.md §9.3, `first_out_protection`;
docs/variants.md): stored with the session's next game, the clamp on the HP changes, its end.

The state lives in `Table.mode_state["protection"]` (`rules.Protection`, public: who is
protected, who has attacked him, whether it has ended), set at each deal. Every change to it is
recorded on the event that made it, so the undo of that event reverts it (`undo`): a damage
notes its source as an attacker (`after["protection_attacker"]`); a death of someone else, a
damage by the protected player on one of his attackers, or his tap "I attack my attacker" ends
it (`after["protection_ended"]`). The core reaches it through its hooks (`hooks.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.play import require_playing
from companion.games.protection import rules
from companion.hooks import HpChange
from companion.models import Event, Game, Seat, Table

KEY = "protection"
# Its table option (the identity game's).
OPTION = rules.OPTION


def enabled(table: Table) -> bool:
    """Whether the table plays with the protection (an identity game's option)."""
    return table.opts.flag(OPTION)


def current(table: Table) -> rules.Protection | None:
    """The game's protection as stored (None: nobody is protected this game)."""
    raw = (table.mode_state or {}).get(KEY)
    if not raw or not enabled(table):
        return None
    return rules.Protection.from_stored(raw)


def protected_seat(table: Table) -> int | None:
    """The seat protected now (None: nobody, or the protection has ended)."""
    found = current(table)
    if found is None or found.ended:
        return None
    return int(found.player)


def attackers(table: Table, seat: Seat) -> list[tuple[int, str]]:
    """The living players who attacked `seat` while it is protected (id, name; none when it is
    not): his phone offers "I attack X" for each."""
    found = current(table)
    if found is None or found.ended or found.player != str(seat.pk) or not found.attackers:
        return []
    rows = table.seats.filter(pk__in=[int(a) for a in found.attackers], alive=True)
    return list(rows.order_by("position").values_list("pk", "name"))


def not_yet_attackers(table: Table, seat: Seat) -> list[tuple[int, str]]:
    """The other living players who have not attacked `seat` while it is protected (id, name;
    none when it is not): his phone offers "a Slash from X that I dodged" for each."""
    found = current(table)
    if found is None or found.ended or found.player != str(seat.pk):
        return []
    known = [int(a) for a in found.attackers]
    rows = table.seats.filter(alive=True).exclude(pk__in=[seat.pk, *known])
    return list(rows.order_by("position").values_list("pk", "name"))


def _store(table: Table, value: rules.Protection | None) -> None:
    state = {k: v for k, v in (table.mode_state or {}).items() if k != KEY}
    if value is not None:
        state[KEY] = value.stored()
    table.mode_state = state


def at_deal(table: Table, seats: Sequence[Seat]) -> None:
    """At the deal of a game: the previous game of the same session's first player out is
    protected, if he plays this one (none without the option, or with no previous game)."""
    found = None
    if enabled(table) and table.session_id is not None:
        previous = (
            Game.objects.filter(
                table=table,
                session_id=table.session_id,
                number__lt=table.game_number,
                ended_at__isnull=False,
            )
            .order_by("-number")
            .first()
        )
        if previous is not None:
            found = rules.for_next_game(_deaths(previous), {str(s.pk) for s in seats})
    _store(table, found)


def _deaths(game: Game) -> list[str]:
    """A finished game's players out, in the order they went out."""
    dead = [r for r in game.results if not r.get("alive") and r.get("died_version")]
    return [str(r["seat"]) for r in sorted(dead, key=lambda r: r["died_version"])]


def hp_change(ctx: HpChange) -> None:
    """A damage or an HP loss about to land: a protected player at 1 HP or more keeps his last
    HP (the event says "protected"); a damage with its source notes the protected player's
    attacker, or his attack on one of his attackers ends the protection (kept on the event for
    the undo). An attacker noted reaches the protected player's phone (his strike buttons); an
    end reaches every screen (the mark)."""
    found = current(ctx.table)
    if found is None:
        return
    after = rules.hp_after(found, str(ctx.seat.pk), hp=ctx.hp_before, change=ctx.change)
    if after != ctx.hp_before + ctx.change:
        ctx.hp = max(ctx.hp, after)
        ctx.public["protected"] = True
    noted = note_attack(ctx.table, attacker=ctx.source, target=ctx.seat)
    ctx.public.update(noted)
    ctx.after.update(noted)
    if "protection_ended" in noted:
        ctx.whole_page = True
        ctx.private_seats.add(int(noted["protection_ended"]))
    elif noted:
        ctx.private_seats.add(int(found.player))


def note_attack(table: Table, *, attacker: Seat | None, target: Seat) -> dict[str, Any]:
    """A damage with its source: the protected player's attacker is noted, or his attack on
    one of his attackers ends the protection. Returns what the damage's event keeps in its
    `after` (for the undo) and shows (empty: nothing changed)."""
    found = current(table)
    if found is None or found.ended or attacker is None:
        return {}
    changed = rules.attacked(found, attacker=str(attacker.pk), target=str(target.pk))
    if changed == found:
        return {}
    _store(table, changed)
    assert changed is not None
    if changed.ended:
        return {"protection_ended": found.player}
    return {"protection_attacker": str(attacker.pk)}


def after_death(table: Table, seat: Seat) -> dict[str, Any]:
    """Someone is out: someone else than the protected player ends it. Returns what the
    death's event keeps in its `after` (empty: nothing changed)."""
    found = current(table)
    changed = rules.out(found, str(seat.pk))
    if changed == found or found is None:
        return {}
    _store(table, changed)
    return {"protection_ended": found.player}


def undo(table: Table, target: Event) -> set[int]:
    """Revert what the undone event changed in the protection. Returns the protected seat when
    it changed (his phone is redrawn)."""
    found = current(table)
    if found is None:
        return set()
    was = found
    # The damage actions keep it in `after`; the resolver's events in their public part.
    done = {**target.public, **target.after}
    if "protection_ended" in done:
        found = replace(found, ended=False)
    attacker = done.get("protection_attacker")
    if attacker is not None:
        found = replace(found, attackers=found.attackers - {str(attacker)})
    if found == was:
        return set()
    _store(table, found)
    return {int(found.player)}


def _protected_by(actor: Actor) -> tuple[rules.Protection, Seat]:
    """The protection in force and its protected seat, for a tap that only he (or the host)
    may make during play."""
    table = actor.table
    require_playing(table)
    found = current(table)
    if found is None or found.ended:
        raise ActionError(_("Nobody is protected now."), 409, "not_protected")
    me = seat_of(table, found.player)
    if not (actor.is_host or (actor.seat is not None and actor.seat.pk == me.pk)):
        raise ActionError(_("Only the protected player can say so."), 403, "not_yours")
    return found, me


@action
def protection_dodged(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The protected player dodged a 杀 from `seat_id` (his phone's tap, or the host's): an
    attack that dealt no damage still makes that player one of his attackers
    (docs/rules.md §9.3)."""
    table = actor.table
    found, me = _protected_by(actor)
    attacker = seat_of(table, seat_id)
    if attacker.pk == me.pk:
        raise ActionError(_("That player has not attacked you."), 409, "not_attacker")
    if not attacker.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    noted = rules.attacked(found, attacker=str(attacker.pk), target=found.player)
    if noted == found:
        raise ActionError(_("That player has attacked you already."), 409, "already_attacker")
    _store(table, noted)
    return record_change(
        actor,
        table,
        kind="protection_attacked",
        public={**seat_public(me), "attacker": attacker.pk, "attacker_name": attacker.name},
        before={KEY: found.stored()},
        after={KEY: noted.stored() if noted else None, "protection_attacker": str(attacker.pk)},
        subject=me,
        action_id=action_id,
        undoable=True,
        change=Change(table.pk, table.version, private_seats={me.pk}),
    )


@action
def protection_strike(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The protected player attacks one of his attackers (a tap on his phone, or the host's):
    the protection ends (docs/rules.md §9.3)."""
    table = actor.table
    found, me = _protected_by(actor)
    target = seat_of(table, seat_id)
    if str(target.pk) not in found.attackers:
        raise ActionError(_("That player has not attacked you."), 409, "not_attacker")
    if not target.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    ended = rules.attacked(found, attacker=found.player, target=str(target.pk))
    _store(table, ended)
    return record_change(
        actor,
        table,
        kind="protection_ended",
        public={
            **seat_public(me),
            "target": target.pk,
            "target_name": target.name,
            "reason": "struck",
        },
        before={KEY: found.stored()},
        after={KEY: ended.stored() if ended else None, "protection_ended": found.player},
        subject=me,
        action_id=action_id,
        undoable=True,
        change=Change(table.pk, table.version, private_seats={me.pk}),
    )
