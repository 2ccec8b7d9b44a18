"""The rules help's search: by Chinese name, English name, toneless pinyin or words of the text."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

from companion.rules.help.entries import Entry, all_entries

_MAX_READINGS = 64


def _spellings(name_zh: str) -> tuple[str, ...]:
    """Toneless pinyin spellings of a name, joined: the usual reading first, then the other
    readings of its characters (的卢 → delu, dilu), and ü as v and u (吕 → lv, lu)."""
    # pypinyin's dictionaries are tens of MiB: imported by the first search, not by every
    # process that renders a page (a server, a test's `manage.py play`).
    from pypinyin import Style, lazy_pinyin, pinyin  # noqa: PLC0415

    found = ["".join(lazy_pinyin(name_zh, style=Style.NORMAL))]
    readings = pinyin(name_zh, style=Style.NORMAL, heteronym=True)
    count = 1
    for options in readings:
        count *= max(1, len(options))
    if count <= _MAX_READINGS:
        found.extend("".join(combo) for combo in itertools.product(*readings))
    out: list[str] = []
    for spelling in found:
        # pypinyin writes ü as v (lv); a player types lv, lu or lü.
        for variant in (spelling, spelling.replace("v", "u"), spelling.replace("v", "ü")):
            if variant not in out:
                out.append(variant)
    return tuple(out)


@dataclass(frozen=True)
class _Indexed:
    entry: Entry
    names: tuple[str, ...]
    pinyins: tuple[str, ...]
    text: str


def _fold(text: str) -> str:
    return "".join(text.lower().split())


@cache
def _index() -> tuple[_Indexed, ...]:
    return tuple(
        _Indexed(
            entry=e,
            names=(_fold(e.name_zh), _fold(e.name_en)),
            # A skill's id is pinyin too (tieji), sometimes an older reading than pypinyin's.
            pinyins=(_spellings(e.name_zh) if e.kind != "faq" else ())
            + ((e.key.partition(":")[2],) if e.kind == "skill" else ()),
            text=_fold(" ".join(e.texts())),
        )
        for e in all_entries()
    )


def search(query: str, *, limit: int = 60) -> tuple[Entry, ...]:
    """Entries matching a query: exact names first, then names and pinyin that start with it,
    names and pinyin that hold it, and last the entries whose text holds every word of it."""
    words = [_fold(w) for w in query.split() if w.strip()]
    whole = _fold(query)
    if not whole:
        return ()
    ranked: list[tuple[int, int, Entry]] = []
    for i, item in enumerate(_index()):
        keys = item.names + item.pinyins
        if whole in keys:
            rank = 0
        elif any(k.startswith(whole) for k in keys):
            rank = 1
        elif any(whole in k for k in keys):
            rank = 2
        elif all(w in item.text for w in words):
            rank = 3
        else:
            continue
        ranked.append((rank, i, item.entry))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return tuple(r[2] for r in ranked[:limit])
