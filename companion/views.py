"""Thin views: find who is asking, call one action, answer with a page or a fragment."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import replace
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from companion import actions, broadcast, logs
from companion.actions import ActionError, Actor, NotFound, actor_for
from companion.actions.core import may_act_on, tap_outcome
from companion.actions.table import join_refusal
from companion.actions.turns import DELAYED_TRICKS, SLOTS
from companion.models import Event, Handover, Table, new_token
from companion.qr import qr_svg
from companion.rules.cards import equipment_catalogue, load_deck, rank_label
from companion.rules.judgement import JUDGED_DELAYED_TRICKS, Check, odds
from companion.rules.tricks import target_problem
from companion.rules.turns import judgement_order
from companion.state import HistoryLine, public_state
from companion.texts import hero_card
from companion.web import dispatch, taps, throttle

log = logging.getLogger(__name__)

DEVICE_COOKIE = "sgs_device"
MINE_COOKIE = "sgs_mine"


def _private(response: HttpResponse, *, referrer: str = "no-referrer") -> HttpResponse:
    """Headers every page or fragment reached by a token carries (THREATS.md 4 and 6)."""
    response["Cache-Control"] = "no-store, private"
    response["Referrer-Policy"] = referrer
    patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


def _form_page(response: HttpResponse) -> HttpResponse:
    """Pages with plain forms and no token in their address (start, join).

    Browsers send `Origin: null` from no-referrer pages, which Django's CSRF check refuses; these
    addresses carry no secret, and same-origin still keeps any link's address inside the site.
    """
    return _private(response, referrer="same-origin")


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _not_found(request: HttpRequest) -> HttpResponse:
    throttle.failed(request)
    response = render(request, "companion/not_found.html", status=404)
    return _private(response)


def _too_many(request: HttpRequest) -> HttpResponse:
    response = render(request, "companion/not_found.html", {"throttled": True}, status=429)
    response["Retry-After"] = str(throttle.WINDOW_SECONDS)
    return _private(response)


def with_actor(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the URL's token to an Actor, answering 404 (or 429 when guessing) otherwise."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if throttle.blocked(request):
            return _too_many(request)
        try:
            actor = actor_for(token)
        except NotFound:
            return _not_found(request)
        return view(request, actor, token, *args, **kwargs)

    return wrapper


def _device(request: HttpRequest) -> str:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if re.fullmatch(r"[A-Za-z0-9_-]{32}", value) else ""


def _remember(
    response: HttpResponse, request: HttpRequest, code: str, kind: str, token: str
) -> None:
    """Keep this phone's links in a cookie so the start page can lead back to them."""
    mine = [list(m) for m in _mine(request) if m[0] != code]
    mine = [[code, kind, token], *mine][:5]
    response.set_cookie(
        MINE_COOKIE,
        json.dumps(mine, separators=(",", ":")),
        max_age=30 * 86400,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def _mine(request: HttpRequest) -> list[tuple[str, str, str]]:
    """The links kept in this phone's cookie; anything else the cookie holds is ignored."""
    try:
        value = json.loads(request.COOKIES.get(MINE_COOKIE, "[]"))
    except ValueError:
        return []
    if not isinstance(value, list):
        return []
    return [
        (m[0], m[1], m[2])
        for m in value
        if isinstance(m, list) and len(m) == 3 and all(isinstance(part, str) for part in m)
    ][:5]


def _join_url(request: HttpRequest, code: str) -> str:
    return request.build_absolute_uri(reverse("join", args=[code]))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The start page: open a new table, join one by its code, or go back to one."""
    mine = []
    try:
        for code, kind, token in _mine(request):
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
    response = render(request, "companion/home.html", {"mine": mine})
    return _form_page(response)


@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    """Open a new table; whoever opened it holds its host link."""
    table = actions.table_create()
    response = HttpResponseRedirect(reverse("host", args=[table.host_token]), status=303)
    response.status_code = 303
    _remember(response, request, table.code, "host", table.host_token)
    return response


@require_GET
def join_lookup(request: HttpRequest) -> HttpResponse:
    """The start page's "join by code" form."""
    if throttle.blocked(request):
        return _too_many(request)
    code = actions.clean_code(request.GET.get("code", ""))
    if code and Table.objects.filter(code=code).exists():
        return HttpResponseRedirect(reverse("join", args=[code]))
    throttle.failed(request)
    response = render(
        request,
        "companion/home.html",
        {"error": _("No table has that code. Check it with the host."), "code": code},
        status=404,
    )
    return _form_page(response)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Where the table's QR code leads: pick a name and take a seat."""
    if throttle.blocked(request):
        return _too_many(request)
    table = Table.objects.filter(code=code).first()
    if table is None:
        return _not_found(request)
    device = _device(request) or new_token()
    mine = table.seats.filter(device=device).first() if _device(request) else None
    if mine is not None:
        return HttpResponseRedirect(reverse("phone", args=[mine.token]))
    error = None
    name = ""
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")[:200]
        try:
            seat, _created = actions.seat_join(code=code, name=name, device=device)
        except NotFound:
            return _not_found(request)
        except ActionError as exc:
            error, status = exc.message, exc.status
        else:
            response = HttpResponseRedirect(reverse("phone", args=[seat.token]), status=303)
            response.status_code = 303
            _remember(response, request, table.code, "seat", seat.token)
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
    return _form_page(response)


@require_GET
def display(request: HttpRequest, code: str) -> HttpResponse:
    """The public table display: for a tablet or TV in the middle of the table."""
    if throttle.blocked(request):
        return _too_many(request)
    table = Table.objects.filter(code=code).first()
    if table is None:
        return _not_found(request)
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
        "join_url": _join_url(request, table.code),
        "join_qr": qr_svg(_join_url(request, table.code)),
    }
    if _is_htmx(request):
        template += "#screen"
    return _private(render(request, template, context))


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
def act(request: HttpRequest, token: str, name: str) -> HttpResponse:
    """Every tap that changes the table. The new state reaches every screen by websocket.

    The action itself resolves the token (once, under the table's lock); an unknown token is a
    NotFound like any other and counts towards the guessing throttle. A tap merged with the
    identical tap just before it is answered like an applied one, with `X-Tap-Outcome: merged`.
    """
    if throttle.blocked(request):
        return _too_many(request)
    action_id = request.POST.get("action_id") or None
    if action_id is not None and not dispatch.ACTION_ID_RE.fullmatch(action_id):
        return _answer_error(request, token, _("Malformed request."), 400)
    arrived = taps.arrive(token, action_id)
    try:
        if name == "handover":
            change, new = actions.seat_handover(
                token=token, seat_id=request.POST.get("seat"), action_id=action_id
            )
            return _handover_answer(request, new)
        handler = dispatch.ACTIONS.get(name)
        if handler is None:
            raise Http404
        # The phone's script marks the same tap posted again after no answer over its socket.
        retry = request.headers.get("X-Tap-Retry") == "1"
        change = handler(request, token, action_id, arrived=arrived, retry=retry)
    except NotFound:
        return _not_found(request)
    except ActionError as exc:
        return _answer_error(request, token, exc.message, exc.status)
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
    if _is_htmx(request):
        response: HttpResponse = _private(HttpResponse(status=204))
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
                return _answer_error(request, token, known.message, known.status)
            outcome = "not_applied"
    response = _answer_error(
        request, token, _("The server could not record this tap. Checking…"), 503
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
        known = tap_outcome(token, action_id)
    except NotFound:
        return _not_found(request)
    body: dict[str, Any] = {
        "type": "status",
        "action_id": action_id,
        "applied": known.applied,
        "version": known.version,
        "outcome": known.outcome,
    }
    if known.outcome == "refused":
        body["status"], body["message"] = known.status, known.message
    return _private(JsonResponse(body))


def _answer_error(request: HttpRequest, token: str, message: Any, status: int) -> HttpResponse:
    if _is_htmx(request):
        response = render(request, "companion/live.html#toast", {"message": message}, status=status)
        # Nothing on the page is replaced; the phone's script shows the message.
        response["HX-Reswap"] = "none"
    else:
        response = render(
            request, "companion/error.html", {"message": message, "back": "../../"}, status=status
        )
    return _private(response)


def _handover_answer(request: HttpRequest, claim_token: str) -> HttpResponse:
    """The one-time link for the new phone (issue 10: never the seat's own token)."""
    handover = Handover.objects.select_related("seat").get(claim_token=claim_token)
    url = request.build_absolute_uri(reverse("handover-claim", args=[claim_token]))
    context = {
        "url": url,
        "qr": qr_svg(url),
        "full": not _is_htmx(request),
        "pending": handover.state == Handover.State.PENDING,
        "own": handover.requested_by == f"seat:{handover.seat_id}",
        "name": handover.seat.name,
    }
    return _private(render(request, "companion/live.html#handover", context))


HP_KINDS = ("damage", "lose_hp", "recover", "max_hp", "rescue", "died", "undo")


def _seat_dialog(
    request: HttpRequest, table: Table, actor: Actor | None, seat_id: int
) -> HttpResponse:
    """One seat: its hero card, HP and HP history; controls where the asker may act."""
    state = public_state(table)
    seat = next((s for s in state.seats if s.id == seat_id), None)
    if seat is None:
        return _not_found(request)
    own = actor is not None and actor.seat is not None and actor.seat.pk == seat_id
    if own and seat.hero is None and actor and actor.seat and actor.seat.hero_pick:
        # A player sees their own unrevealed pick; nobody else does.
        seat = replace(seat, hero=hero_card(actor.seat.hero_pick))
    playing = table.status == Table.Status.PLAYING and seat.alive
    allowed = actor is not None and may_act_on(actor, seat_id)
    events = list(
        Event.objects.filter(
            table=table,
            subject_seat_id=seat_id,
            private_to__isnull=True,
            kind__in=HP_KINDS,
            game_number=table.game_number,
        ).order_by("-version")
    )
    history = [
        HistoryLine(e.kind, e.public, e.version, e.game_number, undone=e.undone_by is not None)
        for e in events
    ]
    tricks, can_play = _trick_choices(table, state, actor, seat.id, playing)
    context = {
        "seat": seat,
        "playing": playing,
        "can_play": can_play,
        "tricks": tricks,
        "alive": state.alive_seats,
        "can_adjust": playing and allowed,
        "can_rescue": playing and allowed and (actor.is_host or table.opts.referee_mode),
        "can_die": playing and allowed,
        "can_undo": bool(actor and actor.is_host and table.status == Table.Status.PLAYING),
        "maneuvering": table.opts.maneuvering,
        "hp_history": history,
    }
    return _private(render(request, "companion/live.html#seat_dialog", context))


def _trick_choices(
    table: Table, state: Any, actor: Actor | None, seat_id: int, playing: bool
) -> tuple[list[str], bool]:
    """The delayed tricks the asker may put on this seat, and whether they may place or remove
    any: the current player in the play phase, on targets the card allows, or the host (as
    actions.trick_place checks)."""
    tricks = [t for t in DELAYED_TRICKS if t != "兵粮寸断" or table.opts.maneuvering]
    if not playing or actor is None:
        return tricks, False
    if actor.is_host:
        return tricks, True
    me = actor.seat
    if me is None or not me.alive or me.pk != table.turn_seat_id or table.phase != "play":
        return tricks, False
    own = me.pk == seat_id
    rows = next((s.distances for s in state.seats if s.id == me.pk), [])
    reach = own or any(r.reach for r in rows if r.seat_id == seat_id)
    return [t for t in tricks if target_problem(t, own_zone=own, in_reach=reach) is None], True


@require_GET
@with_actor
def seat_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """A seat's details for a phone or the host console."""
    return _seat_dialog(request, actor.table, actor, int(seat_id))


def _dialog_seat(actor: Actor, seat_id: int) -> tuple[Table, Any]:
    table = actor.table
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None:
        raise NotFound()
    return table, seat


@require_GET
@with_actor
def equip_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The real deck's equipment, by kind, to equip on a seat."""
    try:
        table, seat = _dialog_seat(actor, int(seat_id))
    except NotFound:
        return _not_found(request)
    labels = {
        "weapon": _("Weapon"),
        "armor": _("Armor"),
        "plus_horse": _("+1 horse"),
        "minus_horse": _("−1 horse"),
    }
    groups = []
    for slot, label in labels.items():
        cards = [
            c
            for c in equipment_catalogue(maneuvering=table.opts.maneuvering)
            if SLOTS[c.slot] == slot
        ]
        groups.append({"label": label, "cards": cards, "current": seat.equipment.get(slot, "")})
    context = {
        "seat": seat,
        "groups": groups,
        "english": translation.get_language().startswith("en"),
    }
    return _private(render(request, "companion/live.html#equip_dialog", context))


RANKS = [(n, rank_label(n)) for n in range(1, 14)]


@require_GET
@with_actor
def judge_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The judgement helper: what is judged, its odds, then the flipped card."""
    try:
        table, seat = _dialog_seat(actor, int(seat_id))
    except NotFound:
        return _not_found(request)
    deck = load_deck(ex=True, maneuvering=table.opts.maneuvering)
    codes = [c for c in Check if c is not Check.SUPPLY_SHORTAGE or table.opts.maneuvering]
    checks = [
        {"code": c.value, "odds": list(odds(c, deck).items()) if c is not Check.FREE else []}
        for c in codes
    ]
    trick = request.GET.get("trick", "")
    trick = trick if trick in seat.judgement_zone else ""
    if not trick and table.turn_seat_id == seat.pk and table.phase == "judgement":
        # In one's own judgement phase the helper judges the next delayed trick.
        trick = next(iter(judgement_order(seat.judgement_zone)), "")
    selected = JUDGED_DELAYED_TRICKS[trick].value if trick else ""
    if selected:
        # A delayed trick is judged one way only: the other checks would be refused.
        checks = [c for c in checks if c["code"] == selected]
    # 无懈可击 on the trick about to be judged, in its holder's judgement phase.
    nullify = bool(
        trick
        and table.turn_seat_id == seat.pk
        and table.phase == "judgement"
        and not table.pending_judgement
        and (actor.is_host or (actor.seat is not None and actor.seat.pk == seat.pk))
    )
    context = {
        "seat": seat,
        "nullify": nullify,
        "checks": checks,
        "trick": trick,
        "selected": selected,
        "ranks": RANKS,
        "deck_size": len(deck),
    }
    return _private(render(request, "companion/live.html#judge_dialog", context))


@require_GET
@with_actor
def replace_dialog(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """鬼才: the card that replaces the judgement card."""
    return _private(render(request, "companion/live.html#replace_dialog", {"ranks": RANKS}))


@require_GET
def display_seat_dialog(request: HttpRequest, code: str, seat_id: int) -> HttpResponse:
    """A seat's details on the public display: hero card and HP history only."""
    if throttle.blocked(request):
        return _too_many(request)
    table = Table.objects.filter(code=code).first()
    if table is None:
        return _not_found(request)
    return _seat_dialog(request, table, None, int(seat_id))


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the interface language and go back where the phone was."""
    lang = broadcast.lang_of(request.POST.get("language"))
    back = request.POST.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):
        back = "/"
    if _is_htmx(request):
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


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A clear message instead of Django's debug page when a form has gone stale."""
    message = _("This page was open too long or came from elsewhere. Reload it and try again.")
    if _is_htmx(request):
        response = render(request, "companion/live.html#toast", {"message": message}, status=403)
    else:
        response = render(
            request, "companion/error.html", {"message": message, "back": "/"}, status=403
        )
    return _private(response)


def server_error(request: HttpRequest) -> HttpResponse:
    """A generic 500 page that shows nothing of the request."""
    return _private(
        HttpResponse(
            render(
                request, "companion/error.html", {"message": _("Something went wrong.")}
            ).content,
            status=500,
        )
    )


def page_not_found(
    request: HttpRequest, exception: Exception | None = None, **url_kwargs: str
) -> HttpResponse:
    """Every unknown address answers like a wrong token (`/ws/<token>/` over HTTP too: those
    URL names exist for reverse(), and Django hands this view the token)."""
    return _not_found(request)
