"""What goes wrong on a socket, and how it is said: the close codes the phone's script knows,
the faults the app expects (one line in the log, no stack), and the log lines for each."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import InvalidState

from companion.infra import logs

log = logging.getLogger(__name__)


# Close codes the phone's script understands: 4404 = this link no longer works (do not retry),
# 1008 = policy (too many messages), 1009 = message too big, 1012 = reconnect now.
CLOSE_GONE = 4404
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_RECONNECT = 1012
CLOSE_TRY_LATER = 1013  # the channel layer (Redis) cannot be reached: the phone retries
CLOSE_ERROR = 1011  # the server failed unexpectedly on this socket
CLOSE_TOO_MANY = 4429  # too many display screens for this table or this client

# Faults the app expects and answers (a lock held too long, a lost connection, Redis away): one
# line in the log, no stack.
EXPECTED_DB_FAULTS = (OperationalError, InterfaceError)
EXPECTED_LAYER_FAULTS = (RedisError, OSError, asyncio.TimeoutError)
LAYER_TIMEOUTS = (asyncio.TimeoutError, RedisTimeoutError)
# A send to a socket its phone has just closed (the server's own words for it).
GONE_FAULTS = (ClientDisconnected, InvalidState)


def layer_failed(exc: BaseException) -> None:
    """One line, at most every ten seconds, when Redis is away: not a traceback per socket."""
    logs.expected(
        log,
        "layer",
        "channel layer unreachable, sockets closed with %s (the phones retry): %s: %s",
        CLOSE_TRY_LATER,
        type(exc).__name__,
        exc,
    )


def db_failed(exc: DatabaseError, message: str, *args: Any) -> None:
    """A lock held past its timeout or a lost connection is expected: one line. Anything else
    the database says is a bug: its stack."""
    if isinstance(exc, EXPECTED_DB_FAULTS):
        logs.expected(log, "db", message + ": %s: %s", *args, type(exc).__name__, exc)
    else:
        log.error(message, *args, exc_info=exc)


def broadcast_failed(exc: BaseException, name: str) -> None:
    if isinstance(exc, EXPECTED_LAYER_FAULTS):
        logs.expected(
            log,
            "broadcast",
            "tap %s committed and answered as applied; its frames did not go out (%s: %s): the "
            "other screens catch up when they reconnect",
            name,
            type(exc).__name__,
            exc,
        )
    else:
        log.error("tap %s committed, its broadcast failed", name, exc_info=exc)


def relay_failed(exc: Exception) -> None:
    if isinstance(exc, OSError):  # the phone went away; its socket's own loop cleans up
        log.debug("frame not relayed: %r", exc)
    else:
        log.error("frame not relayed", exc_info=exc)
