"""The channel layers: the embedded default's in-memory layer, cheaper for one process, and the
scale-out setup's Redis pub/sub layer with the same direct delivery.

Two changes to the stock `InMemoryChannelLayer`, both measured (docs/performance.md):

- Its expiry sweep walks every channel and group member on each send and receive, so its cost
  grows with the square of connected phones (PERF_NOTES.md: 43 % of server time under load);
  here it runs at most once a second.
- A consumer in this process may `attach` to its channel: a message for it is then handed to its
  `deliver` callback at once, on the receiver's event loop, instead of going through a queue that
  the consumer's loop (`channels.utils.await_many_dispatch`) waits on with a new task, a new
  queue and an `asyncio.wait` per message. That was most of the cost of relaying a frame.
  Channels that are not attached keep the queue, exactly as the stock layer does.

`LeanRedisPubSubChannelLayer` is channels_redis's pub/sub layer (the same PUBLISH per group
send, the same subscriptions, so processes of both kinds can share one Redis) with the second
change: a message published to a group is deserialized once per process, and each attached
consumer of this process gets it at once (a shallow copy each), instead of each member's queue
getting the raw bytes and each consumer deserializing them in Channels' loop, with a task and an
`asyncio.wait` per frame. Channels that are not attached keep the stock queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Generator
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

log = logging.getLogger(__name__)

Deliver = Callable[[dict[str, Any]], None]


class LeanInMemoryChannelLayer(InMemoryChannelLayer):
    """Same semantics as InMemoryChannelLayer, cheaper housekeeping and delivery."""

    sweep_interval = 1.0

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("group_expiry", 7 * 86400)
        super().__init__(**kwargs)
        self._last_sweep = 0.0
        self.receivers: dict[str, tuple[asyncio.AbstractEventLoop, Deliver]] = {}

    def attach(self, channel: str, deliver: Deliver) -> None:
        """From now on hand `channel`'s messages to `deliver`, called on this event loop.

        `deliver` must not block: it takes the message or keeps it for later, in order.
        """
        self.require_valid_channel_name(channel)
        self.receivers[channel] = (asyncio.get_running_loop(), deliver)

    def detach(self, channel: str) -> None:
        self.receivers.pop(channel, None)

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()

    def _handoff(self, channel: str, message: dict[str, Any], expires: float) -> None:
        receiver = self.receivers.get(channel)
        if receiver is not None:
            loop, deliver = receiver
            try:
                running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                deliver(message)
            else:
                loop.call_soon_threadsafe(deliver, message)
            return
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait((expires, message))

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        if channel not in self.receivers:
            await super().send(channel, message)
            return
        self.require_valid_channel_name(channel)
        self._handoff(channel, dict(message), time.time() + self.expiry)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Hand the message to every member, as the stock layer does, minus its per-member deep
        copy and name check: the app's messages hold only strings and numbers (immutable), so
        each member gets a shallow copy of the same dict."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        expires = time.time() + self.expiry
        for channel in list(self.groups.get(group, {})):
            self._handoff(channel, dict(message), expires)


class _LeanShard(RedisSingleShardConnection):
    """One Redis connection of the layer; hands what it receives to attached consumers."""

    channel_layer: _LeanLoopLayer

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        layer = self.channel_layer
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        data = message["data"]
        if name in layer.channels:
            members: Any = (name,)
        elif name in layer.groups:
            members = list(layer.groups[name])
        else:
            return
        decoded: dict[str, Any] | None = None
        for channel in members:
            deliver = layer.receivers.get(channel)
            if deliver is not None:
                if decoded is None:
                    decoded = layer.channel_layer.deserialize(data)
                try:
                    deliver(dict(decoded))
                except Exception:  # one screen's failure must not stop the others'
                    log.exception("delivery to %s failed", channel)
            elif channel in layer.channels:
                layer.channels[channel].put_nowait(data)


class _LeanLoopLayer(RedisPubSubLoopLayer):
    """channels_redis's layer of one event loop, with consumers that attach to their channel."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receivers: dict[str, Deliver] = {}
        self._shards = [_LeanShard(shard.host, self) for shard in self._shards]


class LeanRedisPubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer with direct delivery to attached consumers (see above)."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _LeanLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer

    def attach(self, channel: str, deliver: Deliver) -> None:
        """From now on hand `channel`'s messages (its own and its groups') to `deliver`, on this
        event loop, as they arrive. `channel` comes from `new_channel` (it is subscribed)."""
        self._get_layer().receivers[channel] = deliver

    def detach(self, channel: str) -> None:
        self._get_layer().receivers.pop(channel, None)

    async def forget(self, channel: str) -> None:
        """Unsubscribe a channel from `new_channel` that nobody reads any more (Channels' own
        loop does it when its `receive` is cancelled; an attached consumer never calls it)."""
        layer = self._get_layer()
        layer.receivers.pop(channel, None)
        if layer.channels.pop(channel, None) is not None:
            await layer._get_shard(channel).unsubscribe(channel)  # noqa: SLF001


class _Resume:
    """Awaiting this goes on with a coroutine that was started by hand and is suspended on
    `blocker` (what it yielded): a task can finish what `run_eagerly` began."""

    def __init__(self, coro: Coroutine[Any, Any, Any], blocker: Any) -> None:
        self.coro = coro
        self.blocker = blocker

    def __await__(self) -> Generator[Any, Any, None]:
        value = self.blocker
        while True:
            try:
                sent = yield value
            except BaseException as exc:  # cancellation or an error thrown in by the task
                try:
                    value = self.coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    value = self.coro.send(sent)
                except StopIteration:
                    return


def run_eagerly(coro: Coroutine[Any, Any, Any]) -> _Resume | None:
    """Run `coro` now, in the caller's turn of the event loop, as far as it goes without waiting.

    Returns None when it finished (a websocket write normally does), else the rest of it, for a
    task to await. Python 3.12's eager tasks do this; this app runs on 3.11. Errors raised
    before its first wait propagate to the caller.
    """
    try:
        blocker = coro.send(None)
    except StopIteration:
        return None
    return _Resume(coro, blocker)
