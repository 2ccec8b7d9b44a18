#!/usr/bin/env python
"""Soak: many tables of phones that behave like the real page, for minutes; a process restarted.

    .venv/bin/python bench/soak.py                         # embedded: 100 tables × 8 phones, 120 s
    .venv/bin/python bench/soak.py --scale-out 2           # PostgreSQL + Redis, s1 killed midway
    .venv/bin/python bench/soak.py --tables 10 --duration 30 --json
    .venv/bin/python bench/soak.py --scale-out 2 --redis-shards 2 --no-restart   # two shards

It starts the app as users run it with bench/fleet.py's Fleet (`manage.py play`, a temporary
database; `--scale-out N`: N processes on PostgreSQL + Redis, a table's phones spread over
them), creates the tables, seats the players and starts the games over HTTP with bench/load.py's
Bench (no page open yet). Then the taps start, and at the same moment every phone opens its page
(all at once, or evenly over --arrive seconds): it GETs /p/<token>/ and runs a
bench/livephone.py LivePhone, which follows js/live.js (socket taps with a fresh action id, the
same tap over HTTP after 4 s, {"type": "status"} when in doubt, the heartbeat, the reconnect
backoff, "sync" on a version gap), with the timings read from live.js. Each table taps --rate
times a second, its phones in turn, each its own HP (-1, then +1, ...); a phone whose page has
not loaded yet cannot tap; what the page does with a tap (over the socket, over HTTP, queued,
dropped as a double tap) is the model's business. With two or more processes, the last one is
killed (SIGKILL) at --restart-at seconds (default: half-way) and started again on the same port,
unless --no-restart. --redis-shards K puts their channel layer on K redis-servers of its own
(REDIS_SHARDS; the cache stays on REDIS_URL) and prints the PUBLISH and SUBSCRIBE commands each
one ran, the channels subscribed on each at the end and how many of them are not on the shard
their name hashes to. After --duration seconds it waits up to --drain seconds for the pending
taps, then reads the event log straight from the database (Event.action_id).

It prints: phones open (their socket's first state arrived, as the page's dot shows) every
--sample seconds; taps made, acknowledged ("applied"), merged, refused, not applied, unresolved
at the end, dropped by the page; taps acknowledged but NOT in the event log; taps told refused
or not applied yet in the event log; tap→all phones p50/p99 (from the tap's send until every
phone of its table that was open then shows its version or a later one: a phone that reconnected
counts once its new state holds it); the frames of changes each socket got (MISSED: a version
skipped; REPEATED or out of order: one not above the last), sockets closed by the phones' own
heartbeat, reconnects, and after the restart how many of the killed process's phones came back
and how long after the kill (p50/p95). Exit 1 when a tap acknowledged is missing from the event
log, one told refused or not applied is in it, a tap is unresolved, a phone is not open at the
end, or (no process killed) a frame was missed, repeated or out of order; 2 when the setup
failed; 130 when interrupted. The figures and their text are bench/soak_report.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
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
from bench.client import Device  # noqa: E402
from bench.fleet import Fleet, SetupError, app_version  # noqa: E402
from bench.livephone import Hub, LivePhone, timings  # noqa: E402
from bench.load import Bench  # noqa: E402
from bench.procs import raise_fd_limit  # noqa: E402
from bench.soak_report import event_log, figures, render  # noqa: E402
from bench.tables import MIN_PHONES, TableRig  # noqa: E402


class SoakBench(Bench):
    def __init__(self, args: argparse.Namespace, fleet: Fleet, hub: Hub) -> None:
        super().__init__(args, fleet)
        self.hub = hub
        self.phone_class = functools.partial(LivePhone, hub=hub)
        self.samples: list[tuple[float, int]] = []
        self.restart: dict[str, Any] = {}
        self.shards: list[dict[str, Any]] = []

    @property
    def phones(self) -> list[LivePhone]:
        return [p for t in self.tables for p in t.phones]

    async def setup(self) -> dict[str, Any]:
        """The tables created, their players seated and their games started, over HTTP; no
        phone has its page open yet."""
        started = time.monotonic()
        self.tables = [TableRig(i, Device(self.pool_for(i))) for i in range(self.args.tables)]
        await self.each_table(self.setup_table)
        await self.each_table(self.start_game)
        for table in self.tables:
            table.ready = not table.error
        return {
            "tables_ready": sum(t.ready for t in self.tables),
            "tables_failed": sum(not t.ready for t in self.tables),
            "setup_seconds": round(time.monotonic() - started, 1),
            "host_retries": self.host_retries,
            "errors": self.setup_errors[:10],
        }

    async def arrive(self, phone: LivePhone, delay: float) -> None:
        await asyncio.sleep(delay)
        await phone.open_page()

    async def sampler(self, start: float) -> None:
        while True:
            self.samples.append((time.monotonic() - start, sum(p.open for p in self.phones)))
            await asyncio.sleep(self.args.sample)

    async def kill_and_restart(self, start: float, delay: float) -> None:
        await asyncio.sleep(delay)
        index = len(self.fleet.servers) - 1
        port = self.fleet.servers[index].port
        on_it = [p for p in self.phones if p.device.pool.port == port]
        killed = time.monotonic()
        self.fleet.kill(index)
        self.restart = {
            "killed_at": killed,
            "at_s": killed - start,
            "phones": on_it,
            "open": [p for p in on_it if p.open],
        }
        await asyncio.to_thread(self.fleet.restart, index)
        self.restart["up_s"] = time.monotonic() - killed

    async def soak(self) -> float:
        """Taps for --duration seconds, then the drain; returns the drain's seconds."""
        args = self.args
        tables = [t for t in self.tables if t.ready]
        if not tables:
            raise SetupError("no table is ready for the load")
        start = time.monotonic()
        sampler = asyncio.create_task(self.sampler(start))
        restarter = None
        if len(self.fleet.servers) > 1 and not args.no_restart:
            at = args.duration / 2 if args.restart_at is None else args.restart_at
            restarter = asyncio.create_task(self.kill_and_restart(start, at))
        phones = self.phones
        for i, phone in enumerate(phones):
            self.hub.spawn(self.arrive(phone, args.arrive * i / len(phones)))
        interval = 1 / (args.rate * len(tables))
        turns = [0] * len(tables)
        for k in range(int(args.duration / interval)):
            delay = start + k * interval - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            table = k % len(tables)
            seats = tables[table].phones
            seats[turns[table] % len(seats)].tap()
            turns[table] += 1
        drain_start = time.monotonic()
        while time.monotonic() - drain_start < args.drain and any(
            p.pending or p.queue for p in self.phones
        ):
            await asyncio.sleep(0.2)
        drained = time.monotonic() - drain_start
        # While the phones' sockets are still open: where their channels are subscribed.
        self.shards = await asyncio.to_thread(self.fleet.shard_stats)
        if restarter is not None:
            await restarter
        await asyncio.sleep(1)
        sampler.cancel()
        self.samples.append((time.monotonic() - start, sum(p.open for p in self.phones)))
        return drained

    async def close(self) -> None:
        self.hub.stopped = True
        socks = [p.sock for p in self.phones if p.sock and p.sock.ws]
        await asyncio.gather(*(s.ws.close() for s in socks), return_exceptions=True)
        for task in list(self.hub.tasks):
            task.cancel()
        for pool in self.pools:
            pool.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/soak.py",
        description="Phones that follow js/live.js tap for minutes; one process killed "
        "and restarted with --scale-out; prints what the phones saw and what the event log holds.",
    )
    parser.add_argument("--tables", type=int, default=100, help="tables (100)")
    parser.add_argument("--phones", type=int, default=8, help="phones per table, 4 to 10 (8)")
    parser.add_argument("--rate", type=float, default=1.0, help="taps per table per second (1)")
    parser.add_argument("--duration", type=float, default=120, help="seconds of taps (120)")
    parser.add_argument(
        "--scale-out",
        type=int,
        default=0,
        metavar="N",
        help="N processes on PostgreSQL + Redis, the last one killed and restarted (0: embedded)",
    )
    parser.add_argument("--restart-at", type=float, metavar="S", help="kill at S s (half-way)")
    parser.add_argument(
        "--no-restart",
        action="store_true",
        help="with --scale-out, kill no process: every change's frame must then reach every "
        "open phone, once, in order",
    )
    parser.add_argument(
        "--redis-shards",
        type=int,
        default=0,
        metavar="K",
        help="with --scale-out, the channel layer on K redis-servers started for the run "
        "(REDIS_SHARDS; 0: REDIS_URL's Redis)",
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=40,
        help="seconds to wait for pending taps at the end (40: HTTP's 30 s and a status round)",
    )
    parser.add_argument(
        "--arrive",
        type=float,
        default=0,
        help="the phones open their pages "
        "evenly over S s from the start of the taps (0: all at once)",
    )
    parser.add_argument("--sample", type=float, default=10, help="phones open every S s (10)")
    parser.add_argument(
        "--heartbeat",
        choices=("auto", "legacy", "fixed", "off"),
        default="auto",
        help="the phones' heartbeat model (auto: from live.js)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to cores")
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    args = parser.parse_args(argv)
    if not MIN_PHONES <= args.phones <= 10 or not 1 <= args.tables <= 2000:
        parser.error("--phones must be 4 to 10 and --tables 1 to 2000")
    if not 0 < args.rate <= 20 or not 0 < args.duration <= 3600 or args.scale_out == 1:
        parser.error("--rate must be 0 to 20, --duration 0 to 3600 s, --scale-out 0 or >= 2")
    if not 0 <= args.redis_shards <= 8 or (args.redis_shards and not args.scale_out):
        parser.error("--redis-shards must be 0 to 8, and goes with --scale-out")
    return args


async def soak(args: argparse.Namespace, fleet: Fleet, hub: Hub) -> dict[str, Any]:
    bench = SoakBench(args, fleet, hub)
    try:
        setup = await bench.setup()
        drained = await bench.soak()
        log = await asyncio.to_thread(event_log, fleet)
        result = figures(hub, bench.phones, bench.samples, bench.restart, log, drained)
        result["redis_shards"] = bench.shards
    finally:
        await bench.close()
    return {"setup": setup, **result}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_fd_limit()
    live, model, missing = timings()
    hub = Hub(live, model if args.heartbeat == "auto" else args.heartbeat)
    config = {
        **{
            k: getattr(args, k)
            for k in ("tables", "phones", "rate", "duration", "scale_out", "arrive")
            + ("redis_shards", "no_restart")
        },
        "servers": args.scale_out or 1,
        "heartbeat": hub.heartbeat,
        "live": live,
        "live_missing": missing,
        "app": app_version(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    fleet = Fleet(
        args.scale_out,
        pin=not args.no_pin,
        keep_logs=args.keep_logs,
        redis_shards=args.redis_shards,
    )
    runner: Any = uvloop.run if uvloop is not None else asyncio.run
    try:
        with run.terminate_on_signals():
            try:
                fleet.start()
                result = runner(soak(args, fleet, hub))
            except SetupError as exc:
                print(f"setup failed: {exc}", file=sys.stderr)
                return 2
            result["server_log_problems"] = fleet.log_problems()
    except KeyboardInterrupt as exc:
        print(f"interrupted ({exc or 'Ctrl+C'}); servers stopped", file=sys.stderr)
        return 130
    finally:
        fleet.close()
    setup = result.pop("setup")
    if args.json:
        print(json.dumps({"config": config, "setup": setup, **result}, indent=2))
    else:
        print(render(config, setup, result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
