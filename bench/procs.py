"""What the benchmark reads from /proc: CPU seconds of a process, a thread, the whole machine and
the PostgreSQL and Redis processes, a process's RSS, the load average; and the cores each
process is pinned to, a quiet machine to start on, and enough file descriptors."""

from __future__ import annotations

import contextlib
import os
import resource
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    return sum(proc_cpu_split(pid))


def proc_cpu_split(pid: int) -> tuple[float, float]:
    """(utime, stime) of a process (all its threads), in seconds: user and kernel time."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


def thread_cpu_seconds(pid: int, tid: int) -> float:
    """utime + stime of one thread of a process (0 if it has gone)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def proc_rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm", "rb") as f:
        return int(f.read().split()[1]) * PAGE_SIZE


def machine_busy_seconds() -> float:
    """CPU-seconds the whole machine has been busy (all cores), from /proc/stat."""
    with open("/proc/stat", "rb") as f:
        values = [int(v) for v in f.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = values
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def services_cpu_seconds(names: tuple[str, ...] = ("postgres", "redis-server")) -> float:
    """CPU of the PostgreSQL and Redis processes (all users' of them: other work on the same
    services counts too). Backends that exited are counted through their parent's cutime and
    cstime, so connections opened and closed within the window are not missed."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        comm = raw[raw.find(b"(") + 1 : raw.rfind(b")")].decode(errors="replace")
        if comm in names:
            fields = raw.rsplit(b")", 1)[1].split()
            total += sum(int(v) for v in fields[11:15]) / CLK_TCK
    return total


def load_average() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def plan_cores(servers: int, pin: bool) -> tuple[list[int | None], int | None, str]:
    """Cores for each server and for the generator: the generator gets the last core."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin:
        return [None] * servers, None, "not pinned (--no-pin)"
    if len(cpus) < 2:
        return [None] * servers, None, "not pinned (one core only)"
    generator, rest = cpus[-1], cpus[:-1]
    plan: list[int | None] = [rest[i % len(rest)] for i in range(servers)]
    note = f"servers on core(s) {','.join(str(c) for c in sorted(set(rest[:servers])))}"
    return plan, generator, f"{note}, generator on core {generator}"


def wait_quiet(limit: float) -> float:
    """Wait (at most `limit` s) until the machine was at most 15 % of a core busy for 2 s."""
    deadline = time.monotonic() + limit
    while True:
        before = machine_busy_seconds()
        time.sleep(2)
        busy = (machine_busy_seconds() - before) / 2
        if busy <= 0.15 or time.monotonic() >= deadline:
            return busy


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
