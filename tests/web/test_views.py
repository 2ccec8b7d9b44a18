"""Pages and taps over HTTP: every flow of the first issue, and each bad input."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from companion.models import Event, Seat, Table
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db


def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


def csrf_post(client: Client, url: str, data: dict | None = None, **extra: str):
    """POST the way the page does: CSRF token from the cookie, in the header."""
    if "sgs_csrf" not in client.cookies:
        client.get("/")
    token = client.cookies["sgs_csrf"].value
    return client.post(url, data or {}, HTTP_X_CSRFTOKEN=token, **extra)


def htmx_post(client: Client, url: str, data: dict | None = None):
    return csrf_post(client, url, data, HTTP_HX_REQUEST="true")


def test_home_page_renders_in_chinese_by_default() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert '<html lang="zh-CN" ' in body
    assert "新" in body  # "new table" in Chinese


def test_home_page_in_english_by_accept_language_and_by_switch() -> None:
    client = Client()
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="en" ' in body and "New table" in body
    client = csrf_client()
    response = csrf_post(client, "/lang/", {"language": "en", "next": "/"})
    assert response.status_code == 303 and response["Location"] == "/"
    assert "New table" in client.get("/").content.decode()
    csrf_post(client, "/lang/", {"language": "zh-hans", "next": "/"})
    assert "New table" not in client.get("/").content.decode()


def test_language_switch_refuses_offsite_redirects() -> None:
    client = csrf_client()
    response = csrf_post(client, "/lang/", {"language": "en", "next": "//evil.example/"})
    assert response["Location"] == "/"


def test_new_table_redirects_to_host_console_with_qr() -> None:
    client = csrf_client()
    response = csrf_post(client, "/new/")
    assert response.status_code == 303
    table = Table.objects.get()
    assert response["Location"] == f"/h/{table.host_token}/"
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200
    assert table.code in body
    assert '<svg class="qr"' in body
    # The address may wrap after each / on a narrow console (<wbr>), its text unchanged.
    assert f"http://testserver/j/{table.code}/" in body.replace("<wbr>", "")
    assert 'id="host-panel"' in body


def test_a_tables_join_qr_is_drawn_once_for_all_its_screens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every screen of a table shows the same join QR on every load: it is drawn once."""
    import qrcode

    from companion.infra import qr

    table, seats = make_table(4)
    qr.join_qr_svg.cache_clear()
    drawn: list[str] = []
    real_make = qrcode.make
    monkeypatch.setattr(
        qrcode, "make", lambda data, **kw: (drawn.append(data), real_make(data, **kw))[1]
    )
    client = Client()
    screens = (f"/t/{table.code}/", f"/t/{table.code}/", f"/h/{table.host_token}/")
    bodies = [client.get(url).content.decode() for url in screens]
    client.get(f"/p/{seats[0].token}/")
    join_url = f"http://testserver/j/{table.code}/"
    assert drawn == [join_url]
    assert all(str(qr.qr_svg(join_url)) in body for body in bodies)


def test_display_page_is_public_and_has_no_host_controls() -> None:
    table, _ = make_table(4)
    body = Client().get(f"/t/{table.code}/").content.decode()
    assert 'id="table-state"' in body and 'id="host-panel"' not in body
    assert all(f"P{i}" in body for i in range(1, 5))
    assert Client().get("/t/ZZZZZ/").status_code == 404


def test_join_flow_takes_seat_and_lands_on_private_page() -> None:
    table = make_table(0)[0]
    client = csrf_client()
    page = client.get(f"/j/{table.code}/")
    assert page.status_code == 200 and "sgs_device" in page.cookies
    response = csrf_post(client, f"/j/{table.code}/", {"name": " 赵云 "})
    seat = Seat.objects.get(table=table)
    assert response.status_code == 303
    assert response["Location"] == f"/p/{seat.token}/"
    assert seat.name == "赵云"
    body = client.get(response["Location"]).content.decode()
    assert 'id="my-seat"' in body and "赵云" in body


def test_scanning_again_on_the_same_phone_returns_to_the_same_seat() -> None:
    table = make_table(0)[0]
    client = csrf_client()
    client.get(f"/j/{table.code}/")
    first = csrf_post(client, f"/j/{table.code}/", {"name": "A"})
    again = client.get(f"/j/{table.code}/")
    assert again.status_code == 302 and again["Location"] == first["Location"]
    twice = csrf_post(client, f"/j/{table.code}/", {"name": "B"})
    assert twice["Location"] == first["Location"]
    assert Seat.objects.filter(table=table).count() == 1


def test_join_lookup_by_code_and_unknown_code() -> None:
    table = make_table(0)[0]
    response = Client().get("/join/", {"code": table.code.lower()})
    assert response.status_code == 302 and response["Location"] == f"/j/{table.code}/"
    missing = Client().get("/join/", {"code": "QQQQQ"})
    assert missing.status_code == 404
    assert "QQQQQ" in missing.content.decode()


@pytest.mark.parametrize(
    ("name", "status"),
    [("", 400), ("   ", 400), ("x" * 17, 400), ("x" * 10000, 400), ("P1", 409), ("p1", 409)],
)
def test_join_bad_names_show_clear_error_and_change_nothing(name: str, status: int) -> None:
    table, _ = make_table(4)
    version = table.version
    client = csrf_client()
    client.get(f"/j/{table.code}/")
    response = csrf_post(client, f"/j/{table.code}/", {"name": name})
    assert response.status_code == status
    assert 'class="error"' in response.content.decode()
    table.refresh_from_db()
    assert table.version == version and table.seats.count() == 4


@pytest.mark.parametrize("state", ["full", "locked", "started"])
def test_join_refused_tables_explain_why(state: str) -> None:
    from companion import actions

    table, _ = make_table(10 if state == "full" else 4)
    if state == "locked":
        actions.table_lock(token=table.host_token, locked=True)
    if state == "started":
        actions.identities_deal(token=table.host_token)
    client = csrf_client()
    client.get(f"/j/{table.code}/")
    response = csrf_post(client, f"/j/{table.code}/", {"name": "Late"})
    assert response.status_code == 409
    assert 'role="alert"' in response.content.decode()
    assert not Seat.objects.filter(table=table, name="Late").exists()


def test_post_without_csrf_token_is_refused() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    for url, data in [
        ("/new/", {}),
        (f"/j/{table.code}/", {"name": "X"}),
        (f"/h/{table.host_token}/act/deal", {}),
        (f"/p/{seats[0].token}/act/handover", {"seat": seats[0].pk}),
        ("/lang/", {"language": "en"}),
    ]:
        response = client.post(url, data)
        assert response.status_code == 403, url
    table.refresh_from_db()
    assert table.status == "lobby" and Table.objects.count() == 1
    assert not Seat.objects.filter(name="X").exists()


def test_host_taps_change_state_and_answer_204_for_htmx() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    base = f"/h/{table.host_token}/act/"
    assert htmx_post(client, base + "move", {"seat": seats[3].pk, "position": 0}).status_code == 204
    assert htmx_post(client, base + "lock", {"locked": "1"}).status_code == 204
    assert htmx_post(client, base + "deal", {"action_id": "tap-deal-000001"}).status_code == 204
    table.refresh_from_db()
    assert table.status == "dealt" and table.locked
    assert table.seats.order_by("position").first().pk == seats[3].pk


def test_tap_without_htmx_redirects_back_to_the_page() -> None:
    table, _ = make_table(4)
    client = csrf_client()
    response = csrf_post(client, f"/h/{table.host_token}/act/lock", {"locked": "1"})
    assert response.status_code == 303
    assert response["Location"] == f"/h/{table.host_token}/"


def test_refused_tap_answers_with_a_message_and_changes_nothing() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    version = table.version
    response = htmx_post(client, f"/p/{seats[1].token}/act/deal")
    assert response.status_code == 403
    assert 'id="toast"' in response.content.decode()
    response = htmx_post(client, f"/h/{table.host_token}/act/move", {"seat": seats[0].pk})
    assert response.status_code == 400
    response = htmx_post(client, f"/h/{table.host_token}/act/explode")
    assert response.status_code == 404
    response = htmx_post(client, f"/h/{table.host_token}/act/lock", {"action_id": "bad id!"})
    assert response.status_code == 400
    table.refresh_from_db()
    assert table.version == version


def test_replayed_tap_is_applied_once_over_http() -> None:
    table, _ = make_table(4)
    client = csrf_client()
    url = f"/h/{table.host_token}/act/deal"
    htmx_post(client, url, {"action_id": "replay-me-0001"})
    dealt = dict(Seat.objects.filter(table=table).values_list("pk", "identity"))
    again = htmx_post(client, url, {"action_id": "replay-me-0001"})
    assert again.status_code == 204
    assert dict(Seat.objects.filter(table=table).values_list("pk", "identity")) == dealt
    assert Event.objects.filter(table=table, kind__startswith="identities").count() == 1


def test_double_deal_without_confirmation_deals_once(settings: Settings) -> None:
    # The second tap comes after the double-tap window (tests/actions/test_outcome.py: within it, it is
    # answered as a replay of the first).
    settings.TAP_REPEAT_WINDOW_MS = 0
    table, _ = make_table(4)
    client = csrf_client()
    url = f"/h/{table.host_token}/act/deal"
    assert htmx_post(client, url, {"action_id": "deal-tap-0001"}).status_code == 204
    dealt = dict(Seat.objects.filter(table=table).values_list("pk", "identity"))
    second = htmx_post(client, url, {"action_id": "deal-tap-0002"})
    assert second.status_code == 409
    assert dict(Seat.objects.filter(table=table).values_list("pk", "identity")) == dealt
    confirmed = htmx_post(client, url, {"action_id": "deal-tap-0003", "confirm": "1"})
    assert confirmed.status_code == 204
    assert Event.objects.filter(table=table, kind="identities_redealt").count() == 1


def test_handover_shows_new_link_qr_only_to_the_requester() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    response = htmx_post(client, f"/h/{table.host_token}/act/handover", {"seat": seats[2].pk})
    assert response.status_code == 200
    seat = Seat.objects.get(pk=seats[2].pk)
    body = response.content.decode()
    # A one-time claim link, not the seat's token.
    claim = re.search(r"/n/([A-Za-z0-9_-]+)/", body).group(1)
    assert seat.token not in body and '<svg class="qr"' in body
    assert seat.token != seats[2].token
    assert Client().get(f"/p/{seats[2].token}/").status_code == 404
    phone = csrf_client()
    taken = htmx_post(phone, f"/n/{claim}/")
    assert taken["HX-Redirect"] == f"/p/{seat.token}/"
    assert phone.get(f"/p/{seat.token}/").status_code == 200


def test_private_page_with_and_without_htmx() -> None:
    table, seats = make_table(4, deal=True)
    full = Client().get(f"/p/{seats[0].token}/")
    part = Client().get(f"/p/{seats[0].token}/", HTTP_HX_REQUEST="true")
    assert full.status_code == part.status_code == 200
    assert b"<html" in full.content and b"<html" not in part.content
    assert b'id="my-seat"' in part.content


def test_host_token_on_phone_url_and_seat_token_on_host_url_redirect() -> None:
    table, seats = make_table(4)
    assert Client().get(f"/p/{table.host_token}/")["Location"] == f"/h/{table.host_token}/"
    assert Client().get(f"/h/{seats[0].token}/")["Location"] == f"/p/{seats[0].token}/"


def test_start_page_leads_back_to_my_tables() -> None:
    client = csrf_client()
    csrf_post(client, "/new/")
    table = Table.objects.get()
    client.get(f"/j/{table.code}/")
    csrf_post(client, f"/j/{table.code}/", {"name": "Me"})
    body = client.get("/").content.decode()
    seat = Seat.objects.get(table=table)
    assert f"/p/{seat.token}/" in body
    # The newest link to a table replaces the older one.
    assert f"/h/{table.host_token}/" not in body


def test_removed_player_page_is_gone() -> None:
    table, seats = make_table(5)
    client = csrf_client()
    htmx_post(client, f"/h/{table.host_token}/act/remove", {"seat": seats[4].pk})
    assert Client().get(f"/p/{seats[4].token}/").status_code == 404
    body = Client().get(f"/t/{table.code}/").content.decode()
    assert re.search(r"P5 [^<]*", body)  # the history still names who was removed
