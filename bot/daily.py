"""The daily puzzle (issue 30): a server that chose a channel gets one puzzle a day there, at 12:00 UTC or at
the scheduler's next wake after it. Served by the scheduler as a ``DeadlineSource``.

Days are *puzzle days*, from 12:00 UTC to 12:00 UTC the next day (:func:`puzzle_day`). Each server's row
(``puzzle_daily``, migration 009) holds when its next post is due: the start of the next puzzle day. The
post is claimed first, in one write that moves ``next_due`` on and records the day
(``Store.claim_daily_puzzle``), so with several processes exactly one posts, and a restart neither repeats
a day (the row already says it was posted) nor skips one (a due row stays due until a process claims it).
A bot that was down for days posts once when it comes back (today's puzzle), not the missed ones. A post
that fails on a Discord incident (5xx, or no answer) is due again after a backoff (bot/chores.py's), until
Discord answers; one that Discord refuses (no access) is that day's loss, logged.

Which puzzle is a pure function of the day and the server (:func:`daily_choice`): the games take turns
day by day, and each game's puzzles come round in order, so every process picks the same one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

import discord

from bot.chores import FAILURES, INCIDENT, backoff, transient
from bot.puzzles import PUZZLE_GAMES, Puzzle, puzzles_of
from bot.storage import Store

log = logging.getLogger(__name__)

DAY = 86400.0
POST_HOUR = 12
"""The hour (UTC) the daily puzzle is posted at."""
_SHIFT = POST_HOUR * 3600.0


def puzzle_day(t: float) -> int:
    """The puzzle day of the time ``t``: days since 1970-01-01 12:00 UTC (a day starts at the post hour)."""
    return int((t - _SHIFT) // DAY)


def day_start(day: int) -> float:
    """When puzzle day ``day`` starts (its post is due)."""
    return day * DAY + _SHIFT


def next_post(now: float) -> float:
    """When the next daily post is due after ``now``: the next post hour, strictly later."""
    return day_start(puzzle_day(now) + 1)


def daily_choice(day: int, guild_id: int) -> Puzzle | None:
    """The puzzle of ``day`` for this server: the games rotate day by day, each game's puzzles in turn."""
    games = [g for g in PUZZLE_GAMES if puzzles_of(g)]
    if not games:
        return None
    turn = day + guild_id % 997
    found = puzzles_of(games[turn % len(games)])
    return found[(turn // len(games) + guild_id % 31) % len(found)]


class DailyHost(Protocol):
    @property
    def store(self) -> Store: ...

    async def post_daily_puzzle(self, guild_id: int, channel_id: int, p: Puzzle) -> None:
        """Post ``p`` publicly in the channel; raises what Discord answered."""


class DailyPuzzles:
    """Every server's daily puzzle, served by the scheduler (a ``DeadlineSource``)."""

    def __init__(self, bot: DailyHost, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock
        self.poke: Callable[[], None] = lambda: None
        """Wakes the scheduler (set by the bot): a server just chose a channel."""
        self._tries: dict[int, int] = {}
        """Failed tries of a server's post during an incident (this process's backoff)."""

    async def choose(self, guild_id: int, channel_id: int | None) -> float | None:
        """Post in ``channel_id`` from the next post hour on (None: stop). Returns when the next is due.

        Choosing the same channel again keeps its schedule (the stored row says when).
        """
        due = None if channel_id is None else next_post(self.clock())
        await self.bot.store.set_daily_puzzle(guild_id, channel_id, due or 0.0)
        self.poke()
        return due

    async def next_deadline(self) -> float | None:
        return await self.bot.store.next_daily_puzzle()

    async def run_due(self) -> int:
        """Post every due daily puzzle this process claims; returns how many it posted."""
        store, now = self.bot.store, self.clock()
        posted = 0
        for guild_id, channel_id, due in await store.due_daily_puzzles(now):
            day = puzzle_day(now)
            if not await store.claim_daily_puzzle(guild_id, due, day, day_start(day + 1)):
                continue  # another process posts it
            p = daily_choice(day, guild_id)
            if p is None:
                continue
            try:
                await self.bot.post_daily_puzzle(guild_id, channel_id, p)
            except discord.NotFound:  # the channel is gone: stop posting there
                log.info("the daily puzzle channel %s of server %s is gone", channel_id, guild_id)
                await store.set_daily_puzzle(guild_id, None, 0.0)
            except FAILURES as exc:
                if not transient(exc):  # no access: that day's post is lost
                    log.warning("posting the daily puzzle in %s failed: %s", channel_id, exc)
                    continue
                tries = self._tries[guild_id] = self._tries.get(guild_id, 0) + 1
                INCIDENT.failed("daily puzzle", exc)  # not translated: log
                await store.retry_daily_puzzle(guild_id, day, self.clock() + backoff(tries))
            else:
                self._tries.pop(guild_id, None)
                posted += 1
        return posted
