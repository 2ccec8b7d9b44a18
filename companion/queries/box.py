"""The table's hero box as stored (docs/rules.md §9.5, docs/variants.md): `Session.box`, the JSON
of `rules.box.Box.stored()` (an empty object is the standard 25). Every offer draws from it and
the screens name its heroes; only companion.actions.box_offers changes it."""

from __future__ import annotations

import logging

from companion.models import Session, Table
from companion.rules import box

log = logging.getLogger(__name__)


def session_box(session: Session | None) -> box.Box:
    """The box a session keeps (the standard 25 when it has none)."""
    if session is None or not session.box:
        return box.Box()
    try:
        return box.from_stored(session.box)
    except box.BoxError:
        log.exception("session %s: its stored box does not read", session.pk)
        return box.Box()


def table_box(table: Table) -> box.Box:
    """The table's box: its session's (the standard 25 before the first session)."""
    if table.session_id is None:
        return box.Box()
    return session_box(table.session)
