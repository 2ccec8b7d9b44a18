"""The game over HTTP: hero picks, the seat dialog, HP taps and their refusals."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.models import Seat
from companion.rules.heroes import hero_by_id
from tests.support.game import by_identity, fresh, picked_all, started
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


def test_each_phone_sees_only_its_own_candidates() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    htmx_post(csrf_client(), f"/p/{lord.token}/act/pick", {"hero": lord.hero_candidates[0]})
    others = [fresh(s) for s in seats if s.pk != lord.pk]
    for seat in others:
        body = Client().get(f"/p/{seat.token}/").content.decode()
        for hero_id in seat.hero_candidates:
            assert f'value="{hero_id}"' in body
        for other in others:
            if other.pk == seat.pk:
                continue
            for hero_id in other.hero_candidates:
                assert hero_id not in body
                assert hero_by_id(hero_id).name_zh not in body
    display = Client().get(f"/t/{table.code}/").content.decode()
    assert hero_by_id(fresh(lord).hero).name_zh in display
    for seat in others:
        for hero_id in seat.hero_candidates:
            assert hero_by_id(hero_id).name_zh not in display


def test_pick_over_http_and_not_offered_refused() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    client = csrf_client()
    refused = htmx_post(client, f"/p/{lord.token}/act/pick", {"hero": "NOPE"})
    assert refused.status_code == 400 and refused["HX-Reswap"] == "none"
    assert 'id="toast"' in refused.content.decode()
    assert (
        htmx_post(
            client, f"/p/{lord.token}/act/pick", {"hero": lord.hero_candidates[1]}
        ).status_code
        == 204
    )
    assert fresh(lord).hero == lord.hero_candidates[1]


def test_seat_dialog_controls_follow_rights() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    own = Client().get(f"/p/{a.token}/seat/{a.pk}").content.decode()
    assert 'class="damage-form"' in own and 'name="source"' in own
    other = Client().get(f"/p/{a.token}/seat/{b.pk}").content.decode()
    assert 'class="damage-form"' not in other
    assert hero_by_id(fresh(b).hero).name_zh in other  # the hero card, one tap away
    host = Client().get(f"/h/{table.host_token}/seat/{b.pk}").content.decode()
    assert 'class="damage-form"' in host
    display = Client().get(f"/t/{table.code}/seat/{b.pk}").content.decode()
    assert 'class="damage-form"' not in display and "act/undo" not in display
    assert Client().get(f"/t/{table.code}/seat/999999").status_code == 404
    assert Client().get(f"/p/{a.token}/seat/999999").status_code == 404


def test_seat_dialog_lists_hp_history_and_host_can_undo() -> None:
    table, seats = picked_all(4)
    a = seats[0]
    htmx_post(csrf_client(), f"/p/{a.token}/act/hp", {"seat": a.pk, "delta": "-1", "source": ""})
    dialog = Client().get(f"/h/{table.host_token}/seat/{a.pk}").content.decode()
    assert "act/undo" in dialog and 'name="version"' in dialog
    player_view = Client().get(f"/p/{seats[1].token}/seat/{a.pk}").content.decode()
    assert "act/undo" not in player_view
    assert player_view.count("<li") >= 1


def test_hp_taps_over_http() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    client = csrf_client()
    ok = htmx_post(client, f"/p/{a.token}/act/hp", {"seat": a.pk, "delta": "-1", "source": b.pk})
    assert ok.status_code == 204
    assert fresh(a).hp == a.max_hp - 1
    refused = htmx_post(client, f"/p/{a.token}/act/hp", {"seat": b.pk, "delta": "-1"})
    assert refused.status_code == 403
    bad = htmx_post(client, f"/p/{a.token}/act/hp", {"seat": a.pk, "delta": "lots"})
    assert bad.status_code == 400
    assert fresh(b).hp == b.max_hp and fresh(a).hp == a.max_hp - 1


def test_phone_page_shows_tracker_and_own_hero_card() -> None:
    table, seats = picked_all(4)
    a = fresh(seats[0])
    body = Client().get(f"/p/{a.token}/").content.decode()
    assert 'class="btn hp-btn hp-minus"' in body and 'class="btn hp-btn hp-plus"' in body
    assert body.count('class="jade on"') >= a.hp
    hero = hero_by_id(a.hero)
    assert hero.name_zh in body
    english = Client()
    english.cookies["sgs_lang"] = "en"
    assert hero.name_en in english.get(f"/p/{a.token}/").content.decode()


def test_end_screen_on_every_page() -> None:
    table, seats = picked_all(4)
    lord = by_identity(table, "lord")[0]
    client = csrf_client()
    htmx_post(client, f"/h/{table.host_token}/act/hp", {"seat": lord.pk, "delta": -fresh(lord).hp})
    assert htmx_post(client, f"/h/{table.host_token}/act/die", {"seat": lord.pk}).status_code == 204
    for url in [f"/t/{table.code}/", f"/p/{seats[0].token}/", f"/h/{table.host_token}/"]:
        body = Client().get(url).content.decode()
        assert 'class="result card"' in body and "winner-rebels" in body
        for seat in Seat.objects.filter(table=table):
            assert f"idn-{seat.identity}" in body
