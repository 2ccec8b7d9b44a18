"""Small, synchronous-free middleware: security headers and a request size cap."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


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
        return response


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
