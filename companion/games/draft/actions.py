"""A mode's hero draft (3 vs 3, 1 vs 1; docs/modes.md): the pool dealt when the game starts,
who picks first, the picks, each side's secret placement (3 vs 3: its commander and vanguards;
1 vs 1: its hero order), the reveal that starts play, and an undo of a pick or a placement while
nothing is revealed. A drafted mode's package starts it (`start_draft`, from its game's
`start_heroes` hook) and offers its taps (companion.games.draft.forms); 1 vs 1's next hero
when one falls is its own (companion.games.duel.actions), on the state kept here.

The rules are the kit's (`rules`: `Draft`, `Placement`) behind the mode's hooks
(`draft_plan`, `draft_side`, `drafts_for_side`, `seat_heroes`, `hero_falls`); the state is kept
in `Table.mode_state` ("draft", "placement", "fallen"). Each tap is checked against the seat it
comes from: only a seat whose identity drafts for its side (`drafts_for_side`) picks and places,
for its own side (`draft_side`). An event's public part never holds a hidden hero: a face-down
pick shows its position only, a placement only that the side has placed; the heroes are in the
event's `after` (the audit record, never shown) and in the seat's private state
(companion.read.modeview).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.box_offers import event_names
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    record_change,
    seat_public,
)
from companion.actions.inputs import mode_of, ordered_seats
from companion.actions.turns import begin_turns
from companion.games.draft.rules import Draft, DraftPlan, Placement
from companion.models import Seat, Table
from companion.queries.box import table_box
from companion.queries.seats import statuses
from companion.rules.errors import Refused
from companion.rules.identities import Identity
from companion.rules.modes import Mode

# The words for the rules' refusals (the draft's rules, `rules`).
REFUSALS: dict[str, Any] = {
    "first_not_chosen": _("Who picks first is not chosen yet."),
    "first_chosen": _("Who picks first is chosen already."),
    "out_of_turn": _("It is not your side's pick."),
    "step_done": _("Your side has taken this pick; the other side picks now."),
    "too_many": _("This pick takes fewer heroes."),
    "no_pick": _("Choose a hero."),
    "repeated": _("A hero is named twice."),
    "not_in_pool": _("That hero is not in the pool."),
    "taken": _("That hero is taken."),
    "draft_over": _("Every hero is taken."),
    "bad_side": _("No such side."),
    "not_held": _("Your side does not hold that hero."),
    "wrong_count": _("Place exactly the heroes your side's places take."),
    "already_placed": _("Your side has placed its heroes."),
    "draft_not_done": _("The draft is still on."),
    "too_few_heroes": _("Not enough heroes for the draft."),
    "pool_size": _("Enter exactly as many heroes as the draft takes (16 in 3 vs 3)."),
    "pool_repeats": _("A hero is entered twice."),
    "unknown_hero": _("A hero entered is not among the table's heroes."),
    "face_down": _("This draft deals heroes face down: it cannot be entered by hand."),
}


def refused(error: Refused, status: int = 409) -> ActionError:
    """A rules refusal as the action's error: nothing changed, the code kept."""
    return ActionError(REFUSALS.get(error.code, _("That is not possible now.")), status, error.code)


# Reading the state ----------------------------------------------------------------------------


def plan_of(mode: Mode) -> DraftPlan:
    plan = mode.draft_plan()
    if not isinstance(plan, DraftPlan):
        raise ActionError(_("This game offers its heroes; there is no draft."), 409, "no_draft")
    return plan


def draft_of(table: Table, plan: DraftPlan) -> Draft | None:
    data = table.mode_state.get("draft")
    return Draft.from_data(plan, data) if data else None


def placement_of(table: Table, plan: DraftPlan) -> Placement | None:
    data = table.mode_state.get("placement")
    return Placement.from_data(plan, data) if data else None


def keep(table: Table, **parts: Any) -> None:
    """Store these parts of the mode's state (None removes a part)."""
    state = dict(table.mode_state)
    for key, value in parts.items():
        if value is None:
            state.pop(key, None)
        else:
            state[key] = value
    table.mode_state = state


def _drafting(actor: Actor) -> tuple[Table, Mode, DraftPlan, Seat, str]:
    """The table in its draft and the acting seat's side; refused for the host console, a
    seat that does not draft for its side, or a table not drafting."""
    table = actor.table
    mode = mode_of(table)
    plan = plan_of(mode)
    if table.status != Table.Status.HEROES or not table.mode_state.get("draft"):
        raise ActionError(_("Heroes are not being drafted now."), 409, "not_drafting")
    seat = actor.seat
    if seat is None or not seat.identity:
        raise ActionError(_("Only a player can draft heroes."), 403, "not_player")
    identity = Identity(seat.identity)
    side = mode.draft_side(identity)
    if side is None or not mode.drafts_for_side(identity):
        raise ActionError(_("Your side's commander drafts the heroes."), 403, "not_drafter")
    return table, mode, plan, seat, side


def _positions(raw: Any) -> list[int]:
    values = raw if isinstance(raw, list | tuple) else [raw]
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise ActionError(_("That hero is not in the pool."), 400, "not_in_pool") from None


def _all_phones(seats: Sequence[Seat]) -> set[int]:
    return {s.pk for s in seats}


# The draft ------------------------------------------------------------------------------------


def entered_pool(text: str, heroes: Sequence[Any] = ()) -> list[str]:
    """The heroes a table entered (names in Chinese or English, or ids, separated by commas,
    、 or spaces), each as its id where one matches; an unknown name stays as entered."""
    by_name: dict[str, str] = {}
    for hero in heroes:
        for name in (hero.id, hero.name_zh, hero.name_en):
            by_name[name.casefold().replace(" ", "")] = hero.id
    # Commas (or 、, ;, new lines) separate names that hold a space ("Zhang Fei"); without
    # them, spaces do.
    separators = r"[,，、;；\n]+" if re.search(r"[,，、;；\n]", text) else r"\s+"
    words = [w.strip() for w in re.split(separators, text.strip())]
    return [by_name.get(w.casefold().replace(" ", ""), w) for w in words if w]


def start_draft(
    actor: Actor, table: Table, seats: list[Seat], action_id: str | None, pool: str = ""
) -> Change:
    """The game starts with the mode's draft: the pool dealt from the table's heroes, or the
    heroes the table entered from the piles it dealt (`pool`, a face-up draft only)."""
    plan = plan_of(mode_of(table))
    known = list(table_box(table).ids())  # the table's hero box
    try:
        if pool.strip():
            if plan.face_down:
                raise ActionError(REFUSALS["face_down"], 409, "face_down")
            hero_box = table_box(table)
            heroes = [h for h in map(hero_box.lookup, known) if h is not None]
            draft = Draft.entered(plan, entered_pool(pool, heroes), known=known)
        else:
            draft = Draft.deal(plan, known)
    except Refused as error:
        raise refused(error) from None
    keep(table, draft=draft.as_data(), placement=None, fallen=None, flow=None)
    table.status = Table.Status.HEROES
    table.hero_stage = Table.HeroStage.NONE
    view = draft.view(None)
    return record_change(
        actor,
        table,
        kind="draft_started",
        # Face-down heroes are None here: the public part never names them.
        public={"pool": [card.hero for card in view.pool], "first": draft.first or ""},
        after={"draft": draft.as_data()},
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=_all_phones(seats)),
    )


@action
def draft_first(actor: Actor, *, side: str, action_id: str | None = None) -> Change:
    """The side that picks first, named by the player the plan lets choose (3 vs 3: the warm
    commander)."""
    table, _mode, plan, seat, own = _drafting(actor)
    if plan.first_chooser is None or own != plan.first_chooser:
        raise ActionError(_("The other side chooses who picks first."), 403, "not_chooser")
    draft = draft_of(table, plan)
    assert draft is not None
    try:
        chosen = draft.choose_first(side)
    except Refused as error:
        raise refused(error) from None
    keep(table, draft=chosen.as_data())
    return record_change(
        actor,
        table,
        kind="draft_first",
        public={**seat_public(seat), "side": side},
        before={"draft": draft.as_data()},
        after={"draft": chosen.as_data()},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=_all_phones(ordered_seats(table))),
    )


@action
def draft_pick(actor: Actor, *, positions: Any, action_id: str | None = None) -> Change:
    """The acting seat's side takes the heroes at these pool positions (one, or the rest of its
    step). Out of turn, one too many, a hero taken or off the pool: refused, nothing changed."""
    table, _mode, plan, seat, side = _drafting(actor)
    draft = draft_of(table, plan)
    assert draft is not None
    try:
        picked = draft.pick(side, _positions(positions))
    except Refused as error:
        raise refused(error) from None
    new = picked.picks[len(draft.picks) :]
    placement = Placement.after(picked) if picked.done else None
    keep(table, draft=picked.as_data())
    if placement is not None:
        keep(table, placement=placement.as_data())
    shown = picked.view(None)
    return record_change(
        actor,
        table,
        kind="draft_picked",
        public={
            **seat_public(seat),
            "side": side,
            "positions": [position for position, _side in new],
            # A face-down hero stays None: only its taker's phone shows it.
            "heroes": [shown.pool[position].hero for position, _side in new],
            "done": picked.done,
            **event_names(table, [shown.pool[position].hero for position, _side in new]),
        },
        before={"draft": draft.as_data()},
        after={"draft": picked.as_data()},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=_all_phones(ordered_seats(table))),
    )


@action
def draft_place(actor: Actor, *, heroes: Any, action_id: str | None = None) -> Change:
    """The acting seat's side puts heroes it holds on its places, in order (3 vs 3: commander,
    vanguard A, vanguard B; 1 vs 1: first, second, third), face down. The second side's
    placement reveals both and starts play."""
    table, mode, plan, seat, side = _drafting(actor)
    placement = placement_of(table, plan)
    if placement is None:
        raise ActionError(REFUSALS["draft_not_done"], 409, "draft_not_done")
    chosen = [str(h) for h in heroes] if isinstance(heroes, list | tuple) else [str(heroes)]
    try:
        placed = placement.place(side, chosen)
    except Refused as error:
        raise refused(error) from None
    keep(table, placement=placed.as_data())
    seats = ordered_seats(table)
    change = record_change(
        actor,
        table,
        kind="draft_placed",
        # Only that the side has placed: the heroes and their places stay secret.
        public={**seat_public(seat), "side": side},
        before={"placement": placement.as_data()},
        after={"placement": placed.as_data()},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=_all_phones(seats)),
    )
    if not placed.revealed:
        return change
    return _reveal(actor, table, mode, seats, placed)


def _reveal(
    actor: Actor, table: Table, mode: Mode, seats: list[Seat], placement: Placement
) -> Change:
    """Both sides have placed: every seat's hero (1 vs 1: each first hero) is shown, HP set,
    and play begins with the mode's flow."""
    try:
        heroes = mode.seat_heroes(statuses(seats), placement)
    except Refused as error:
        raise refused(error) from None
    for seat, hero in zip(seats, heroes, strict=True):
        seat.hero = hero
        full_hp(mode, seat, seats)
        seat.save(update_fields=["hero", "hp", "max_hp"])
    begin_turns(table, seats)
    table.status = Table.Status.PLAYING
    return record_change(
        actor,
        table,
        kind="draft_revealed",
        public={"heroes": {str(s.pk): s.hero for s in seats}},
        change=Change(table.pk, table.version, private_seats=_all_phones(seats)),
    )


def full_hp(mode: Mode, seat: Seat, seats: list[Seat]) -> None:
    """The seat at its hero's full HP, as the mode counts it (the reveal, or a next hero)."""
    status = statuses([seat])[0]
    hero = table_box(seat.table).lookup(seat.hero)
    seat.max_hp = mode.start_hp(
        status, hero_hp=hero.hp if hero else None, player_count=len(seats), first_game=False
    )
    seat.hp = seat.max_hp


@action
def draft_undo(actor: Actor, *, side: str = "", action_id: str | None = None) -> Change:
    """Take back a side's last step while nothing is revealed: its placement, else its last
    pick (when it is the draft's last), else (no pick yet) its choice of who picks first. A
    player undoes his own side's; the host names the side."""
    table = actor.table
    mode = mode_of(table)
    plan = plan_of(mode)
    if table.status != Table.Status.HEROES or not table.mode_state.get("draft"):
        raise ActionError(_("Heroes are not being drafted now."), 409, "not_drafting")
    if actor.is_host and side:
        seat = actor.seat
        try:
            plan.check_side(side)
        except Refused as error:
            raise refused(error, 400) from None
    else:
        _table, _mode, _plan, seat, side = _drafting(actor)
    draft = draft_of(table, plan)
    placement = placement_of(table, plan)
    assert draft is not None
    before = {"draft": draft.as_data(), "placement": placement.as_data() if placement else None}
    if placement is not None and placement.has_placed(side):
        keep(table, placement=replace(placement, placed=_without(placement.placed, side)).as_data())
        undone = "placement"
    elif draft.picks and draft.picks[-1][1] == side and not (placement and placement.placed):
        keep(table, draft=replace(draft, picks=draft.picks[:-1]).as_data(), placement=None)
        undone = "pick"
    elif not draft.picks and draft.first is not None and plan.first_chooser == side:
        keep(table, draft=replace(draft, first=None).as_data())
        undone = "first"
    else:
        raise ActionError(_("Nothing of your side's to take back."), 409, "nothing")
    return record_change(
        actor,
        table,
        kind="draft_undone",
        public={**(seat_public(seat) if seat else {}), "side": side, "undone": undone},
        before=before,
        after={
            "draft": table.mode_state.get("draft"),
            "placement": table.mode_state.get("placement"),
        },
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=_all_phones(ordered_seats(table))),
    )


def _without(placed: dict[str, tuple[str, ...]], side: str) -> dict[str, tuple[str, ...]]:
    return {other: heroes for other, heroes in placed.items() if other != side}
