"""Keeping the garbage collector's full collections out of the way of moves.

A full collection scans every object the process keeps (matches, caches of pictures and messages) and
takes 10-40 ms in a running bot; CPython starts one whenever enough objects have survived, i.e. in the
middle of someone's move (bench/move_floor.py's p99). The real process (``python -m bot``) therefore, once
it is ready:

* freezes the start-up heap (modules, fonts, palettes): no collection scans it again;
* lets the collector do its young collections as usual, but never a full one on its own;
* runs a full collection itself every :data:`EVERY` seconds, at a quiet moment -- every interaction that
  came answered, no request to Discord under way, and nothing of either for :data:`QUIET` seconds -- or
  after :data:`WAIT` seconds regardless, so cyclic garbage is freed in any case. A busy bot's quiet moments
  are the gaps between moves: the collection lands just after a move's answer, not in the next move. In
  bench/move_floor.py --loopback --thinking (a move every 25 ms or so) the 8 collections of a run each found
  their quiet moment 9 ms to 0.9 s after their time and took 7-16 ms; with the older test (no interaction
  for 50 ms) the 5 of a run waited 0.8-3.4 s for one and took 10-49 ms, and a move could still be under
  way in them (its requests, its drawing);
* freezes what that collection leaves too, so the next one scans only what was made since (the objects
  that outlived a collection are the bot's lasting ones: matches, caches) -- 5-13 ms every 5 s in
  bench/move_floor.py with 200 matches active, where one collection of all the unfrozen objects every
  30 s took 43 ms (about 64,000 objects); a busy bot is never quiet, so the collection lands in the middle
  of a move, and a move that waited 43 ms was the bench's p99;
* every :data:`DEEP` collections unfreezes everything first, so cyclic garbage among the frozen objects
  (a cache's entry dropped since) is freed too: one long collection (about 120 ms with 170,000 objects)
  every 10 minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

EVERY = 5.0
QUIET = 0.003
"""Seconds with no interaction arriving and no request to Discord starting or ending: a move's answer is
sent, the next has not come (polled this often while waiting, for up to :data:`WAIT`)."""
WAIT = 5.0
DEEP = 120
"""Every this many collections scans the whole heap (the frozen objects too): every 10 minutes."""
NEVER = 1_000_000_000
"""A third threshold the collector never reaches (full collections only when asked)."""


class IdleCollector:
    """Full garbage collections between interactions (see the module docstring)."""

    def __init__(self, every: float = EVERY, quiet: float = QUIET, wait: float = WAIT,
                 deep: int = DEEP) -> None:
        self.every, self.quiet, self.wait, self.deep = every, quiet, wait, deep
        self.frozen = False  # the start-up heap was frozen: so are the survivors of each collection
        self.last = time.monotonic()
        self.requests = 0  # requests to Discord under way
        self.unanswered: list[Any] = []  # interactions that came since the last collection (their response)
        self.collections = 0
        self._task: asyncio.Task[None] | None = None
        self._threshold: tuple[int, int, int] | None = None

    def touch(self, interaction: Any = None) -> None:
        """Something happened (an interaction; with it, a collection waits until it is answered too): a
        collection waits for a quiet moment."""
        self.last = time.monotonic()
        if interaction is not None:
            self.unanswered.append(interaction.response)

    def request(self, started: bool) -> None:
        """A request to Discord ``started`` or ended (bot/metrics.py's trace of discord.py's session)."""
        self.requests += 1 if started else -1
        self.last = time.monotonic()

    def quiet_now(self) -> bool:
        """Every interaction answered, no request under way, and nothing of either for :attr:`quiet` s."""
        if self.requests > 0 or time.monotonic() - self.last < self.quiet:
            return False
        self.unanswered = [r for r in self.unanswered if not r.is_done()]
        return not self.unanswered

    def start(self, *, freeze: bool = True) -> None:
        if self._task is not None:
            return
        if freeze:
            gc.collect()
            gc.freeze()
            self.frozen = True
        self._threshold = gc.get_threshold()
        young, middle, _ = self._threshold
        gc.set_threshold(young, middle, NEVER)
        self._task = asyncio.create_task(self._run(), name="parlor-idle-gc")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._threshold is not None:
            gc.set_threshold(*self._threshold)
            self._threshold = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            deadline = time.monotonic() + self.wait
            while not self.quiet_now() and time.monotonic() < deadline:
                await asyncio.sleep(self.quiet)
            self.unanswered.clear()  # (one that was never answered must not hold back the next ones)
            started = time.perf_counter()
            deep = self.frozen and (self.collections + 1) % self.deep == 0
            if deep:
                gc.unfreeze()  # back into the oldest generation: this collection scans everything
            found = gc.collect()
            if self.frozen:
                gc.freeze()
            self.collections += 1
            log.debug("%s garbage collection: %d objects freed in %.1f ms", "deep" if deep else "full",
                      found, (time.perf_counter() - started) * 1000)
