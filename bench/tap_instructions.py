#!/usr/bin/env python
"""Instructions per HP tap, counted by callgrind: all but independent of the machine's load.

    .venv/bin/python bench/tap_instructions.py                 # this tree, 8 phones
    .venv/bin/python bench/tap_instructions.py --taps 40 60    # the two runs' tap counts
    .venv/bin/python bench/tap_instructions.py --tree ../other # another checkout of the app

Wall and CPU times on a shared machine move by a third from run to run; instruction counts move
by well under one per cent. The app runs in one process, as one server process runs it
(embedded: SQLite and the in-memory layer): `--phones` phones and a display connect their
websockets to a table in play (Channels' WebsocketCommunicator against the app's ASGI
application), one phone taps its own HP (−1, then +1, alternately) over its socket, and each tap
is waited for until every screen has its frame. The script runs twice under `valgrind
--tool=callgrind`, with two numbers of taps; the difference of the two totals over the
difference of the taps is one tap's instructions, start-up and set-up left out. The test
client's side of each frame (the communicators) is counted too, the same for any tree.
The count still moves by about 0.2 % from run to run (the deal is at random; a loaded machine
counts a little more): compare two trees run at the same time, more than once.

An older checkout with the flat layout (before `companion/infra/`, e.g. 1e8c4ae:
`companion/dbthread.py`, `companion/taps.py`) runs the same workload: the layout is told by whether
`companion/infra/` exists, and only the set-up adapts (where `dbthread` is imported from; the
actions set-up calls take `token=` in both). One difference of behaviour is bridged: the flat
tree remembers each applied tap in process memory and merges an identical tap within
`TAP_REPEAT_WINDOW_MS` even when another change came between, so its third tap (−1 again,
a few hundred ms after the first) would be merged, not applied; today's tree merges only a
repeat of the table's last change. The script forgets the flat tree's memory before each tap
(`companion.taps._recent.clear()`, a few instructions), so that both trees apply every tap and
send every screen its frame; the window's look-up still runs, and misses, in both.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
TOTAL_RE = re.compile(r"Collected : (\d+)")


def taps_in_process(tree: Path, phones: int, taps: int) -> None:
    """Set the app of `tree` up in this process and run `taps` HP taps over a phone's socket."""
    sys.path.insert(0, str(tree))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="companion.settings",
        DATA_DIR=tempfile.mkdtemp(prefix="sgs-instr-"),
        DEBUG="0",
    )
    for name in ("DB", "REDIS_URL"):
        os.environ.pop(name, None)
    import django  # noqa: PLC0415 - after the settings are chosen

    django.setup()
    from django.conf import settings  # noqa: PLC0415

    # One phone taps far faster here than a person can: its socket's rate limit is lifted.
    settings.WS_MAX_MESSAGES_PER_10S = 10**9
    from channels.db import database_sync_to_async  # noqa: PLC0415
    from channels.testing import WebsocketCommunicator  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415

    from companion import actions  # noqa: PLC0415
    from companion.asgi import application  # noqa: PLC0415

    flat = not (tree / "companion" / "infra").is_dir()
    dbthread = importlib.import_module("companion.dbthread" if flat else "companion.infra.dbthread")
    # The flat tree's double-tap memory (see the docstring): forgotten before each tap.
    forget_taps = importlib.import_module("companion.taps")._recent.clear if flat else lambda: None
    from companion.models import Seat  # noqa: PLC0415

    call_command("migrate", verbosity=0)

    @database_sync_to_async
    def playing_table() -> tuple[str, list[Seat]]:
        table = actions.table_create()
        actions.table_set_options(token=table.host_token, options={"first_game_mode": True})
        for i in range(phones):
            actions.seat_join(code=table.code, name=f"P{i + 1}", device=f"instr-{i}")
        actions.identities_deal(token=table.host_token)
        actions.game_start(token=table.host_token)
        return table.code, list(Seat.objects.filter(table=table).order_by("position", "slot"))

    async def open_socket(path: str) -> WebsocketCommunicator:
        comm = WebsocketCommunicator(
            application, path, headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")]
        )
        connected, _code = await comm.connect(timeout=30)
        assert connected, path
        await comm.receive_from(timeout=30)  # the snapshot
        return comm

    async def run() -> None:
        code, seats = await playing_table()
        me = next(s for s in seats if s.identity != "lord")
        screens = [await open_socket(f"/ws/{s.token}/") for s in seats]
        screens.append(await open_socket(f"/ws/t/{code}/"))
        tapper = screens[seats.index(me)]
        for i in range(taps):
            action_id = f"instr{i:06d}"
            fields = {"seat": str(me.pk), "delta": "-1" if i % 2 == 0 else "1"}
            message = {"type": "act", "name": "hp", "fields": fields, "action_id": action_id}
            forget_taps()
            await tapper.send_to(text_data=json.dumps(message))
            for comm in screens:
                while True:
                    frame = await comm.receive_from(timeout=60)
                    if f'data-action="{action_id}"' in frame:
                        break
                    assert not frame.startswith("{"), frame
        for comm in screens:
            await comm.disconnect()

    asyncio.run(run())
    dbthread.shutdown()


def counted(tree: Path, phones: int, taps: int) -> int:
    """The instructions of one run of `taps` taps, under callgrind."""
    out = str(Path(tempfile.mkdtemp(prefix="callgrind-")) / "callgrind.out")
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            str(HERE),
            "--in-process",
            "--tree",
            str(tree),
            "--phones",
            str(phones),
            "--taps",
            str(taps),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    Path(out).unlink(missing_ok=True)
    Path(out).parent.rmdir()
    found = TOTAL_RE.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"the run of {taps} taps failed:\n{done.stderr[-3000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent.parent, help="the app's tree")
    parser.add_argument("--phones", type=int, default=8, help="phones at the table (8)")
    parser.add_argument("--taps", type=int, nargs="+", default=[20, 80], help="taps per run")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    tree = args.tree.resolve()
    if args.in_process:
        taps_in_process(tree, args.phones, args.taps[0])
        return 0
    low, high = args.taps
    few, many = counted(tree, args.phones, low), counted(tree, args.phones, high)
    per_tap = (many - few) / (high - low)
    print(json.dumps({"tree": str(tree), "instructions_per_tap": round(per_tap)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
