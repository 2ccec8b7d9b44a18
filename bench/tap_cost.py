"""Server CPU of one tap of each kind, against an HP tap in the same process.

Each tap runs as the app runs it: the action's transaction, then, on commit, the rendering of its
frames and their hand-over to the in-memory channel layer (every group of an 8-seat table,
Chinese only, as a table whose phones all speak it). Kinds are interleaved round by round, so a
noisy machine slows them alike; the figure is the median CPU time (time.process_time) per tap.

    python bench/tap_cost.py                        # this tree
    python bench/tap_cost.py --compare ../old-tree  # old and this tree, alternately, 3 times each
    python bench/tap_cost.py --stock                # STOCK_PATH=1 (the ORM) against this tree

`--compare` runs this same file against another checkout of the app (its `companion/`), so the
old commit is measured by the same script.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
KINDS = ("hp", "equip_horse", "equip_armour", "dying", "peach", "trick", "next_phase")
# 军争: a 雷杀 along a chain of four seats, one change and one broadcast; measured
# when the tree has the resolver (an older tree is compared on the kinds it has).
CHAIN_KIND = "chain4"


def maneuvering_actions(core: Any) -> Any:
    """Where the tree keeps 军争's actions: its game package, or (older trees) the core's."""
    try:
        from companion.games.maneuvering import actions as chain_actions  # noqa: PLC0415
    except ImportError:
        return core if hasattr(core, "damage_resolve") else None
    return chain_actions


def measure(
    tree: Path, rounds: int, players: int, marks: bool = False, marked: list[str] | None = None
) -> dict[str, float]:
    """Median CPU ms per tap of each kind, in this process, with `tree`'s app. `marks`: each timed
    tap between a call of getppid and one of getpgrp, whose kinds go to `marked` in order (for
    callgrind, `instructions`)."""
    marked = [] if marked is None else marked
    sys.path.insert(0, str(tree))
    data = tempfile.mkdtemp(prefix="tapcost-")
    os.environ.update(DJANGO_SETTINGS_MODULE="companion.settings", DATA_DIR=data)
    for name in ("DB", "REDIS_URL"):
        os.environ.pop(name, None)
    import django  # noqa: PLC0415 - after the settings are chosen

    django.setup()
    from asgiref.sync import async_to_sync  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415

    from companion import actions  # noqa: PLC0415
    from companion.live import broadcast  # noqa: PLC0415
    from companion.models import Seat, Table  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    table = actions.table_create()
    chain_actions = maneuvering_actions(actions)
    chains = chain_actions is not None
    options = {"first_game_mode": True, **({"maneuvering": True} if chains else {})}
    actions.table_set_options(token=table.host_token, options=options)
    for i in range(players):
        actions.seat_join(code=table.code, name=f"玩家{i + 1}", device=f"d{i}")
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    # An older tree keeps the languages in the cache, by table code.
    broadcast.note_language(table if hasattr(Table, "screen_langs") else table.code, "zh-hans")
    host = table.host_token
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    target = next(s for s in seats if s.pk != table.turn_seat_id and s.identity != "lord")
    giver = next(s for s in seats if s.identity == "lord")
    holder = Seat.objects.get(pk=table.turn_seat_id)

    def hp_now() -> int:
        return Seat.objects.get(pk=target.pk).hp

    state = {"hp": -1, "horse": True, "armour": True, "trick": True}

    def hp() -> None:
        actions.seat_change_hp(token=host, seat_id=target.pk, delta=state["hp"])
        state["hp"] = -state["hp"]

    def equip(name: str, slot: str, key: str) -> Callable[[], None]:
        def run() -> None:
            if state[key]:
                actions.equipment_set(token=host, seat_id=target.pk, name=name)
            else:
                actions.equipment_remove(token=host, seat_id=target.pk, slot=slot)
            state[key] = not state[key]

        return run

    def dying() -> None:
        # From full HP (`before`): no read of the seat inside the timed tap.
        actions.seat_change_hp(token=host, seat_id=target.pk, delta=-full)

    def peach() -> None:
        actions.seat_rescue(token=host, seat_id=target.pk, by=giver.pk, kind="peach")

    def trick() -> None:
        if state["trick"]:
            actions.trick_place(token=host, seat_id=target.pk, name="闪电")
        else:
            actions.trick_remove(token=host, seat_id=target.pk, name="闪电")
        state["trick"] = not state["trick"]

    def next_phase() -> None:
        actions.turn_advance(token=host)

    full = hp_now()

    def before(kind: str) -> None:
        """Untimed: the state each kind starts from."""
        if kind == "next_phase" and Table.objects.get(pk=table.pk).phase == "play":
            # Start -> judgement -> draw -> play, then back to start (the host corrects it).
            actions.turn_set(token=host, seat_id=holder.pk, phase="start")
        if kind in ("hp", "dying") and hp_now() != full:
            actions.seat_change_hp(token=host, seat_id=target.pk, delta=full - hp_now())
            state["hp"] = -1

    chained = [s for s in seats if s.pk != holder.pk][:4]

    def chain4() -> None:
        assert chain_actions is not None
        chain_actions.damage_resolve(
            token=host, target=chained[0].pk, card="雷杀", source=holder.pk
        )

    def rechain() -> None:
        """Untimed: the four seats at full HP and chained again."""
        for seat in Seat.objects.filter(pk__in=[c.pk for c in chained]):
            if seat.hp != seat.max_hp:
                actions.seat_change_hp(token=host, seat_id=seat.pk, delta=seat.max_hp - seat.hp)
            if not seat.chained:
                assert chain_actions is not None
                chain_actions.seat_set_chained(token=host, seat_id=seat.pk, chained=True)

    taps: dict[str, Callable[[], None]] = {
        "hp": hp,
        "equip_horse": equip("赤兔", "minus_horse", "horse"),
        "equip_armour": equip("八卦阵", "armor", "armour"),
        "dying": dying,
        "peach": peach,
        "trick": trick,
        "next_phase": next_phase,
    }
    kinds = (*KINDS, CHAIN_KIND) if chains else KINDS
    if chains:
        taps[CHAIN_KIND] = chain4
    times: dict[str, list[float]] = {k: [] for k in kinds}

    timed = False

    def one(kind: str) -> None:
        before(kind)
        if kind == CHAIN_KIND:
            rechain()
        version = Table.objects.get(pk=table.pk).version
        if marks and timed:
            os.getppid()  # callgrind: --zero-before=getppid
        with broadcast.collecting() as box:
            start = time.process_time()
            taps[kind]()
            mid = time.process_time()
        async_to_sync(broadcast.send_all)(box)
        times[kind].append((mid - start + time.process_time() - mid) * 1000)
        if marks and timed:
            os.getpgrp()  # callgrind: --dump-before=getpgrp
            marked.append(kind)
        if kind == CHAIN_KIND:
            assert Table.objects.get(pk=table.pk).version == version + 1, "one change"
            public = [g for g, _m in box if g == broadcast.table_group(table.code, "zh-hans")]
            assert len(public) == 1, "a chain of four is one broadcast"

    for _ in range(3):  # warm up: templates, caches, the ORM's statements
        for kind in kinds:
            one(kind)
    for kind in kinds:
        times[kind].clear()
    timed = True
    for _ in range(rounds):
        for kind in kinds:
            one(kind)
            if kind in ("dying", "peach", CHAIN_KIND):
                continue
            one(kind)  # the other half of the pair (-1/+1, on/off)
    return {k: statistics.median(v) for k, v in times.items()}


def render(name: str, result: dict[str, float], unit: str = "ms") -> str:
    base = result["hp"]
    cells = "  ".join(f"{k} {v:5.2f} {unit} ({v / base:4.2f}x)" for k, v in result.items())
    return f"{name:>5}: {cells}"


def instructions(tree: Path, rounds: int, players: int) -> dict[str, float]:
    """Median instructions per tap of each kind (in millions), counted by valgrind's callgrind
    in a run of this script with marks: independent of the machine's load, unlike CPU time."""
    with tempfile.TemporaryDirectory(prefix="tapcost-cg-") as out:
        run = subprocess.run(  # noqa: S603 - valgrind on this script
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg"]  # noqa: S607
            + ["--zero-before=getppid", "--dump-before=getpgrp", sys.executable, str(HERE)]
            + ["--tree", str(tree), "--json", "--marks", "--rounds", str(rounds)]
            + ["--players", str(players)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        marked = json.loads(run.stdout.strip().splitlines()[-1])["marked"]
        dumps = sorted(Path(out).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        counts: dict[str, list[int]] = {}
        for kind, dump in zip(marked, dumps, strict=False):
            summary = next(
                line for line in dump.read_text().splitlines() if line.startswith("summary:")
            )
            counts.setdefault(kind, []).append(int(summary.split()[1]))
    return {k: statistics.median(v) / 1e6 for k, v in counts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent.parent)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--compare", type=Path, help="another checkout, measured alternately")
    parser.add_argument("--stock", action="store_true", help="compare with STOCK_PATH=1")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON line (internal)")
    parser.add_argument("--marks", action="store_true", help="mark each tap (internal)")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under callgrind"
    )
    args = parser.parse_args(argv)
    if args.instructions:
        result = instructions(args.tree.resolve(), args.rounds, args.players)
        print(render("this", result, "M instr"))
        return 0
    if args.compare is None and not args.stock:
        marked: list[str] = []
        result = measure(args.tree.resolve(), args.rounds, args.players, args.marks, marked)
        if args.json:
            print(json.dumps({**result, "marked": marked} if args.marks else result))
        else:
            print(render("this", result))
        return 0
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    trees = {"old": (args.compare or args.tree).resolve(), "new": args.tree.resolve()}
    envs = {"old": {"STOCK_PATH": "1"} if args.stock else {}, "new": {"STOCK_PATH": ""}}
    labels = {"old": "stock", "new": "ours"} if args.stock else {"old": "old", "new": "new"}
    for _ in range(args.repeats):
        for name in ("old", "new"):
            out = subprocess.run(  # noqa: S603 - this script, another tree
                [sys.executable, str(HERE), "--tree", str(trees[name]), "--json"]
                + ["--rounds", str(args.rounds), "--players", str(args.players)],
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, **envs[name]},
            ).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
            print(render(labels[name], runs[name][-1]), flush=True)
    medians: dict[str, dict[str, Any]] = {
        name: {k: statistics.median(r[k] for r in rs) for k in KINDS} for name, rs in runs.items()
    }
    print("median of the runs:")
    for name in ("old", "new"):
        print(render(labels[name], medians[name]))
    print(
        "new/old: " + "  ".join(f"{k} {medians['new'][k] / medians['old'][k]:4.2f}x" for k in KINDS)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
