"""Small, synchronous-free middleware: security headers and a request size cap."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

from companion import throttle

# A seat's or the host console's address (a token in it): THREATS.md 4 and 6.
PRIVATE_PATH_RE = re.compile(r"^/[ph]/[A-Za-z0-9_-]{1,64}/")


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
    device (companion/throttle.py), and the join page keeps one seat per device."""
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


def _host_ok(request: HttpRequest) -> bool:
    try:
        request.get_host()
    except Exception:  # noqa: BLE001 - DisallowedHost is answered elsewhere
        return False
    return True


class RequestSizeMiddleware:
    """Refuse large bodies before anything reads them: phones only send tiny forms."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse("Bad request.", status=400, content_type="text/plain")
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return HttpResponse("Request too large.", status=413, content_type="text/plain")
        return self.get_response(request)


class NullOriginMiddleware:
    """Let Django's CSRF check see the real origin of taps from no-referrer pages.

    Seat pages must not leak their token through a Referer (THREATS.md 6), so browsers send
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
