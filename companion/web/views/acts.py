"""Taps over HTTP (a phone without its socket): run the tap's action, answer 204 or a message;
and what became of a tap, asked by its own screen."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from companion.actions import ActionError, Actor, NotFound
from companion.actions.outcomes import tap_outcome
from companion.infra import logs
from companion.infra.qr import qr_svg
from companion.models import Handover
from companion.web import dispatch, taps, throttle
from companion.web.views.common import (
    is_htmx,
    not_found,
    private_headers,
    refusal_page,
    too_many,
    with_actor,
)

log = logging.getLogger(__name__)

# An error page's way back from a tap's address (/p/<token>/act/<name>) to its screen.
BACK = "../../"


@require_POST
def act(request: HttpRequest, token: str, name: str) -> HttpResponse:
    """Every tap that changes the table. The new state reaches every screen by websocket.

    The action itself resolves the token (once, under the table's lock); an unknown token is a
    NotFound like any other and counts towards the guessing throttle. A tap merged with the
    identical tap just before it is answered like an applied one, with `X-Tap-Outcome: merged`.
    """
    if throttle.blocked(request):
        return too_many(request)
    action_id = request.POST.get("action_id") or None
    if action_id is not None and not dispatch.ACTION_ID_RE.fullmatch(action_id):
        return refusal_page(request, _("Malformed request."), 400, BACK)
    arrived = taps.arrive(token, action_id)
    try:
        if name == "handover":
            change, new = dispatch.run_tap(name, request.POST, token, action_id)
            return _handover_answer(request, new)
        handler = dispatch.ACTIONS.get(name)
        if handler is None:
            raise Http404
        # The phone's script marks the same tap posted again after no answer over its socket.
        retry = request.headers.get("X-Tap-Retry") == "1"
        with taps.in_line(token, action_id):
            change = handler(request, token, action_id, arrived=arrived, retry=retry)
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        return refusal_page(request, exc.message, exc.status, BACK)
    except dispatch.TooLate:
        log.info("tap %s not judged within its deadline: answered not applied", name)
        return _act_failed(request, token, action_id)
    except (OperationalError, InterfaceError) as exc:  # a lock held too long, a lost link
        logs.expected(
            log,
            "db",
            "tap %s failed in the database, answered from the event log: %s: %s",
            name,
            type(exc).__name__,
            exc,
        )
        return _act_failed(request, token, action_id)
    except DatabaseError:
        log.error("tap %s failed in the database", name, exc_info=True)
        return _act_failed(request, token, action_id)
    return _applied(request, "merged" if getattr(change, "merged", False) else "")


def _applied(request: HttpRequest, outcome: str = "") -> HttpResponse:
    if is_htmx(request):
        response: HttpResponse = private_headers(HttpResponse(status=204))
    else:
        response = HttpResponseRedirect(request.path.rsplit("/act/", 1)[0] + "/", status=303)
    if outcome:
        response["X-Tap-Outcome"] = outcome
    return response


def _act_failed(request: HttpRequest, token: str, action_id: str | None) -> HttpResponse:
    """The tap was not judged (its deadline passed, the database failed). It, or another copy
    of it, may have been judged all the same: answer what became of it, never an error for an
    applied tap."""
    outcome = "unknown"
    if action_id:
        try:
            known = tap_outcome(token, action_id)
        except (DatabaseError, NotFound):
            pass
        else:
            if known.outcome in ("applied", "merged"):
                return _applied(request, "merged" if known.outcome == "merged" else "")
            if known.outcome == "refused":
                return refusal_page(request, known.message, known.status, BACK)
            outcome = "not_applied"
    response = refusal_page(
        request, _("The server could not record this tap. Checking…"), 503, BACK
    )
    response["X-Tap-Outcome"] = outcome
    return response


@require_GET
@with_actor
def tap_status_view(request: HttpRequest, actor: Actor, token: str, action_id: str) -> HttpResponse:
    """What became of this screen's tap `action_id` (as the socket's status question answers)?
    A phone asks after a tap failed or went unanswered (and its socket is closed); only the
    tap's own token learns anything."""
    try:
        body = dispatch.status_of(token, action_id)
    except NotFound:
        return not_found(request)
    return private_headers(JsonResponse(body))


def _handover_answer(request: HttpRequest, claim_token: str) -> HttpResponse:
    """The one-time link for the new phone (never the seat's own token)."""
    handover = Handover.objects.select_related("seat").get(claim_token=claim_token)
    url = request.build_absolute_uri(reverse("handover-claim", args=[claim_token]))
    context = {
        "url": url,
        "qr": qr_svg(url),
        "full": not is_htmx(request),
        "pending": handover.state == Handover.State.PENDING,
        "own": handover.requested_by == f"seat:{handover.seat_id}",
        "name": handover.seat.name,
    }
    return private_headers(
        render(request, "companion/live/dialogs/handover.html#handover", context)
    )
