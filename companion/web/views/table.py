"""The table's screens: the start page, opening and joining a table, the public display, a seat's
phone and the host console; and switching the language."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from companion import actions
from companion.actions import ActionError, Actor, NotFound, actor_for
from companion.actions.table import join_refusal
from companion.infra.qr import join_qr_svg
from companion.live import broadcast
from companion.models import Table, new_token
from companion.read.screens import template_for
from companion.read.state import public_state
from companion.rules import modes
from companion.web import throttle
from companion.web.views.common import (
    DEVICE_COOKIE,
    device_id,
    form_page,
    is_htmx,
    join_url,
    my_links,
    not_found,
    private_headers,
    remember,
    too_many,
    with_actor,
    with_table,
)
from companion.words.labels import mode_choices


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The start page: open a new table, join one by its code, or go back to one."""
    mine = []
    try:
        for code, kind, token in my_links(request):
            try:
                actor = actor_for(token)
            except NotFound:
                continue
            url = (
                reverse("host", args=[token]) if kind == "host" else reverse("phone", args=[token])
            )
            mine.append({"code": code, "url": url, "kind": kind, "seat": actor.seat})
    except (ValueError, TypeError):
        mine = []
    response = render(request, "companion/home.html", {"mine": mine, "modes": mode_choices()})
    return form_page(response)


@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    """Open a new table for the way to play chosen (the identity game by default); whoever
    opened it holds its host link."""
    try:
        table = actions.table_create(request.POST.get("mode") or modes.DEFAULT)
    except ActionError as exc:
        response = render(
            request,
            "companion/home.html",
            {"error_new": exc.message, "modes": mode_choices()},
            status=exc.status,
        )
        return form_page(response)
    response = HttpResponseRedirect(reverse("host", args=[table.host_token]), status=303)
    response.status_code = 303
    remember(response, request, table.code, "host", table.host_token)
    return response


@require_GET
def join_lookup(request: HttpRequest) -> HttpResponse:
    """The start page's "join by code" form."""
    if throttle.blocked(request):
        return too_many(request)
    code = actions.clean_code(request.GET.get("code", ""))
    if code and Table.objects.filter(code=code).exists():
        return HttpResponseRedirect(reverse("join", args=[code]))
    throttle.failed(request)
    response = render(
        request,
        "companion/home.html",
        {
            "error": _("No table has that code. Check it with the host."),
            "code": code,
            "modes": mode_choices(),
        },
        status=404,
    )
    return form_page(response)


@require_http_methods(["GET", "POST"])
@with_table
def join(request: HttpRequest, table: Table) -> HttpResponse:
    """Where the table's QR code leads: pick a name and take a seat."""
    device = device_id(request) or new_token()
    mine = table.seats.filter(device=device).first() if device_id(request) else None
    if mine is not None:
        return HttpResponseRedirect(reverse("phone", args=[mine.token]))
    error = None
    name = ""
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")[:200]
        try:
            seat, _created = actions.seat_join(code=table.code, name=name, device=device)
        except NotFound:
            return not_found(request)
        except ActionError as exc:
            error, status = exc.message, exc.status
        else:
            response = HttpResponseRedirect(reverse("phone", args=[seat.token]), status=303)
            response.status_code = 303
            remember(response, request, table.code, "seat", seat.token)
            return response
    state = public_state(table)
    refusal = join_refusal(table, state.seat_count)
    response = render(
        request,
        "companion/join.html",
        {
            "table": table,
            "error": error,
            "name": name,
            "state": state,
            "closed": refusal.message if refusal and not error else "",
            "mode": next((m for m in mode_choices() if m[0] == table.mode), None),
        },
        status=status,
    )
    response.set_cookie(
        DEVICE_COOKIE,
        device,
        max_age=365 * 86400,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )
    return form_page(response)


@require_GET
@with_table
def display(request: HttpRequest, table: Table) -> HttpResponse:
    """The public table display: for a tablet or TV in the middle of the table."""
    return _screen(request, table=table, actor=None, token=None)


def _screen(
    request: HttpRequest, *, table: Table, actor: Actor | None, token: str | None
) -> HttpResponse:
    state = public_state(table)
    seat = actor.seat if actor else None
    if seat is not None:
        ws_url = reverse("ws-token", args=[token])
        template = "companion/phone.html"
    elif actor is not None:
        ws_url = reverse("ws-token", args=[token])
        template = "companion/display.html"
    else:
        ws_url = reverse("ws-display", args=[table.code])
        template = "companion/display.html"
    context = {
        "state": state,
        "table": table,
        "me": broadcast.private_state(seat) if seat else None,
        "is_host": bool(actor and actor.is_host),
        "is_console": bool(actor and actor.seat is None),
        "ws_url": ws_url,
        "join_url": join_url(request, table.code),
        "join_qr": join_qr_svg(join_url(request, table.code)),
    }
    template = template_for(table.mode, template)
    if is_htmx(request):
        template += "#screen"
    return private_headers(render(request, template, context))


@require_GET
@with_actor
def phone(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """A seat's own private page."""
    if actor.seat is None:
        return HttpResponseRedirect(reverse("host", args=[token]))
    return _screen(request, table=actor.table, actor=actor, token=token)


@require_GET
@with_actor
def host(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The host console: the table display plus the host's controls."""
    if actor.seat is not None:
        return HttpResponseRedirect(reverse("phone", args=[token]))
    return _screen(request, table=actor.table, actor=actor, token=token)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the interface language and go back where the phone was."""
    lang = broadcast.lang_of(request.POST.get("language"))
    back = request.POST.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):
        back = "/"
    if is_htmx(request):
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
    else:
        response = HttpResponseRedirect(back, status=303)
        response.status_code = 303
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        lang,
        max_age=365 * 86400,
        samesite="Lax",
        secure=settings.HTTPS,
    )
    return response
