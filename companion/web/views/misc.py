"""Answers for addresses no screen uses: what browsers ask for by themselves."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    """No page of a table is for search engines."""
    return HttpResponse("User-agent: *\nDisallow: /\n", content_type="text/plain")
