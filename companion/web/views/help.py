"""The rules help: the help page with its search, one entry (a page, or the fragment
a tap on a card or skill name opens in place), the identity tips every phone loads, and the
guided first game."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion.models import Table
from companion.queries.box import table_box
from companion.rules import help as rules_help
from companion.rules.help import first_game as rules_first_game
from companion.rules.help.roles import ROLE_TIPS
from companion.rules.help.sources import source_names
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS
from companion.web import throttle
from companion.web.views.common import too_many
from companion.words import names

MAX_QUERY = 60


def _pick(pair: tuple[str, str]) -> str:
    return pair[1] if names.english_ui() and pair[1] else pair[0]


def _title(e: rules_help.Entry) -> str:
    if e.kind == "faq":
        return _pick((e.name_zh, e.name_en))
    return f"{e.name_en} {e.name_zh}" if names.english_ui() and e.name_en else e.name_zh


def shown(e: rules_help.Entry, others: dict[str, rules_help.Entry] | None = None) -> dict[str, Any]:
    """An entry as a template shows it, in the active language (`others`: the entries its
    links may name besides the rule book's, an added hero's)."""
    links = []
    for key in e.links:
        other = (others or {}).get(key) or rules_help.entry(key)
        if other is not None:
            links.append(
                {
                    "key": key,
                    "title": _title(other),
                    "kind": other.kind,
                    "name": key.partition(":")[2],
                }
            )
    return {
        "key": e.key,
        "kind": e.kind,
        "name_zh": e.name_zh,
        "title": _title(e),
        "kind_label": _pick(e.kind_label),
        "sections": [{"label": _pick(s.label), "text": _pick(s.text)} for s in e.sections],
        "copies": [{"deck": _pick(deck), "cards": cards} for deck, cards in e.copies],
        "links": links,
        # The card expansion whose entry it is, by name ("": the core deck's).
        "expansion": _pick(rules_help.expansion_name(e.expansion)),
        "source": _pick(source_names(e.source)),
        "anchor": e.key.replace(":", "-"),
    }


@require_GET
def help_index(request: HttpRequest) -> HttpResponse:
    """The help page: the search box and every entry (or the entries a query finds)."""
    query = request.GET.get("q", "")[:MAX_QUERY].strip()
    context: dict[str, Any] = {"q": query}
    if query:
        context["results"] = [shown(e) for e in rules_help.search(query)]
    else:
        context["groups"] = [
            {"id": "cards", "entries": [shown(e) for e in rules_help.card_entries()]},
            {"id": "heroes", "entries": [shown(e) for e in rules_help.hero_entries()]},
            {"id": "faq", "entries": [shown(e) for e in rules_help.faq_entries()]},
        ]
    return render(request, "companion/help.html", context)


@require_GET
def help_entry(request: HttpRequest, kind: str, name: str) -> HttpResponse:
    """One entry: the fragment a tap opens in place (`?pop=1`), or a page of its own."""
    others: dict[str, rules_help.Entry] = {}
    if kind == "added":
        # A table's code is looked up here: counted like every lookup by code (a guess at
        # table codes is throttled, companion.web.throttle).
        if throttle.blocked(request):
            return too_many(request)
        others = _added_entries(name)
        e = others.get(f"added:{name}")
        if e is None:
            throttle.failed(request)
    else:
        e = rules_help.entry(f"{kind}:{name}")
    if e is None:
        raise Http404("no such entry")
    template = "companion/help.html#pop" if request.GET.get("pop") else "companion/help.html"
    return render(request, template, {"e": shown(e, others)})


def _added_entries(name: str) -> dict[str, rules_help.Entry]:
    """The entries of a hero a table added: "<table code>.<hero id>[.<skill>]". The
    box is no secret of the table: its display shows every hero the box holds."""
    code, _, rest = name.partition(".")
    hero_id = rest.partition(".")[0]
    table = Table.objects.filter(code=code).first() if code else None
    if table is None or not hero_id:
        return {}
    hero = table_box(table).lookup(hero_id)
    if hero is None or hero.standard:
        return {}
    return rules_help.added_entries(hero, table.code)


@require_GET
def role_tips(request: HttpRequest) -> JsonResponse:
    """Every identity's goal and tips in both languages: the same file for every phone, whatever
    its identity (a phone picks its own when the covered card is held or peeked)."""
    response = JsonResponse(ROLE_TIPS, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def first_game(request: HttpRequest) -> HttpResponse:
    """The guided first game: how many players, what to take out of the box, then the steps."""
    try:
        players = int(request.GET.get("n", "0"))
    except ValueError:
        players = 0
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return render(
            request,
            "companion/first_game.html",
            {"choose": True, "counts": range(MIN_PLAYERS, MAX_PLAYERS + 1)},
        )
    steps = rules_first_game.steps(players)
    try:
        step = min(max(int(request.GET.get("step", "0")), 0), len(steps) - 1)
    except ValueError:
        step = 0
    current = steps[step]
    english = names.english_ui()
    return render(
        request,
        "companion/first_game.html",
        {
            "players": players,
            "step": step,
            "count": len(steps),
            "title": _pick(current.title),
            "sentence": _pick(current.sentence),
            "checklist": [_pick(item) for item in current.checklist],
            "pictures": [
                {
                    "label": _pick(p.label),
                    "cards": [
                        {"corner": corner, "zh": zh, "en": en if english else "", "red": r}
                        for (corner, zh, en), r in zip(p.cards, p.red, strict=True)
                    ],
                }
                for p in current.pictures
            ],
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step + 1 < len(steps) else None,
            "numbers": range(1, len(steps) + 1),
        },
    )
