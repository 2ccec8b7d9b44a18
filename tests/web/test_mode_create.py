"""Creating a table offers the way to play; the table keeps it, and a
3 vs 3 or 1 vs 1 table seats exactly its number, saying so on the join page."""

from __future__ import annotations

import pytest
from django.test import Client

from companion import actions
from companion.models import Event, Table
from tests.web.test_views import csrf_client, csrf_post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-hans", ["身份局", "3V3", "1V1", "玩法"]), ("en", ["Identity game", "3 vs 3", "1 vs 1"])],
)
def test_the_home_page_offers_every_way_to_play(lang: str, words: list[str]) -> None:
    body = Client().get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for word in words:
        assert word in body
    for key in ("identity", "threes", "duel"):
        assert f'name="mode" value="{key}"' in body
    # The identity game is chosen unless the host picks another.
    assert 'value="identity" checked' in body


@pytest.mark.parametrize("mode", ["identity", "threes", "duel"])
def test_a_new_table_keeps_the_way_to_play_chosen(mode: str) -> None:
    response = csrf_post(csrf_client(), "/new/", {"mode": mode})
    assert response.status_code == 303
    table = Table.objects.get()
    assert table.mode == mode
    assert Event.objects.get(table=table, kind="table_created").public == {"mode": mode}


def test_no_mode_chosen_is_the_identity_game() -> None:
    csrf_post(csrf_client(), "/new/")
    assert Table.objects.get().mode == "identity"


def test_an_unknown_way_to_play_is_refused_and_opens_nothing() -> None:
    response = csrf_post(csrf_client(), "/new/", {"mode": "mahjong"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "Unknown way to play." in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize(("mode", "seats"), [("threes", 6), ("duel", 2)])
def test_a_mode_table_seats_exactly_its_number(mode: str, seats: int) -> None:
    table = actions.table_create(mode)
    for n in range(seats):
        actions.seat_join(code=table.code, name=f"P{n}", device=f"d{n}")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    body = client.get(f"/j/{table.code}/").content.decode()
    assert "This table is full." in body
    with pytest.raises(actions.ActionError) as refused:
        actions.seat_join(code=table.code, name="One too many", device="dx")
    assert refused.value.code == "full"
    assert table.seats.count() == seats


@pytest.mark.parametrize(
    ("mode", "words"),
    [("threes", ["3V3", "恰好 6 人"]), ("duel", ["1V1", "恰好 2 人"]), ("identity", ["身份局"])],
)
def test_the_join_page_names_the_way_to_play_and_its_seats(mode: str, words: list[str]) -> None:
    table = actions.table_create(mode)
    body = Client().get(f"/j/{table.code}/").content.decode()
    for word in words:
        assert word in body


@pytest.mark.parametrize(
    ("mode", "zh", "en"),
    [
        ("threes", "发身份需要恰好 6 名玩家", "The deal needs exactly 6 players."),
        ("duel", "发身份需要恰好 2 名玩家", "The deal needs exactly 2 players."),
        ("identity", "身份需要 4 到 10 名玩家", "Identities need 4 to 10 players."),
    ],
)
def test_the_host_is_told_the_mode_s_number_of_players(mode: str, zh: str, en: str) -> None:
    table = actions.table_create(mode)
    url = f"/h/{table.host_token}/"
    assert zh in Client().get(url).content.decode()
    assert en in Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
