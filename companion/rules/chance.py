"""The app's one source of chance: every draw (the identities, the hero offers, the draft's pool,
a mode's own cards, a game's own draw from the box) takes its generator from `source()` unless its
caller passes one (`rng=`).

`source()` is the operating system's secure source (`secrets.SystemRandom`): the identities are
secrets, and a deal anyone could predict would hand every hidden identity to whoever knows how.

`seeded(seed)` pins it to a reproducible generator for the duration of a `with` block, and is
for the test suite alone (tests/conftest.py seeds it per test from the test's id, so a test's
draws are the same whatever ran before it). No module of the app calls it, and nothing reads
a seed from the environment or the settings: a production server cannot be made to deal
predictably (tests/rules/test_chance.py checks both).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

_pinned: random.Random | None = None


def source() -> random.Random:
    """The generator a draw uses: a fresh `secrets.SystemRandom`, or the tests' seeded one."""
    if _pinned is not None:
        return _pinned
    return secrets.SystemRandom()


def given_or_source(rng: random.Random | None) -> random.Random:
    """The caller's generator if it passed one, else `source()`."""
    return rng if rng is not None else source()


@contextmanager
def seeded(seed: int | str) -> Iterator[random.Random]:
    """Tests only: every draw inside the block comes from `random.Random(seed)`; the previous
    source is back after it."""
    global _pinned
    previous = _pinned
    _pinned = random.Random(seed)  # noqa: S311 - reproducible on purpose, for tests
    try:
        yield _pinned
    finally:
        _pinned = previous


def is_seeded() -> bool:
    """Whether `seeded` is in force (never, outside a test)."""
    return _pinned is not None
