"""Budget (issue #29): a replay step answered within the floor budget of a move, whole-game GIFs small and
quick, and other matches' moves unharmed while a GIF is made.

The real bot (ParlorBot: cogs, SQLite store, renderers) runs against the in-process Discord double.

1. Step latency: a finished 60-move Pylon match is opened with ``/pylon history match:`` and stepped with
   ◀ ▶ (each click edits the private message with the new picture: one request). The *floor*, as in
   bench/move_floor.py but simpler (no 200 matches around): a button of the bench's own, answered through
   the same client and double with the ready replay message (same embed, same picture bytes, as many
   buttons) and nothing else, interleaved click by click. Budget: step p50 ≤ 2× the floor's p50.
2. The whole-game GIF (the 🎞 button's work, :meth:`cogs._game.replay.ReplayCog.whole_game`) of a random
   60-move Pylon game, a Fire and Ice game and a 4-round, 4-player EOF game: CPU seconds and bytes.
   Budgets: < 1 s and < 2 MB (Pylon, Fire and Ice), < 3 s (EOF).
3. Typed moves of another Pylon match (``/pylon move``), their latency idle and while EOF GIFs are being
   made one after another in a worker thread (as the button does): p50 / p99 side by side.

Usage: python bench/replay.py [rounds=60] [--profile]
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
from _world import make_bot, pct

from bot.matches.replay import gif_off_loop, make_gif, positions, stop_gif_process
from tests.discord_double import DiscordDouble

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
READY: dict[str, Any] = {}
"""The floor's ready answer: the embed, picture bytes and buttons of the replay message just sent."""


class FloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<n>[0-9]+)"):
    """A button of the floor's own: its click is answered with the ready replay step (no store, no engine,
    no drawing), through the same client and double as the real step."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"floor {n}", custom_id=f"floor:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any, /) -> FloorButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            embed=discord.Embed.from_dict(READY["embed"]), view=floor_view(),
            attachments=[discord.File(io.BytesIO(READY["data"]), "replay.png")])


def floor_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i in range(READY["buttons"]):
        view.add_item(FloorButton(i))
    return view


async def random_moves(bot: Any, mid: int, rng: random.Random, limit: int) -> int:
    """Random legal moves through the match service until the end or ``limit`` moves; returns the count."""
    n = 0
    while n < limit:
        m = await bot.service.get(mid)
        if m.status.value != "running":
            break
        who = sorted(m.to_act())
        if not who:
            break
        seat = rng.choice(who)
        move = rng.choice(m.rules.legal_moves(m.state, seat))
        await bot.service.play(mid, m.seats[seat].user_id, m.rules.format(move, m.state), seat=seat)
        n += 1
    return n


async def latest(bot: Any) -> int:
    async with bot.store._read() as db:
        return int((await db.fetch("SELECT MAX(id) FROM matches"))[0][0])


async def two_player(dd: Any, bot: Any, chan: Any, game: str, a: Any, b: Any, moves: int, seed: int) -> int:
    """A match of ``game`` between a and b with up to ``moves`` random moves; the longest of a few seeds."""
    best = (-1, 0)
    for s in range(seed, seed + 6):
        await a.slash(chan, f"{game} new", opponent=b)
        invite = await chan.wait_for(lambda m: "Accept" in m.button_labels() and str(b.id) in m.content)
        await b.click(invite, "Accept")
        await dd.settle()
        mid = await latest(bot)
        n = await random_moves(bot, mid, random.Random(s), moves)
        if n > best[0]:
            best = (n, mid)
        if n >= moves:
            break
    m = await bot.service.get(best[1])
    if m.status.value == "running":
        await bot.service.resign(m.id, m.seats[0].user_id)
    return best[1]


async def eof_four(dd: Any, bot: Any, chan: Any, users: list[Any], seed: int) -> int:
    await users[0].slash(chan, "eof new")  # the default deal: each draw's size is a move of its own
    lobby = await chan.wait_for(lambda m: "lobby" in (m.embed.title or "") and "Start" in m.button_labels())
    for u in users[1:4]:
        await u.click(lobby, "Join")
    await users[0].click(lobby, "Start")
    await dd.settle()
    mid = await latest(bot)
    await random_moves(bot, mid, random.Random(seed), 500)
    return mid


async def gif_figures(bot: Any, mid: int) -> tuple[int, float, int, int]:
    m = await bot.service.get(mid)
    replay = positions(m, await bot.service.history(mid))
    cog = bot.game_cogs[m.rec.game]
    t = time.process_time()
    gif = cog.whole_game(m, replay)
    return replay.last, time.process_time() - t, len(gif.data), gif.frames


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("games")
            users = [dd.create_user(n) for n in ("alice", "bob", "carol", "dave")]
            for u in users:
                guild.add_member(u)
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            await dd.connect(bot)
            alice, bob = users[0], users[1]

            pylon = await two_player(dd, bot, chan, "pylon", alice, bob, 60, 1)
            fire = await two_player(dd, bot, chan, "fireandice", alice, bob, 60, 1)
            eof = await eof_four(dd, bot, chan, users, 3)
            await dd.settle()

            # 1. step latency against the bare response
            r = await alice.slash(chan, "pylon history", match=pylon, move=30)
            msg = await r.message()
            READY.update(embed=msg.embeds[0], data=msg.attachments[0].bytes, buttons=len(msg.buttons()) + 1)
            bot.add_dynamic_items(FloorButton)
            sent = await bot.get_channel(chan.id).send(embed=discord.Embed.from_dict(READY["embed"]),
                                                       view=floor_view())
            await dd.settle()
            floor_msg = dd.messages[sent.id]
            steps: list[float] = []
            floor: list[float] = []
            prof = cProfile.Profile() if "--profile" in sys.argv else None
            for i in range(ROUNDS):
                t = time.perf_counter()
                if prof is not None:
                    prof.enable()
                await alice.click(msg, emoji="▶" if i % 2 == 0 else "◀")
                if prof is not None:
                    prof.disable()
                steps.append(time.perf_counter() - t)
                t = time.perf_counter()
                await alice.click(floor_msg, "floor 0")
                floor.append(time.perf_counter() - t)
            print(f"replay step  p50 {pct(steps, 50) * 1000:6.1f} ms  p99 {pct(steps, 99) * 1000:6.1f} ms")
            if prof is not None:
                pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
            ok = "OK" if pct(steps, 50) <= 2 * pct(floor, 50) else "OVER"
            print(f"floor        p50 {pct(floor, 50) * 1000:6.1f} ms  p99 {pct(floor, 99) * 1000:6.1f} ms   "
                  f"(budget: step p50 ≤ 2× floor p50: {ok})")

            # 2. whole-game GIFs
            for name, mid, cpu_budget in (("pylon", pylon, 1.0), ("fireandice", fire, 1.0),
                                          ("eof 4p", eof, 3.0)):
                moves, cpu, size, frames = await gif_figures(bot, mid)
                size_ok = size < 2_000_000 or name.startswith("eof")
                ok = "OK" if cpu < cpu_budget and size_ok else "OVER"
                mb = ", 2 MB" if cpu_budget < 2 else ""
                print(f"GIF {name:10s} {moves:3d} moves  {frames:3d} frames  {cpu:5.2f} s CPU  "
                      f"{size / 1e6:5.2f} MB   (budget {cpu_budget:.0f} s{mb}: {ok})")

            # 3. another match's typed moves, idle and while GIFs are made in a worker thread
            await alice.slash(chan, "pylon new", opponent=bob)
            invite = await chan.wait_for(lambda m: "Accept" in m.button_labels() and str(bob.id) in m.content)
            await bob.click(invite, "Accept")
            await dd.settle()
            live = [await latest(bot), guild.threads[-1]]
            rng = random.Random(5)
            by_id = {u.id: u for u in users}

            async def typed_moves(n: int) -> list[float]:
                out = []
                for _ in range(n):
                    m = await bot.service.get(live[0])
                    if m.status.value != "running":  # over: the next moves in a new match
                        await alice.slash(chan, "pylon new", opponent=bob)
                        invite = await chan.wait_for(lambda m: "Accept" in m.button_labels())
                        await bob.click(invite, "Accept")
                        await dd.settle()
                        live[:] = [await latest(bot), guild.threads[-1]]
                        m = await bot.service.get(live[0])
                    thread = live[1]
                    (seat,) = sorted(m.to_act())
                    move = rng.choice(m.rules.legal_moves(m.state, seat))
                    t = time.perf_counter()
                    await by_id[m.seats[seat].user_id].slash(thread, "pylon move",
                                                             notation=m.rules.format(move, m.state))
                    out.append(time.perf_counter() - t)
                    await dd.settle()
                return out

            idle = await typed_moves(30)
            m = await bot.service.get(eof)
            replay = positions(m, await bot.service.history(eof))
            job = bot.game_cogs["eof"].gif_job(m, replay)
            busy_flag = True

            async def gifs(make: Any) -> int:
                made = 0
                while busy_flag:
                    await make(job)
                    made += 1
                return made

            results = {}
            for how, make in (("the GIF process", gif_off_loop),
                              ("a worker thread", lambda j: asyncio.to_thread(make_gif, j))):
                await gif_off_loop(job)  # (the process started and warm: its start-up is not the point)
                busy_flag = True
                task = asyncio.create_task(gifs(make))
                await asyncio.sleep(0.05)
                results[how] = await typed_moves(30)
                busy_flag = False
                results[how + " made"] = [await task]
            print(f"typed moves idle         p50 {pct(idle, 50) * 1000:6.1f} ms  "
                  f"p99 {pct(idle, 99) * 1000:6.1f} ms")
            for how in ("the GIF process", "a worker thread"):
                busy = results[how]
                print(f"typed moves during GIFs  p50 {pct(busy, 50) * 1000:6.1f} ms  "
                      f"p99 {pct(busy, 99) * 1000:6.1f} ms   ({int(results[how + ' made'][0])} EOF GIFs made "
                      f"meanwhile in {how})")
            stop_gif_process()
            await dd.disconnect()


if __name__ == "__main__":
    asyncio.run(main())
