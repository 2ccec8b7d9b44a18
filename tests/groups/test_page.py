"""The group page and its exports: shown to whoever holds its link, only finished games, only
its own players; its queries do not grow with games or players; an export imports into another
database as the same page, and a bad file is refused whole."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.groups import services, transfer
from companion.groups.models import Group, GroupGame, GroupResult, Player
from tests.groups.support import EVENINGS, NAMES, build_group, evening_session, store_game
from tests.support.factories import make_table
from tests.support.sessions import deal, start

pytestmark = pytest.mark.django_db


def _page(client, group: Group, query: str = "") -> str:
    response = client.get(f"/g/{group.token}/{query}")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store, private"
    return response.content.decode()


def _content(html: str, group: Group) -> str:
    """The page without what differs between two databases: its link and QR code."""
    main = html[html.index("<main>") : html.index('<section class="card group-share">')]
    return main.replace(group.token, "TOKEN")


def test_token_is_unguessable_and_a_wrong_one_is_not_found(client) -> None:
    group = services.create_group("周五三国杀")
    assert len(group.token) >= 32  # 192 bits, url-safe
    assert client.get(f"/g/{group.token[:-1]}x/").status_code == 404
    qr = client.get(f"/g/{group.token}/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    assert client.get(f"/g/{group.token[:-1]}x/qr.svg").status_code == 404


@pytest.mark.backend
def test_the_page_shows_standings_records_heroes_and_ratings(client) -> None:
    group, _evenings = build_group()
    html = _page(client, group)
    for name in NAMES.values():
        assert name in html
    assert "曹操" in html  # the most winning hero, by name
    assert html.count('<svg class="chart') >= 1 or "<svg" in html
    english = client.get(
        f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE="en", headers={"Cookie": "sgs_lang=en"}
    )
    assert "Most kills in one game" in english.content.decode()


@pytest.mark.backend
def test_only_finished_games_and_only_this_groups_players(client) -> None:
    group, _evenings = build_group()
    # Another group with a player of its own.
    session = evening_session(1, "identity", EVENINGS[0][4])
    store_game(session, *EVENINGS[0][0:1], 40, "lord", EVENINGS[0][4])
    other = services.create_group("周六", session)
    Player.objects.filter(group=other).update(name="外人")
    # A game in progress at an evening of this group: dealt and started, identities secret.
    table, seats = make_table(5)
    deal(table, {"P1": "lord", "P2": "loyalist", "P3": "rebel", "P4": "rebel", "P5": "renegade"})
    start(table)
    services.attach(group, table.session)
    html = _page(client, group)
    assert "外人" not in html and "周六" not in html
    # Nobody of the game in play appears before it ends (read where no random token is).
    shown = _content(html, group)
    for seat in seats:
        assert f">{seat.name}<" not in shown
    assert not Player.objects.filter(group=group, name__in=[s.name for s in seats]).exclude(
        results=None
    )
    assert GroupGame.objects.filter(group=group).count() == 12
    panel = client.get(f"/h/{table.host_token}/group/").content.decode()
    assert "rebel" not in panel and "renegade" not in panel


@pytest.mark.backend
def test_page_queries_do_not_grow_with_games_or_players(client) -> None:
    group = services.create_group("周五三国杀")
    session = evening_session(1, "identity", EVENINGS[0][4])
    store_game(session, EVENINGS[0][0], 40, "lord", EVENINGS[0][4])
    services.attach(group, session)
    with CaptureQueriesContext(connection) as small:
        _page(client, group)
    for number, (start_at, mode, minutes, winner, seats) in enumerate(EVENINGS[1:], start=2):
        session = evening_session(number, mode, seats)
        store_game(session, start_at, minutes, winner, seats)
        services.attach(group, session)
    with CaptureQueriesContext(connection) as big:
        _page(client, group)
    assert len(big.captured_queries) == len(small.captured_queries) <= 6


@pytest.mark.backend
def test_export_then_import_into_another_database_gives_the_same_page(client) -> None:
    group, _evenings = build_group()
    before = _content(_page(client, group), group)
    data = json.loads(json.dumps(transfer.export_json(group)))
    assert "phone-" not in json.dumps(data)  # a player's phones never leave the group
    # The other laptop: none of these rows.
    Group.objects.all().delete()
    imported = transfer.import_json(data)
    assert _content(_page(client, imported), imported) == before
    # Imported twice: the same people, no game twice.
    transfer.import_json(data)
    assert GroupGame.objects.count() == 12
    assert Player.objects.filter(group=imported).count() == len(data["players"])


@pytest.mark.backend
@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(format="other/1"), "not a group export"),
        (lambda d: d["games"][3].update(mode="chess"), "game 4: unknown way to play"),
        (lambda d: d["games"][5]["results"][0].update(player="nobody"), "game 6: a player"),
        (lambda d: d["games"][7]["results"][1].update(points="7"), "game 8: a number"),
        (lambda d: d["games"][0].update(ended_at="yesterday"), "game 1: not a date"),
    ],
)
def test_a_bad_file_is_refused_with_its_reason_and_nothing_changes(change, reason) -> None:
    group, _evenings = build_group()
    data = transfer.export_json(group)
    Group.objects.all().delete()
    change(data)
    with pytest.raises(services.GroupError, match=reason):
        transfer.import_json(data)
    assert Group.objects.count() == Player.objects.count() == GroupResult.objects.count() == 0


def test_bad_file_through_the_host_panel_says_why(client) -> None:
    table, _seats = make_table(4)
    deal(table)
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("g.json", b'{"format": "x"}', content_type="application/json")
    response = client.post(f"/h/{table.host_token}/group/import", {"file": upload})
    assert "nothing changed" in response.content.decode() or "没有" in response.content.decode()
    assert Group.objects.count() == 0


@pytest.mark.backend
def test_csv_and_bgsplay_exports(client) -> None:
    group, _evenings = build_group()
    csv_text = client.get(f"/g/{group.token}/export.csv").content.decode("utf-8-sig")
    lines = csv_text.strip().split("\r\n")
    assert len(lines) == 1 + sum(len(e[4]) for e in EVENINGS)
    bgs = json.loads(client.get(f"/g/{group.token}/export.bgsplay").content)
    assert {p["name"] for p in bgs["players"]} == set(NAMES.values())
    assert len(bgs["plays"]) == 12
    first = bgs["plays"][0]
    by_ref = {p["id"]: p["name"] for p in bgs["players"]}
    scores = {
        by_ref[s["playerRefId"]]: (s["score"], s["winner"], s["role"])
        for s in first["playerScores"]
    }
    assert scores[NAMES["A"]] == ("7", True, "lord")
    assert scores[NAMES["C"]] == ("0", False, "rebel")
    assert first["durationMin"] == 40 and bgs["games"][0]["usesTeams"] is True


def test_phone_is_asked_and_host_fixes_matches(client) -> None:
    group = services.create_group("周五三国杀")
    table, seats = make_table(4)
    deal(table)
    services.attach(group, table.session)
    # Next evening: P1 comes with a new phone, same name.
    table2, _ = make_table(4)
    deal(table2)
    services.attach(group, table2.session)
    from companion.models import Seat

    p1 = Seat.objects.get(table=table2, name="P1")
    html = client.get(f"/p/{p1.token}/group/").content.decode()
    question = re.search(r"<p>([^<]*)</p>\s*<button[^>]*value=\"yes\"", html)
    assert question and "P1" in question.group(1) and "周五三国杀" in question.group(1)
    client.post(f"/p/{p1.token}/group/confirm", {"answer": "yes"})
    assert p1.device in Player.objects.get(group=group, name="P1", merged_into=None).devices
    # The host undoes the match, then merges the two entries again.
    client.post(f"/h/{table2.host_token}/group/fix", {"what": "unmatch", "seat": p1.pk})
    assert Player.objects.filter(group=group, name="P1").count() == 2
    keep, gone = Player.objects.filter(group=group, name="P1").order_by("pk")
    client.post(
        f"/h/{table2.host_token}/group/fix", {"what": "merge", "keep": keep.pk, "gone": gone.pk}
    )
    assert Player.objects.filter(group=group, name="P1", merged_into=None).count() == 1
    # A phone may not fix anything.
    response = client.post(f"/p/{p1.token}/group/fix", {"what": "unmatch", "seat": p1.pk})
    assert response.status_code == 403


@pytest.mark.backend
def test_the_displays_end_of_evening_card(client) -> None:
    group, evenings = build_group()
    code = evenings[-1].session.table.code
    # Evening 12: 张三 won the duel (1 point); the best rating of all time is 张三's.
    card = client.get(f"/t/{code}/group/", headers={"HX-Request": "true"}).content.decode()
    assert card.lstrip().startswith('<section class="card group-card"')
    best, leader = card.split("group-card-line")[1:3]
    assert NAMES["A"] in best and NAMES["A"] in leader
    evening_7 = evenings[6].session.table.code  # 李四 (B): 7 points as the lord
    assert (
        NAMES["B"]
        in client.get(f"/t/{evening_7}/group/").content.decode().split("group-card-line")[1]
    )
    no_group, _seats = make_table(4)
    assert client.get(f"/t/{no_group.code}/group/").status_code == 404
