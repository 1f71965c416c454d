"""Shared set-up for the platform benches: the real bot against the in-process Discord double."""

from __future__ import annotations

import asyncio
import functools
import pathlib
import sys
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import ParlorBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.storage.sqlite import SqliteStore  # noqa: E402
from tests.discord_double import DiscordDouble  # noqa: E402


def make_bot(dd: DiscordDouble, db: pathlib.Path, guild_id: int) -> ParlorBot:
    config = Config(token=dd.token, database=f"sqlite:///{db}", command_guilds=(guild_id,))
    return ParlorBot(config, SqliteStore(str(db)), clock=time.time)


def pct(values: list[float], p: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def wrap_timed(owner: Any, name: str, times: list[float]) -> None:
    """Replace ``owner.name`` (a function or coroutine function) by one that appends each call's
    milliseconds to ``times`` (the benches' ``--phases``)."""
    f = getattr(owner, name)
    if asyncio.iscoroutinefunction(f):

        @functools.wraps(f)
        async def timed_async(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return await f(*a, **k)
            finally:
                times.append((time.perf_counter() - t) * 1000)

        setattr(owner, name, timed_async)
    else:

        @functools.wraps(f)
        def timed(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                times.append((time.perf_counter() - t) * 1000)

        setattr(owner, name, timed)
