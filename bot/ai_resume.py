"""Computer moves outlive the process that scheduled them.

A computer move is an in-process task started after the human's move is committed. If that process dies
(kill -9, a crash, a redeploy) before the computer's move is committed, nothing in the database says a
move is owed except the position itself: it is the computer's turn. So every process sweeps the running
matches where the bot holds a seat: at start (a restart takes over at once) and every ``EVERY`` seconds
for matches untouched for ``GRACE`` seconds (another process died; normal computer moves take a few
seconds at most). A move computed twice (two processes sweeping, or a slow task) is harmless: it goes
through ``MatchService.play`` with the version it was computed for, so only one is applied and the
other is refused as stale and dropped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.matches.service import Match
from bot.storage import Status

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

EVERY = 5.0
GRACE = 15.0


async def sweep(bot: ParlorBot, *, grace: float = GRACE) -> list[int]:
    """Schedule the computer's move in every running match where it is owed and not already being made
    here; returns those match ids."""
    if bot.user is None:
        return []
    now = bot.service.clock()
    resumed = []
    for rec in await bot.store.active_matches_of_user(bot.user.id):
        if rec.status != Status.RUNNING or rec.updated_at > now - grace:
            continue
        cog = bot.game_cogs.get(rec.game)
        if cog is None or cog.ai_pending(rec.id):
            continue
        if Match(rec).ai_to_act() is None:
            continue
        cog.schedule_ai(rec.id)
        resumed.append(rec.id)
    if resumed:
        log.info("resumed the computer's move in match(es) %s", ", ".join(map(str, resumed)))
    return resumed


async def run(bot: ParlorBot, every: float = EVERY, grace: float = GRACE) -> None:
    """At start (no grace: nothing of ours is in flight yet), then every ``every`` seconds."""
    await bot.wait_until_ready()
    first = True
    while not bot.is_closed():
        try:
            await sweep(bot, grace=0.0 if first else grace)
            first = False
        except Exception:  # noqa: BLE001 - the sweep retries on its next pass
            log.exception("looking for owed computer moves failed")
        await asyncio.sleep(every)
