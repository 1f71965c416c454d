"""Discord chores: what the bot sends on its own (retiring an earlier board, a turn ping, a result post, a
board brought up to date after a computer move or a timeout) that failed during a Discord incident (5xx,
or no answer), stored and retried with jittered backoff until Discord answers -- across restarts, and
once: the stored row goes when it is done.

Interaction replies are not retried here (their token is short-lived; a failed one is recovered by
re-posting the board). A board still waiting to be retired is checked again before each try: if it became
the live board meanwhile it is left alone. A board or channel that is gone (404: 10008, 10003) is dropped,
and so is anything Discord still refuses after :data:`GIVE_UP` seconds. An incident is logged once: the
first failure at WARNING, then nothing until a request gets through (:class:`Incident`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
import discord
from discord.http import MultipartParameters, handle_message_parameters

from bot import metrics
from bot.storage import Store

if TYPE_CHECKING:
    from discord.http import HTTPClient

    from bot.storage.sql_chores import Chore

log = logging.getLogger(__name__)

BACKOFF_MIN = 2.0
BACKOFF_MAX = 300.0
GIVE_UP = 24 * 3600.0
LEASE = 60.0
"""Seconds a process holds a chore it is trying (another takes it over if that process died)."""

FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def transient(exc: BaseException) -> bool:
    """A failure worth trying again: Discord answered 5xx, or did not answer at all."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | OSError | asyncio.TimeoutError)


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` tries: doubling from 2 s to 5 min, jittered."""
    delay = min(BACKOFF_MAX, BACKOFF_MIN * 2 ** min(attempts, 20))
    return random.uniform(delay / 2, delay)


class Incident:
    """Logs a Discord incident once: the first failure at WARNING, then quiet until a request succeeds."""

    def __init__(self) -> None:
        self.failures = 0

    def failed(self, what: str, exc: BaseException) -> None:
        self.failures += 1
        if self.failures == 1:
            log.warning("Discord is failing (%s: %s); retrying with backoff, quiet until it answers",
                        what, f"{type(exc).__name__}: {exc}"[:200])

    def ok(self) -> None:
        if self.failures:
            log.warning("Discord answers again (%d requests failed meanwhile)", self.failures)
            self.failures = 0


INCIDENT = Incident()


def message_payload(**kwargs: Any) -> dict[str, Any]:
    """The JSON discord.py would send for these message parts (``content``, ``embed``, ``view``, …)."""
    with handle_message_parameters(**kwargs) as params:
        return dict(params.payload or {})


class ChoresHost(Protocol):
    @property
    def store(self) -> Store: ...

    @property
    def http(self) -> HTTPClient: ...

    async def bring_up_to_date(self, match_id: int) -> None:
        """Present the match's board as it is now (a ``board`` chore); raises what Discord answered."""


class Chores:
    """The stored chores of one bot, served by the scheduler (a ``DeadlineSource``)."""

    def __init__(self, bot: ChoresHost, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock
        self.poke: Callable[[], None] = lambda: None
        """Wakes the scheduler (set by the bot): a new chore may be due before its next wake-up."""

    async def later(self, match_id: int, kind: str, channel_id: int, message_id: int | None,
                    payload: dict[str, Any], exc: BaseException) -> None:
        """``kind`` failed with ``exc`` (transient): remember it, to be tried again with backoff."""
        INCIDENT.failed(kind, exc)
        metrics.discord_retry(kind)
        await self.bot.store.add_chore(match_id, kind, channel_id, message_id, payload,
                                       self.clock() + backoff(0))
        metrics.chores_pending(await self.bot.store.pending_chores())
        self.poke()

    async def next_deadline(self) -> float | None:
        return await self.bot.store.next_chore()

    async def run_due(self) -> None:
        store = self.bot.store
        due = await store.due_chores(self.clock())
        for chore in due:
            if await store.claim_chore(chore, self.clock() + LEASE):
                await self.run(chore)
        if due:
            metrics.chores_pending(await store.pending_chores())

    async def run(self, chore: Chore) -> None:
        """One try of a claimed chore: done (deleted), dropped (deleted), or delayed with backoff."""
        store = self.bot.store
        if time.time() - chore.created_at > GIVE_UP:
            log.warning("giving up on the %s of match %s after %d tries", chore.kind, chore.match_id,
                        chore.attempts)
            await store.finish_chore(chore.id)
            return
        if chore.kind == "retire":
            rec = await store.load_match(chore.match_id)
            if rec is None or chore.message_id is None or rec.message_id == chore.message_id:
                await store.finish_chore(chore.id)  # it is the live board again: leave it
                return
        params = MultipartParameters(payload=chore.payload, multipart=None, files=None)
        try:
            if chore.kind == "board":  # never brought up to date (a computer move, a timeout)
                await self.bot.bring_up_to_date(chore.match_id)
            elif chore.message_id is not None:
                await self.bot.http.edit_message(chore.channel_id, chore.message_id, params=params)
            else:
                await self.bot.http.send_message(chore.channel_id, params=params)
        except FAILURES as exc:
            if transient(exc):
                INCIDENT.failed(chore.kind, exc)
                metrics.discord_retry(chore.kind)
                await store.delay_chore(chore.id, self.clock() + backoff(chore.attempts))
                return
            log.info("dropping the %s of match %s: %s", chore.kind, chore.match_id, exc)
        else:
            INCIDENT.ok()
        await store.finish_chore(chore.id)
