"""The load (`Bench`): taps at a fixed rate from one phone per table, open loop, over its websocket
or over HTTP; the drain after each measured window; py-spy on request; and each window's figures
(`summarise`): deliveries, latency, CPU per tap and whether the generator was the bottleneck."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.client import HTTP_SECONDS, HTTPFailure
from bench.fleet import SetupError
from bench.procs import load_average, machine_busy_seconds, proc_cpu_seconds, services_cpu_seconds
from bench.report import OTHER_LOAD_LIMIT, percentile, spread
from bench.servers import PYTHON, STOP_SECONDS, die_with_parent
from bench.tables import Phone, TableRig, Tables, Tap

DRAIN_IDLE_SECONDS = 10  # after the window: give up once nothing arrived for this long
DRAIN_MAX_SECONDS = 120
QUIET_SECONDS = 0.5
LAG_TICK = 0.005

# Thresholds above which the generator, not the server, may be what the figures measure.
GEN_CPU_LIMIT = 80.0  # % of its core
# p99 of (time a tap was sent - time it was due), and of the generator's own event-loop lag:
# at least this, or a tenth of the measured latency p99 if that is more.
GEN_SLIP_LIMIT_MS = 5.0
GEN_LAG_LIMIT_MS = 5.0
SATURATED_PCT = 90.0  # server cores busier than this: the server is the bottleneck


class Bench(Tables):
    """The tables of bench/tables.py under load: taps at --rate per table, measured windows."""

    async def tap(self, table: TableRig, run: int, due: float) -> None:
        phone = table.tapper
        delta = table.next_delta
        table.next_delta = -delta  # decided at send time: HP stays within [max-1, max]
        action = f"b{self.run_id}{len(self.taps):07d}{secrets.token_hex(3)}"
        tap = Tap(
            action,
            table,
            run,
            due,
            expected=tuple(p.index for p in table.phones if p.open),
        )
        self.taps[action] = tap

        def sent() -> None:
            tap.t0 = time.perf_counter()

        if self.args.via == "ws":
            await self.tap_over_socket(phone, tap, delta)
            return
        tap.queued = phone.device.pool.slots.locked()
        try:
            reply = await phone.device.post(
                f"/p/{phone.token}/act/hp",
                {"seat": str(phone.seat_id), "delta": str(delta), "action_id": action},
                htmx=True,
                on_send=sent,
            )
            tap.status = reply.status
        except HTTPFailure as exc:
            tap.error = str(exc)
        tap.t_reply = time.perf_counter()

    async def tap_over_socket(self, phone: Phone, tap: Tap, delta: int) -> None:
        """The tap as the phone's page sends it while its socket is open."""
        waiter: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()
        self.answers[tap.action] = waiter
        message = json.dumps(
            {
                "type": "act",
                "name": "hp",
                "fields": {"seat": str(phone.seat_id), "delta": str(delta)},
                "action_id": tap.action,
            }
        )
        try:
            tap.t0 = time.perf_counter()
            await phone.ws.send(message)
            tap.status, tap.t_reply = await asyncio.wait_for(waiter, HTTP_SECONDS)
        except (TimeoutError, Exception) as exc:  # noqa: BLE001 - any failure is a failed tap
            self.answers.pop(tap.action, None)
            tap.error = f"{type(exc).__name__}: {exc}"
            tap.t_reply = time.perf_counter()

    async def lag_monitor(self) -> None:
        perf = time.perf_counter
        while True:
            before = perf()
            await asyncio.sleep(LAG_TICK)
            if self.lag_samples is not None:
                self.lag_samples.append(perf() - before - LAG_TICK)

    async def schedule(self, run: int, seconds: float, tables: list[TableRig]) -> dict[str, Any]:
        """Send taps for `seconds` at the configured rate; returns the window's raw figures."""
        rate = self.args.rate * len(tables)
        count = max(1, int(round(seconds * rate)))
        interval = 1.0 / rate
        slips: list[float] = []
        perf = time.perf_counter
        measured = run >= 0
        if measured:
            self.lag_samples = []
        start = perf() + 0.01
        cpu0, gen0 = self.fleet.cpu_seconds(), proc_cpu_seconds(os.getpid())
        kernel0, loop0 = self.fleet.kernel_cpu_seconds(), self.fleet.loop_cpu_seconds()
        busy0 = machine_busy_seconds()
        svc0 = services_cpu_seconds() if self.fleet.scale_out else 0.0
        pg0 = services_cpu_seconds(("postgres",)) if self.fleet.scale_out else 0.0
        for k in range(count):
            due = start + k * interval
            delay = due - perf()
            if delay > 0:
                await asyncio.sleep(delay)
            slips.append(perf() - due)
            task = asyncio.create_task(self.tap(tables[k % len(tables)], run, due))
            self.tap_tasks.add(task)
            task.add_done_callback(self.tap_tasks.discard)
        end = start + count * interval
        delay = end - perf()
        if delay > 0:
            await asyncio.sleep(delay)
        window = perf() - start
        figures = {
            "window_s": window,
            "server_cpu_s": self.fleet.cpu_seconds() - cpu0,
            "server_kernel_cpu_s": self.fleet.kernel_cpu_seconds() - kernel0,
            "server_loop_cpu_s": self.fleet.loop_cpu_seconds() - loop0,
            "generator_cpu_s": proc_cpu_seconds(os.getpid()) - gen0,
            "machine_busy_s": machine_busy_seconds() - busy0,
            "services_cpu_s": services_cpu_seconds() - svc0 if self.fleet.scale_out else None,
            "postgres_cpu_s": services_cpu_seconds(("postgres",)) - pg0
            if self.fleet.scale_out
            else None,
            "slips": slips,
            "lags": self.lag_samples or [],
            "load_average": load_average(),
            "rss_kb": self.fleet.rss_bytes() // 1024,
        }
        self.lag_samples = None
        return figures

    async def drain(self, run: int) -> float:
        """Wait for the taps' replies and every due delivery while they keep coming (bounded),
        then a quiet spell for duplicates. Returns the seconds it took."""
        started = time.monotonic()
        hard = started + DRAIN_MAX_SECONDS
        pending = list(self.tap_tasks)
        if pending:
            await asyncio.wait(pending, timeout=HTTP_SECONDS + 1)
        taps = [t for t in self.taps.values() if t.run == run and t.status == 204]
        seen, last_progress = -1, time.monotonic()
        while time.monotonic() < hard:
            incomplete = [t for t in taps if not self._complete(t)]
            if not incomplete:
                break
            count = sum(len(t.arrivals) + bool(t.private_at) for t in taps)
            if count != seen:
                seen, last_progress = count, time.monotonic()
            elif time.monotonic() - last_progress > DRAIN_IDLE_SECONDS:
                break
            await asyncio.sleep(0.1)
        took = time.monotonic() - started
        await asyncio.sleep(QUIET_SECONDS)
        return took

    @staticmethod
    def _complete(tap: Tap) -> bool:
        return len(tap.arrivals) >= len(tap.expected) and bool(tap.private_at)

    async def load(self) -> list[dict[str, Any]]:
        args = self.args
        tables = [t for t in self.tables if t.ready]
        if not tables:
            raise SetupError("no table is ready for the load")
        monitor = asyncio.create_task(self.lag_monitor())
        windows = []
        try:
            if args.warmup > 0:
                await self.schedule(-1, args.warmup, tables)
            for run in range(args.repeat):
                profilers = self.start_profilers(run) if args.profile else []
                self.signal_servers(signal.SIGUSR1)
                before = self.out_of_order
                frames_before, chars_before = self.frames, self.frame_chars
                figures = await self.schedule(run, args.duration, tables)
                self.signal_servers(signal.SIGUSR2)
                self.stop_profilers(profilers)
                figures["drain_s"] = await self.drain(run)
                figures["drain_end"] = time.perf_counter()
                figures["out_of_order"] = self.out_of_order - before
                frames = self.frames - frames_before
                figures["frame_kb"] = (
                    (self.frame_chars - chars_before) / frames / 1024 if frames else 0
                )
                figures["dropped"] = sum(p.dropped for t in tables for p in t.phones)
                windows.append((run, figures))
        finally:
            monitor.cancel()
        # Summarised at the end: a frame that arrived after its run's drain (during a later
        # run) counts as late, not lost.
        return [self.summarise(run, figures, tables) for run, figures in windows]

    # -- profiling (optional)

    def signal_servers(self, signum: int) -> None:
        """With --cprofile: start (SIGUSR1) or stop and write (SIGUSR2) each server's cProfile
        (bench/cprofile/sitecustomize.py)."""
        if getattr(self.args, "cprofile", None):
            for server in self.fleet.servers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(server.proc.pid, signum)

    def start_profilers(self, run: int) -> list[subprocess.Popen[bytes]]:
        spy = shutil.which("py-spy") or str(Path(PYTHON).parent / "py-spy")
        if not Path(spy).exists():
            raise SetupError("--profile needs py-spy: .venv/bin/pip install py-spy")
        out = Path(self.args.profile)
        out.mkdir(parents=True, exist_ok=True)
        procs = []
        for server in self.fleet.servers:
            command = [
                # --gil: only the thread holding the GIL is sampled, so the profile shows
                # where the CPU goes rather than threads waiting on each other.
                *(spy, "record", "--pid", str(server.proc.pid), "--nonblocking", "--gil"),
                *("--duration", str(max(1, int(self.args.duration))), "--rate", "100"),
                *("--format", "raw", "--output", str(out / f"run{run + 1}-{server.name}.txt")),
            ]
            procs.append(
                subprocess.Popen(
                    command,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    preexec_fn=die_with_parent,
                )
            )
        return procs

    @staticmethod
    def stop_profilers(procs: list[subprocess.Popen[bytes]]) -> None:
        for proc in procs:
            try:
                proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=STOP_SECONDS)

    # -- figures

    def summarise(
        self, run: int, figures: dict[str, Any], tables: list[TableRig]
    ) -> dict[str, Any]:
        taps = [t for t in self.taps.values() if t.run == run]
        applied = [t for t in taps if t.status == 204]
        refused = [t for t in taps if t.status and t.status != 204]
        failed = [t for t in taps if not t.status]
        latencies = []
        slowest = []
        expected = received = lost = duplicated = late = 0
        private_received = 0
        drain_end = figures["drain_end"]
        for tap in applied:
            expected += len(tap.expected)
            got = [tap.arrivals[i] - tap.t0 for i in tap.expected if i in tap.arrivals]
            received += len(got)
            lost += len(tap.expected) - len(got)
            late += sum(1 for i in tap.expected if tap.arrivals.get(i, 0) > drain_end)
            latencies.extend(got)
            if got and len(got) == len(tap.expected):
                slowest.append(max(got))
            duplicated += tap.duplicates
            private_received += bool(tap.private_at)
        # A frame that arrived twice for a tap whose HTTP answer failed is a duplicate too.
        duplicated += sum(t.duplicates for t in refused + failed)
        window = figures["window_s"]
        server_cpu = figures["server_cpu_s"]
        gen_cpu = figures["generator_cpu_s"]
        gen_pct = 100 * gen_cpu / window
        slip_p99 = percentile(figures["slips"], 99) * 1000
        lag_p99 = percentile(figures["lags"], 99) * 1000
        # The generator's own delays matter when they are a real share of what it measures.
        measured_p99 = percentile(latencies, 99) * 1000
        slip_limit = max(GEN_SLIP_LIMIT_MS, 0.1 * measured_p99)
        lag_limit = max(GEN_LAG_LIMIT_MS, 0.1 * measured_p99)
        reasons = []
        if gen_pct >= GEN_CPU_LIMIT:
            reasons.append(f"its CPU {gen_pct:.0f} % of a core")
        if slip_p99 >= slip_limit:
            reasons.append(f"send schedule slipping (p99 {slip_p99:.1f} ms late)")
        if lag_p99 >= lag_limit:
            reasons.append(f"its event loop lagging (p99 {lag_p99:.1f} ms)")
        cores = {s.core for s in self.fleet.servers}
        busy_pct = (
            100 * server_cpu / window / (len(self.fleet.servers) if None in cores else len(cores))
        )
        other = figures["machine_busy_s"] - server_cpu - gen_cpu
        if figures["services_cpu_s"] is not None:
            other -= figures["services_cpu_s"]
        other_pct = max(0.0, 100 * other / window)
        if reasons and other_pct >= OTHER_LOAD_LIMIT:
            reasons.append(f"other processes used {other_pct:.0f} % of a core meanwhile")
        result = {
            "run": run + 1,
            "window_s": round(window, 2),
            "target_taps_per_s": round(self.args.rate * len(tables), 2),
            "taps_sent": len(taps),
            "taps_applied": len(applied),
            "taps_refused": len(refused),
            "taps_failed": len(failed),
            "refusals": sorted({t.status for t in refused}),
            "achieved_taps_per_s": round(len(applied) / window, 2),
            "deliveries_expected": expected,
            "deliveries_received": received,
            "lost": lost,
            "late": late,
            "duplicated": duplicated,
            "out_of_order": figures["out_of_order"],
            "dropped_connections": figures["dropped"],
            "drain_s": round(figures["drain_s"], 1),
            "frame_kchars": round(figures["frame_kb"], 1),
            "taps_queued_in_generator": sum(t.queued for t in taps),
            "private_expected": len(applied),
            "private_received": private_received,
            "latency_ms": spread(latencies),
            "table_latency_ms": spread(slowest),
            "reply_ms": spread([t.t_reply - t.t0 for t in applied]),
            "server_cpu_s": round(server_cpu, 2),
            "server_core_busy_pct": round(busy_pct, 1),
            "server_saturated": busy_pct >= SATURATED_PCT,
            "cpu_per_tap_ms": round(1000 * server_cpu / len(applied), 2) if applied else None,
            "kernel_cpu_per_tap_ms": round(1000 * figures["server_kernel_cpu_s"] / len(applied), 2)
            if applied
            else None,
            "loop_cpu_per_tap_ms": round(1000 * figures["server_loop_cpu_s"] / len(applied), 2)
            if applied
            else None,
            "services_cpu_per_tap_ms": round(1000 * figures["services_cpu_s"] / len(applied), 2)
            if applied and figures["services_cpu_s"] is not None
            else None,
            # The capacity plan sizes PostgreSQL and the Redis shards apart: their shares.
            "postgres_cpu_per_tap_ms": round(1000 * figures["postgres_cpu_s"] / len(applied), 2)
            if applied and figures["postgres_cpu_s"] is not None
            else None,
            "rss_kb": figures["rss_kb"],
            "generator": {
                "cpu_pct": round(gen_pct, 1),
                "send_slip_ms": {
                    "p99": round(slip_p99, 2),
                    "max": round(max(figures["slips"], default=0) * 1000, 2),
                },
                "loop_lag_ms": {
                    "p99": round(lag_p99, 2),
                    "max": round(max(figures["lags"], default=0) * 1000, 2),
                },
                "bottleneck": bool(reasons),
                "reasons": reasons,
            },
            "other_load_pct": round(other_pct, 1),
            "load_average": figures["load_average"],
        }
        return result
