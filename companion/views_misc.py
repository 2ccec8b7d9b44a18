"""Answers for addresses no screen uses: what browsers ask for by themselves, and the
websocket routes reached over plain HTTP."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from companion import views


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    """No page of a table is for search engines."""
    return HttpResponse("User-agent: *\nDisallow: /\n", content_type="text/plain")


def websocket_only(request: HttpRequest, **kwargs: str) -> HttpResponse:
    """`/ws/...` over HTTP: the same 404 as any unknown address (the socket routes are in
    companion/routing.py; these URL names exist only for reverse())."""
    return views.page_not_found(request)
