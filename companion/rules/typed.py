"""What a text a user types may hold (a name, a hero's texts in the box, a tap's word), the one
rule every field and both databases share (plain Python).

PostgreSQL keeps no NUL character in its text or JSON columns (SQLite would), and half of a
surrogate pair has no UTF-8 form: a text holding either would be kept on one setup and be a
server error on the other, so it is refused wherever it is typed, with the field's message.
"""

from __future__ import annotations

import re

# NUL, and a surrogate code point (only half of a pair ever arrives on its own).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> bool:
    """Whether both databases keep this text as typed."""
    return _UNSTORABLE.search(text) is None
