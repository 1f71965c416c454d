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
3. Other matches' moves while GIFs are made (4-player EOF GIFs, one after another in the GIF process, each
   job built on the loop as the button builds it):
   - the GIF job: the loop thread's CPU to build it, its pickled size, and the bot process's CPU per GIF
     (all its threads: the job, pickling it, the answer) with nothing else going on;
   - the longest loop stall: how late a ticker task sleeping 1 ms wakes, idle and while GIFs are made (on a
     shared machine mostly the OS's scheduling), and in the GIFs' own turns on the loop (the ticks right
     after a job was built: a GIF's answer handled, the next job built);
   - typed moves of another Pylon match (``/pylon move``), each followed by the floor: ``/floor``, a slash
     command of the bench's own answered with the move's answer ready (same text, embed, picture and
     buttons), and a click on a floor button (as in 1.); in blocks of 25, GIFs on and off alternating
     (idle, GIFs, GIFs, idle, ...: drift hits both), 300 moves per condition: p50 / p99 idle and during
     GIFs, their ratio, and the move budget (p99 ≤ 3× the floor command's p99, as bench/move_floor.py).
   About two and a half minutes in all.

Usage: python bench/replay.py [rounds=60] [--profile]
"""

from __future__ import annotations

import asyncio
import bisect
import cProfile
import io
import pickle
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
from _world import make_bot, pct
from discord import app_commands

from bot.matches.replay import gif_off_loop, positions, stop_gif_process
from tests.discord_double import DiscordDouble

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 60
BLOCK = 25
"""Typed moves (each followed by a floor click) per block of section 3."""
BLOCKS = 12
"""Blocks per condition (idle, during GIFs): 300 moves each."""
GIFS_TIMED = 6
"""EOF GIFs made one after another for the bot's CPU per GIF, and again for the loop's stalls."""
TICK = 0.001
"""The stall ticker's sleep: its lateness is how long the loop was held."""
STALL_IDLE = 4.0
"""Seconds the ticker runs with nothing else to do (the machine's own noise)."""
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
        embed = discord.Embed.from_dict(READY["embed"]) if READY["embed"] else None
        picture = discord.File(io.BytesIO(READY["data"]), "f.png")
        await interaction.response.edit_message(embed=embed, view=floor_view(), attachments=[picture])


@app_commands.command(name="floor", description="The bench's floor: a ready answer")
async def floor_command(interaction: discord.Interaction) -> None:
    """The floor of a typed move: a slash command of the bench's own, answered with the move's answer ready
    (same embed, picture and buttons), through the same client and double."""
    embed = discord.Embed.from_dict(READY["embed"]) if READY["embed"] else None
    await interaction.response.send_message(
        content=READY.get("content") or None, embed=embed, view=floor_view(),
        file=discord.File(io.BytesIO(READY["data"]), "board.png"))


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


def ms(values: list[float], p: float) -> str:
    return f"{pct(values, p) * 1000:5.1f} ms"


class Gifs:
    """EOF GIFs made as the 🎞 button makes them: the job built on the loop (timed: the loop thread's CPU),
    drawn in the GIF process."""

    def __init__(self, cog: Any, match: Any, replay: Any) -> None:
        self.cog, self.match, self.replay = cog, match, replay
        self.build: list[float] = []
        self.built: list[float] = []
        """When each job was built (perf_counter): the loop's turn that ends there is the GIF's own."""
        self.made = 0
        self.on = False

    async def one(self) -> None:
        t = time.thread_time()
        job = self.cog.gif_job(self.match, self.replay)
        self.build.append(time.thread_time() - t)
        self.built.append(time.perf_counter())
        await gif_off_loop(job)
        self.made += 1

    async def until_off(self) -> None:
        while self.on:
            await self.one()


async def ticking(work: Any) -> tuple[list[float], list[float]]:
    """How late a ticker sleeping :data:`TICK` woke, each time, while ``work`` (awaitable) runs; and when
    it woke (perf_counter)."""
    lags: list[float] = []
    woke: list[float] = []
    done = False

    async def tick() -> None:
        while not done:
            t = time.perf_counter()
            await asyncio.sleep(TICK)
            woke.append(time.perf_counter())
            lags.append(max(0.0, woke[-1] - t - TICK))

    ticker = asyncio.create_task(tick())
    await work
    done = True
    await ticker
    return lags, woke


def lag_after(lags: list[float], woke: list[float], when: list[float]) -> list[float]:
    """The lateness of the first tick after each of ``when``: the loop's turn that ended then held it."""
    return [lags[i] for t in when if (i := bisect.bisect_left(woke, t)) < len(woke)]


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("games")
            users = [dd.create_user(n) for n in ("alice", "bob", "carol", "dave")]
            for u in users:
                guild.add_member(u)
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            bot.tree.add_command(floor_command)
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

            # 3. another match's typed moves (and the floor), idle and while EOF GIFs are made
            await alice.slash(chan, "pylon new", opponent=bob)
            invite = await chan.wait_for(lambda m: "Accept" in m.button_labels() and str(bob.id) in m.content)
            await bob.click(invite, "Accept")
            await dd.settle()
            live = [await latest(bot), guild.threads[-1]]
            rng = random.Random(5)
            by_id = {u.id: u for u in users}

            async def typed_move() -> tuple[float, Any]:
                m = await bot.service.get(live[0])
                if m.status.value != "running":  # over: the next moves in a new match
                    await alice.slash(chan, "pylon new", opponent=bob)
                    invite = await chan.wait_for(lambda m: "Accept" in m.button_labels())
                    await bob.click(invite, "Accept")
                    await dd.settle()
                    live[:] = [await latest(bot), guild.threads[-1]]
                    m = await bot.service.get(live[0])
                (seat,) = sorted(m.to_act())
                move = rng.choice(m.rules.legal_moves(m.state, seat))
                t = time.perf_counter()
                r = await by_id[m.seats[seat].user_id].slash(live[1], "pylon move",
                                                             notation=m.rules.format(move, m.state))
                took = time.perf_counter() - t
                await dd.settle()
                return took, r

            # the floor of a typed move: its answer (embed, picture, buttons) ready, sent by the same client
            _took, r = await typed_move()
            answer = await r.message()
            READY.update(embed=answer.embeds[0] if answer.embeds else None, content=answer.content,
                         data=answer.attachments[0].bytes if answer.attachments else b"",
                         buttons=max(1, len(answer.buttons())))
            sent = await bot.get_channel(chan.id).send(content="floor", view=floor_view())
            await dd.settle()
            move_floor = dd.messages[sent.id]

            m = await bot.service.get(eof)
            replay = positions(m, await bot.service.history(eof))
            gifs = Gifs(bot.game_cogs["eof"], m, replay)
            await gifs.one()  # (the process started and warm: its start-up is not the point)
            size = len(pickle.dumps(gifs.cog.gif_job(m, replay)))
            gifs.build.clear()

            # the bot's CPU per GIF: loop idle but for making GIFs one after another
            cpu = time.process_time()
            for _ in range(GIFS_TIMED):
                await gifs.one()
            per_gif = (time.process_time() - cpu) / GIFS_TIMED
            build = gifs.build
            print(f"GIF job (EOF 4p, {replay.last} moves) built on the loop: CPU p50 {ms(build, 50)} max "
                  f"{ms(build, 100)}; pickled {size / 1000:5.1f} KB; the bot process's CPU per GIF (all its "
                  f"threads, {GIFS_TIMED} GIFs) {per_gif * 1000:5.1f} ms")

            # the longest loop stall: a ticker's lateness, idle and while GIFs are made one after another
            idle_lags, _woke = await ticking(asyncio.sleep(STALL_IDLE))

            async def some_gifs() -> None:
                await asyncio.sleep(0.01)  # (the ticker ticking before the first job is built)
                for _ in range(GIFS_TIMED):
                    await gifs.one()

            gifs.built.clear()
            gif_lags, woke = await ticking(some_gifs())
            own = lag_after(gif_lags, woke, gifs.built)
            print(f"loop stall (a ticker's lateness, every {TICK * 1000:.0f} ms) idle {STALL_IDLE:.0f} s: "
                  f"max {ms(idle_lags, 100)} p99 {ms(idle_lags, 99)}   while {GIFS_TIMED} GIFs are made: max "
                  f"{ms(gif_lags, 100)} p99 {ms(gif_lags, 99)}; in the GIFs' own turns (a GIF back, the next "
                  f"job built) max {ms(own, 100)}")

            # typed moves and floor clicks in blocks, GIFs on and off alternating (ABBA: drift hits both)
            moves: dict[bool, list[float]] = {False: [], True: []}
            floors: dict[bool, list[float]] = {False: [], True: []}
            clicks: dict[bool, list[float]] = {False: [], True: []}
            made = gifs.made
            task: asyncio.Task[None] | None = None
            for b in range(2 * BLOCKS):
                busy = b % 4 in (1, 2)
                if busy and task is None:
                    gifs.on = True
                    task = asyncio.create_task(gifs.until_off())
                    await asyncio.sleep(0.05)
                elif not busy and task is not None:
                    gifs.on = False
                    await task  # (the GIF being made finished: none overlaps an idle block)
                    task = None
                for _ in range(BLOCK):
                    took, _r = await typed_move()
                    moves[busy].append(took)
                    t = time.perf_counter()
                    await alice.slash(live[1], "floor")
                    floors[busy].append(time.perf_counter() - t)
                    await dd.settle()
                    t = time.perf_counter()
                    await alice.click(move_floor, "floor 0")
                    clicks[busy].append(time.perf_counter() - t)
                    await dd.settle()
            if task is not None:
                gifs.on = False
                await task
            for busy, what in ((False, "idle       "), (True, "during GIFs")):
                xs, fl, cl = moves[busy], floors[busy], clicks[busy]
                ok = "OK" if pct(xs, 99) <= 3 * pct(fl, 99) else "OVER"
                print(f"{what} typed move p50 {ms(xs, 50)} p99 {ms(xs, 99)}   floor command p50 {ms(fl, 50)} "
                      f"p99 {ms(fl, 99)}   floor click p50 {ms(cl, 50)} p99 {ms(cl, 99)}   ({len(xs)} each; "
                      f"move p99 ≤ 3× floor command p99: {ok})")
            idle, during = moves[False], moves[True]
            print(f"during/idle typed move p50 ×{pct(during, 50) / pct(idle, 50):4.2f}  "
                  f"p99 ×{pct(during, 99) / pct(idle, 99):4.2f}   its p99 during GIFs against the idle "
                  f"floor command's ×{pct(during, 99) / pct(floors[False], 99):4.2f}   "
                  f"({gifs.made - made} EOF GIFs made meanwhile in the GIF process)")
            stop_gif_process()
            await dd.disconnect()


if __name__ == "__main__":
    asyncio.run(main())
