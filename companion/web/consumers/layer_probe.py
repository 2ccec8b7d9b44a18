"""The probe of a Redis channel layer: while sockets are open on it, a tiny message to each of its
Redis servers (REDIS_SHARDS) every WS_LAYER_PROBE_SECONDS; when any of them cannot be reached,
this process's sockets are closed (1013) and taps refused; a probe that is only late while the
layer answered lately is taken as busy (`_only_slow`, WS_LAYER_SLOW_SECONDS)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from companion.infra import logs
from companion.web.consumers.faults import CLOSE_TRY_LATER, EXPECTED_LAYER_FAULTS, LAYER_TIMEOUTS

log = logging.getLogger(__name__)

# Every open socket of this process on a layer other than the embedded one (closed together when
# that layer cannot be reached).
LIVE: weakref.WeakSet[AsyncWebsocketConsumer] = weakref.WeakSet()


def layer_down(layer: Any) -> bool:
    """Whether this process's probe last found the channel layer unreachable (`watch_layer`)."""
    return bool(getattr(layer, "sgs_down", False))


def watch_layer(layer: Any) -> None:
    """Start the probe of a Redis channel layer on this event loop, unless it runs already."""
    task = getattr(layer, "sgs_watch", None)
    if task is None or task.done():
        layer.sgs_watch = asyncio.ensure_future(_probe_layer(layer))


async def _probe_layer(layer: Any) -> None:
    """While sockets are open on it (or it is down), publish a tiny probe to each of its Redis
    servers every WS_LAYER_PROBE_SECONDS. When any of them cannot be reached, every socket of
    this process is closed with 1013 (its phone retries, and gets the current state once Redis
    is back) and taps are refused before anything is written, as over HTTP; one line in the log
    each way."""
    while any(c.channel_layer is layer for c in list(LIVE)) or layer_down(layer):
        try:
            await probe_once(layer)
        except Exception as exc:  # noqa: BLE001 - the probe must outlive a fault it did not foresee
            # Ending here would leave the layer marked down with nothing to find it back up.
            logs.expected(
                log,
                "probe-failed",
                "channel layer probe failed (%s: %s): probing on",
                type(exc).__name__,
                exc,
            )
        await asyncio.sleep(settings.WS_LAYER_PROBE_SECONDS)


async def probe_once(layer: Any) -> bool:
    """Publish one tiny message to each of the layer's Redis servers; whether all took it. The
    first failure closes this process's sockets on that layer (1013), the first success after it
    says so. A group lives on one server only, so one that is away is an outage for the phones
    whose groups it holds: the whole layer is taken as down."""
    try:
        for channel in _probe_channels(layer):
            # A deadline on this task (no task of its own per probe, as wait_for makes on 3.11).
            async with asyncio.timeout(1.0):
                await layer.send(channel, {"type": "probe"})
    except EXPECTED_LAYER_FAULTS as exc:
        if _only_slow(layer, exc):
            return True
        if not layer_down(layer):
            layer.sgs_down = True
            sockets = [c for c in list(LIVE) if c.channel_layer is layer]
            log.warning(
                "channel layer unreachable (%s: %s): %d sockets closed with %s, taps refused "
                "until it is back",
                type(exc).__name__,
                exc,
                len(sockets),
                CLOSE_TRY_LATER,
            )
            for consumer in sockets:
                LIVE.discard(consumer)
                with contextlib.suppress(Exception):
                    await consumer.close(code=CLOSE_TRY_LATER)
        return False
    layer.sgs_answered_at = time.monotonic()
    if layer_down(layer):
        layer.sgs_down = False
        log.warning("channel layer reachable again: sockets and taps accepted")
    return True


def _probe_channels(layer: Any) -> tuple[str, ...]:
    """The probe's channel names, one landing on each of the layer's Redis servers, found once
    per layer: on one server, the one name it always had (one send per probe)."""
    names: tuple[str, ...] | None = getattr(layer, "sgs_probe_channels", None)
    if names is None:
        names = _one_per_shard(layer)
        layer.sgs_probe_channels = names
    return names


def _one_per_shard(layer: Any) -> tuple[str, ...]:
    """`<prefix>probe`, then `<prefix>probe.1`, `.2`, ... until every server has one, placed by
    the layer's own hash (channels_redis's pub/sub layer puts a channel on
    `_shards[_consistent_hash(name)]`, the same in every process)."""
    base = f"{getattr(layer, 'prefix', 'sgs')}probe"
    shards = getattr(layer, "_shards", None)
    shard_of = getattr(layer, "_get_shard", None)
    if not shards or len(shards) < 2 or shard_of is None:
        return (base,)
    found: dict[int, str] = {}
    # CRC32 spreads names evenly: a few tries per server. The bound only guards a bad hash.
    for tried in range(64 * len(shards)):
        name = f"{base}.{tried}" if tried else base
        found.setdefault(shards.index(shard_of(name)), name)
        if len(found) == len(shards):
            break
    return tuple(found[index] for index in sorted(found))


def _only_slow(layer: Any, exc: BaseException) -> bool:
    """A probe that timed out while the layer answered another one less than
    WS_LAYER_SLOW_SECONDS ago: the process is busy (a loaded event loop answers late), not cut
    off. Closing every socket then would start the reconnect storm that makes it busier (the
    soak in bench/soak.py: 259 sockets closed at once under load). A refused connection, or
    timeouts for longer than that, is an outage."""
    if not isinstance(exc, LAYER_TIMEOUTS) or layer_down(layer):
        return False
    answered = getattr(layer, "sgs_answered_at", None)
    if answered is None or time.monotonic() - answered > settings.WS_LAYER_SLOW_SECONDS:
        return False
    logs.expected(
        log, "layer-slow", "channel layer slow to answer (%s): taken as busy, not down", exc
    )
    return True
