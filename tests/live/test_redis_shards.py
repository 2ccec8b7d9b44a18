"""The channel layer on two Redis servers (REDIS_SHARDS), against two `redis-server`s this file
starts on spare ports: every process puts a group on the same shard, whichever layer it runs (the
app's `LeanRedisPubSubChannelLayer` or channels_redis's own) and in whatever order it was given
the URLs, so a frame published by one process reaches the screens of another; and one shard away
is an outage for the process's layer probe, whichever shard it is."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash
from django.test import override_settings

from bench.servers import REDIS_SERVER, RedisServer
from companion.live.layers import LeanRedisPubSubChannelLayer
from companion.models import Seat, Table
from companion.settings import redis_shards
from companion.web.consumers import faults, layer_probe
from tests.live.test_harden_redis import WAIT, phone, settings_for, socket_to
from tests.support.aio import run

pytestmark = [
    pytest.mark.backend,
    pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server binary"),
]

GROUPS = [f"table.T{i:02d}.zh-hans" for i in range(24)]


@pytest.fixture
def shards(tmp_path: Path) -> Iterator[list[RedisServer]]:
    servers = []
    try:
        for index in range(2):
            folder = tmp_path / f"shard{index}"
            folder.mkdir()
            servers.append(RedisServer(folder))
            servers[-1].start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_redis_shards_setting() -> None:
    assert redis_shards("", "redis://c:6379/0") == ["redis://c:6379/0"]
    assert redis_shards("", "") == []
    # Sorted and without repeats: processes given the same URLs in another order agree.
    one = redis_shards(" redis://b:6380/0, redis://a:6379/0,", "redis://c:6379/0")
    other = redis_shards("redis://a:6379/0,redis://b:6380/0,redis://a:6379/0", "redis://c:6379/0")
    assert one == other == ["redis://a:6379/0", "redis://b:6380/0"]
    with pytest.raises(ValueError, match="REDIS_URL"):
        redis_shards("redis://a:6379/0", "")


def test_settings_put_the_layer_on_the_shards_and_the_cache_on_redis_url(
    shards: list[RedisServer], tmp_path: Path
) -> None:
    urls = [s.url() for s in shards]
    built = [
        settings_for(
            tmp_path,
            DB="postgres",
            DB_NAME="sgs_shards",
            SECRET_KEY="k" * 50,
            REDIS_URL="redis://127.0.0.1:6399/3",
            REDIS_SHARDS=",".join(order),
        )
        for order in (urls, urls[::-1])
    ]
    first, second = (b["layers"]["default"]["CONFIG"] for b in built)
    assert first == second
    assert first["hosts"] == sorted(urls)
    assert built[0]["caches"]["default"]["LOCATION"] == "redis://127.0.0.1:6399/3"


def subscribed(server: RedisServer, prefix: str) -> set[str]:
    client = server.client()
    try:
        return {c.decode() for c in client.pubsub_channels(f"{prefix}*")}
    finally:
        client.close()


def test_a_group_lives_on_one_shard_for_every_process_and_layer(
    shards: list[RedisServer],
) -> None:
    """Two processes' layers (the app's and channels_redis's, given the shards in both
    orders): every group is subscribed on the shard its name hashes to and nowhere else, both
    shards carry some, and a frame sent by either reaches the other's screens, once each."""
    urls = sorted(s.url() for s in shards)
    prefix = "sgsshardtest"

    async def scenario() -> dict[str, Any]:
        lean = LeanRedisPubSubChannelLayer(
            hosts=redis_shards(",".join(urls[::-1]), "x"), prefix=prefix
        )
        stock = RedisPubSubChannelLayer(hosts=urls, prefix=prefix)
        got: dict[str, list[str]] = {group: [] for group in GROUPS}
        stock_channels = {}
        for group in GROUPS:
            channel = await lean.new_channel()
            lean.attach(channel, lambda m, g=group: got[g].append(m["html"]))
            await lean.group_add(group, channel)
            stock_channels[group] = await stock.new_channel()
            await stock.group_add(group, stock_channels[group])
        await asyncio.sleep(0.2)  # the subscriptions are in place on the servers
        placed = [subscribed(server, f"{prefix}__group__") for server in shards]
        for group in GROUPS:
            await stock.group_send(group, {"type": "table.fragment", "html": f"stock {group}"})
            await lean.group_send(group, {"type": "table.fragment", "html": f"lean {group}"})
        heard = {}
        for group, channel in stock_channels.items():
            try:
                first = await asyncio.wait_for(stock.receive(channel), 2)
                second = await asyncio.wait_for(stock.receive(channel), 2)
                heard[group] = sorted([first["html"], second["html"]])
            except TimeoutError:
                heard[group] = []
        await asyncio.sleep(0.2)  # a duplicate would show up by now
        for layer in (lean, stock):
            await layer.flush()
        return {"got": got, "heard": heard, "placed": placed}

    found = run(scenario())
    for group in GROUPS:
        both = sorted([f"stock {group}", f"lean {group}"])
        assert sorted(found["got"][group]) == both, (group, found["got"][group])
        assert found["heard"][group] == both, (group, found["heard"][group])
    by_url = {s.url(): i for i, s in enumerate(shards)}
    for group in GROUPS:
        name = f"{prefix}__group__{group}"
        where = [i for i, names in enumerate(found["placed"]) if name in names]
        assert where == [by_url[urls[_consistent_hash(name, 2)]]], (group, where)
    assert all(found["placed"]), "both shards carry groups"


# One shard away ----------------------------------------------------------------------------------


def test_the_probe_has_one_channel_on_each_shard() -> None:
    """Found by the layer's own hash, once per layer; on one Redis, the one name it always had."""

    async def names(hosts: list[str]) -> tuple[tuple[str, ...], list[int]]:
        layer = LeanRedisPubSubChannelLayer(hosts=hosts, prefix="sgsprobetest")
        found = layer_probe._probe_channels(layer)
        assert layer_probe._probe_channels(layer) is found, "computed once"
        return found, [_consistent_hash(name, len(hosts)) for name in found]

    hosts = [f"redis://127.0.0.1:{6390 + i}/0" for i in range(3)]
    assert run(names(hosts[:1])) == (("sgsprobetestprobe",), [0])
    for count in (2, 3):
        found, placed = run(names(hosts[:count]))
        assert sorted(placed) == list(range(count)), (found, placed)
        assert "sgsprobetestprobe" in found, "the one name it always had stays"


@pytest.fixture
def cache_server(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "cache"
    folder.mkdir()
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def _come_back(seat: Seat, version: int) -> None:
    """Retries as live.js does after 1013 until a socket of the seat is current."""
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        comm, first = await phone(seat)
        await comm.disconnect()
        if first:
            assert f'data-version="{version}"' in first
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"seat {seat.pk} did not connect again")


async def _sharded_layers(
    shards: list[RedisServer], cache: RedisServer, tmp_path: Path, name: str
) -> tuple[dict[str, Any], RedisServer]:
    """The deployment's settings on both shards, and the shard its probe's first channel (the
    only one before every shard was probed) does NOT land on."""
    urls = sorted(s.url() for s in shards)
    built = await asyncio.to_thread(
        settings_for,
        tmp_path,
        DB="postgres",
        DB_NAME=name,
        SECRET_KEY="s" * 50,
        REDIS_URL=cache.url(),
        REDIS_SHARDS=",".join(urls),
    )
    prefix = built["layers"]["default"]["CONFIG"]["prefix"]
    probed = urls[_consistent_hash(f"{prefix}probe", len(urls))]
    (other,) = [s for s in shards if s.url() != probed]
    return built, other


@pytest.mark.django_db(transaction=True)
async def test_a_shard_the_probe_did_not_use_going_away_refuses_taps_and_closes_sockets(
    shards: list[RedisServer],
    cache_server: RedisServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Groups live on either shard, so either one away is an outage: a tap over the socket is
    refused before anything is written (503, not applied), every socket is closed with 1013 and
    handshakes are refused; once the shard is back, every phone connects again."""
    from tests.support.game import picked_all

    built, other = await _sharded_layers(shards, cache_server, tmp_path, "sgs_shard_tap")
    table, seats = await database_sync_to_async(picked_all)(4)
    me = seats[1]
    with override_settings(
        CHANNEL_LAYERS=built["layers"], CACHES=built["caches"], WS_LAYER_PROBE_SECONDS=0.2
    ):
        phones = [await phone(seat) for seat in seats]
        assert all('id="table-state"' in first for _comm, first in phones)
        mine = phones[1][0]
        other.stop()
        caplog.clear()
        caplog.set_level(logging.WARNING)
        tap = {"type": "act", "name": "hp", "fields": {"seat": me.pk, "delta": -1}}
        await mine.send_to(text_data=json.dumps(tap | {"action_id": "shard-away-1"}))
        raw = await mine.receive_from(timeout=WAIT)
        assert raw.startswith("{"), "the tap was applied: its frame came back"
        answer = json.loads(raw)
        assert answer["type"] == "error" and answer["status"] == 503, answer
        assert answer["outcome"] == "not_applied", answer
        now = await database_sync_to_async(Table.objects.get)(pk=table.pk)
        assert now.version == table.version, "nothing written"
        for comm, _first in phones:
            closed = await comm.receive_output(timeout=WAIT)
            assert closed == {"type": "websocket.close", "code": faults.CLOSE_TRY_LATER}
            await comm.disconnect()
        retry = socket_to(f"/ws/{me.token}/")
        assert not (await retry.connect(timeout=WAIT))[0], "refused at the handshake"
        await retry.disconnect()

        other.start()
        await asyncio.gather(*(_come_back(seat, table.version) for seat in seats))
        said = [r.getMessage() for r in caplog.records if r.name == layer_probe.log.name]
        assert len(said) == 2 and "unreachable" in said[0], said
        assert "reachable again" in said[1], said
        await get_channel_layer().flush()


@pytest.mark.django_db(transaction=True)
async def test_the_probe_alone_closes_every_socket_when_any_shard_goes_away(
    shards: list[RedisServer],
    cache_server: RedisServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Without a tap: the process's probe finds the shard away, closes every socket with 1013
    (one line in the log), and finds it back (one line); the phones connect again."""
    from tests.support.factories import make_table

    built, other = await _sharded_layers(shards, cache_server, tmp_path, "sgs_shard_probe")
    table, seats = await database_sync_to_async(make_table)(4)
    with override_settings(
        CHANNEL_LAYERS=built["layers"], CACHES=built["caches"], WS_LAYER_PROBE_SECONDS=0.2
    ):
        phones = [await phone(seat) for seat in seats]
        assert all('id="table-state"' in first for _comm, first in phones)
        caplog.clear()
        caplog.set_level(logging.WARNING)
        other.stop()
        for comm, _first in phones:
            closed = await comm.receive_output(timeout=WAIT)
            assert closed == {"type": "websocket.close", "code": faults.CLOSE_TRY_LATER}
            await comm.disconnect()
        other.start()
        await asyncio.gather(*(_come_back(seat, table.version) for seat in seats))
        said = [r.getMessage() for r in caplog.records if r.name == layer_probe.log.name]
        assert len(said) == 2 and "sockets closed with 1013" in said[0], said
        assert "reachable again" in said[1], said
        await get_channel_layer().flush()
