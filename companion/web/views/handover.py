"""The new phone's side of a seat move (docs/handover.md).

`/n/<claim token>/` shows the move's state and nothing of the seat's secrets. A POST claims it:
once the move may happen, the first phone to post gets the seat (a redirect to its new private
page) and the link is spent. While the move waits, the page posts again every two seconds.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from companion import actions
from companion.actions import NotFound
from companion.models import Handover
from companion.web import throttle
from companion.web.views.common import form_page, is_htmx, not_found, remember, too_many


@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest, token: str) -> HttpResponse:
    """Wait for a seat move, then take the seat on this phone."""
    if throttle.blocked(request):
        return too_many(request)
    if request.method == "POST":
        try:
            handover, seat_token = actions.handover_claim(token)
        except NotFound:
            return not_found(request)
        if seat_token:
            url = reverse("phone", args=[seat_token])
            if is_htmx(request):
                response = HttpResponse(status=200)
                response["HX-Redirect"] = url
            else:
                response = HttpResponseRedirect(url, status=303)
                response.status_code = 303
            remember(response, request, handover.table.code, "seat", seat_token)
            return form_page(response)
    else:
        handover = (
            Handover.objects.select_related("seat", "table").filter(claim_token=token).first()
        )
        if handover is None:
            return not_found(request)
    left = max(0, int((handover.not_before - timezone.now()).total_seconds() + 0.999))
    context = {
        # The countdown as live.js shows it, already there before its first tick.
        "left": f"{left // 60}:{left % 60:02d}",
        "handover": handover,
        "seat_name": handover.seat.name,
        "code": handover.table.code,
        "deadline_ms": int(handover.not_before.timestamp() * 1000),
    }
    template = "companion/handover.html" + ("#claim" if is_htmx(request) else "")
    # Same-origin referrer: the plain form (no script) must pass the CSRF origin check.
    return form_page(render(request, template, context))
