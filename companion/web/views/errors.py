"""Error pages: a stale form (CSRF), a server error and every unknown address, showing nothing of
the request."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from companion.web.views.common import is_htmx, not_found, private_headers


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A clear message instead of Django's debug page when a form has gone stale."""
    message = _("This page was open too long or came from elsewhere. Reload it and try again.")
    if is_htmx(request):
        response = render(
            request, "companion/live/toast.html#toast", {"message": message}, status=403
        )
    else:
        response = render(
            request, "companion/error.html", {"message": message, "back": "/"}, status=403
        )
    return private_headers(response)


def server_error(request: HttpRequest) -> HttpResponse:
    """A generic 500 page that shows nothing of the request."""
    return private_headers(
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
    return not_found(request)
