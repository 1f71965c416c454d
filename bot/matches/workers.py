"""Worker processes for the bot's long background work (a whole-game GIF, a game's review): one process
per kind of work, started on first use, in the idle scheduling class (or niced) below the bot, so that on
a busy machine the players' moves go first and the background work takes what is left (bench/replay.py,
bench/review.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

log = logging.getLogger(__name__)
J = TypeVar("J")
R = TypeVar("R")

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


class Worker:
    """One kind of background work's process: ``run`` hands a call to it (started on first use); if the
    process cannot be used (it died, the call does not pickle), a thread of this process does it and the
    process is started afresh next time."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, fn: Callable[[J], R], job: J) -> R:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            self._pool = worker_pool()
        try:
            return await loop.run_in_executor(self._pool, fn, job)
        except (BrokenProcessPool, OSError, pickle.PicklingError, AttributeError, TypeError):
            log.warning("the %s process failed; doing it in a thread", self.what, exc_info=True)
            self.stop()
            return await asyncio.to_thread(fn, job)

    def stop(self) -> None:
        """Stop the process (the bot is closing; a next ``run`` starts another)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
