"""Budget: a lesson step is answered within the move budget -- p50 ≤ 2× the floor's p50.

The real bot (ParlorBot: cogs, SQLite store, renderers) against the in-process Discord double. A learner
plays the first step of a lesson over and over (the step's progress is reset before each round):

  pylon  the size button (redraws the step with the square menus), then the square select (checks the
         move, stores progress, draws the position after it)
  eof    the piece select, its orientation, the second piece, its orientation (builder clicks), then
         Submit (the round runs in the engine, scoring included)
  nomic  the three direction buttons (each redraws the map with the planned path), then Confirm

Latency and floor are those of bench/move_floor.py: latency = interaction delivered → the bot's response
(which carries the picture) received by Discord (``inter.latency`` of the double); the floor is the same
client answering a click on a button of its own with a ready answer -- the lesson message just sent (same
embed, same picture bytes, same number of components), no store and no drawing -- interleaved click by
click with the lesson so both see the same load.

    nice -n 15 python -m bench.lesson_step [rounds] [--phases] [--profile]      (default 20 rounds)

``--phases`` prints p50 per call of the steps a click goes through (store, checker, message building,
drawing); ``--profile`` prints the top of a cProfile of the lesson clicks.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import re
import statistics
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from _world import wrap_timed

from bot.app import ParlorBot
from bot.config import Config
from bot.storage.sqlite import SqliteStore
from tests.discord_double import DiscordDouble

READY: dict[str, Any] = {}
PHASES: dict[str, list[float]] = {}


class Floor(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.compile(r"floor:.*")):
    def __init__(self, item: Any, cid: str = "floor:x") -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any, /) -> Floor:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(READY["png"]), "lesson.png")
        view = discord.ui.View(timeout=None)
        for i in range(READY["items"]):
            view.add_item(discord.ui.Button(label=f"b{i}", custom_id=f"floor:{i}"))
        await interaction.response.edit_message(embed=READY["embed"], attachments=[file], view=view)


def time_phases() -> None:
    """Wrap the steps of a lesson click with timers."""
    from bot import lessons
    from cogs._game import learn

    def wrap(owner: Any, name: str, key: str) -> None:
        wrap_timed(owner, name, PHASES.setdefault(key, []))

    wrap(SqliteStore, "lesson_step", "store: read progress")
    wrap(SqliteStore, "save_lesson_step", "store: save progress")
    wrap(learn.LearnCog, "on_lesson", "on_lesson (whole click)")
    wrap(learn.LearnCog, "step_message", "step message (embed, components, picture)")
    wrap(learn.LearnCog, "done_message", "done message (after a right move)")
    wrap(learn.LearnCog, "lesson_picture", "draw + encode a picture")
    wrap(learn.LearnCog, "lesson_items", "components")
    wrap(learn, "check", "checker (engine parse + apply)")
    wrap(lessons.core, "position", "step position")


Click = Callable[[Any, Any], Awaitable[Any]]


def option(msg: Any, value: str) -> str:
    return str(next(s.custom_id for s in msg.selects() if any(o.value == value for o in s.options)))


def label(msg: Any, start: str) -> str:
    return str(next(b.label for b in msg.buttons() if b.label.startswith(start)))


def clicks(game: str) -> list[Click]:
    if game == "pylon":
        return [lambda u, m: u.click(m, "Large (5 left)"),
                lambda u, m: u.select(m, ["c3"], custom_id=option(m, "c3"))]
    if game == "eof":
        return [lambda u, m: u.select(m, ["Y1"], custom_id=option(m, "Y1")),
                lambda u, m: u.click(m, label(m, "Right")),
                lambda u, m: u.select(m, ["Y2"], custom_id=option(m, "Y2")),
                lambda u, m: u.click(m, label(m, "Right")),
                lambda u, m: u.click(m, "Submit")]
    return [lambda u, m: u.click(m, "East"), lambda u, m: u.click(m, "East"),
            lambda u, m: u.click(m, "North"), lambda u, m: u.click(m, "Confirm EEN")]


async def main(rounds: int, games: tuple[str, ...], profile: bool) -> None:
    from cogs._game.learn import LearnCog

    LearnCog.lesson_rate = (10**6, 1.0)
    prof = cProfile.Profile() if profile else None
    lesson_ms: dict[str, list[float]] = {g: [] for g in games}
    floor_ms: dict[str, list[float]] = {g: [] for g in games}
    async with DiscordDouble() as dd:
        guild = dd.create_guild("Bench")
        chan = guild.create_text_channel("games")
        alice = dd.create_user("alice")
        guild.add_member(alice)
        db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
        bot = ParlorBot(Config(token=dd.token, database=f"sqlite:///{db}", command_guilds=(guild.id,)),
                        SqliteStore(str(db)))
        await dd.connect(bot)
        bot.add_dynamic_items(Floor)
        target = await (await alice.slash(chan, "pylon learn")).message()  # the floor's message
        for _ in range(rounds):
            for game in games:
                await bot.store.save_lesson_step(alice.id, game, 0)
                msg = await (await alice.slash(chan, f"{game} learn")).message()
                for click in clicks(game):
                    if prof:
                        prof.enable()
                    r = await click(alice, msg)
                    if prof:
                        prof.disable()
                    await dd.settle()
                    assert r.response_name == "UPDATE_MESSAGE", (game, r.response_name)
                    lesson_ms[game].append(float(r.latency) * 1000)
                    READY.update(png=msg.attachments[0].bytes, embed=discord.Embed.from_dict(msg.embeds[0]),
                                 items=max(1, len(msg.buttons()) + len(msg.selects())))
                    fr = await alice.forge_component(target, "floor:go")
                    await dd.settle()
                    assert fr.response_name == "UPDATE_MESSAGE", fr.response_name
                    floor_ms[game].append(float(fr.latency) * 1000)
        await dd.disconnect()

    def pct(xs: list[float], q: float) -> float:
        return statistics.quantiles(xs, n=100)[int(q) - 1] if len(xs) > 1 else xs[0]

    print(f"{'game':<7} {'clicks':>6}  {'lesson p50':>10} {'p99':>6}  {'floor p50':>9} {'p99':>6}  ratio p50")
    for g in games:
        p50, f50 = statistics.median(lesson_ms[g]), statistics.median(floor_ms[g])
        print(f"{g:<7} {len(lesson_ms[g]):>6}  {p50:>8.2f}ms {pct(lesson_ms[g], 99):>6.2f}  {f50:>7.2f}ms "
              f"{pct(floor_ms[g], 99):>6.2f}  {p50 / f50:>5.2f} (budget ≤ 2.00)")
    everything = [x for g in games for x in lesson_ms[g]]
    floors = [x for g in games for x in floor_ms[g]]
    mid = statistics.median(everything)
    print(f"all     {len(everything):>6}  {mid:>8.2f}ms {pct(everything, 99):>6.2f}  "
          f"{statistics.median(floors):>7.2f}ms {pct(floors, 99):>6.2f}  "
          f"{mid / statistics.median(floors):>5.2f}")
    if PHASES:
        print("\nphases (p50 per call, ms; calls):")
        for key, xs in PHASES.items():
            if xs:
                print(f"  {key:<44} {statistics.median(xs):>7.3f}  {len(xs):>5}")
    if prof:
        st = pstats.Stats(prof)
        st.sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    picked = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--games=")), "pylon,eof,nomic")
    if "--phases" in sys.argv:
        time_phases()
    asyncio.run(main(int(args[0]) if args else 20, tuple(picked.split(",")), "--profile" in sys.argv))
