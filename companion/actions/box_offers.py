"""A table's hero box (docs/rules.md §9.5, docs/variants.md): where it lives, the host's changes,
and the heroes offered from it.

The box is kept on the table's session (`Session.box`, the JSON of `rules.box.Box.stored()`; an
empty object is the standard 25). `table_box(table)` (companion.queries.box) reads it; every
offer (the lord's, a game's own, the others' candidates, a mode's draft, a game's draw)
draws from it. Only the host changes it
(`box_add`, `box_remove`, `box_switch`, `box_import`), one event each, and only between games:
from the deal until the game is over the box is locked, every change refused alike. A change
the host could try mid-game would otherwise answer by what the box holds for others in secret
(the heroes offered to each seat, a draft's face-down heroes). A new session starts
with the box of the session before it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import ActionError, Actor, Change, action, record_change, require_host
from companion.actions.inputs import mode_of
from companion.actions.session_deal import open_session
from companion.models import Session, Table
from companion.queries.box import session_box, table_box
from companion.rules import box

log = logging.getLogger(__name__)

BOX_CHANGED = "box_changed"

# A refusal's words per BoxError code (rules.box), for the form and the import.
_MESSAGES: dict[str, Any] = {
    "missing_field": _("This is required."),
    "name_not_chinese": _("Write the name in Chinese (at least one Chinese character)."),
    "too_long": _("This is too long."),
    "bad_kingdom": _("Choose a kingdom."),
    "bad_hp": _("HP is a whole number from 1 to 8."),
    "bad_gender": _("Choose a gender."),
    "bad_skills": _("At most 6 skills, each with a name and its text."),
    "duplicate_name": _("A hero of this name is already in the box."),
    "duplicate_id": _("Two heroes in the file have the same id."),
    "too_many": _("A box holds at most 100 added heroes."),
    "not_json": _("The file is not JSON."),
    "not_object": _("The file is not a hero box of this app."),
    "wrong_format": _("The file is not a hero box of this app."),
    "wrong_version": _("The file is a box of another version; this app reads version 1."),
    "unknown_field": _("The file has fields this app does not know."),
    "bad_field": _("The file has a field of the wrong kind."),
    "bad_id": _("An added hero's id must be ADD and three digits."),
    "unknown_standard": _("The file switches off heroes that are not standard heroes."),
    "bad_text": _("This holds a character that cannot be saved."),
}
# The form's fields a BoxError's field stands for (a skill's name or text: the skills).
_FORM_FIELDS = {"name": "skills", "text": "skills"}


class BoxRefused(ActionError):
    """A box change refused: `field` is the form's field it is about ("" for the whole)."""

    def __init__(self, message: Any, *, code: str, field: str = "", status: int = 400) -> None:
        super().__init__(message, status=status, code=code)
        self.field = field


def _refusal(error: box.BoxError, *, in_file: bool) -> BoxRefused:
    message: Any = _MESSAGES.get(error.code, _("The box cannot take this."))
    field = _FORM_FIELDS.get(error.field or "", error.field or "")
    if in_file:
        where = (
            _("Hero %(n)d in the file") % {"n": error.index + 1} if error.index is not None else ""
        )
        what = f" ({error.field})" if error.field else ""
        message = f"{where}{what}: {message}" if where else f"{message}{what}"
    return BoxRefused(message, code=error.code, field=field)


def leader_offer(table: Table) -> list[str]:
    """The hero ids offered to the table's leader, from the table's box: the first game on that
    offers its own (`hooks.Game.leader_offer`), else as the mode deals from
    it (`Mode.leader_offer_from`: docs/rules.md §2's five), else the mode's own offer."""
    mode = mode_of(table)
    hero_box = table_box(table)
    try:
        offers = (game.leader_offer(table, hero_box) for game in hooks.on(table))
        offer = next((found for found in offers if found is not None), None)
        if offer is None:
            offer = mode.leader_offer_from(table.opts, hero_box, standard=_standard(hero_box))
    except ValueError:
        raise _too_few() from None
    return mode.leader_offer() if offer is None else list(offer)


def others_offers(
    table: Table, *, player_count: int, taken: set[str], count: int
) -> list[list[str]]:
    """The other players' candidates from the table's box (docs/rules.md §2): disjoint, none taken
    (the mode's own `offers` from the standard heroes as they come, or where the mode deals no
    other box: `Mode.offers_from`)."""
    mode = mode_of(table)
    hero_box = table_box(table)
    try:
        found = (
            None
            if _standard(hero_box)
            else mode.offers_from(hero_box, player_count=player_count, taken=taken, count=count)
        )
    except ValueError:
        raise _too_few() from None
    if found is None:
        return mode.offers(player_count=player_count, taken=taken, count=count)
    return found


def _standard(hero_box: box.Box) -> bool:
    """The standard 25 as they come: the mode deals them as it always has."""
    return not hero_box.added and not hero_box.standard_off


def _too_few() -> ActionError:
    return ActionError(
        _("The hero box has too few heroes for this deal: switch some back on or add some."),
        status=409,
        code="box_too_small",
    )


def hero_hp(table: Table, hero_id: str) -> int | None:
    """A hero's printed HP, from the table's box (a standard or an added hero); None if the
    box does not know it."""
    hero = table_box(table).lookup(hero_id)
    return hero.hp if hero else None


def added_names(hero_box: box.Box, hero_ids: Any) -> dict[str, list[str]]:
    """The names of the added heroes among `hero_ids`, for an event's public part: the history
    names them even after the box has changed."""
    named: dict[str, list[str]] = {}
    for hero in hero_box.added:
        if hero.id in hero_ids:
            named[hero.id] = [hero.name_zh, hero.name_en]
    return named


def event_names(table: Table, hero_ids: Any) -> dict[str, dict[str, list[str]]]:
    """`{"names": …}` for an event's public part naming added heroes (nothing for the
    standard ones): its history line names them whatever the box holds later."""
    named = added_names(table_box(table), [h for h in hero_ids if h])
    return {"names": named} if named else {}


# The host's changes -----------------------------------------------------------------------------


def _session_for_change(table: Table) -> Session:
    session = table.session
    if session is None or session.ended_at is not None:
        session = open_session(table, list(table.seats.order_by("position", "slot")))
    return session


LOCKED = _("The box is locked while a game runs: it can change between games.")
LOCKED_CODE = "box_locked"


def box_locked(table: Table) -> bool:
    """Whether the box is locked: from the deal until the game is over."""
    return table.status not in (Table.Status.LOBBY, Table.Status.FINISHED)


def _require_unlocked(table: Table) -> None:
    """Refuse any change while a game runs, before looking at what it changes: the answer is
    the same for every hero and every file, so it tells nothing about the heroes in play."""
    if box_locked(table):
        raise BoxRefused(LOCKED, code=LOCKED_CODE, status=409)


def _save(
    actor: Actor,
    table: Table,
    session: Session,
    before: box.Box,
    after: box.Box,
    public: dict[str, Any],
    action_id: str | None,
) -> Change:
    session.box = after.stored()
    session.save(update_fields=["box"])
    return record_change(
        actor,
        table,
        kind=BOX_CHANGED,
        public=public,
        before={"box": before.stored()},
        after={"box": after.stored()},
        action_id=action_id,
        change=Change(table.pk, table.version),
    )


def _check_skills(fields: Mapping[str, Any]) -> None:
    for index, skill in enumerate(fields.get("skills") or []):
        if isinstance(skill, Mapping) and not (
            str(skill.get("name", "")).strip() and str(skill.get("text", "")).strip()
        ):
            raise BoxRefused(
                _("A skill needs its name and its text."), code="skill", field=f"skill_{index}"
            )


@action
def box_add(actor: Actor, *, fields: Mapping[str, Any], action_id: str | None = None) -> Change:
    """Add a hero the table owns to its box (host): name in Chinese, optional English name,
    kingdom, HP, gender, lord hero or not, its skills with their texts."""
    table = actor.table
    require_host(actor)
    _require_unlocked(table)
    _check_skills(fields)
    session = _session_for_change(table)
    before = session_box(session)
    try:
        after = before.add(fields)
    except box.BoxError as error:
        raise _refusal(error, in_file=False) from None
    hero = after.added[-1]
    public = {"what": "add", "hero": hero.id, "names": {hero.id: [hero.name_zh, hero.name_en]}}
    return _save(actor, table, session, before, after, public, action_id)


@action
def box_remove(actor: Actor, *, hero_id: str, action_id: str | None = None) -> Change:
    """Take an added hero out of the box (host)."""
    table = actor.table
    require_host(actor)
    _require_unlocked(table)
    session = _session_for_change(table)
    before = session_box(session)
    try:
        hero = before.hero(str(hero_id))
        after = before.remove(hero.id)
    except KeyError:
        raise BoxRefused(_("There is no such added hero."), code="no_hero") from None
    public = {"what": "remove", "hero": hero.id, "names": {hero.id: [hero.name_zh, hero.name_en]}}
    return _save(actor, table, session, before, after, public, action_id)


@action
def box_switch(actor: Actor, *, hero_id: str, on: bool, action_id: str | None = None) -> Change:
    """Switch a standard hero on or off in the box (host)."""
    table = actor.table
    require_host(actor)
    _require_unlocked(table)
    session = _session_for_change(table)
    before = session_box(session)
    try:
        after = before.switch(str(hero_id), on=bool(on))
    except KeyError:
        raise BoxRefused(_("There is no such standard hero."), code="no_hero") from None
    public = {"what": "on" if on else "off", "hero": str(hero_id)}
    return _save(actor, table, session, before, after, public, action_id)


@action
def box_import(actor: Actor, *, text: str | bytes, action_id: str | None = None) -> Change:
    """Replace the box with the one a JSON file holds (host); a bad file is refused with its
    reason and the box stays as it was."""
    table = actor.table
    require_host(actor)
    _require_unlocked(table)
    try:
        after = box.import_box(text)
    except box.BoxError as error:
        raise _refusal(error, in_file=True) from None
    session = _session_for_change(table)
    before = session_box(session)
    public = {
        "what": "import",
        "added": len(after.added),
        "off": len(after.standard_off),
        "names": {h.id: [h.name_zh, h.name_en] for h in after.added},
    }
    return _save(actor, table, session, before, after, public, action_id)
