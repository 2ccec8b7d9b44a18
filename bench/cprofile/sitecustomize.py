"""cProfile for a server process of the benchmark (`bench/run.py --cprofile DIR`).

Python imports `sitecustomize` at start-up from PYTHONPATH; bench/run.py puts this directory
there for its servers when asked, with SGS_CPROFILE_DIR. Nothing happens without that variable.
With it, SIGUSR1 starts a profiler of thread CPU time on the event loop's thread (the main one)
and one on the database thread (companion/dbthread.py, started there through its executor), and
SIGUSR2 stops both and writes DIR/<pid>-loop.prof and DIR/<pid>-db.prof (pstats files; read
them with `python -m pstats`). bench/load.py sends the two signals
around each measured window, so set-up (tables, phones connecting) is left out.
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


def _db_executor() -> Any:
    dbthread = sys.modules.get("companion.dbthread")
    return dbthread._executor("db") if dbthread is not None else None  # noqa: SLF001


def _start(_signum: int, _frame: Any) -> None:
    if _profiles:
        return
    # Each thread's own CPU time, not the wall clock: with two threads and a GIL, a wall clock
    # charges whatever ran when the other thread had the GIL to the one waiting for it.
    _profiles["loop"] = cProfile.Profile(time.thread_time)
    _profiles["db"] = cProfile.Profile(time.thread_time)
    executor = _db_executor()
    if executor is not None:
        executor.submit(_profiles["db"].enable).result()
    _profiles["loop"].enable()


def _stop(_signum: int, _frame: Any) -> None:
    if not _profiles:
        return
    _profiles["loop"].disable()
    executor = _db_executor()
    if executor is not None:
        executor.submit(_profiles["db"].disable).result()
    Path(OUT).mkdir(parents=True, exist_ok=True)
    for name, profile in _profiles.items():
        profile.dump_stats(str(Path(OUT) / f"{os.getpid()}-{name}.prof"))
    _profiles.clear()


if OUT:
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
