#!/usr/bin/env python
"""Capacity: the highest taps/s that 1 and 2 processes on PostgreSQL + Redis hold.

    .venv/bin/python bench/capacity.py                       # 1 and 2 processes, 100 tables × 8
    .venv/bin/python bench/capacity.py --processes 1,2,3 --start 100 --step 50 --max 800
    .venv/bin/python bench/capacity.py --redis-shards 2      # the channel layer on two shards
    .venv/bin/python bench/capacity.py --json

For each count N of --processes it starts N `manage.py play` processes on a PostgreSQL database
and a Redis prefix of their own (bench/fleet.py's Fleet, as `bench/run.py --scale-out N`; each
server pinned to its own core and the generator to the last one where there are enough cores,
see the pinning line), seats --tables tables of --phones phones (bench/load.py's Bench, a
table's phones spread over the processes), then taps in steps: --start taps/s, then --step more
each time, up to --max. Each step is --warmup unmeasured seconds and --step-seconds measured, then
the drain (every due frame, or 10 s without one). A step is held when every tap was applied and
every due frame arrived once and in order (nothing lost, duplicated, refused or failed) and the
tap→phone p99 is at most --p99 ms (100); the steps stop at the first one not held. A process's
capacity is the taps/s achieved in its highest held step (0 when even the first failed: lower
--start).

It prints each step (asked, achieved, p99, lost, server CPU per tap, how busy the servers' cores
were, the load average), then one line per process count and the ratio of the last to the first.
Figures, not a verdict: the exit status is 0 whenever the runs completed (2 when the setup
failed, 130 when interrupted). On a machine shared with other jobs the figures say as much about
them as about the app: run it on a quiet machine (--wait-quiet S waits for one first).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

try:
    import uvloop
except ImportError:  # optional: a faster event loop for the simulated phones
    uvloop = None

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import run  # noqa: E402
from bench.fleet import Fleet, SetupError, app_version  # noqa: E402
from bench.load import Bench  # noqa: E402
from bench.procs import raise_fd_limit, wait_quiet  # noqa: E402
from bench.tables import MIN_PHONES  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/capacity.py",
        description="The highest taps/s held at p99 <= 100 ms with nothing lost, for 1 and 2 "
        "processes on PostgreSQL + Redis.",
    )
    parser.add_argument("--processes", default="1,2", help="process counts, e.g. 1,2 (1,2)")
    parser.add_argument("--tables", type=int, default=100, help="tables (100)")
    parser.add_argument("--phones", type=int, default=8, help="phones per table, 4 to 10 (8)")
    parser.add_argument("--start", type=float, default=100, help="first step's taps/s (100)")
    parser.add_argument("--step", type=float, default=50, help="taps/s added per step (50)")
    parser.add_argument("--max", type=float, default=1000, help="last step's taps/s (1000)")
    parser.add_argument("--step-seconds", type=float, default=20, help="measured s a step (20)")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured s a step first (3)")
    parser.add_argument("--p99", type=float, default=100, help="tap→phone p99 limit, ms (100)")
    parser.add_argument(
        "--redis-shards",
        type=int,
        default=0,
        metavar="K",
        help="the channel layer on K redis-servers started for the run (0: REDIS_URL's Redis)",
    )
    parser.add_argument(
        "--via", choices=("ws", "http"), default="ws", help="taps over the socket (ws) or HTTP"
    )
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to cores")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="S", help="wait for idle")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    try:
        args.counts = [int(n) for n in args.processes.split(",") if n.strip()]
    except ValueError:
        parser.error("--processes must be counts separated by commas, e.g. 1,2")
    if not args.counts or not all(1 <= n <= 16 for n in args.counts):
        parser.error("--processes must be 1 to 16 each")
    if not MIN_PHONES <= args.phones <= 10 or not 1 <= args.tables <= 2000:
        parser.error(f"--phones must be {MIN_PHONES} to 10 and --tables 1 to 2000")
    if not 0 < args.start <= args.max or args.step <= 0:
        parser.error("--start must be above 0 and at most --max; --step above 0")
    if args.max / args.tables > 20:
        parser.error("--max must be at most 20 taps/s a table: more --tables")
    if not 0 < args.step_seconds <= 600 or not 0 <= args.warmup <= 60:
        parser.error("--step-seconds must be 0 to 600 and --warmup 0 to 60")
    if not 0 <= args.redis_shards <= 8:
        parser.error("--redis-shards must be 0 to 8")
    # What Bench reads of bench/run.py's options.
    args.rate = args.start / args.tables
    args.profile = args.cprofile = None
    return args


def held(step: dict[str, Any], limit_ms: float) -> bool:
    return (
        step["taps_applied"] == step["taps_sent"] > 0
        and step["lost"] == step["duplicated"] == step["out_of_order"] == 0
        and step["private_received"] == step["private_expected"]
        and step["latency_ms"]["p99"] <= limit_ms
    )


async def measure(args: argparse.Namespace, fleet: Fleet) -> dict[str, Any]:
    bench = Bench(args, fleet)
    steps: list[dict[str, Any]] = []
    try:
        setup = await bench.setup()
        tables = [t for t in bench.tables if t.ready]
        if not tables or setup["connections_failed"]:
            raise SetupError(f"tables not ready: {setup}")
        monitor = asyncio.create_task(bench.lag_monitor())
        try:
            target = args.start
            while target <= args.max + 1e-9:
                args.rate = target / len(tables)
                steps.append(await step(bench, len(steps), tables))
                if not held(steps[-1], args.p99):
                    break
                target += args.step
        finally:
            monitor.cancel()
    finally:
        await run.close_sockets(bench)
    best = max(
        (s for s in steps if held(s, args.p99)), key=lambda s: s["target_taps_per_s"], default=None
    )
    return {
        "setup": setup,
        "pinning": fleet.pin_note,
        "steps": steps,
        "capacity_taps_per_s": best["achieved_taps_per_s"] if best else 0.0,
        "redis_shards": fleet.shard_stats(),
    }


async def step(bench: Bench, index: int, tables: list[Any]) -> dict[str, Any]:
    """One step: warm-up, the measured window, the drain, its figures (bench/load.py's)."""
    if bench.args.warmup > 0:
        await bench.schedule(-1, bench.args.warmup, tables)
    before = bench.out_of_order
    figures = await bench.schedule(index, bench.args.step_seconds, tables)
    figures["drain_s"] = await bench.drain(index)
    figures["drain_end"] = time.perf_counter()
    figures["out_of_order"] = bench.out_of_order - before
    figures["frame_kb"] = 0
    figures["dropped"] = sum(p.dropped for t in tables for p in t.phones)
    return bench.summarise(index, figures, tables)


def render(result: dict[str, Any]) -> str:
    config = result["config"]
    out = [
        f"sgs capacity · PostgreSQL + Redis"
        f"{' (' + str(config['redis_shards']) + ' shards)' if config['redis_shards'] else ''} · "
        f"{config['tables']} tables × {config['phones']} phones · held: p99 ≤ {config['p99']:g} "
        f"ms, nothing lost · {config['step_seconds']:g} s a step · app {config['app']} · "
        f"{config['started']}"
    ]
    for count, found in result["processes"].items():
        out.append(f"{count} process{'es' if count != '1' else ''} ({found['pinning']}):")
        for s in found["steps"]:
            lat = s["latency_ms"]
            out.append(
                f"  asked {s['target_taps_per_s']:g} taps/s: achieved "
                f"{s['achieved_taps_per_s']:g}, p99 {lat['p99']:g} ms, lost {s['lost']}, "
                f"duplicated {s['duplicated']}, refused {s['taps_refused']}, failed "
                f"{s['taps_failed']}; server CPU {s['cpu_per_tap_ms']} ms/tap "
                f"(+ {s['services_cpu_per_tap_ms']} PostgreSQL/Redis, of which PostgreSQL "
                f"{s.get('postgres_cpu_per_tap_ms')}), "
                f"cores {s['server_core_busy_pct']:g} % busy; load average {s['load_average']:g}"
                f"{'' if held(s, config['p99']) else '  ← not held'}"
            )
        for shard in found["redis_shards"]:
            out.append(f"  shard {shard['url']}: PUBLISH {shard['publish']}")
    out.append("capacity (the highest taps/s held):")
    figures = {int(k): v["capacity_taps_per_s"] for k, v in result["processes"].items()}
    for count, taps in figures.items():
        out.append(f"  {count} process{'es' if count != 1 else ''}: {taps:g} taps/s")
    first, last = min(figures), max(figures)
    if last != first and figures[first]:
        out.append(f"  {last} against {first}: {figures[last] / figures[first]:.2f}×")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_fd_limit()
    runner: Any = uvloop.run if uvloop is not None else asyncio.run
    config = {
        k: getattr(args, k)
        for k in ("tables", "phones", "start", "step", "max", "step_seconds", "warmup", "p99")
        + ("redis_shards", "via")
    }
    config |= {"processes": args.counts, "app": app_version()}
    config["started"] = time.strftime("%Y-%m-%d %H:%M:%S")
    found: dict[str, Any] = {}
    # Each Fleet pins this generator to its last core: the next one plans from all of them.
    cores = os.sched_getaffinity(0)
    try:
        with run.terminate_on_signals():
            if args.wait_quiet:
                config["busy_before_start_pct"] = round(100 * wait_quiet(args.wait_quiet), 1)
            for count in args.counts:
                fleet = Fleet(count, pin=not args.no_pin, redis_shards=args.redis_shards)
                try:
                    fleet.start()
                    found[str(count)] = runner(measure(args, fleet))
                    found[str(count)]["server_log_problems"] = fleet.log_problems()
                except SetupError as exc:
                    print(f"setup failed ({count} processes): {exc}", file=sys.stderr)
                    return 2
                finally:
                    fleet.close()
                    os.sched_setaffinity(0, cores)
    except KeyboardInterrupt as exc:
        print(f"interrupted ({exc or 'Ctrl+C'}); servers stopped", file=sys.stderr)
        return 130
    result = {"config": config, "processes": found}
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
