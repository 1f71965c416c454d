"""Budget: a round of 64 pairings starts within Discord's rate limits (thread creation paced, nothing fails).

128 players join a Pylon Swiss through the sign-up button of the real bot (cogs, SQLite) on the
in-process Discord double; the organiser presses Start; the bot posts the round, opens 64 threads
and posts each pairing's greeting and live board. The double does not answer 429s itself, so the
requests it recorded are replayed against Discord's buckets as modelled here (the 429s Discord
would have sent):

* global: 50 requests per second per bot;
* ``POST /channels/{id}/messages``: 5 per 5 s per channel;
* ``POST /channels/{id}/threads``: 5 per 5 s per parent channel (thread creation shares the
  channel's strict bucket; Discord does not publish this limit, so it is modelled conservatively).

Prints the time to start the round, the request count, the would-be 429s, and the same for an
unpaced run for comparison (``--no-compare`` skips it).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections import defaultdict, deque
from pathlib import Path

from _world import make_bot

from tests.discord_double import DiscordDouble

PLAYERS = 128
BUCKETS = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "POST /channels/{channel_id}/threads": (5, 5.0),
}
GLOBAL = (50, 1.0)


def would_be_429s(requests) -> int:
    """Requests over a sliding-window bucket when they were sent."""
    hits = 0
    windows: dict[tuple[str, str], deque[float]] = defaultdict(deque)
    glob: deque[float] = deque()
    for r in sorted(requests, key=lambda r: r.time):
        if r.source == "webhook":  # interaction responses are not under the bot's global limit
            continue
        limit, per = GLOBAL
        while glob and r.time - glob[0] >= per:
            glob.popleft()
        over = len(glob) >= limit
        glob.append(r.time)
        bucket = BUCKETS.get(r.route)
        if bucket is not None:
            key = (r.route, r.path.split("/")[2])
            w = windows[key]
            while w and r.time - w[0] >= bucket[1]:
                w.popleft()
            over = over or len(w) >= bucket[0]
            w.append(r.time)
        hits += over
    return hits


async def run(paced: bool) -> tuple[float, int, int, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("events")
            admin = dd.create_user("organiser")
            guild.add_member(admin, permissions=["manage_guild"])
            users = [dd.create_user(f"player{i}") for i in range(PLAYERS)]
            for u in users:
                guild.add_member(u)
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            await dd.connect(bot)
            cog = bot.get_cog("TournamentCog")
            if not paced:
                cog.pacer.burst = 0
            await bot.store.save_tournament_settings(guild.id, None, 5)
            r = await admin.slash(chan, "tournament new", game="pylon")
            signup = await r.message()
            for u in users:
                await u.click(signup, "Join")
            await dd.settle()
            mark = dd.mark()
            t0 = time.perf_counter()
            await admin.click(signup, "Start (organiser)")
            await cog.wait_idle()
            await dd.settle()
            elapsed = time.perf_counter() - t0
            calls = dd.api_calls(since=mark)
            boards = sum(
                1 for th in guild.threads for m in th.messages if m.attachments and "To move" in m.text
            )
            failed = len(dd.failed_requests(mark))
            return elapsed, len(guild.threads), boards, len(calls), would_be_429s(calls) + failed


async def main() -> None:
    elapsed, threads, boards, n, hits = await run(paced=True)
    print(
        f"round start, {PLAYERS} players, paced: {threads} threads, {boards} boards, {n} requests in "
        f"{elapsed:.1f} s; 429s under Discord's buckets: {hits} (budget: 0, nothing failed) -> "
        f"{'OK' if hits == 0 and threads == PLAYERS // 2 and boards == PLAYERS // 2 else 'OVER BUDGET'}"
    )
    if "--no-compare" not in sys.argv:
        elapsed, threads, boards, n, hits = await run(paced=False)
        print(
            f"for comparison, unpaced: {threads} threads, {n} requests in {elapsed:.1f} s; would-be 429s: "
            f"{hits}"
        )


if __name__ == "__main__":
    asyncio.run(main())
