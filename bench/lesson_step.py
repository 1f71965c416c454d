"""Budget: a lesson step is answered within the move budget -- p50 ≤ 2× the floor's p50.

The real bot (ParlorBot: cogs, SQLite store, renderers) against the in-process Discord double. A learner
plays Pylon lesson step 1 over and over (restarting it): the size button (redraws the step with the
square menus) and the square select (checks the move, stores progress, draws the position after it).
The floor: the same client answering a click on a button of its own by editing the message with a
ready answer (the same embed, picture bytes and number of components), no store and no drawing,
interleaved click by click with the lesson so both see the same load.

    nice -n 15 python -m bench.lesson_step [rounds]      (default 40)
"""

from __future__ import annotations

import asyncio
import io
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord

from bot.app import ParlorBot
from bot.config import Config
from bot.storage.sqlite import SqliteStore
from tests.discord_double import DiscordDouble

READY: dict[str, Any] = {}


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


async def main(rounds: int) -> None:
    from cogs._game.learn import LearnCog

    LearnCog.lesson_rate = (10**6, 1.0)
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
        lesson_ms: list[float] = []
        floor_ms: list[float] = []
        for _ in range(rounds):
            await bot.store.save_lesson_step(alice.id, "pylon", 0)
            target = await (await alice.slash(chan, "pylon learn")).message()  # the floor's message
            r = await alice.slash(chan, "pylon learn")
            msg = await r.message()
            for click in ("size", "square"):
                t = time.perf_counter()
                if click == "size":
                    await alice.click(msg, "Large (5 left)")
                else:
                    sel = next(s for s in msg.selects() if any(o.value == "c3" for o in s.options))
                    await alice.select(msg, ["c3"], custom_id=sel.custom_id)
                lesson_ms.append((time.perf_counter() - t) * 1000)
                READY.update(png=msg.attachments[0].bytes, embed=discord.Embed.from_dict(msg.embeds[0]),
                             items=max(1, len(msg.buttons()) + len(msg.selects())))
                t = time.perf_counter()
                fr = await alice.forge_component(target, "floor:go")
                assert fr.response_name == "UPDATE_MESSAGE", fr.response_name
                floor_ms.append((time.perf_counter() - t) * 1000)
        await dd.disconnect()
    p50_l, p50_f = statistics.median(lesson_ms), statistics.median(floor_ms)
    print(f"lesson click p50 {p50_l:.1f} ms · floor p50 {p50_f:.1f} ms · ratio {p50_l / p50_f:.2f} "
          f"(budget ≤ 2.00) · {len(lesson_ms)} clicks")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
