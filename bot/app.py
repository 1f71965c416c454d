"""The Discord client: receives its dependencies, loads the cogs, resumes matches.

Shape of discord.py's ``examples/advanced_startup.py``: the bot is given a
config and a store; ``setup_hook`` opens the store, registers the persistent
components, loads the extensions, syncs slash commands and starts the
deadline scheduler (which re-arms every stored timer and clock).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.config import Config
from bot.matches.scheduler import Scheduler
from bot.matches.service import MatchService, Result
from bot.storage import Store

if TYPE_CHECKING:
    from cogs._game import GameCog

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.help",
    "cogs.matches",
    "cogs.leaderboard",
    "cogs.admin",
    "cogs.pylon",
    "cogs.fire_and_ice",
    "cogs.egg_carton",
    "cogs.eof",
    "cogs.nomic",
    "cogs.tournament",
)


def intents() -> discord.Intents:
    """Only what the bot uses: guilds (channels, threads) and reactions (Nomic votes). No privileged intents."""
    i = discord.Intents.none()
    i.guilds = True
    i.guild_reactions = True
    return i


class ParlorBot(commands.Bot):
    def __init__(self, config: Config, store: Store, *, clock: Callable[[], float] = time.time,
                 extensions: tuple[str, ...] = EXTENSIONS, sync_commands: bool = True) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
            allowed_mentions=discord.AllowedMentions.none(), application_id=config.application_id,
            activity=discord.Game("/help · board games"),
        )
        self.config = config
        self.store = store
        self.service = MatchService(store, clock=clock)
        self.scheduler = Scheduler(self.service, self.present_result)
        self.game_cogs: dict[str, GameCog] = {}
        self.extensions_to_load = extensions
        self.sync_commands = sync_commands
        self.started_at = time.perf_counter()

    async def setup_hook(self) -> None:
        from cogs._views import MatchButton, MatchSelect

        await self.store.open()
        self.add_dynamic_items(MatchButton, MatchSelect)
        for ext in self.extensions_to_load:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_app_commands()
        self.scheduler.start()

    async def sync_app_commands(self) -> None:
        """Instantly in PARLOR_COMMAND_GUILDS, otherwise globally (Discord may take a while to show them)."""
        if self.config.command_guilds:
            for gid in self.config.command_guilds:
                guild = discord.Object(gid)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            log.info("slash commands synced to %d server(s)", len(self.config.command_guilds))
        else:
            await self.tree.sync()
            log.info("slash commands synced globally")

    async def on_ready(self) -> None:
        log.info("ready as %s in %d server(s) after %.2fs", self.user, len(self.guilds),
                 time.perf_counter() - self.started_at)

    async def handle_component(self, interaction: discord.Interaction, match_id: int, version: int | None,
                               action: str, values: list[str]) -> None:
        """Every board/lobby component lands here (see cogs/_views.py)."""
        from cogs.errors import reply_error

        try:
            match = await self.service.get(match_id)
            cog = self.game_cogs.get(match.rec.game)
            if cog is None:
                raise RuntimeError(f"no cog for {match.rec.game}")
            await cog.on_component(interaction, match, version, action, values)
        except Exception as exc:  # noqa: BLE001 - every error gets an answer
            await reply_error(interaction, exc)

    async def present_result(self, result: Result) -> None:
        cog = self.game_cogs.get(result.match.rec.game)
        if cog is not None:
            await cog.present_timeout(result)

    async def close(self) -> None:
        await self.scheduler.stop()
        await super().close()
        await self.store.close()
