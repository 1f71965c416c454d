"""Worker processes for the bot's long work off the event loop: a whole-game GIF and a game's review (one
process per kind, started on first use, in the idle scheduling class below the bot, so that on a busy
machine the players' moves go first and the background work takes what is left: bench/replay.py,
bench/review.py), and the computer's thinking (:data:`COMPUTER`: niced, not idle, since a player waits for
it; bench/move_floor.py ``--thinking``).

The engines' searches are pure Python and hold the GIL: in a thread of the bot they would slow every
other match's move, in a process they cost the bot nothing but the pickled job."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

log = logging.getLogger(__name__)
J = TypeVar("J")
R = TypeVar("R")

NICENESS = 10
"""How much lower than the bot a worker process runs (os.nice): background work never competes as an equal."""


def _exit_with_parent() -> None:
    """End this worker when the bot's process is gone (a kill -9 gives the pool no time to stop it; the
    worker would wait for work forever): checked every second by a thread of the worker."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parlor-parent-watch", daemon=True).start()


def _lower_priority() -> None:
    """Linux's idle class where there is one (the worker runs only when no other thread wants the CPU),
    else a plain nice; neither on this platform, or not allowed: as it is."""
    _exit_with_parent()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)


def _nice() -> None:
    """A plain nice below the bot (the computer's thinking: a player waits for it, so it is not idle)."""
    _exit_with_parent()
    with contextlib.suppress(AttributeError, OSError):
        os.nice(COMPUTER_NICENESS)


COMPUTER_NICENESS = 5


def worker_pool(processes: int = 1, initializer: Callable[[], None] = _lower_priority) -> ProcessPoolExecutor:
    """Worker processes (spawned: nothing of the bot's event loop is copied into them), below the bot."""
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer)


class Worker:
    """One kind of work's processes: ``run`` hands a call to them (started on first use). A call that does
    not pickle (a function made at run time) is done in a thread of this process instead; if the process
    died, the call is done in a thread too and the process is started afresh next time."""

    def __init__(self, what: str, *, processes: int = 1,
                 initializer: Callable[[], None] = _lower_priority) -> None:
        self.what = what
        self.processes = processes
        self.initializer = initializer
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.processes, self.initializer)
        return self._pool

    def warm(self, fn: Callable[[], object]) -> None:
        """Start a process now and have it run ``fn`` (the imports a first job would wait for); more start
        when jobs overlap, up to ``processes``."""
        with contextlib.suppress(Exception):
            self._started().submit(fn)

    async def run(self, fn: Callable[[J], R], job: J) -> R:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._started(), fn, job)
        except (pickle.PicklingError, AttributeError, TypeError):
            log.debug("a %s job does not pickle; doing it in a thread", self.what, exc_info=True)
            return await asyncio.to_thread(fn, job)
        except (BrokenProcessPool, OSError):
            log.warning("the %s process failed; doing it in a thread", self.what, exc_info=True)
            self.stop()
            return await asyncio.to_thread(fn, job)

    def stop(self) -> None:
        """Stop the process (the bot is closing; a next ``run`` starts another)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


COMPUTER = Worker("computer", processes=max(1, min(2, (os.cpu_count() or 2) - 1)), initializer=_nice)
"""The computer players' thinking, shared by every match: up to one process per core but the bot's, and at
most two (each computer move is bounded to 2 s; a busier bot runs more processes of its own)."""


def _think(job: tuple[Callable[..., R], tuple[object, ...]]) -> R:
    fn, args = job
    return fn(*args)


async def think(fn: Callable[..., R], *args: object) -> R:
    """``fn(*args)`` in a computer process (in a thread if ``fn`` or its arguments do not pickle)."""
    return await COMPUTER.run(_think, (fn, args))


def _import_games() -> None:
    import bot.games  # noqa: F401  (every engine: what a first computer move would import)


def warm_computer() -> None:
    """Start the computer processes ahead of the first computer move."""
    COMPUTER.warm(_import_games)
