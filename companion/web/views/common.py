"""What every view shares: the headers of a private page, finding the actor from the URL's token
(404, or 429 when guessing), and the cookies that keep a phone's links."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from companion.actions import NotFound, actor_for
from companion.models import Table
from companion.web import throttle

DEVICE_COOKIE = "sgs_device"
MINE_COOKIE = "sgs_mine"


def private_headers(response: HttpResponse, *, referrer: str = "no-referrer") -> HttpResponse:
    """Headers every page or fragment reached by a token carries (docs/threats.md 4 and 6)."""
    response["Cache-Control"] = "no-store, private"
    response["Referrer-Policy"] = referrer
    patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


def form_page(response: HttpResponse) -> HttpResponse:
    """Pages with plain forms and no token in their address (start, join).

    Browsers send `Origin: null` from no-referrer pages, which Django's CSRF check refuses; these
    addresses carry no secret, and same-origin still keeps any link's address inside the site.
    """
    return private_headers(response, referrer="same-origin")


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def not_found(request: HttpRequest) -> HttpResponse:
    throttle.failed(request)
    response = render(request, "companion/not_found.html", status=404)
    return private_headers(response)


def refusal_page(request: HttpRequest, message: Any, status: int, back: str) -> HttpResponse:
    """A refusal: for htmx the toast alone, nothing on the page replaced (the phone's script
    shows the message); otherwise an error page whose link goes `back`."""
    if is_htmx(request):
        response = render(
            request, "companion/live/toast.html#toast", {"message": message}, status=status
        )
        response["HX-Reswap"] = "none"
    else:
        response = render(
            request, "companion/error.html", {"message": message, "back": back}, status=status
        )
    return private_headers(response)


def too_many(request: HttpRequest) -> HttpResponse:
    response = render(request, "companion/not_found.html", {"throttled": True}, status=429)
    response["Retry-After"] = str(throttle.WINDOW_SECONDS)
    return private_headers(response)


def with_actor(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the URL's token to an Actor, answering 404 (or 429 when guessing) otherwise."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if throttle.blocked(request):
            return too_many(request)
        try:
            actor = actor_for(token)
        except NotFound:
            return not_found(request)
        return view(request, actor, token, *args, **kwargs)

    return wrapper


def with_table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the URL's table code to its Table, answering 404 (or 429 when guessing)
    otherwise: the screens reached by a code, not a token (the join page, the display)."""

    @wraps(view)
    def wrapper(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if throttle.blocked(request):
            return too_many(request)
        table = Table.objects.filter(code=code).first()
        if table is None:
            return not_found(request)
        return view(request, table, *args, **kwargs)

    return wrapper


def device_id(request: HttpRequest) -> str:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if re.fullmatch(r"[A-Za-z0-9_-]{32}", value) else ""


def remember(
    response: HttpResponse, request: HttpRequest, code: str, kind: str, token: str
) -> None:
    """Keep this phone's links in a cookie so the start page can lead back to them."""
    mine = [list(m) for m in my_links(request) if m[0] != code]
    mine = [[code, kind, token], *mine][:5]
    response.set_cookie(
        MINE_COOKIE,
        json.dumps(mine, separators=(",", ":")),
        max_age=30 * 86400,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def my_links(request: HttpRequest) -> list[tuple[str, str, str]]:
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


def join_url(request: HttpRequest, code: str) -> str:
    return request.build_absolute_uri(reverse("join", args=[code]))
