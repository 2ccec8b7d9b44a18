"""Refusals of the rules: bad input that changes nothing (plain Python).

A refusal is a `ValueError` (what the rules raise for input out of range) with a `code` the
actions turn into a message for the screen, and an English detail for logs and tests.
"""

from __future__ import annotations


class Refused(ValueError):
    """The rules refuse this input; nothing changed. `code` says why."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
