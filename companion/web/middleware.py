"""Small, synchronous-free middleware: security headers, private headers, a request size cap,
and refusing changes while Redis is away."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from companion.actions import NotFound, actor_for
from companion.actions.core import was_applied
from companion.rules import box
from companion.web import throttle
from companion.web.dispatch import ACTION_ID_RE

# A seat's or the host console's address (a token in it): docs/threats.md 4 and 6.
PRIVATE_PATH_RE = re.compile(r"^/[ph]/[A-Za-z0-9_-]{1,64}/")
# The hero box's import: the one request that carries a file (companion.web.views.box).
BOX_IMPORT_PATH_RE = re.compile(r"^/[ph]/[A-Za-z0-9_-]{1,64}/box/import$")
# Set on a box import whose body is larger than any box file: the page answers with its own
# message, in its language, without its file having been read.
OVERSIZED_UPLOAD = "companion.oversized_upload"
# POSTs that change a table (taps, sessions, joining) and so must reach its screens.
CHANGE_PATH_RE = re.compile(r"^/(?:[ph]/[A-Za-z0-9_-]{1,64}/|j/[A-Z0-9]{1,8}/)")


class SecurityHeadersMiddleware:
    """A strict Content-Security-Policy (no inline script or style) on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        host = request.get_host() if _host_ok(request) else "'self'"
        ws = f"ws://{host} wss://{host}" if host != "'self'" else ""
        response.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' {ws}; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'; object-src 'none'",
        )
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        if not _trustworthy(request):
            # A phone on the LAN address over plain http ignores this header and says so in red
            # in its console on every page; it only has effect on https or this laptop's name.
            del response["Cross-Origin-Opener-Policy"]
        if _carries_token(request, response):
            response["Cache-Control"] = "no-store, private"
            response["Referrer-Policy"] = "no-referrer"
        _give_device(request, response)
        return response


def _carries_token(request: HttpRequest, response: HttpResponse) -> bool:
    """A response to a token's address, or one that leads to it (a redirect to a new seat or
    console), whatever answered it: the view, or a middleware refusing the request early."""
    location = urlsplit(response.get("Location", "")).path
    return bool(PRIVATE_PATH_RE.match(request.path) or PRIVATE_PATH_RE.match(location))


def _give_device(request: HttpRequest, response: HttpResponse) -> None:
    """Every browser gets a device cookie on its first page: the guessing throttle counts per
    device (companion/web/throttle.py), and the join page keeps one seat per device."""
    if request.path.startswith(settings.STATIC_URL) or throttle.DEVICE_COOKIE in response.cookies:
        return
    device, new = throttle.device_of(request)
    if new:
        response.set_cookie(
            throttle.DEVICE_COOKIE,
            device,
            max_age=365 * 86400,
            httponly=True,
            samesite="Lax",
            secure=settings.HTTPS,
        )


def _trustworthy(request: HttpRequest) -> bool:
    """A potentially trustworthy origin, as a browser sees the page's: https, or a loopback
    name (a LAN address over plain http is not, so no secure-context feature works there)."""
    if request.is_secure():
        return True
    if not _host_ok(request):
        return False
    name = urlsplit(f"//{request.get_host()}").hostname or ""
    return name in ("localhost", "127.0.0.1", "::1") or name.endswith(".localhost")


def _host_ok(request: HttpRequest) -> bool:
    try:
        request.get_host()
    except Exception:  # noqa: BLE001 - DisallowedHost is answered elsewhere
        return False
    return True


class RequestSizeMiddleware:
    """Refuse large bodies before anything reads them: phones only send tiny forms. The hero
    box's import takes a file as large as the largest box exports (a host always re-imports
    their own export); a larger one is left unread, for the box page to say so itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse("Bad request.", status=400, content_type="text/plain")
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            if not BOX_IMPORT_PATH_RE.match(request.path):
                return HttpResponse("Request too large.", status=413, content_type="text/plain")
            if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE + box.MAX_FILE_BYTES:
                request.META[OVERSIZED_UPLOAD] = True
                request.upload_handlers = [_NoFiles()]
        return self.get_response(request)


class _NoFiles(FileUploadHandler):
    """Parse a form's fields up to its first file, and stop there: the file is not read."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        raise StopUpload(connection_reset=True)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        return None

    def file_complete(self, file_size: int) -> None:
        return None


class NullOriginMiddleware:
    """Let Django's CSRF check see the real origin of taps from no-referrer pages.

    Seat pages must not leak their token through a Referer (docs/threats.md 6), so browsers send
    `Origin: null` on their POSTs. When the request carries the CSRF token in the X-CSRFToken
    header (every htmx tap does), it came from this site's own script: a custom header cannot be
    sent cross-site without a CORS preflight, which this app never grants. Such a request gets
    this site's origin, and Django's CsrfViewMiddleware (after this) then checks the token as
    always. Plain form posts carry no header and keep Django's full origin check.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.META.get("HTTP_X_CSRFTOKEN") and request.META.get("HTTP_ORIGIN") == "null":
            # A bad Host is refused by Django's own checks later.
            with contextlib.suppress(DisallowedHost):
                request.META["HTTP_ORIGIN"] = f"{request.scheme}://{request.get_host()}"
        return self.get_response(request)


class RedisOutageMiddleware:
    """While Redis (the scale-out setup's channel layer and cache) cannot be reached, a change
    is refused with a clear message before anything is written: it could not reach the other
    screens, and the phone would be told it failed after it was applied. Pages still load.

    A tap whose action id is already applied (a phone retrying over HTTP after its socket
    dropped) goes through: the action answers a replay without sending anything. The embedded
    default has no Redis and never refuses.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and CHANGE_PATH_RE.match(request.path):
            reachable = getattr(cache, "reachable", None)
            if reachable is not None and not reachable() and not _applied(request):
                return _redis_down(request)
        return self.get_response(request)


def _applied(request: HttpRequest) -> bool:
    """Whether this POST's action id was applied already (on this token's table)."""
    action_id = request.POST.get("action_id", "")
    token = PRIVATE_PATH_RE.match(request.path)
    if token is None or not ACTION_ID_RE.fullmatch(action_id):
        return False
    try:
        actor = actor_for(token.group(0).split("/")[2])
    except NotFound:
        return False
    return was_applied(actor.table, action_id)


def _redis_down(request: HttpRequest) -> HttpResponse:
    message = _(
        "The screens cannot reach each other right now: nothing was changed. Try again in a moment."
    )
    if request.headers.get("HX-Request") == "true":
        response = render(
            request, "companion/live/toast.html#toast", {"message": message}, status=503
        )
        response["HX-Reswap"] = "none"
    else:
        page = CHANGE_PATH_RE.match(request.path)
        context = {"message": message, "back": page.group(0) if page else "/"}
        response = render(request, "companion/error.html", context, status=503)
    response["Retry-After"] = "5"
    # Refused before anything was written: the phone knows its tap was not applied.
    response["X-Tap-Outcome"] = "not_applied"
    response["Cache-Control"] = "no-store, private"
    response["Referrer-Policy"] = "no-referrer"
    return response
