"""The channel layer on two Redis servers (REDIS_SHARDS), against two `redis-server`s this file
starts on spare ports: every process puts a group on the same shard, whichever layer it runs (the
app's `LeanRedisPubSubChannelLayer` or channels_redis's own) and in whatever order it was given
the URLs, so a frame published by one process reaches the screens of another."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash

from bench.servers import REDIS_SERVER, RedisServer
from companion.live.layers import LeanRedisPubSubChannelLayer
from companion.settings import redis_shards
from tests.live.test_harden_redis import settings_for
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
