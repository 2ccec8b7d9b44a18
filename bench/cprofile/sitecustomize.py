"""cProfile for a server process of the benchmark (`bench/run.py --cprofile DIR`).

Python imports `sitecustomize` at start-up from PYTHONPATH; bench/run.py puts this directory
there for its servers when asked, with SGS_CPROFILE_DIR. Nothing happens without that variable.
With it, SIGUSR1 starts a profiler of thread CPU time on the event loop's thread (the main one)
and one on each database thread (companion/infra/dbthread.py, started there through its
executor), and SIGUSR2 stops them and writes DIR/<pid>-loop.prof and DIR/<pid>-db.prof (with
DB_THREADS on PostgreSQL, DIR/<pid>-db0.prof, -db1.prof, ...; pstats files: read them with
`python -m pstats`). bench/load.py sends the two signals around each measured window, so set-up
(tables, phones connecting) is left out.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

OUT = os.environ.get("SGS_CPROFILE_DIR", "")
_profiles: dict[str, cProfile.Profile] = {}


def _db_executors() -> dict[str, Any]:
    """The database threads' executors, by name ("db", or "db0", "db1", ...)."""
    dbthread = sys.modules.get("companion.infra.dbthread")
    if dbthread is None:
        return {}
    count = dbthread.threads()
    names = ["db"] if count == 1 else [f"db{i}" for i in range(count)]
    return {name: dbthread._executor(name) for name in names}  # noqa: SLF001


def _start(_signum: int, _frame: Any) -> None:
    if _profiles:
        return
    # Each thread's own CPU time, not the wall clock: with two threads and a GIL, a wall clock
    # charges whatever ran when the other thread had the GIL to the one waiting for it.
    _profiles["loop"] = cProfile.Profile(time.thread_time)
    for name, executor in _db_executors().items():
        _profiles[name] = cProfile.Profile(time.thread_time)
        executor.submit(_profiles[name].enable).result()
    _profiles["loop"].enable()


def _stop(_signum: int, _frame: Any) -> None:
    if not _profiles:
        return
    _profiles["loop"].disable()
    for name, executor in _db_executors().items():
        if name in _profiles:
            executor.submit(_profiles[name].disable).result()
    Path(OUT).mkdir(parents=True, exist_ok=True)
    for name, profile in _profiles.items():
        profile.dump_stats(str(Path(OUT) / f"{os.getpid()}-{name}.prof"))
    _profiles.clear()


if OUT:
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
