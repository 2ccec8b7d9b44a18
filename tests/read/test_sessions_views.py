"""Scoring sessions over HTTP: the panel on every screen, the end screen's breakdown, history,
a game's timeline, corrections, new sessions and the exports, with their refusals."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client

from companion import actions
from companion.models import Event, Game, Seat, Session, Table
from companion.read import sessions
from tests.support.factories import make_table, other_token
from tests.support.modeplay import registered, threes_lobby
from tests.support.sessions import (
    CUMULATIVE,
    SCORES,
    deal,
    frozen,
    kill,
    play_three_games,
    seat,
    start,
)
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db
__all__ = ["registered"]

HTMX = {"HTTP_HX_REQUEST": "true"}


def en() -> Client:
    client = Client()
    client.cookies["sgs_lang"] = "en"
    return client


@pytest.fixture
def evening() -> Table:
    table, _seats = make_table(4)
    play_three_games(table)
    table.refresh_from_db()
    return table


def no_inline_style(html: str) -> None:
    """The page's CSP forbids inline styles: an SVG's presentation attributes are fine."""
    assert " style=" not in html and "<style" not in html


def test_every_screen_shows_the_session_panel_before_and_after_games() -> None:
    table, seats = make_table(4)
    for url in (f"/t/{table.code}/", f"/p/{seats[0].token}/", f"/h/{table.host_token}/"):
        body = en().get(url).content.decode()
        assert 'id="session-panel"' in body
        assert "Scores appear here when a game ends." in body
    # Chinese by default.
    assert "本局结束后" in Client().get(f"/t/{table.code}/").content.decode()


def test_panel_with_standings_and_charts_on_display_and_phone(evening: Table) -> None:
    table = evening
    for url in (f"/t/{table.code}/", f"/p/{seat(table, 'P2').token}/"):
        body = en().get(url).content.decode()
        panel = body.split('id="session-panel"')[1].split("</section>")[0]
        names = re.findall(r'<td class="pname">([^<]+)</td>', panel)
        assert names == ["P3", "P1", "P2", "P4"]
        totals = re.findall(r'<td class="num total">(-?\d+)</td>', panel)
        assert totals == ["17", "12", "9", "6"]
        assert panel.count("<svg") == 2 and "chart-line" in panel and "chart-bars" in panel
        assert "then more kills" in panel
        no_inline_style(body)


def test_end_screen_shows_each_players_breakdown(evening: Table) -> None:
    table = evening
    body = en().get(f"/t/{table.code}/").content.decode()
    card = body.split('class="score-result"')[1].split("</section>")[0]
    rows = re.findall(
        r'<tr class="(?:won)?" data-seat="(\d+)">.*?<td class="num total">(-?\d+)</td>', card, re.S
    )
    names = {s.pk: s.name for s in table.seats.all()}
    assert {names[int(pk)]: int(total) for pk, total in rows} == SCORES[3]
    assert "Final duel: 4 players in the game × 1 point" in card and "= +4" in card
    assert "Killed P2 (Rebel)" in card and "Base score" in card


def test_host_panel_links_to_scores_and_new_session_only_for_the_host(evening: Table) -> None:
    table = evening
    host = en().get(f"/h/{table.host_token}/").content.decode()
    assert 'hx-get="game/3/"' in host and 'hx-get="session/new"' in host
    player = en().get(f"/p/{seat(table, 'P2').token}/").content.decode()
    assert 'hx-get="game/3/"' not in player and 'hx-get="session/new"' not in player
    display = en().get(f"/t/{table.code}/").content.decode()
    assert 'hx-get="session/new"' not in display and 'hx-get="session/"' in display


def test_history_dialog_lists_every_game_with_exports_for_token_holders(evening: Table) -> None:
    table = evening
    p2 = seat(table, "P2")
    body = en().get(f"/p/{p2.token}/session/", **HTMX).content.decode()
    assert body.lstrip().startswith('<div class="dialog session-dialog"')
    assert re.findall(r'data-game="(\d+)"', body) == ["3", "2", "1"]
    assert "The Renegade wins" in body and "The Lord and the Loyalists win" in body
    assert f'href="/p/{p2.token}/session/1/export.csv"' in body
    assert f'hx-get="/p/{p2.token}/game/2/"' in body
    no_inline_style(body)
    # Without htmx it is a page of its own.
    page = en().get(f"/p/{p2.token}/session/1/").content.decode()
    assert "<html" in page and 'data-game="1"' in page and "as-page" in page
    # The display reads it without a token, and gets no export.
    public = en().get(f"/t/{table.code}/session/", **HTMX)
    assert public.status_code == 200
    assert "export.csv" not in public.content.decode()
    assert 'hx-get="/t/' + table.code + '/game/1/"' in public.content.decode()


def test_dialogs_are_pages_without_htmx(evening: Table) -> None:
    table = evening
    game = en().get(f"/h/{table.host_token}/game/2/")
    assert game.status_code == 200 and "<html" in game.content.decode()
    assert 'class="correct-form"' in game.content.decode()
    assert f'href="/h/{table.host_token}/"' in game.content.decode()  # close: back to the screen
    new = en().get(f"/h/{table.host_token}/session/new")
    assert new.status_code == 200 and 'name="first_lord"' in new.content.decode()
    assert "Cache-Control" in new and "no-store" in new["Cache-Control"]
    assert new["Referrer-Policy"] == "no-referrer"


def test_game_dialog_shows_breakdown_and_public_timeline(evening: Table) -> None:
    table = evening
    p2 = seat(table, "P2")
    body = en().get(f"/p/{p2.token}/game/1/", **HTMX).content.decode()
    assert "Timeline" in body and "was killed by" in body and "Identities dealt" in body
    assert "You chose" not in body  # a private line of the heroes' picks
    assert 'class="correct-form"' not in body
    host = en().get(f"/h/{table.host_token}/game/1/", **HTMX).content.decode()
    assert 'class="correct-form"' in host and 'name="killer_' in host
    display = en().get(f"/t/{table.code}/game/1/", **HTMX).content.decode()
    assert 'class="correct-form"' not in display and "Timeline" in display
    assert en().get(f"/p/{p2.token}/game/9/", **HTMX).status_code == 404
    assert en().get(f"/t/{table.code}/game/9/").status_code == 404


def test_a_game_in_play_has_no_score_page_yet(evening: Table) -> None:
    table = evening
    deal(table)
    start(table)
    response = en().get(f"/h/{table.host_token}/game/4/", **HTMX)
    assert response.status_code == 409 and "not over yet" in response.content.decode()
    body = en().get(f"/t/{table.code}/session/", **HTMX).content.decode()
    assert 'data-game="4"' not in body


def correction_form(table: Table, game: int, **overrides: str | list[str]) -> dict:
    """The correction form as the page posts it, from the game's stored results."""
    entries = Game.objects.get(table=table, number=game).results
    data: dict = {"seats": [str(e["seat"]) for e in entries]}
    data["alive"] = [str(e["seat"]) for e in entries if e["alive"]]
    data["final_duel"] = [str(e["seat"]) for e in entries if e["final_duel"]]
    for e in entries:
        data[f"killer_{e['seat']}"] = str(e["killer"] or "")
    data.update(overrides)
    return data


def test_host_corrects_over_http_and_everything_recomputes(evening: Table) -> None:
    table = evening
    p2, p4 = seat(table, "P2"), seat(table, "P4")
    form = correction_form(table, 1, **{f"killer_{p4.pk}": str(p2.pk)})
    client = csrf_client()
    client.cookies["sgs_lang"] = "en"
    response = htmx_post(client, f"/h/{table.host_token}/game/1/correct", form)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Corrected: the scores and the standings are up to date." in body
    assert "The host corrected game 1: P4 was killed by P2" in body
    game = Game.objects.get(table=table, number=1)
    assert game.scores[str(p2.pk)]["total"] == 8
    panel = en().get(f"/t/{table.code}/").content.decode().split('id="session-panel"')[1]
    assert re.findall(r'<td class="num total">(-?\d+)</td>', panel)[:4] == ["17", "11", "10", "6"]


def test_correction_refusals_over_http_change_nothing(evening: Table) -> None:
    table = evening
    p2, p4 = seat(table, "P2"), seat(table, "P4")
    other, other_seats = make_table(4)
    before = frozen(table)
    client = csrf_client()
    client.cookies["sgs_lang"] = "en"
    # A player who is not the host.
    refused = htmx_post(
        client,
        f"/p/{p2.token}/game/1/correct",
        correction_form(table, 1, **{f"killer_{p4.pk}": str(p2.pk)}),
    )
    assert refused.status_code == 403 and refused["HX-Reswap"] == "none"
    assert "Only the host can do that." in refused.content.decode()
    # A killer from another table.
    refused = htmx_post(
        client,
        f"/h/{table.host_token}/game/1/correct",
        correction_form(table, 1, **{f"killer_{p4.pk}": str(other_seats[0].pk)}),
    )
    assert refused.status_code == 400
    assert "That player was not in that game." in refused.content.decode()
    # A seat list naming someone who was not there.
    form = correction_form(table, 1)
    form["seats"] = [*form["seats"], str(other_seats[1].pk)]
    assert htmx_post(client, f"/h/{table.host_token}/game/1/correct", form).status_code == 400
    # A wrong token, and another table's host on this table's game numbers.
    assert htmx_post(client, "/h/wrongtoken/game/1/correct", form).status_code == 404
    assert htmx_post(client, f"/h/{other.host_token}/game/1/correct", form).status_code == 404
    # Without the CSRF header.
    assert csrf_client().post(f"/h/{table.host_token}/game/1/correct", form).status_code == 403
    assert frozen(table) == before


def test_exports_download_with_a_token_and_match_the_scores(evening: Table) -> None:
    table = evening
    p3 = seat(table, "P3")
    response = Client().get(f"/p/{p3.token}/session/1/export.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="sanguosha-{table.code}-session-1.csv"'
    )
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 12
    assert {(int(r["game"]), r["player"]): int(r["total"]) for r in rows} == {
        (g, name): total for g, scores in SCORES.items() for name, total in scores.items()
    }
    response = Client().get(f"/h/{table.host_token}/session/1/export.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    final = {p["name"]: p["cumulative"] for p in data["games"][-1]["players"]}
    assert final == {name: values[-1] for name, values in CUMULATIVE.items()}
    raw = response.content.decode()
    for token in [table.host_token, *table.seats.values_list("token", flat=True)]:
        assert token not in raw


def test_exports_with_a_wrong_token_or_of_another_table_are_refused(evening: Table) -> None:
    table = evening
    other, _seats = make_table(4)
    before = frozen(table)
    assert Client().get("/p/not-a-token/session/1/export.csv").status_code == 404
    assert (
        Client().get(f"/p/{other_token(table.host_token)}/session/1/export.json").status_code == 404
    )
    # Another table's token only ever reaches that table's sessions: it has none.
    assert Client().get(f"/h/{other.host_token}/session/1/export.csv").status_code == 404
    # The display's public address has no export.
    assert Client().get(f"/t/{table.code}/session/1/export.csv").status_code == 404
    assert Client().get(f"/p/{seat(table, 'P1').token}/session/7/export.csv").status_code == 404
    assert frozen(table) == before


def test_new_session_and_tournament_over_http() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    client.cookies["sgs_lang"] = "en"
    dialog = client.get(f"/h/{table.host_token}/session/new", **HTMX)
    assert dialog.status_code == 200 and 'name="first_lord"' in dialog.content.decode()
    assert client.get(f"/p/{seats[1].token}/session/new", **HTMX).status_code == 403
    refused = htmx_post(
        client,
        f"/p/{seats[1].token}/session/new",
        {"mode": "tournament", "first_lord": seats[0].pk},
    )
    assert refused.status_code == 403 and not Session.objects.filter(table=table).exists()
    ok = htmx_post(
        client,
        f"/h/{table.host_token}/session/new",
        {"mode": "tournament", "first_lord": seats[2].pk},
    )
    assert ok.status_code == 204
    session = Session.objects.get(table=table)
    assert session.tournament and session.lord_order[0] == seats[2].pk
    assert Event.objects.filter(table=table, kind="session_started").count() == 1
    body = en().get(f"/t/{table.code}/").content.decode()
    assert "Tournament" in body and "Game 1 of 4: P3 is the Lord." in body
    deal(table)
    assert Seat.objects.get(table=table, identity="lord").pk == seats[2].pk
    start(table)
    refused = htmx_post(client, f"/h/{table.host_token}/session/new", {"mode": "plain"})
    assert refused.status_code == 409
    assert "once a game is over" in refused.content.decode()


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_a_3v3_tournament_offers_only_a_commanders_seat_as_the_first_leader(lang: str) -> None:
    table, _seats = threes_lobby()
    seats = list(table.seats.order_by("position", "slot"))
    client = csrf_client()
    client.cookies["sgs_lang"] = lang
    dialog = client.get(f"/h/{table.host_token}/session/new", **HTMX).content.decode()
    offered = re.findall(r'<option value="(\d+)">(\d+)\. ', dialog.split('name="first_lord"')[1])
    assert offered == [(str(seats[i].pk), str(i + 1)) for i in (1, 4)], "the commanders' seats"
    for index in (0, 2, 3, 5):
        refused = htmx_post(
            client,
            f"/h/{table.host_token}/session/new",
            {"mode": "tournament", "first_lord": seats[index].pk},
        )
        assert refused.status_code == 400
        words = "That seat cannot lead the first game" if lang == "en" else "这个座位不能带领第一局"
        assert words in refused.content.decode()
    assert not Session.objects.filter(table=table, tournament=True).exists()
    ok = htmx_post(
        client,
        f"/h/{table.host_token}/session/new",
        {"mode": "tournament", "first_lord": seats[4].pk},
    )
    assert ok.status_code == 204
    assert Session.objects.get(table=table, tournament=True).lord_order == [
        seats[4].pk,
        seats[1].pk,
    ]


def test_tournament_end_shows_the_final_ranking_on_the_end_screen() -> None:
    table, seats = make_table(4, first_game_mode=True)

    actions.session_new(token=table.host_token, tournament=True, first_lord=seats[0].pk)
    for _ in range(4):
        deal(table)
        start(table)
        lord = Seat.objects.get(table=table, identity="lord")
        killer = Seat.objects.filter(table=table).exclude(pk=lord.pk).first()
        kill(table, lord.name, killer.name)
    body = en().get(f"/t/{table.code}/").content.decode()
    assert "Tournament over: the final ranking." in body
    ranking = body.split('class="final-ranking"')[1].split("</div>")[0]
    assert len(re.findall(r'<td class="pname">', ranking)) == 4
    assert sessions.current_summary(table).finished
