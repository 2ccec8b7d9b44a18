"""Redis shared and Redis gone, against a `redis-server` each test starts on a spare port and stops:
two deployments on one Redis never hear each other, and a Redis outage takes neither pages nor
the guessing throttle down. Runs on both passes (it needs only the redis-server binary)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings
from django.utils.module_loading import import_string

from bench.servers import REDIS_SERVER, RedisServer
from companion.asgi import application
from companion.infra import cache as failsafe
from companion.models import Seat, Table
from companion.web.consumers import admission, faults
from tests.support.aio import run
from tests.support.factories import make_table
from tests.web.test_views import csrf_client, csrf_post, htmx_post

ROOT = Path(__file__).resolve().parents[2]
# How long a socket waits for its next frame or handshake: a wait ends as soon as it comes, and a
# worker of a loaded machine (three test processes and browsers on two cores) may take seconds.
WAIT = 20
pytestmark = [
    pytest.mark.backend,
    pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server binary"),
]


def socket_to(path: str) -> WebsocketCommunicator:
    """A socket of this process's app, from a page of the test server's own origin."""
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    return WebsocketCommunicator(application, path, headers=headers)


async def phone(seat: Seat) -> tuple[WebsocketCommunicator, str]:
    """A socket and its first frame's text ("" when it is closed, or refused, at once)."""
    comm = socket_to(f"/ws/{seat.token}/")
    if not (await comm.connect(timeout=WAIT))[0]:
        return comm, ""
    first = await comm.receive_output(timeout=WAIT)
    return comm, first.get("text", "") if first["type"] == "websocket.send" else ""


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def settings_for(tmp_path: Path, **env: str) -> dict[str, Any]:
    """CHANNEL_LAYERS and CACHES exactly as companion/settings.py builds them for this
    environment (a fresh process: the settings are read once, at start-up)."""
    full = {k: v for k, v in os.environ.items() if k not in {"REDIS_PREFIX", "SECRET_KEY"}}
    full |= {"DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "companion.settings", **env}
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'layers': s.CHANNEL_LAYERS, 'caches': s.CACHES}, default=str))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def deployment(tmp_path: Path, redis: RedisServer, db: int, name: str, key: str) -> dict:
    return settings_for(
        tmp_path, DB="postgres", DB_NAME=name, REDIS_URL=redis.url(db), SECRET_KEY=key * 20
    )


def layer_of(config: dict[str, Any]) -> Any:
    layer = config["layers"]["default"]
    return import_string(layer["BACKEND"])(**layer["CONFIG"])


# Two deployments on one Redis --------------------------------------------------------------------


def test_two_deployments_on_one_redis_do_not_hear_each_other(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    first = deployment(tmp_path, redis_server, 1, "sgs_first", "k1")
    same = deployment(tmp_path, redis_server, 1, "sgs_first", "k1")  # its second process
    second = deployment(tmp_path, redis_server, 2, "sgs_second", "k2")
    # Even one database name and secret key, on another Redis database number.
    other_db = deployment(tmp_path, redis_server, 2, "sgs_first", "k1")
    prefix = first["layers"]["default"]["CONFIG"]["prefix"]
    assert prefix == same["layers"]["default"]["CONFIG"]["prefix"]
    assert "k1" not in prefix  # the secret key does not show in Redis

    async def scenario() -> dict[str, bool]:
        sender = layer_of(first)
        listeners = {
            "same": layer_of(same),
            "second": layer_of(second),
            "other": layer_of(other_db),
        }
        channels = {}
        for name, layer in listeners.items():
            channels[name] = await layer.new_channel()
            await layer.group_add("seat.1.zh-hans", channels[name])
        await asyncio.sleep(0.2)  # the subscriptions are in place on the server
        await sender.group_send("seat.1.zh-hans", {"type": "table.fragment", "html": "反贼"})
        heard = {}
        for name, layer in listeners.items():
            try:
                message = await asyncio.wait_for(layer.receive(channels[name]), 1.5)
            except TimeoutError:
                heard[name] = False
            else:
                heard[name] = message["html"] == "反贼"
        for layer in [sender, *listeners.values()]:
            await layer.flush()
        return heard

    assert run(scenario()) == {"same": True, "second": False, "other": False}


# Redis away: pages and the guessing throttle -----------------------------------------------------


@pytest.mark.django_db
def test_pages_load_and_the_throttle_holds_while_redis_is_down(
    redis_server: RedisServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = deployment(tmp_path, redis_server, 0, "sgs_outage", "k3")
    monkeypatch.setattr(failsafe, "RETRY_SECONDS", 0.3)
    table, seats = make_table(4, deal=True)
    pages = [
        "/",
        f"/t/{table.code}/",
        f"/j/{table.code}/",
        f"/p/{seats[0].token}/",
        f"/h/{table.host_token}/",
    ]
    with override_settings(CACHES=built["caches"], BAD_TOKEN_LIMIT_PER_MINUTE=3):
        assert Client().get("/t/NOPE1/").status_code == 404
        assert redis_server.client().keys("*badlookup*"), "the throttle counts in Redis"
        redis_server.stop()
        caplog.clear()
        caplog.set_level(logging.WARNING)
        client = Client(raise_request_exception=True)
        for _ in range(3):
            for url in pages:
                assert client.get(url).status_code == 200, url
        # The throttle still counts, in this process's memory.
        guesser = Client()
        statuses = [guesser.get(f"/t/BAD{i}/").status_code for i in range(4)]
        assert statuses == [404, 404, 404, 429]
        assert client.get(f"/p/{seats[0].token}/").status_code == 200
        records = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not [r for r in records if r.exc_info], "no traceback"
        others = [r for r in records if r.name != "django.request"]  # its 404 and 429 lines
        assert [r.name for r in others] == ["companion.infra.cache"], [
            r.getMessage() for r in others
        ]
        # Redis back: the next lookups count there again.
        redis_server.start()
        time.sleep(0.4)
        assert Client().get("/t/NOPE2/").status_code == 404
        assert redis_server.client().keys("*badlookup*")
        assert any("reachable again" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
async def test_sockets_close_cleanly_while_the_redis_layer_is_down_and_connect_after(
    redis_server: RedisServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    built = await asyncio.to_thread(deployment, tmp_path, redis_server, 0, "sgs_sockets", "k4")
    table, seats = await database_sync_to_async(make_table)(4)

    with override_settings(CHANNEL_LAYERS=built["layers"], CACHES=built["caches"]):
        up = socket_to(f"/ws/{seats[0].token}/")
        assert (await up.connect(timeout=WAIT))[0]
        assert 'id="table-state"' in await up.receive_from(timeout=WAIT)
        assert admission.OPEN_PER_SEAT[seats[0].pk] == 1

        redis_server.stop()
        caplog.clear()
        caplog.set_level(logging.WARNING)
        # The phone goes away during the outage: leaving its groups fails, its slot is freed.
        await up.disconnect(timeout=WAIT)
        assert admission.OPEN_PER_SEAT[seats[0].pk] == 0
        for _ in range(settings.WS_MAX_CONNECTIONS_PER_SEAT + 2):
            down = socket_to(f"/ws/{seats[0].token}/")
            # Accepted, then closed with 1013, so that the phone sees the code and retries soon;
            # once the probe knows Redis is away, the handshake is refused before accepting.
            if (await down.connect(timeout=WAIT))[0]:
                closed = await down.receive_output(timeout=WAIT)
                assert closed == {"type": "websocket.close", "code": faults.CLOSE_TRY_LATER}
            await down.disconnect()
        assert admission.OPEN_PER_SEAT[seats[0].pk] == 0
        assert not [r for r in caplog.records if r.exc_info and r.name.startswith("companion")]

        redis_server.start()
        # The phone retries (live.js, with backoff); the layer's first command after the
        # outage may still fail on its old connection (channels_redis reconnects it), a later one works.
        # Until the process's probe has seen Redis answer again, a handshake is refused before
        # it is accepted: the phone tries again as after a 1013.
        for _attempt in range(20):
            back = socket_to(f"/ws/{seats[0].token}/")
            if not (await back.connect(timeout=WAIT))[0]:
                await asyncio.sleep(0.5)
                continue
            first = await back.receive_output(timeout=WAIT)
            if first["type"] == "websocket.send":
                break
            assert first["code"] == faults.CLOSE_TRY_LATER
            await back.disconnect()
            await asyncio.sleep(0.5)
        assert 'id="table-state"' in first["text"]
        await back.disconnect()
        await get_channel_layer().flush()


@pytest.mark.django_db
def test_changes_are_refused_with_a_clear_message_while_redis_is_down(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = deployment(tmp_path, redis_server, 0, "sgs_taps", "k5")
    monkeypatch.setattr(failsafe, "RETRY_SECONDS", 0.3)
    table, seats = make_table(4)
    with override_settings(CACHES=built["caches"]):
        host = csrf_client()
        applied = htmx_post(
            host, f"/h/{table.host_token}/act/lock", {"locked": "1", "action_id": "before-outage"}
        )
        assert applied.status_code == 204
        version = Table.objects.get(pk=table.pk).version
        redis_server.stop()
        for _ in range(2):  # the first finds Redis gone, the next knows it
            refused = htmx_post(
                host, f"/h/{table.host_token}/act/lock", {"locked": "0", "action_id": f"during-{_}"}
            )
            assert refused.status_code == 503
            assert refused["HX-Reswap"] == "none" and refused["Retry-After"] == "5"
            assert "没有生效" in refused.content.decode()  # the phone's language: Chinese
        assert Table.objects.get(pk=table.pk).version == version
        # A phone retrying over HTTP a tap it sent before (its socket dropped): the true answer.
        replay = htmx_post(
            host, f"/h/{table.host_token}/act/lock", {"locked": "1", "action_id": "before-outage"}
        )
        assert replay.status_code == 204
        # Joining is a change too: no seat is created, the page says why and links back.
        joiner = csrf_client()
        joiner.cookies["sgs_lang"] = "en"
        joined = csrf_post(joiner, f"/j/{table.code}/", {"name": "Late"})
        assert joined.status_code == 503
        body = joined.content.decode()
        assert "nothing was changed" in body and f'href="/j/{table.code}/"' in body
        assert not Seat.objects.filter(table=table, name="Late").exists()
        # Pages load meanwhile.
        assert Client().get(f"/p/{seats[0].token}/").status_code == 200
        redis_server.start()
        time.sleep(0.4)
        after = htmx_post(
            host, f"/h/{table.host_token}/act/lock", {"locked": "0", "action_id": "after-outage"}
        )
        assert after.status_code == 204
        assert Table.objects.get(pk=table.pk).version == version + 1


# Redis away: taps on both paths, and every phone current after -----------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_redis_outage_refuses_taps_on_both_paths_and_every_phone_is_current_after(
    redis_server: RedisServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One behaviour for both paths: while Redis is away a tap is refused before anything is
    written (503, "nothing was changed", outcome not_applied), over HTTP and over the socket;
    every socket is closed with 1013; once Redis is back, every phone reconnects (retrying as
    live.js does after 1013) and has the current state within 5 s, without a tap. Nothing
    logs a stack meanwhile."""
    from companion.infra import logs
    from tests.support.game import picked_all

    built = await asyncio.to_thread(deployment, tmp_path, redis_server, 0, "sgs_both", "k6")
    monkeypatch.setattr(failsafe, "RETRY_SECONDS", 0.3)
    logs._last_said.clear()
    table, seats = await database_sync_to_async(picked_all)(4)
    me = seats[1]

    def http_tap(action_id: str) -> Any:
        client = Client()
        return client.post(
            f"/p/{me.token}/act/hp",
            {"seat": me.pk, "delta": "-1", "action_id": action_id},
            HTTP_HX_REQUEST="true",
        )

    with override_settings(
        CHANNEL_LAYERS=built["layers"], CACHES=built["caches"], WS_LAYER_PROBE_SECONDS=0.2
    ):
        phones = [await phone(seat) for seat in seats]
        assert all('id="table-state"' in first for _comm, first in phones)
        mine = phones[1][0]
        redis_server.stop()
        caplog.clear()
        caplog.set_level(logging.DEBUG)
        # At once, before the probe has noticed: the socket tap is refused, nothing written.
        tap = {"type": "act", "name": "hp", "fields": {"seat": me.pk, "delta": -1}}
        await mine.send_to(text_data=json.dumps(tap | {"action_id": "outage-ws1"}))
        answer = json.loads(await mine.receive_from(timeout=WAIT))
        assert answer["type"] == "error" and answer["status"] == 503, answer
        assert answer["outcome"] == "not_applied" and "没有生效" in answer["message"]
        response = await database_sync_to_async(http_tap)("outage-http1")
        assert response.status_code == 503
        assert response["X-Tap-Outcome"] == "not_applied"
        assert "没有生效" in response.content.decode()
        assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version == (
            table.version
        )
        # Every socket of the process is closed with 1013; a phone trying again is too.
        for comm, _first in phones:
            closed = await comm.receive_output(timeout=WAIT)
            assert closed == {"type": "websocket.close", "code": faults.CLOSE_TRY_LATER}
            await comm.disconnect()
        # The process knows Redis is away: the handshake is refused before accepting.
        retry = socket_to(f"/ws/{me.token}/")
        assert not (await retry.connect(timeout=WAIT))[0]
        await retry.disconnect()
        # A change made meanwhile without the layer (another process's tap before its Redis
        # connection noticed, say): the phones must see it after the outage.
        await database_sync_to_async(_change_without_frames)(me)

        redis_server.start()
        back_at = time.monotonic()

        async def come_back(seat: Seat) -> float:
            # live.js after 1013: retries 1 to 2.5 s apart until a socket is current.
            attempt = 0
            while True:
                comm, first = await phone(seat)
                if first:
                    assert f'data-version="{table.version + 1}"' in first
                    await comm.disconnect()
                    return time.monotonic() - back_at
                await comm.disconnect()
                attempt += 1
                await asyncio.sleep(max(1.0, min(2.5, 0.25 * 2**attempt)))

        times = await asyncio.gather(*(come_back(seat) for seat in seats))
        print("phones current after Redis came back (s):", [round(t, 2) for t in times])
        assert max(times) < 5
        records = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not [r for r in caplog.records if r.exc_info or r.exc_text], "no stack"
        said = [r.getMessage() for r in records if r.name.startswith("companion")]
        assert any("sockets closed with 1013" in line for line in said), said
        assert any("reachable again" in line for line in said), said
        await get_channel_layer().flush()


def _change_without_frames(seat: Seat) -> None:
    from companion import actions
    from companion.live import broadcast

    with broadcast.collecting():
        actions.seat_change_hp(token=seat.token, seat_id=seat.pk, delta=-1)
