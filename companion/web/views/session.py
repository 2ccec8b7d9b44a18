"""Session pages: history, a game's breakdown and timeline, corrections, new sessions, exports.

Reached from a seat's or the host's token (`/p/<token>/…`, `/h/<token>/…`), or read-only from
the public display (`/t/<code>/…`). A wrong token answers exactly like everywhere else (404,
through common.with_actor). Dialogs come back as fragments for htmx, or as a page without it.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from companion import actions
from companion.actions import ActionError, Actor, NotFound
from companion.actions.inputs import mode_of
from companion.models import Table
from companion.read import sessions
from companion.read.session_export import export_csv, export_json
from companion.web.views.common import (
    is_htmx,
    not_found,
    private_headers,
    refusal_page,
    with_actor,
    with_table,
)


def _base(actor: Actor | None, token: str | None, table: Table) -> str:
    """The screen's own address: every link of a dialog is built on it."""
    if actor is None or token is None:
        return reverse("display", args=[table.code])
    return reverse("host" if actor.seat is None else "phone", args=[token])


def _page(
    request: HttpRequest, which: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """A dialog for htmx, or the same content as a page."""
    page = not is_htmx(request)
    context = {**context, "which": which, "page": page}
    template = "companion/session.html" if page else f"companion/session.html#{which}_dialog"
    return private_headers(render(request, template, context, status=status))


def _session_context(
    table: Table, number: Any, base: str, *, exports: bool
) -> dict[str, Any] | None:
    try:
        session = sessions.session_of(table, number)
    except NotFound:
        return None
    return {"summary": sessions.summarize(session), "base": base, "exports": exports}


def _game_context(table: Table, number: Any, base: str, *, can_correct: bool) -> dict[str, Any]:
    game = sessions.finished_game(table, number)
    return {
        "game": game,
        "events": sessions.timeline(table, game.number),
        "base": base,
        "can_correct": can_correct,
    }


# Token screens --------------------------------------------------------------------------------


@require_GET
@with_actor
def session_history(
    request: HttpRequest, actor: Actor, token: str, number: str | None = None
) -> HttpResponse:
    """A session's standings, charts and games, with the export links."""
    context = _session_context(actor.table, number, _base(actor, token, actor.table), exports=True)
    if context is None:
        return not_found(request)
    return _page(request, "session", context)


@require_GET
@with_actor
def game_detail(request: HttpRequest, actor: Actor, token: str, number: str) -> HttpResponse:
    """A finished game: fates, score breakdowns, its timeline; the host's correction form."""
    try:
        context = _game_context(
            actor.table, number, _base(actor, token, actor.table), can_correct=actor.is_host
        )
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        return refusal_page(request, exc.message, exc.status, _base(actor, token, actor.table))
    return _page(request, "game", context)


@require_POST
@with_actor
def game_correct(request: HttpRequest, actor: Actor, token: str, number: str) -> HttpResponse:
    """The host's correction of a finished game; answers with the game as it now stands."""
    base = _base(actor, token, actor.table)
    post = request.POST
    seats = post.getlist("seats")[:20]
    alive_set = set(post.getlist("alive"))
    duel_set = set(post.getlist("final_duel"))
    try:
        actions.game_correct(
            token=token,
            game_number=number,
            alive={s: s in alive_set for s in seats},
            killers={s: post.get(f"killer_{s}", "") for s in seats if s not in alive_set},
            final_duel={s: s in duel_set for s in seats},
            action_id=post.get("action_id") or None,
        )
        context = _game_context(actor.table, number, base, can_correct=True)
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        return refusal_page(request, exc.message, exc.status, base)
    return _page(request, "game", {**context, "corrected": True})


@require_http_methods(["GET", "POST"])
@with_actor
def session_new(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """GET: the host's form for a new session or tournament. POST: start it."""
    table = actor.table
    base = _base(actor, token, table)
    if not actor.is_host:
        return refusal_page(request, _("Only the host can do that."), 403, base)
    if request.method == "POST":
        try:
            actions.session_new(
                token=token,
                tournament=request.POST.get("mode") == "tournament",
                first_lord=request.POST.get("first_lord"),
                action_id=request.POST.get("action_id") or None,
            )
        except NotFound:
            return not_found(request)
        except ActionError as exc:
            return refusal_page(request, exc.message, exc.status, base)
        if is_htmx(request):
            return private_headers(HttpResponse(status=204))
        response = HttpResponse(status=303)
        response["Location"] = base
        return private_headers(response)
    seats = list(table.seats.order_by("position", "slot"))
    leaders = mode_of(table).leader_seats(len(seats))
    context = {
        # The form offers as first leader only the seats the mode lets lead, by their number.
        "first_leaders": [(i + 1, s) for i, s in enumerate(seats) if i in leaders or not leaders],
        "allowed": table.status in (Table.Status.LOBBY, Table.Status.FINISHED),
        "base": base,
    }
    return _page(request, "new_session", context)


@require_GET
@with_actor
def session_export(
    request: HttpRequest, actor: Actor, token: str, number: str, fmt: str
) -> HttpResponse:
    """A session of this table as a CSV or JSON download (never a token inside)."""
    try:
        session = sessions.session_of(actor.table, number)
    except NotFound:
        return not_found(request)
    filename = f"sanguosha-{actor.table.code}-session-{session.number}.{fmt}"
    if fmt == "csv":
        response = HttpResponse(export_csv(session), content_type="text/csv; charset=utf-8")
    else:
        body = json.dumps(export_json(session), ensure_ascii=False, indent=2)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return private_headers(response)


# The public display (read only) ---------------------------------------------------------------


@require_GET
@with_table
def display_session_history(
    request: HttpRequest, table: Table, number: str | None = None
) -> HttpResponse:
    """The history on the table display: standings, charts and games; no export, no changes."""
    context = _session_context(table, number, _base(None, None, table), exports=False)
    if context is None:
        return not_found(request)
    return _page(request, "session", context)


@require_GET
@with_table
def display_game_detail(request: HttpRequest, table: Table, number: str) -> HttpResponse:
    """A finished game on the table display: fates, breakdowns and timeline."""
    try:
        context = _game_context(table, number, _base(None, None, table), can_correct=False)
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        return refusal_page(request, exc.message, exc.status, _base(None, None, table))
    return _page(request, "game", context)
