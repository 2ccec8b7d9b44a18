#!/usr/bin/env python
"""The project's modules one tap enters outside `rules/`, from the phone's socket back out to
every screen's: an HP tap, a 3 vs 3 commander's go and a 军争 chain (tests/support/taptrace.py
says what each is and how it is traced; tests/live/test_tap_path.py asserts the HP tap's
ceiling).

    .venv/bin/python bench/tap_trace_modules.py                 # the counts, each tap kind
    .venv/bin/python bench/tap_trace_modules.py --list          # the modules, in order entered
    .venv/bin/python bench/tap_trace_modules.py --list --calls  # the functions called in each
    .venv/bin/python bench/tap_trace_modules.py --json

Each kind runs in a process of its own on a new SQLite database and the in-memory layer, twice
on two new tables: "first" is the process's first such tap (caches cold: the first use of a
module, a name looked up for the first time), "again" the same tap once they are warm, as a
running server taps. The game packages' history words (`games/<key>/words.py`, one check per
registered game) are counted apart.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent))

KINDS = ("hp", "hp_holder", "threes_go", "chain")


def _run(kind: str) -> dict[str, Any]:
    """Trace `kind` twice in this process (see the module's docstring)."""
    os.environ.update(DJANGO_SETTINGS_MODULE="companion.settings", DEBUG="0")
    os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="sgs-modules-")
    for name in ("DB", "REDIS_URL"):
        os.environ.pop(name, None)
    import django  # noqa: PLC0415 - after the settings are chosen

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415

    from tests.support import taptrace  # noqa: PLC0415 - needs the app ready

    call_command("migrate", verbosity=0)

    async def both() -> dict[str, Any]:
        result: dict[str, Any] = {}
        for run in ("first", "again"):
            traced = await taptrace.TAPS[kind]()
            assert traced.answer is None, traced.answer  # answered by its own frame: applied
            outside = traced.outside_rules
            order = [n for n in dict.fromkeys(traced.order) if n in outside]
            words = sorted({n for n in traced.order if taptrace.GAME_WORDS.fullmatch(n)})
            calls = {n: list(traced.calls[n]) for n in order}
            result[run] = {
                "count": len(outside),
                "modules": order,
                "game_words": words,
                "calls": calls,
            }
        return result

    return asyncio.run(both())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=KINDS, help="one kind, in this process (internal)")
    parser.add_argument("--list", action="store_true", help="print the modules too")
    parser.add_argument("--calls", action="store_true", help="with --list: the functions called")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.kind:
        print(json.dumps(_run(args.kind)))
        return 0
    results: dict[str, Any] = {}
    for kind in KINDS:
        done = subprocess.run(  # noqa: S603 - this script, one kind
            [sys.executable, str(HERE), "--kind", kind],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            print(done.stderr[-3000:], file=sys.stderr)
            return done.returncode
        results[kind] = json.loads(done.stdout.strip().splitlines()[-1])
    if args.json:
        print(json.dumps(results, indent=1, ensure_ascii=False))
        return 0
    for kind, runs in results.items():
        first, again = runs["first"], runs["again"]
        print(
            f"{kind:>9}: {first['count']:3d} modules outside rules/ (first), "
            f"{again['count']:3d} (again); game words: {len(again['game_words'])}"
        )
        if args.list:
            for name in again["modules"]:
                mark = "" if name in first["modules"] else "  (again only)"
                print(f"           {name}{mark}")
                if args.calls:
                    print(f"               {', '.join(again['calls'][name])}")
            for name in first["modules"]:
                if name not in again["modules"]:
                    print(f"           {name}  (first only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
