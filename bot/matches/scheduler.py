"""One task that wakes at the earliest stored timer and hands what is due to the cogs.

Timers live in the database, so a restart simply reads them again: turn
deadlines, tournament clocks, turn reminders and thread archiving resume where
they were. A reminder is claimed (cleared) in the same write that finds it due,
so it is sent once, never twice. With several processes on one database each
deadline is claimed first (``Store.claim``), so exactly one process acts on it;
a computer move whose process died (its claim lapsed) is taken over here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot import metrics
from bot.matches.service import Match, MatchService, Result

log = logging.getLogger(__name__)

MAX_SLEEP = 60.0
CLAIM_LEASE = 10.0
"""Seconds a process owns a deadline it is handling; if it dies, another takes over after that."""


class DeadlineSource(Protocol):
    async def next_deadline(self) -> float | None: ...
    async def run_due(self) -> Any: ...


class Scheduler:
    def __init__(
        self,
        service: MatchService,
        on_result: Callable[[Result], Awaitable[None]],
        *,
        on_remind: Callable[[Match], Awaitable[None]] | None = None,
        on_archive: Callable[[int], Awaitable[None]] | None = None,
        check: Callable[[int], Awaitable[bool]] | None = None,
    ) -> None:
        self.service = service
        self.on_result = on_result
        self.on_remind = on_remind
        self.on_archive = on_archive
        self.check = check
        """Asked before a due match is expired.

        ``False`` skips it (its place is gone: aborted, not timed out).
        """
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.sources: list[DeadlineSource] = []
        """Other stored deadlines (tournament start times, round deadlines), served on the same wake-ups."""
        service.on_deadline_change = self.poke

    def poke(self) -> None:
        """A deadline may have changed: recompute when to wake."""
        self._wake.set()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="parlor-scheduler")

    async def stop(self) -> None:
        # A flag as well as cancel(): asyncio.wait_for (3.11) can swallow a cancellation that arrives
        # just as the wake-up event fires, and the loop would then sleep on for a minute.
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def run_due(self) -> list[Result]:
        """Expire everything due now; returns what happened (also handed to ``on_result``)."""
        results = []
        store, owner = self.service.store, self.service.owner
        for match_id in await store.due_matches(self.service.clock()):
            if not await store.claim("deadline", match_id, owner, CLAIM_LEASE):
                continue  # another process is on it
            try:
                if self.check is not None and not await self.check(match_id):
                    continue
                result = await self.service.expire(match_id)
            except Exception:
                log.exception("expiring match %s failed", match_id)
                continue
            finally:
                await store.release("deadline", match_id, owner)
            if result is None:
                continue
            results.append(result)
            try:
                await self.on_result(result)
            except Exception:
                log.exception("presenting the expiry of match %s failed", match_id)
        for match_id in await store.lapsed_claims("ai", time.time()):
            try:
                result = await self.service.ai_move(match_id)
                if result is not None:
                    results.append(result)
                    await self.on_result(result)
            except Exception:
                log.exception("taking over the computer move of match %s failed", match_id)
        await self._reminders()
        await self._archives()
        for source in self.sources:
            try:
                await source.run_due()
            except Exception:
                log.exception("deadline source %r failed", source)
        return results

    async def _reminders(self) -> None:
        for match_id in await self.service.store.due_reminders(self.service.clock()):
            try:
                match = await self.service.remind(match_id)
                if match is not None and self.on_remind is not None:
                    await self.on_remind(match)
            except Exception:
                log.exception("the reminder of match %s failed", match_id)

    async def _archives(self) -> None:
        for match_id in await self.service.store.due_archives(self.service.clock()):
            try:
                if self.on_archive is not None:
                    await self.on_archive(match_id)
            except Exception:
                log.exception("archiving the thread of match %s failed", match_id)
            await self.service.archived(match_id)

    async def _next_deadline(self) -> float | None:
        found = [await self.service.store.next_timer()]
        for source in self.sources:
            found.append(await source.next_deadline())
        times = [t for t in found if t is not None]
        return min(times) if times else None

    async def _run(self) -> None:
        target: float | None = None  # the earliest deadline this pass was meant to serve
        while not self._stopping:
            self._wake.clear()
            if target is not None and (now := self.service.clock()) >= target:
                metrics.scheduler_lag(now - target)
            try:
                await self.run_due()
                nxt = await self._next_deadline()
                lapse = await self.service.store.next_claim_expiry("ai")
            except Exception:
                log.exception("scheduler pass failed")
                nxt = lapse = None
            if self._stopping:
                break
            target = nxt  # the earliest deadline the next pass is meant to serve (scheduler lag)
            delay = min(MAX_SLEEP, getattr(self.service.store, "poll_interval", MAX_SLEEP))
            if nxt is not None:
                delay = min(delay, max(0.0, nxt - self.service.clock()))
            if lapse is not None:
                delay = min(delay, max(0.0, lapse - time.time()) + 0.05)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay + 0.01)
