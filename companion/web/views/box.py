"""The hero box page: the host adds the heroes the table owns, switches the
standard ones on and off, exports the box as a JSON file and imports one.

Reached from the host's token (`/h/<token>/box/`, or the host seat's `/p/<token>/box/`); every
other token is refused. Forms posting to the page, each one action (companion.actions box_*),
boosted by htmx (a token's page is no-referrer: a plain form post would carry `Origin: null`,
which the CSRF check refuses; htmx sends the CSRF header, companion.web.middleware); a refused
hero comes back on the form with the reason under its field, a refused file with its reason.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from companion import actions
from companion.actions import ActionError, Actor, NotFound
from companion.actions.box_offers import LOCKED_CODE, BoxRefused, box_locked
from companion.queries.box import table_box
from companion.rules import box
from companion.web.middleware import OVERSIZED_UPLOAD
from companion.web.views.common import is_htmx, not_found, private_headers, refusal_page, with_actor
from companion.words import names

SKILL_ROWS = 4


def _base(actor: Actor, token: str) -> str:
    return reverse("host" if actor.seat is None else "phone", args=[token])


def _kingdoms() -> list[tuple[str, str]]:
    return [(k, names.KINGDOM_NAMES[k][1 if names.english_ui() else 0]) for k in box.KINGDOMS]


def _context(actor: Actor, token: str, **extra: Any) -> dict[str, Any]:
    table = actor.table
    hero_box = table_box(table)
    scope = table.code
    standard = [
        {"card": names.hero_card(h.id), "on": h.id not in hero_box.standard_off, "lord": h.lord}
        for h in box.STANDARD
    ]
    added = [
        {"card": names.hero_card(h.id, hero_box, scope), "lord": h.lord} for h in hero_box.added
    ]
    values = extra.pop("values", {})
    errors = extra.pop("errors", {})
    return {
        "table": table,
        "base": _base(actor, token),
        "here": reverse("box", args=[token]),
        "standard": standard,
        "added": added,
        "count": len(hero_box.heroes()),
        "lords": [names.hero_name_of(h.id, hero_box) for h in hero_box.lord_heroes()],
        "locked": box_locked(table),
        "kingdoms": _kingdoms(),
        "hps": range(box.MIN_HP, box.MAX_HP + 1),
        "values": values,
        "skill_rows": [
            {
                "i": i,
                "name": values.get(f"skill_name_{i}", ""),
                "text": values.get(f"skill_text_{i}", ""),
                "lord": bool(values.get(f"skill_lord_{i}")),
                "error": errors.get(f"skill_{i}", ""),
            }
            for i in range(SKILL_ROWS)
        ],
        "errors": errors,
        **extra,
    }


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The page; a refusal to htmx (the boosted forms) is answered 200 with the page, so it
    is shown (htmx swaps no 4xx here), and `X-Box-Refused` says so."""
    refused = status >= 400 and is_htmx(request)
    response = render(request, "companion/box.html", context, status=200 if refused else status)
    if refused:
        response["X-Box-Refused"] = str(status)
        # The reason in view (the form's first error, or the file's).
        response["HX-Reswap"] = "innerHTML show:[role=alert]:top"
    return private_headers(response)


def _back(actor: Actor, token: str) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = reverse("box", args=[token])
    return private_headers(response)


def _host_only(request: HttpRequest, actor: Actor, token: str) -> HttpResponse | None:
    if actor.is_host:
        return None
    return refusal_page(request, _("Only the host can do that."), 403, _base(actor, token))


@require_GET
@with_actor
def box_page(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The box: the heroes added, the form to add one, the standard heroes, export, import."""
    refused = _host_only(request, actor, token)
    if refused is not None:
        return refused
    return _page(request, _context(actor, token))


def _form_fields(post: Any) -> dict[str, Any]:
    """The add form's fields as the box takes them (an HP that is no number stays as typed,
    for the box to refuse)."""
    hp_raw = (post.get("hp") or "").strip()
    hp: Any = int(hp_raw) if hp_raw.isdigit() else hp_raw
    skills = []
    for i in range(SKILL_ROWS):
        name = (post.get(f"skill_name_{i}") or "").strip()
        text = (post.get(f"skill_text_{i}") or "").strip()
        if name or text:
            skills.append({"name": name, "text": text, "lord": bool(post.get(f"skill_lord_{i}"))})
    return {
        "name_zh": post.get("name_zh", ""),
        "name_en": post.get("name_en", ""),
        "kingdom": post.get("kingdom", ""),
        "hp": hp,
        "gender": post.get("gender", ""),
        "lord": bool(post.get("lord")),
        "skills": skills,
    }


def _row_filled(post: Any, i: int) -> bool:
    return bool(
        (post.get(f"skill_name_{i}") or "").strip() or (post.get(f"skill_text_{i}") or "").strip()
    )


def _skill_field(field: str, post: Any) -> str:
    """A skill's error names its row on the form (the rows left empty are not counted)."""
    if not field.startswith("skill_"):
        return field
    filled = [i for i in range(SKILL_ROWS) if _row_filled(post, i)]
    index = int(field.removeprefix("skill_"))
    return f"skill_{filled[index]}" if index < len(filled) else "skills"


@require_POST
@with_actor
def box_add(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """Add a hero; refused: the form again, the reason under its field."""
    refused = _host_only(request, actor, token)
    if refused is not None:
        return refused
    try:
        actions.box_add(
            token=token,
            fields=_form_fields(request.POST),
            action_id=request.POST.get("action_id") or None,
        )
    except NotFound:
        return not_found(request)
    except BoxRefused as exc:
        if exc.code == LOCKED_CODE:
            return _page(request, _context(actor, token, notice=exc.message), status=exc.status)
        field = _skill_field(exc.field, request.POST) or "form"
        context = _context(actor, token, values=request.POST.dict(), errors={field: exc.message})
        return _page(request, context, status=exc.status)
    except ActionError as exc:
        return refusal_page(request, exc.message, exc.status, reverse("box", args=[token]))
    return _back(actor, token)


def _simple(request: HttpRequest, actor: Actor, token: str, run: Any) -> HttpResponse:
    refused = _host_only(request, actor, token)
    if refused is not None:
        return refused
    try:
        run()
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        context = _context(actor, token, notice=exc.message)
        return _page(request, context, status=exc.status)
    return _back(actor, token)


@require_POST
@with_actor
def box_switch(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """Switch a standard hero on or off."""
    return _simple(
        request,
        actor,
        token,
        lambda: actions.box_switch(
            token=token, hero_id=request.POST.get("hero", ""), on=request.POST.get("on") == "1"
        ),
    )


@require_POST
@with_actor
def box_remove(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """Take an added hero out of the box."""
    return _simple(
        request,
        actor,
        token,
        lambda: actions.box_remove(token=token, hero_id=request.POST.get("hero", "")),
    )


@require_http_methods(["POST"])
@with_actor
def box_import(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """Replace the box with an uploaded JSON file; a bad file is refused with its reason."""
    refused = _host_only(request, actor, token)
    if refused is not None:
        return refused
    if box_locked(actor.table):
        # Refused as every change is while a game runs, whatever the file.
        return _simple_import(request, actor, token, b"")
    # A body larger than any box file was left unread (companion.web.middleware).
    oversized = bool(request.META.get(OVERSIZED_UPLOAD))
    upload = None if oversized else request.FILES.get("file")
    if oversized or (upload is not None and (upload.size or 0) > box.MAX_FILE_BYTES):
        context = _context(actor, token, import_error=_("The file is too large for a hero box."))
        return _page(request, context, status=400)
    if upload is None:
        context = _context(actor, token, import_error=_("Choose a box file to import."))
        return _page(request, context, status=400)
    return _simple_import(request, actor, token, upload.read())


def _simple_import(request: HttpRequest, actor: Actor, token: str, data: bytes) -> HttpResponse:
    try:
        actions.box_import(token=token, text=data)
    except NotFound:
        return not_found(request)
    except ActionError as exc:
        # A locked box says so at the top, as for every other change.
        where = "notice" if exc.code == LOCKED_CODE else "import_error"
        context = _context(actor, token, **{where: exc.message})
        return _page(request, context, status=exc.status)
    return _back(actor, token)


@require_GET
@with_actor
def box_export(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """The box as a JSON file to download (the host's; it holds no token)."""
    refused = _host_only(request, actor, token)
    if refused is not None:
        return refused
    body = box.export_box(table_box(actor.table))
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"sanguosha-box-{actor.table.code}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return private_headers(response)
