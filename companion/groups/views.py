"""The group's screens: its page (reached by its unguessable link), the panel on a session's
page (the host creates or attaches a group, fixes matches and merges players; a phone answers
"Are you 张三 of 周五三国杀?", which its own section shows: companion/groups/ask.py), the exports
and the import, and the display's end-of-evening card.

Thin like the core's views: find who asks from the URL's token, call one service, render."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from companion.actions import Actor
from companion.groups import merges, read, services, transfer
from companion.groups.ask import telling
from companion.groups.card import evening_card
from companion.groups.log import Who
from companion.groups.models import Evening, Group, GroupAction, Player, SeatLink
from companion.infra.qr import qr_svg
from companion.models import Session, Table
from companion.web import throttle
from companion.web.views.common import (
    is_htmx,
    not_found,
    private_headers,
    refusal_page,
    too_many,
    with_actor,
    with_table,
)

# The most bytes an imported file may have (a few thousand games).
IMPORT_MAX_BYTES = 4 * 1024 * 1024
GROUP_LINK = re.compile(r"(?:/g/)?([A-Za-z0-9_-]{20,64})/?$")


def _group(request: HttpRequest, token: str) -> Group | None:
    group = Group.objects.filter(token=token).first()
    if group is None:
        throttle.failed(request)
    return group


def _session(table: Table) -> Session | None:
    return table.session or table.sessions.order_by("-number").first()


def _evening(table: Table) -> Evening | None:
    session = _session(table)
    if session is None:
        return None
    return Evening.objects.select_related("group").filter(session=session).first()


def _who(actor: Actor) -> Who:
    """The host as the group's log names them: their seat's name where they play."""
    name = actor.seat.name if actor.seat is not None else ""
    return Who(name=name, table=actor.table.code)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _pk(value: Any) -> int:
    """A player's id from a form (0, which no row has, for anything else)."""
    return _int(value) or 0


@require_GET
def group_page(request: HttpRequest, token: str) -> HttpResponse:
    """The group's all-time table, for whoever holds its link."""
    if throttle.blocked(request):
        return too_many(request)
    group = _group(request, token)
    if group is None:
        return not_found(request)
    content = read.page(
        group, period=request.GET.get("period", "all"), players=_int(request.GET.get("players"))
    )
    return private_headers(render(request, "groups/page.html", {"page": content}))


@require_GET
def group_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The group page's QR code, fetched apart: drawing it costs more than the whole table."""
    if throttle.blocked(request):
        return too_many(request)
    group = _group(request, token)
    if group is None:
        return not_found(request)
    link = request.build_absolute_uri(reverse("group", args=[group.token]))
    response = HttpResponse(qr_svg(link), content_type="image/svg+xml")
    response["X-Content-Type-Options"] = "nosniff"
    return private_headers(response)


@require_GET
def group_export(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    """The group's games as CSV, the app's JSON, or a Board Game Stats play file."""
    if throttle.blocked(request):
        return too_many(request)
    group = _group(request, token)
    if group is None:
        return not_found(request)
    if fmt == "csv":
        response = HttpResponse(transfer.export_csv(group), content_type="text/csv; charset=utf-8")
    else:
        data = transfer.export_json(group) if fmt == "json" else transfer.export_bgsplay(group)
        body = json.dumps(data, ensure_ascii=False, indent=2)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sanguosha-group.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    return private_headers(response)


def _panel(request: HttpRequest, actor: Actor, token: str, **extra: Any) -> HttpResponse:
    """The group panel of a session page: the host's tools, or a phone's question."""
    table = actor.table
    evening = _evening(table)
    base = reverse("host" if actor.seat is None else "phone", args=[token])
    context: dict[str, Any] = {"base": base, "evening": evening, "is_host": actor.is_host}
    context["has_session"] = _session(table) is not None
    if evening is not None:
        group = evening.group
        link = request.build_absolute_uri(reverse("group", args=[group.token]))
        links = list(evening.links.select_related("player").order_by("seat"))
        context.update(group=group, link=link, links=links)
        if actor.is_host:
            context["qr"] = qr_svg(link)
            context["players"] = list(
                Player.objects.filter(group=group, merged_into=None).order_by("name")
            )
            context["names"] = {int(k): v for k, v in evening.session.players.items()}
            context["merges"] = list(
                GroupAction.objects.filter(
                    group=group, kind=GroupAction.Kind.MERGE, undone_by=None
                ).order_by("-at", "-pk")[:5]
            )
        elif actor.seat is not None:
            context["mine"] = next((x for x in links if x.seat == actor.seat.pk), None)
    context.update(extra)
    return private_headers(render(request, "groups/panel.html", context))


@require_GET
@with_actor
def panel(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    return _panel(request, actor, token)


def _host_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The host's taps of the panel: anyone else is refused 403 before the view runs."""

    @wraps(view)
    def wrapper(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
        if not actor.is_host:
            return refusal_page(request, _("Only the host can do that."), 403, reverse("home"))
        return view(request, actor, token)

    return wrapper


@require_POST
@with_actor
@_host_only
def create(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The host makes a new group of this evening."""
    session = _session(actor.table)
    if session is None:
        return refusal_page(request, _("Deal a game first."), 409, reverse("home"))
    try:
        with telling(actor.table):
            services.create_group(request.POST.get("name", ""), session, _who(actor))
    except services.GroupError as exc:
        return refusal_page(request, str(exc), 400, reverse("home"))
    return _panel(request, actor, token)


@require_POST
@with_actor
@_host_only
def attach(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The host attaches the evening to a group by its link."""
    found = GROUP_LINK.search(request.POST.get("link", "").strip())
    group = Group.objects.filter(token=found.group(1)).first() if found else None
    session = _session(actor.table)
    if group is None or session is None:
        throttle.failed(request)
        return refusal_page(request, _("No group has this link."), 404, reverse("home"))
    try:
        with telling(actor.table):
            services.attach(group, session, _who(actor))
    except services.GroupError as exc:
        return refusal_page(request, str(exc), 409, reverse("home"))
    return _panel(request, actor, token)


@require_POST
@with_actor
@_host_only
def fix(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The host's fixes: undo a match, link a seat to a player, merge two players."""
    evening = _evening(actor.table)
    if evening is None:
        return not_found(request)
    post = request.POST
    seat, what = _int(post.get("seat")), post.get("what")
    live = Player.objects.filter(group=evening.group, merged_into=None)
    try:
        with telling(actor.table):
            if what == "unmatch" and seat is not None:
                services.unmatch(evening, seat, _who(actor))
            elif what == "relink" and seat is not None:
                services.relink(evening, seat, live.get(pk=_pk(post.get("player"))), _who(actor))
            elif what == "merge":
                keep, gone = live.get(pk=_pk(post.get("keep"))), live.get(pk=_pk(post.get("gone")))
                merges.merge(evening.group, keep, gone, _who(actor))
            elif what == "unmerge":
                action = GroupAction.objects.get(group=evening.group, pk=_pk(post.get("action")))
                merges.undo_merge(evening.group, action, _who(actor))
            else:
                return refusal_page(request, _("That did not work."), 400, reverse("home"))
    except (Player.DoesNotExist, GroupAction.DoesNotExist):
        return refusal_page(request, _("Not a player of this group."), 400, reverse("home"))
    except services.GroupError as exc:
        return refusal_page(request, str(exc), 409, reverse("home"))
    return _panel(request, actor, token)


def _answer(actor: Actor, answer: Any) -> None:
    """This phone's answer to "Are you 张三 of 周五三国杀?", if its seat is asked: its phones (this
    one and any other of the seat) are redrawn without the question."""
    evening = _evening(actor.table)
    seat = actor.seat
    if evening is None or seat is None or answer not in ("yes", "no"):
        return
    asked = evening.links.filter(seat=seat.pk, confirmed=False, how=SeatLink.How.NAME)
    if asked.exists():
        with telling(actor.table):
            services.confirm(evening, seat.pk, seat.device, yes=answer == "yes")


@require_POST
@with_actor
def confirm(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """A phone answers "Are you 张三 of 周五三国杀?" from the session page's panel."""
    if _evening(actor.table) is None or actor.seat is None:
        return not_found(request)
    _answer(actor, "yes" if request.POST.get("answer") == "yes" else "no")
    return _panel(request, actor, token)


@require_POST
@with_actor
def ask(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """A phone answers "Are you 张三 of 周五三国杀?" from its own section (the question itself
    rides in its private frames, companion/groups/ask.py): only for the seat whose token it was
    reached by, and nothing for anyone else. The answer is an empty card where the question was."""
    _answer(actor, request.POST.get("answer"))
    return private_headers(HttpResponse(""))


@require_POST
@with_actor
@_host_only
def import_file(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The host imports a group exported from another laptop (the app's JSON)."""
    upload = request.FILES.get("file")
    error = ""
    if upload is None or upload.size is None or upload.size > IMPORT_MAX_BYTES:
        error = _("Choose a group file (JSON) of at most 4 MB.")
    else:
        try:
            data = json.loads(upload.read().decode("utf-8"))
            group = transfer.import_json(data, _who(actor))
        except (ValueError, UnicodeDecodeError) as exc:
            error = _("This file was not imported, nothing changed: %(why)s") % {"why": exc}
        else:
            return _panel(request, actor, token, imported=group)
    return _panel(request, actor, token, import_error=error)


@require_GET
@with_table
def display_card(request: HttpRequest, table: Table) -> HttpResponse:
    """The display's end-of-evening card: the evening's best and the group's all-time leader."""
    evening = _evening(table)
    card = evening_card(evening) if evening is not None else None
    if card is None:
        return not_found(request)
    # In the display's session history (fetched by htmx): the card alone.
    template = "groups/card.html#card" if is_htmx(request) else "groups/card.html"
    return private_headers(render(request, template, {"card": card, "code": table.code}))
