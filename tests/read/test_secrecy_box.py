"""The hero box tells the host nothing hidden from the host (docs/threats.md 1).

The same public moves are played twice with different secret offers: an added hero offered in
secret to a seat (the identity game's candidates) or lying face down in the 1 vs 1 draft, or
not. Whatever the host then asks of the box (the page, removing each added hero, switching a
standard hero, adding one, importing a file that drops or keeps each added hero, the export)
is answered byte for byte the same: status, headers and body. The box is locked while a game
runs, the same answer for every hero.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.middleware import csrf
from django.test import Client

from companion import actions
from companion.models import Seat, Table
from companion.queries.box import table_box
from companion.rules import box
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh
from tests.support.modeplay import dealt_and_started, mode_table, registered

pytestmark = [pytest.mark.django_db, pytest.mark.backend]
__all__ = ["registered"]

ADDED = [
    {
        "name_zh": name,
        "name_en": "",
        "kingdom": "qun",
        "hp": 4,
        "gender": "male",
        "lord": False,
        "skills": [{"name": "技能", "text": "一段技能说明。"}],
    }
    for name in ("文丑", "颜良", "田丰")
]
NEW = {
    "name_zh": "审配",
    "kingdom": "qun",
    "hp": "3",
    "gender": "male",
    "skill_name_0": "守邺",
    "skill_text_0": "一段技能说明。",
}

Answer = tuple[int, list[tuple[str, str]], bytes]


def _answer(response: object) -> Answer:
    headers = sorted((k, v) for k, v in response.headers.items())  # type: ignore[attr-defined]
    return response.status_code, headers, response.content  # type: ignore[attr-defined]


def _file(data: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("box.json", json.dumps(data).encode(), "application/json")


def host_answers(client: Client, table: Table) -> list[tuple[str, Answer]]:
    """Everything the host may ask of the box, plain and through htmx, in both languages."""
    here = f"/h/{table.host_token}/box/"
    stored = table_box(table).stored()
    answers = []
    for lang in ("zh-hans", "en"):
        client.cookies["sgs_lang"] = lang
        for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
            asks: list[tuple[str, Callable[[], object]]] = [
                ("page", lambda h=htmx: client.get(here, **h)),
                ("export", lambda h=htmx: client.get(here + "export.json", **h)),
                ("add", lambda h=htmx: client.post(here + "add", NEW, **h)),
                ("off", lambda h=htmx: client.post(here + "switch", {"hero": "QUN003"}, **h)),
                ("same", lambda h=htmx: client.post(here + "import", {"file": _file(stored)}, **h)),
            ]
            for hero in stored["added"]:
                hero_id = hero["id"]
                dropped = {**stored, "added": [h for h in stored["added"] if h["id"] != hero_id]}
                changed = {
                    **stored,
                    "added": [{**h, "hp": 8} if h["id"] == hero_id else h for h in stored["added"]],
                }
                asks += [
                    (
                        f"remove {hero_id}",
                        lambda h=htmx, i=hero_id: client.post(here + "remove", {"hero": i}, **h),
                    ),
                    (
                        f"drop {hero_id}",
                        lambda h=htmx, d=dropped: client.post(
                            here + "import", {"file": _file(d)}, **h
                        ),
                    ),
                    (
                        f"change {hero_id}",
                        lambda h=htmx, c=changed: client.post(
                            here + "import", {"file": _file(c)}, **h
                        ),
                    ),
                ]
            for name, ask in asks:
                answers.append((f"{lang} {htmx} {name}", _answer(ask())))
    return answers


def differential(table: Table, secrets: list[Callable[[], None]]) -> list[list]:
    """The host's box answers once for each secret, each run rolled back to the same state."""
    client = Client()
    client.get(f"/h/{table.host_token}/box/")  # the cookies (device, CSRF) set once, before
    runs = []
    for secret in secrets:
        with transaction.atomic():
            secret()
            runs.append(host_answers(client, Table.objects.get(pk=table.pk)))
            transaction.set_rollback(True)
    return runs


@pytest.fixture(autouse=True)
def same_csrf_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CSRF token on a page is masked afresh for every response (random, whatever the
    game): pinned, so that only what the game holds can make two answers differ."""
    monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda: "m" * csrf.CSRF_SECRET_LENGTH)


def with_added(table: Table) -> Table:
    for fields in ADDED:
        actions.box_add(token=table.host_token, fields=fields)
    table.refresh_from_db()
    return table


def test_the_host_cannot_tell_which_added_hero_a_seat_was_offered_in_secret() -> None:
    table = with_added(make_table(5)[0])
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=next(h for h in lord.hero_candidates))
    others = list(Seat.objects.filter(table=table).exclude(pk=lord.pk).order_by("position"))
    assert all(len(fresh(s).hero_candidates) == 3 for s in others), "the others' offer is out"
    offered = {h for s in others for h in fresh(s).hero_candidates}
    free = [h.id for h in box.STANDARD if h.id not in offered and h.id != fresh(lord).hero]

    def offer(seat: Seat, candidates: list[str]) -> Callable[[], None]:
        return lambda: Seat.objects.filter(pk=seat.pk).update(hero_candidates=candidates)

    runs = differential(
        table,
        [
            offer(others[0], ["ADD001", "ADD002", free[0]]),
            offer(others[0], [free[0], free[1], free[2]]),
            offer(others[2], ["ADD003", free[1], free[0]]),
        ],
    )
    for run in runs[1:]:
        assert run == runs[0]
    answers = dict(runs[0])
    assert answers["en {} remove ADD001"][0] == 409
    assert "The box is locked while a game runs" in answers["en {} remove ADD001"][2].decode()
    headers = dict(answers["zh-hans {'HTTP_HX_REQUEST': 'true'} drop ADD002"][1])
    assert headers["X-Box-Refused"] == "409"
    table.refresh_from_db()
    assert [h.id for h in table_box(table).added] == ["ADD001", "ADD002", "ADD003"]


@pytest.mark.usefixtures("registered")
def test_the_host_cannot_tell_which_heroes_lie_face_down_in_the_1v1_draft() -> None:
    table = with_added(mode_table("duel", 2)[0])
    dealt_and_started(table)
    table.refresh_from_db()
    state = table.mode_state
    pool = list(state["draft"]["pool"])
    down = sorted(state["draft"]["face_down"])
    spare = [h.id for h in box.STANDARD if h.id not in pool]
    # The same face-up heroes in both; face down, the added heroes or standard ones instead.
    plain = [spare.pop() if h.startswith("ADD") else h for h in pool]
    with_secret = list(plain)
    for position, hero in zip(down, ["ADD001", "ADD003"], strict=False):
        with_secret[position] = hero

    def draft(heroes: list[str]) -> Callable[[], None]:
        mode_state = {**state, "draft": {**state["draft"], "pool": heroes}}
        return lambda: Table.objects.filter(pk=table.pk).update(mode_state=mode_state)

    runs = differential(table, [draft(with_secret), draft(plain)])
    assert runs[1] == runs[0]
    assert dict(runs[0])["en {} remove ADD003"][0] == 409


def test_between_games_the_box_changes_again() -> None:
    table = with_added(make_table(4)[0])
    actions.identities_deal(token=table.host_token)
    client = Client()
    here = f"/h/{table.host_token}/box/"
    client.cookies["sgs_lang"] = "en"
    page = client.get(here).content.decode()
    assert "The box is locked while a game runs" in page
    assert 'action="' + here + 'remove"' not in page and 'name="file"' not in page
    assert client.post(here + "remove", {"hero": "ADD001"}).status_code == 409
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert client.post(here + "remove", {"hero": "ADD001"}).status_code == 303
    page = client.get(here).content.decode()
    assert "Changes apply from the next deal" in page and 'name="file"' in page
