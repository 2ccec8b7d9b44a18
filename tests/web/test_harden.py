"""Guessing over websockets, a throttle one device cannot
turn against the others, errors anyone could trigger, private headers on every response that
carries a token, the per-seat socket cap after a crash, and no frame after a socket's close."""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from companion.asgi import application
from companion.live import broadcast
from companion.live.layers import LeanInMemoryChannelLayer
from companion.models import Seat, Table
from companion.web import throttle
from companion.web.consumers import admission, faults
from companion.web.consumers.table import TableConsumer
from tests.support.factories import make_table
from tests.web.test_views import csrf_client, csrf_post

# The throttle counts in the cache (Redis on the second pass) and the socket caps go through
# the channel layer.
pytestmark = pytest.mark.backend

ORIGIN = "http://testserver"
make = database_sync_to_async(make_table)


def socket(path: str, *, device: str = "", client: str = "10.1.1.1", xff: str = ""):
    headers = [(b"host", b"testserver"), (b"origin", ORIGIN.encode())]
    if device:
        headers.append((b"cookie", f"sgs_device={device}".encode()))
    if xff:
        headers.append((b"x-forwarded-for", xff.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = (client, 40000)
    return comm


async def outputs_until_closed(comm: WebsocketCommunicator, timeout: float = 5) -> list[dict]:
    """Everything the app sent, up to and including its websocket.close."""
    seen = []
    while True:
        output = await comm.receive_output(timeout=timeout)
        seen.append(output)
        if output["type"] == "websocket.close":
            return seen


async def connect_code(comm: WebsocketCommunicator) -> int | None:
    """None when the socket was accepted and kept open, else the code it was closed with."""
    connected, code = await comm.connect(timeout=5)
    if not connected:
        return code if code is not None else 1000
    first = await comm.receive_output(timeout=5)
    if first["type"] == "websocket.close":
        return first.get("code", 1000)
    await comm.disconnect()
    return None


DEVICE_A = "A" * 32
DEVICE_B = "B" * 32
DEVICE_C = "C" * 32


# Guessing over the websocket is throttled like over HTTP ------------------------------


@pytest.mark.django_db(transaction=True)
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=3)
async def test_websocket_guessing_is_throttled_per_device() -> None:
    table, seats = await make(4)
    # Three wrong tokens, then a wrong table code: each closes "gone" (4404) until the limit.
    for i in range(3):
        assert await connect_code(socket(f"/ws/{'x' * 31}{i}/", device=DEVICE_A)) == 4404
    # The fourth lookup from that device is refused before any lookup, valid or not (1008: the
    # phone's script waits 5 s before it tries again).
    assert await connect_code(socket("/ws/t/QQQQQ/", device=DEVICE_A)) == faults.CLOSE_POLICY
    assert (
        await connect_code(socket(f"/ws/{seats[0].token}/", device=DEVICE_A)) == faults.CLOSE_POLICY
    )
    # Another phone on the same address is not affected.
    assert await connect_code(socket(f"/ws/{seats[1].token}/", device=DEVICE_B)) is None
    assert await connect_code(socket(f"/ws/t/{table.code}/", device=DEVICE_B)) is None


@pytest.mark.django_db(transaction=True)
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=3)
async def test_websocket_and_http_failures_share_one_count() -> None:
    table, seats = await make(4)
    for i in range(3):
        assert await connect_code(socket(f"/ws/t/ZZZZ{i}/", device=DEVICE_A)) == 4404

    @database_sync_to_async
    def http_status() -> int:
        client = Client(REMOTE_ADDR="10.1.1.1")
        client.cookies["sgs_device"] = DEVICE_A
        return client.get(f"/t/{table.code}/").status_code

    assert await http_status() == 429
    # Cookie-less sockets (a script) share one pool per address, apart from real phones.
    for i in range(3):
        assert await connect_code(socket(f"/ws/t/YYYY{i}/", client="10.2.2.2")) == 4404
    assert await connect_code(socket(f"/ws/t/{table.code}/", client="10.2.2.2")) == 1008
    assert (
        await connect_code(socket(f"/ws/t/{table.code}/", client="10.2.2.2", device=DEVICE_C))
        is None
    )


# The throttle is per device, with a higher per-address ceiling ------------------------


@pytest.mark.django_db
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=5, BAD_LOOKUP_LIMIT_PER_ADDRESS_PER_MINUTE=12)
def test_one_phones_guesses_do_not_lock_out_the_others_behind_the_same_address() -> None:
    table, seats = make_table(4)
    guesser, phone = Client(REMOTE_ADDR="192.168.1.20"), Client(REMOTE_ADDR="192.168.1.20")
    statuses = [guesser.get(f"/p/{'G' * 31}{i}/").status_code for i in range(7)]
    assert statuses == [404] * 5 + [429] * 2
    # The guesser got its own device cookie on its first answer, and keeps it.
    assert throttle.DEVICE_RE.fullmatch(guesser.cookies["sgs_device"].value)
    assert phone.get(f"/p/{seats[0].token}/").status_code == 200
    assert phone.get(f"/j/{table.code}/").status_code == 200
    # Its own wrong lookups still count for it alone.
    assert phone.get("/p/nope/").status_code == 404
    # The address as a whole has a ceiling: a script minting a new cookie per guess hits it.
    minted = 0
    while True:
        fresh = Client(REMOTE_ADDR="192.168.1.20")
        fresh.cookies["sgs_device"] = secrets.token_urlsafe(24)
        status = fresh.get(f"/p/{'M' * 31}{minted % 10}/").status_code
        if status == 429:
            break
        minted += 1
        assert minted < 50
    assert 5 + 1 + minted == 12
    assert phone.get(f"/p/{seats[0].token}/").status_code == 429
    # Another address is not affected.
    assert Client(REMOTE_ADDR="192.168.1.21").get(f"/p/{seats[0].token}/").status_code == 200


@pytest.mark.django_db
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=3)
def test_cookieless_guesses_share_one_pool_that_phones_with_a_cookie_are_outside_of() -> None:
    table, seats = make_table(4)
    for i in range(3):
        # A new client each time: never sends the cookie it was given.
        assert Client(REMOTE_ADDR="10.3.3.3").get(f"/t/QQQ{i}/").status_code == 404
    anonymous = Client(REMOTE_ADDR="10.3.3.3")
    refused = anonymous.get(f"/p/{seats[0].token}/")
    assert refused.status_code == 429
    # ... and that answer gave the phone a cookie of its own: tried again, it gets in.
    assert "sgs_device" in refused.cookies
    assert anonymous.get(f"/p/{seats[0].token}/").status_code == 200


@pytest.mark.django_db
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=3)
@pytest.mark.parametrize(
    "path",
    [
        "/apple-touch-icon.png",
        "/apple-touch-icon-precomposed.png",
        "/apple-touch-icon-120x120.png",
        "/favicon.ico",
        "/manifest.json",
        "/site.webmanifest",
        "/browserconfig.xml",
        "/.well-known/appspecific/com.chrome.devtools.json",
        "/robots.txt",
    ],
)
def test_a_browsers_own_requests_never_count(path: str) -> None:
    table, seats = make_table(2)
    client = Client()
    for _ in range(10):
        assert client.get(path).status_code in (200, 404)
    assert client.get(f"/p/{seats[0].token}/").status_code == 200
    assert [client.get(f"/t/BAD{i}/").status_code for i in range(4)] == [404, 404, 404, 429]


@pytest.mark.django_db
def test_robots_txt_keeps_crawlers_out() -> None:
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response.content.decode().splitlines() == ["User-agent: *", "Disallow: /"]


@pytest.mark.django_db
@override_settings(BAD_TOKEN_LIMIT_PER_MINUTE=2, BAD_LOOKUP_LIMIT_PER_ADDRESS_PER_MINUTE=4)
def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted() -> None:
    table, seats = make_table(2)

    def guesses(forwarded: str) -> list[int]:
        # A new cookie-less client each time: only the address pools can stop it.
        return [
            Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
            .get(f"/t/BAD{i}/")
            .status_code
            for i in range(3)
        ]

    # Not configured: a client cannot pick its own address by sending the header.
    assert guesses("203.0.113.1") == [404, 404, 429]
    assert guesses("203.0.113.2") == [429, 429, 429]
    with override_settings(TRUSTED_PROXIES=["127.0.0.0/8"]):
        # Behind a trusted proxy, each phone has its address; a forged hop on the left is not
        # believed (the proxy appends the real one on the right).
        assert guesses("203.0.113.3") == [404, 404, 429]
        assert guesses("203.0.113.4") == [404, 404, 429]
        assert guesses("203.0.113.4, 127.0.0.5") == [429, 429, 429]
        assert guesses("1.2.3.4, 203.0.113.4") == [429, 429, 429]
        assert guesses("203.0.113.5") == [404, 404, 429]
    # A peer that is not a trusted proxy cannot use the header either.
    with override_settings(TRUSTED_PROXIES=["10.9.9.9"]):
        statuses = [
            Client(REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{50 + i}")
            .get(f"/t/BAD{i}/")
            .status_code
            for i in range(3)
        ]
        assert statuses == [404, 404, 429]


def test_client_address() -> None:
    with override_settings(TRUSTED_PROXIES=["10.0.0.1", "fd00::/8"]):
        assert throttle.client_address("10.0.0.1", "203.0.113.9") == "203.0.113.9"
        assert throttle.client_address("fd00::2", "1.1.1.1, 203.0.113.9") == "203.0.113.9"
        assert throttle.client_address("10.0.0.1", "203.0.113.9, 10.0.0.1") == "203.0.113.9"
        assert throttle.client_address("10.0.0.1", "") == "10.0.0.1"
        assert throttle.client_address("10.0.0.2", "203.0.113.9") == "10.0.0.2"


# No 500 anyone can trigger -------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/ws/abc/", "/ws/t/ABCDE/", "/ws/" + "A" * 32 + "/"])
def test_websocket_routes_over_http_are_a_plain_404(path: str) -> None:
    response = Client(raise_request_exception=True).get(path)
    assert response.status_code == 404
    assert response["Cache-Control"] == "no-store, private"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/", "/nope/", "/ws/", "/ws/t/lower/", "/p/abc/", "/ws/a/b/"])
async def test_a_websocket_to_an_unrouted_path_is_refused_without_a_traceback(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    comm = socket(path)
    connected, _code = await comm.connect(timeout=5)
    assert not connected
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect(timeout=5)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


BAD_MINE = [
    "5",
    "null",
    '"text"',
    '{"a": [1, 2, 3]}',
    "[1, 2, 3]",
    '[["ABCDE", "host", 5]]',
    '[["ABCDE", "seat"]]',
    "[[1, 2, 3], [null, null, null]]",
    "not json",
]


@pytest.mark.django_db
@pytest.mark.parametrize("mine", BAD_MINE)
def test_a_mine_cookie_of_the_wrong_shape_is_ignored(mine: str) -> None:
    table, _seats = make_table(2)
    client = csrf_client()
    client.get("/")
    client.cookies["sgs_mine"] = mine
    assert client.get("/").status_code == 200
    response = csrf_post(client, f"/j/{table.code}/", {"name": "Zed"})
    assert response.status_code == 303
    seat = Seat.objects.get(table=table, name="Zed")
    assert response["Location"] == f"/p/{seat.token}/"
    kept = json.loads(response.cookies["sgs_mine"].value)
    assert kept == [[table.code, "seat", seat.token]]
    # The start page leads back to it.
    assert f"/p/{seat.token}/" in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_mine_cookie_keeps_its_good_links_around_a_bad_one() -> None:
    first, _ = make_table(2)
    second, _ = make_table(2)
    client = csrf_client()
    client.get("/")
    client.cookies["sgs_mine"] = json.dumps([[first.code, "host", first.host_token], [1, 2, 3]])
    response = csrf_post(client, f"/j/{second.code}/", {"name": "Zed"})
    seat = Seat.objects.get(table=second, name="Zed")
    kept = json.loads(response.cookies["sgs_mine"].value)
    assert kept == [[second.code, "seat", seat.token], [first.code, "host", first.host_token]]


# Every response that carries a token is private ----------------------------------------


def assert_private(response: Any) -> None:
    assert response["Cache-Control"] == "no-store, private"
    assert response["Referrer-Policy"] == "no-referrer"


@pytest.mark.django_db
def test_redirects_to_a_token_and_early_refusals_on_a_token_url_are_private() -> None:
    client = csrf_client()
    created = csrf_post(client, "/new/")
    assert created.status_code == 303 and created["Location"].startswith("/h/")
    assert_private(created)
    table = Table.objects.get()
    joined = csrf_post(client, f"/j/{table.code}/", {"name": "Ann"})
    assert joined.status_code == 303 and joined["Location"].startswith("/p/")
    assert_private(joined)
    # Back to the join page with the same device: a redirect to the seat.
    again = client.get(f"/j/{table.code}/")
    assert again.status_code == 302 and again["Location"] == joined["Location"]
    assert_private(again)
    # A tap without htmx answers with a redirect back to the token's page.
    token = client.cookies["sgs_csrf"].value
    plain = client.post(f"/h/{table.host_token}/act/lock", {"locked": "1"}, HTTP_X_CSRFTOKEN=token)
    assert plain.status_code == 303
    assert_private(plain)
    # Refused by the size cap before any view runs.
    big = client.post(
        f"/h/{table.host_token}/act/lock", {"junk": "x" * 100_000}, HTTP_X_CSRFTOKEN=token
    )
    assert big.status_code == 413
    assert_private(big)
    # The start page keeps its own policy (it carries no token).
    assert client.get("/")["Referrer-Policy"] == "same-origin"


# A crashed consumer gives its slot back ------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_crashed_socket_gives_its_seat_slot_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.conf import settings

    table, seats = await make(4, deal=True)
    path = f"/ws/{seats[0].token}/"
    real = TableConsumer._send_snapshot

    async def crash(self: TableConsumer) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(TableConsumer, "_send_snapshot", crash)
    for _ in range(settings.WS_MAX_CONNECTIONS_PER_SEAT + 2):
        comm = socket(path, device=DEVICE_A)
        # An unexpected fault: its stack is logged and the socket closed (1011); the phone
        # reconnects.
        await comm.connect(timeout=5)
        assert await comm.receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": faults.CLOSE_ERROR,
        }
        await comm.disconnect()
    assert admission.OPEN_PER_SEAT[seats[0].pk] == 0
    layer = get_channel_layer()
    if isinstance(layer, LeanInMemoryChannelLayer):
        # Nor does it stay in its groups (frames for it would pile up in a queue nobody reads).
        assert not layer.groups.get(broadcast.seat_group(seats[0].pk, "zh-hans"))
    monkeypatch.setattr(TableConsumer, "_send_snapshot", real)
    comm = socket(path, device=DEVICE_A)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert 'id="table-state"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


# Nothing is sent on a socket after its close ------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("action_id", [None, "pass0001"])
async def test_passing_the_host_over_the_socket_sends_nothing_after_the_close(
    action_id: str | None,
) -> None:
    table, seats = await make(3)
    comm = socket(f"/ws/{table.host_token}/")
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.receive_from(timeout=5)
    message: dict[str, Any] = {"type": "act", "name": "host", "fields": {"seat": seats[1].pk}}
    if action_id:
        message["action_id"] = action_id
    await comm.send_to(text_data=json.dumps(message))
    seen = await outputs_until_closed(comm)
    assert seen[-1]["code"] == faults.CLOSE_RECONNECT
    assert await comm.receive_nothing(timeout=0.5)
    assert (await database_sync_to_async(Seat.objects.get)(pk=seats[1].pk)).is_host


# A malformed request logs one line, no stack -------------------------------


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


MANY_FIELDS = "&".join(f"f{i}=1" for i in range(60))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "request_kwargs"),
    [
        (
            "too many fields",
            {"data": MANY_FIELDS, "content_type": "application/x-www-form-urlencoded"},
        ),
        ("multipart without a boundary", {"data": b"x=1", "content_type": "multipart/form-data"}),
        ("a bad Host", {"data": {"locked": "1"}, "HTTP_HOST": "evil..example"}),
        ("a Host that is no name", {"data": {}, "HTTP_HOST": "bad host"}),
    ],
)
def test_a_malformed_request_logs_one_line_without_a_stack(
    name: str, request_kwargs: dict[str, Any]
) -> None:
    """Anyone can send these: a 400 and one line saying what was wrong, never a stack (Django
    logs its security refusals and bad bodies with their traceback)."""
    table, _seats = make_table(4)
    seen = _Records()
    loggers = [logging.getLogger(n) for n in ("", "django")]  # "django" does not propagate
    for logger in loggers:
        logger.addHandler(seen)
    try:
        client = Client(raise_request_exception=False)
        response = client.post(f"/h/{table.host_token}/act/lock", **request_kwargs)
    finally:
        for logger in loggers:
            logger.removeHandler(seen)
    assert response.status_code == 400, name
    lines = [r for r in seen.records if r.levelno >= logging.WARNING]
    assert len(lines) <= 1, [r.getMessage() for r in lines]
    assert not [r for r in seen.records if r.exc_info or r.exc_text], name
    assert not [r for r in seen.records if r.levelno >= logging.ERROR], "the request's fault"
    table.refresh_from_db()
    assert not table.locked
