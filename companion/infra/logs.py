"""Seat and host tokens must never reach a log line (docs/threats.md 5).

Every log record is redacted when it is created, whichever logger or handler it goes to
(Django's "Not Found: /p/<token>/", the ASGI server's errors, tracebacks).
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from redis.exceptions import RedisError

# Tokens are 32 url-safe characters (companion.models.new_token); mask any such run.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32,}")
_FORMATTER = logging.Formatter()


_last_said: dict[str, float] = {}


def expected(
    logger: logging.Logger, kind: str, message: str, *args: Any, every: float = 10
) -> None:
    """An expected fault (Redis away, a database lock held too long): one line that says what
    happened and what the app does about it, no stack, at most once every `every` seconds per
    kind; the repeats go to debug. Only the unexpected logs a stack."""
    now = time.monotonic()
    if now - _last_said.get(kind, -every) >= every:
        _last_said[kind] = now
        logger.warning(message, *args)
    else:
        logger.debug(message, *args)


def redact(text: str) -> str:
    """Mask every token-like run in a text."""
    return TOKEN_RE.sub("[redacted]", text)


def _outage_line(record: logging.LogRecord) -> None:
    """channels_redis logs a traceback per socket and per second while Redis is away: keep one
    line each (what failed and why), no stack."""
    exc = record.exc_info[1] if record.exc_info else None
    if record.name.startswith("channels_redis") and isinstance(exc, OSError | RedisError):
        record.msg = f"{record.getMessage()} {type(exc).__name__}: {exc}"
        record.args = None
        record.exc_info = None
        # The app says once what it does about it (companion.web.consumers); repeats are debug.
        now = time.monotonic()
        if now - _last_said.get("channels_redis", -10) >= 10:
            _last_said["channels_redis"] = now
        else:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"


def _bad_request_line(record: logging.LogRecord) -> None:
    """A request refused as malformed (a bad Host, too many fields, a multipart body without
    its boundary: Django's `django.security.*` records and its 4xx warnings) is anyone's to
    send and expected: one line, what was wrong, no stack. A server error keeps its stack."""
    security = record.name.startswith("django.security.")
    refused = record.name == "django.request" and record.levelno < logging.ERROR
    if not (security or refused) or not (record.exc_info or record.exc_text):
        return
    exc = record.exc_info[1] if record.exc_info else None
    if refused and exc is not None:
        record.msg = f"{record.getMessage()} ({type(exc).__name__}: {exc})"
        record.args = None
    record.exc_info = None
    record.exc_text = None
    if security:  # the request's fault, not the server's
        record.levelno, record.levelname = logging.WARNING, "WARNING"


def _redact_record(record: logging.LogRecord) -> None:
    _outage_line(record)
    _bad_request_line(record)
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a broken format string must not hide the record
        message = str(record.msg)
    record.msg = redact(message)
    record.args = None
    if record.exc_info and not record.exc_text:
        record.exc_text = redact(_FORMATTER.formatException(record.exc_info))
        record.exc_info = None
    elif record.exc_text:
        record.exc_text = redact(record.exc_text)
    for name in ("request", "scope"):
        if hasattr(record, name):
            setattr(record, name, None)


def install() -> None:
    """Redact every record at creation (idempotent)."""
    current = logging.getLogRecordFactory()
    if getattr(current, "redacting", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        _redact_record(record)
        return record

    factory.redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


class RedactSecrets(logging.Filter):
    """Handler filter: the same redaction, for records made before install() ran."""

    def filter(self, record: logging.LogRecord) -> bool:
        _redact_record(record)
        return True
