"""Server time of a seat's dialog (the "−" button's), against another tree.

The dialog of one seat, asked by the current player's phone, on an 8-seat 军争 table in play:
each request goes through the whole Django stack (middleware, view, template) with the test
client. The figure is the median CPU time (time.process_time) and wall time per request.

    python bench/seat_dialog.py                        # this tree
    python bench/seat_dialog.py --compare ../old-tree  # old and this tree, alternately

Each tree runs in a process of its own (`--tree`), so the old commit is measured by this same
script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def measure(tree: Path, players: int, requests: int) -> dict[str, float]:
    """Median CPU and wall ms per dialog request, in this process, with `tree`'s app."""
    sys.path.insert(0, str(tree))
    os.environ.update(DJANGO_SETTINGS_MODULE="companion.settings", DATA_DIR=tempfile.mkdtemp())
    for name in ("DB", "REDIS_URL"):
        os.environ.pop(name, None)
    import django  # noqa: PLC0415 - after the settings are chosen

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415

    from companion import actions  # noqa: PLC0415
    from companion.models import Seat  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    table = actions.table_create()
    options = {"first_game_mode": True, "maneuvering": True}
    actions.table_set_options(token=table.host_token, options=options)
    for i in range(players):
        actions.seat_join(code=table.code, name=f"玩家{i + 1}", device=f"d{i}")
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    me = next(s for s in seats if s.pk == table.turn_seat_id)
    target = next(s for s in seats if s.pk != me.pk)
    actions.equipment_set(token=table.host_token, seat_id=me.pk, name="赤兔")
    actions.seat_change_hp(token=table.host_token, seat_id=target.pk, delta=-1, source=me.pk)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    url = f"/p/{me.token}/seat/{target.pk}"
    assert client.get(url).status_code == 200
    for _ in range(20):
        client.get(url)
    cpu, wall = [], []
    for _ in range(requests):
        c, w = time.process_time(), time.perf_counter()
        client.get(url)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return {"cpu": statistics.median(cpu) * 1000, "wall": statistics.median(wall) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", type=Path, default=HERE.parent.parent)
    parser.add_argument("--compare", type=Path, help="another checkout, measured alternately")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one tree's figures as JSON")
    args = parser.parse_args()
    if args.compare is None:
        result = measure(args.tree.resolve(), args.players, args.requests)
        if args.json:
            print(json.dumps(result))
        else:
            print(f"cpu {result['cpu']:.2f} ms, wall {result['wall']:.2f} ms per dialog")
        return
    trees = {"old": args.compare.resolve(), "new": args.tree.resolve()}
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            command = [sys.executable, str(HERE), "--tree", str(tree), "--json"]
            command += ["--players", str(args.players), "--requests", str(args.requests)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    for name in trees:
        cpu = statistics.median(r["cpu"] for r in runs[name])
        wall = statistics.median(r["wall"] for r in runs[name])
        print(f"{name}: cpu {cpu:.2f} ms, wall {wall:.2f} ms per dialog ({trees[name]})")
    ratio = statistics.median(r["cpu"] for r in runs["new"]) / statistics.median(
        r["cpu"] for r in runs["old"]
    )
    print(f"new/old cpu: {ratio:.2f}")


if __name__ == "__main__":
    main()
