"""Worker processes for the bot's long background work (a whole-game GIF, a game's review): one process
per kind of work, started on first use, in the idle scheduling class (or niced) below the bot, so that on
a busy machine the players' moves go first and the background work takes what is left (bench/replay.py,
bench/review.py)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

NICENESS = 10
"""How much lower than the bot a worker process runs (os.nice): background work never competes as an equal."""


def _lower_priority() -> None:
    """Linux's idle class where there is one (the worker runs only when no other thread wants the CPU),
    else a plain nice; neither on this platform, or not allowed: as it is."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)


def worker_pool() -> ProcessPoolExecutor:
    """One worker process (spawned: nothing of the bot's event loop is copied into it), niced."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_lower_priority)
