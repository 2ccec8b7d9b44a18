"""Errors, who is acting, and the seat an action names."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import models
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from companion.models import CODE_LENGTH, NAME_MAX_LENGTH, Seat, Table

M = TypeVar("M", bound=models.Model)


class ActionError(Exception):
    """A refused action: nothing changed. `status` is the HTTP status to answer with."""

    def __init__(self, message: Any, status: int = 400, code: str = "invalid") -> None:
        super().__init__(str(message))
        self.message = message
        self.status = status
        self.code = code


class NotFound(ActionError):
    """An unknown or stale token or table code; always the same answer."""

    def __init__(self) -> None:
        super().__init__(_("Not found."), status=404, code="not_found")


@dataclass
class Actor:
    """Who is acting: a seat's phone, or the host console (seat None)."""

    table: Table
    seat: Seat | None
    is_host: bool

    @property
    def label(self) -> str:
        """How the event log names the actor."""
        return f"seat:{self.seat.pk}" if self.seat else "host"


def clean_name(raw: str) -> str:
    """Trim and normalise a display name, or refuse it."""
    name = unicodedata.normalize("NFC", raw or "").strip()
    name = " ".join(name.split())
    if not name:
        raise ActionError(_("Please enter a name."), code="name_empty")
    if len(name) > NAME_MAX_LENGTH:
        raise ActionError(
            _("Names are at most %(n)d characters.") % {"n": NAME_MAX_LENGTH}, code="name_long"
        )
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in name):
        raise ActionError(_("That name has characters we cannot show."), code="name_chars")
    return name


def clean_code(raw: str) -> str:
    """Normalise a typed table code (case, look-alike characters)."""
    code = (raw or "").strip().upper().replace("0", "O").replace("1", "I")
    return code if len(code) == CODE_LENGTH else ""


def _first(query: QuerySet[M]) -> M | None:
    """The first row, without the ORDER BY that `.first()` adds."""
    return next(iter(query[:1]), None)


def may_act_on(actor: Actor, seat_pk: int | None) -> bool:
    """The one rights rule for a change to a seat: its own phone, the host, or, in referee mode,
    anyone seated at the table."""
    if actor.is_host or (actor.seat is not None and actor.seat.pk == seat_pk):
        return True
    return bool(actor.table.opts.referee_mode) and actor.seat is not None


def require_host(actor: Actor) -> None:
    if not actor.is_host:
        raise ActionError(_("Only the host can do that."), status=403, code="not_host")


def seat_public(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.pk, "name": seat.name}


def seat_of(
    table: Table, seat_id: Any, known: Seat | None = None, among: list[Seat] | None = None
) -> Seat:
    """A seat of this table; any other id answers exactly like a bad token. `known`: a seat
    already read in this transaction (the actor's own), used instead of reading it again;
    `among`: every seat of the table, read in this transaction, where it is found instead."""
    try:
        seat_pk = int(seat_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    if known is not None and known.pk == seat_pk and known.table_id == table.pk:
        return known
    if among is not None:
        found = next((s for s in among if s.pk == seat_pk), None)
        if found is None:
            raise NotFound()
        return found
    seat = _first(table.seats.filter(pk=seat_pk))
    if seat is None:
        raise NotFound()
    return seat
