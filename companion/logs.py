"""A logging filter that masks seat and host tokens wherever they appear."""

from __future__ import annotations

import logging
import re

# Tokens are 32 url-safe characters (companion.models.new_token); mask any such run.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32,}")


def redact(text: str) -> str:
    """Mask every token-like run in a text."""
    return TOKEN_RE.sub("[redacted]", text)


class RedactSecrets(logging.Filter):
    """Rewrite the record's message with tokens masked; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken format string must not hide the record
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True
