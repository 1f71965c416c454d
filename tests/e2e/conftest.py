"""End-to-end fixtures: the real bot (ParlorBot, real cogs, real SQLite) against the Discord test double.

``world`` gives a guild with a #games channel, players alice/bob/carol/dave (dave's DMs are closed),
an admin with Manage Server, the connected bot, a controllable clock for the match service, and
``world.restart()`` (a new bot object on the same database and the same Discord world).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import ParlorBot
from bot.config import Config
from bot.storage.sqlite import SqliteStore
from tests.discord_double import DiscordDouble


class Clock:
    """Wall time that tests can move forward (turn limits, clocks)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class World:
    dd: DiscordDouble
    guild: Any
    chan: Any
    alice: Any
    bob: Any
    carol: Any
    dave: Any
    admin: Any
    bot: ParlorBot
    clock: Clock
    db: Path

    def make_bot(self) -> ParlorBot:
        return make_bot(self.dd, self.db, self.clock, self.guild.id)

    async def restart(self) -> ParlorBot:
        await self.dd.disconnect()
        self.bot = self.make_bot()
        await self.dd.connect(self.bot)
        return self.bot

    async def expire(self, seconds: float) -> list[Any]:
        """Move time on and let the scheduler handle every deadline that passed."""
        self.clock.advance(seconds)
        results = await self.bot.scheduler.run_due()
        await self.dd.settle()
        return results

    @property
    def bot_member(self) -> Any:
        return self.dd.bot_user

    def thread(self, index: int = -1) -> Any:
        return self.guild.threads[index]


def make_bot(dd: DiscordDouble, db: Path, clock: Clock, guild_id: int) -> ParlorBot:
    config = Config(token=dd.token, database=f"sqlite:///{db}", command_guilds=(guild_id,))
    return ParlorBot(config, SqliteStore(str(db)), clock=clock)


@pytest.fixture
async def dd():
    async with DiscordDouble() as double:
        yield double


@pytest.fixture
async def world(dd, tmp_path):
    guild = dd.create_guild("Test Guild")
    chan = guild.create_text_channel("games")
    users = {
        name: dd.create_user(name, dms_open=(name != "dave")) for name in ("alice", "bob", "carol", "dave")
    }
    for u in users.values():
        guild.add_member(u)
    admin = dd.create_user("admin")
    guild.add_member(admin, permissions=["manage_guild"])
    clock = Clock()
    db = tmp_path / "parlor.sqlite3"
    bot = make_bot(dd, db, clock, guild.id)
    await dd.connect(bot)
    w = World(
        dd, guild, chan, users["alice"], users["bob"], users["carol"], users["dave"], admin, bot, clock, db
    )
    yield w
    if dd.connected:
        await dd.disconnect()


@pytest.fixture(autouse=True)
def _pseudo_locale_findings(request):
    """``PARLOR_PSEUDO_LOCALE=1 pytest tests/e2e``: a test fails on any English its bot sent untranslated,
    on a text that would pass a Discord limit once translated, and on a text drawn off its picture."""
    from tests.discord_double import pseudo

    if pseudo.active():
        pseudo.watch_pictures()
        pseudo.OFF_PICTURE.clear()
    yield
    if not pseudo.active():
        return
    double = request.node.funcargs.get("dd") or getattr(request.node.funcargs.get("world"), "dd", None)
    found = sorted(set(pseudo.OFF_PICTURE) | set(double.pseudo_findings if double is not None else ()))
    if found:
        if dump := os.environ.get("PARLOR_PSEUDO_DUMP"):  # every finding of the run, for a translator
            with open(dump, "a", encoding="utf-8") as f:
                f.writelines(f"{request.node.nodeid}\t{line}\n" for line in found)
        pytest.fail(f"{len(found)} untranslated or overflowing text(s):\n" + "\n".join(found[:40]))
