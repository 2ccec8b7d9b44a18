#!/usr/bin/env python
"""Summarise py-spy collapsed stacks (`bench/run.py --profile DIR` writes them).

    .venv/bin/python bench/profile_summary.py DIR/run1-s0.txt [--top 25] [--filter TEXT]

Prints the share of samples per area of the code (first matching rule, innermost frame
first), then the top functions by inclusive and by self time. Shares are of the samples py-spy
took of busy threads, i.e. of the server's CPU time.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

FRAME_RE = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")

# (area, substring of a frame's "function (file)"). Checked from the innermost frame outwards,
# first match wins, so more specific areas come first.
AREAS = [
    ("SQLite / psycopg driver", ("sqlite3/", "psycopg/", "psycopg_binary")),
    ("Django ORM (queries, models)", ("django/db/",)),
    ("template rendering", ("django/template/", "template_partials/")),
    ("translation (gettext)", ("django/utils/translation", "gettext.py")),
    ("channel layer", ("channels/layers.py", "companion/live/layers.py", "channels_redis/")),
    (
        "websocket protocol (uvicorn/websockets)",
        ("websockets/", "wsproto/", "protocols/websockets"),
    ),
    ("HTTP protocol (uvicorn/httptools)", ("protocols/http",)),
    ("consumer", ("companion/web/consumers/", "channels/consumer.py", "channels/generic/")),
    ("middleware", ("middleware", "django/utils/deprecation.py")),
    ("CSRF / request parsing", ("django/http/", "django/middleware/csrf.py")),
    ("URL resolving", ("django/urls/",)),
    (
        "state / rules / actions",
        (
            "companion/read/state.py",
            "companion/read/public_seat.py",
            "companion/read/turn.py",
            "companion/read/private.py",
            "companion/read/history.py",
            "companion/read/delta.py",
            "companion/rules/",
            "companion/actions/",
        ),
    ),
    ("asgiref sync/async hops, threads", ("asgiref/", "concurrent/futures", "threading.py")),
    ("asyncio event loop", ("asyncio/", "uvloop")),
]


def parse(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _sep, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [f.strip() for f in stack.split(";")]
        stacks.append((frames, int(count)))
    return stacks


def name(frame: str) -> str:
    match = FRAME_RE.match(frame)
    if not match:
        return frame
    file = match.group("file")
    for marker in ("site-packages/", "lib/python3"):
        if marker in file:
            file = file.split(marker, 1)[1]
    return f"{match.group('func')} ({file})"


def area_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        for area, needles in AREAS:
            if any(n in frame for n in needles):
                return area
    return "other"


def summarise(stacks: list[tuple[list[str], int]], top: int) -> str:
    total = sum(count for _frames, count in stacks) or 1
    areas: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    for frames, count in stacks:
        areas[area_of(frames)] += count
        for fn in {name(f) for f in frames}:
            inclusive[fn] += count
        own[name(frames[-1])] += count
    out = [f"{total} samples"]
    out.append("\nby area (innermost matching frame):")
    out += [f"  {100 * n / total:5.1f} %  {area}" for area, n in areas.most_common()]
    out.append(f"\ntop {top} inclusive:")
    out += [f"  {100 * n / total:5.1f} %  {fn}" for fn, n in inclusive.most_common(top)]
    out.append(f"\ntop {top} self:")
    out += [f"  {100 * n / total:5.1f} %  {fn}" for fn, n in own.most_common(top)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="py-spy raw (collapsed) files")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--filter", help="only stacks with a frame containing this text")
    args = parser.parse_args(argv)
    stacks = [s for path in args.files for s in parse(path)]
    if args.filter:
        stacks = [s for s in stacks if any(args.filter in f for f in s[0])]
    try:
        print(summarise(stacks, args.top))
    except BrokenPipeError:  # piped into head
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
