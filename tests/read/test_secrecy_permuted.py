"""The public screens do not depend on hidden identities (docs/threats.md 1 and 2).

The scripted game (tests/support/scripted.py) is played twice with the same public moves and two
living non-lord seats' identities swapped: every public page, fragment and frame is
byte-identical, version numbers included, and so is everything the seats whose identities did
not move receive.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from companion.live import broadcast
from companion.models import Seat, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


# The same public moves with hidden identities permuted ---------------------

CODE = "KQWXY"
# The moments of the scripted game at which every page is fetched (frames are compared always).
CHECKPOINTS = ("deal", "start", "lord picks", "lord hits", "guicai", "struck", "host passes")


def normalise(text: str) -> str:
    """What differs between two runs for reasons that are not the game: the CSRF token of a
    response and clock times."""
    text = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', text)
    text = re.sub(r'data-deadline="\d+"', 'data-deadline=""', text)
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "DATE", text)


def _public_pages(host: str | None, dialogs: bool) -> list[tuple[str, str]]:
    pages = []
    seat_ids = list(Seat.objects.order_by("position").values_list("pk", flat=True))
    urls = [f"/t/{CODE}/", f"/j/{CODE}/", f"/t/{CODE}/session/"]
    if host:
        urls.append(f"/h/{host}/")
    if dialogs:
        urls += [f"/t/{CODE}/seat/{pk}" for pk in seat_ids]
        if host:
            urls += [f"/h/{host}/{kind}/{pk}" for pk in seat_ids for kind in ("seat", "equip")]
    if not dialogs:
        urls = urls[:1]
    client = Client()
    for lang in ("en", "zh-hans") if dialogs else ("zh-hans",):
        client.cookies["sgs_lang"] = lang
        for url in urls:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}) if dialogs else ({},):
                answer = client.get(url, **headers)
                pages.append((f"{lang} {url} {headers}", normalise(answer.content.decode())))
    return pages


def _seat_pages(position: int) -> list[tuple[str, str]]:
    seat = Seat.objects.get(position=position)
    client = Client()
    pages = []
    for lang in ("en", "zh-hans"):
        client.cookies["sgs_lang"] = lang
        for url in (f"/p/{seat.token}/", f"/p/{seat.token}/seat/{seat.pk}"):
            pages.append((f"{lang} {url}", normalise(client.get(url).content.decode())))
    return pages


def _run(
    players: int, monkeypatch: pytest.MonkeyPatch, same: set[int]
) -> list[tuple[str, list[tuple[str, str]]]]:
    """Play the scripted game; after every step, what the public and the seats in `same` saw."""
    from tests.support import scripted

    sent: list[tuple[str, dict]] = []
    real_send = broadcast._send
    monkeypatch.setattr(broadcast, "_send", lambda g, m: (sent.append((g, m)), real_send(g, m)))
    seen = []
    table = None
    for played in scripted.play(players):
        table = table or Table.objects.get(code=CODE)
        table.refresh_from_db()
        host = table.host_token if not Seat.objects.filter(is_host=True).exists() else None
        items = [(f"{g}", normalise(m.get("html", str(m)))) for g, m in sent]
        items = [
            (group, html)
            for group, html in items
            if group.startswith(("table.", "host."))
            or any(group.startswith(f"seat.{pk}.") for pk in _ids(same))
        ]
        sent.clear()
        checkpoint = played.label in CHECKPOINTS
        items += _public_pages(host, dialogs=checkpoint)
        if checkpoint and table.status != Table.Status.LOBBY:
            for position in sorted(same):
                items += _seat_pages(position)
        seen.append((f"v{table.version} {played.label}", items))
    return seen


def _ids(positions: set[int]) -> list[int]:
    return list(Seat.objects.filter(position__in=positions).values_list("pk", flat=True))


@pytest.mark.parametrize("players", [6])
async def test_public_screens_do_not_depend_on_hidden_identities(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games with the same public moves, two living non-lord seats' identities swapped:
    every public page, fragment and frame is byte-identical, version numbers included, up to
    the death of a seat whose identity is the same in both; and so is everything the seats
    whose identities did not move receive."""
    from django.core.cache import cache
    from django.core.management import call_command

    from tests.support import scripted

    first = scripted.identities_for(players)
    victim = scripted.victim_position(players)
    # Swap a loyalist and a rebel, neither the lord nor the victim.
    a = first.index("loyalist")
    b = first.index("rebel")
    assert victim not in (a, b)
    second = list(first)
    second[a], second[b] = second[b], second[a]
    # The scripted first deal is the given one turned by a seat (the re-deal gives the given one).
    turned = [*first[1:], *first[:1]], [*second[1:], *second[:1]]
    same = {p for p in range(players) if first[p] == second[p] and turned[0][p] == turned[1][p]}
    assert same
    reset = scripted.pin(monkeypatch, first)

    def run(identities: list[str]) -> list:
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()
        reset(identities)
        return _run(players, monkeypatch, same)

    one = await database_sync_to_async(run)(first)
    two = await database_sync_to_async(run)(second)
    assert [label for label, _items in one] == [label for label, _items in two]
    assert len(one) > 50
    for (label, items_one), (_label, items_two) in zip(one, two, strict=True):
        assert [k for k, _v in items_one] == [k for k, _v in items_two], label
        for (key, text_one), (_key, text_two) in zip(items_one, items_two, strict=True):
            if text_one != text_two:
                at = next(
                    i for i, (x, y) in enumerate(zip(text_one, text_two, strict=False)) if x != y
                )
                raise AssertionError(
                    f"{label}: {key} differs: ...{text_one[at - 80 : at + 80]!r} "
                    f"vs ...{text_two[at - 80 : at + 80]!r}"
                )
