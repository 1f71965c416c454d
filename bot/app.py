"""The Discord client: receives its dependencies, loads the cogs, resumes matches.

Shape of discord.py's ``examples/advanced_startup.py``: the bot is given a
config and a store; ``setup_hook`` opens the store, registers the persistent
components, loads the extensions, syncs slash commands and starts the
deadline scheduler (which re-arms every stored timer and clock).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import ai_resume, metrics
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
)


# with a database shared by several processes, each scheduler re-reads the earliest deadline this often,
# so deadlines set by a process that then dies are served by another within seconds
SHARED_DB_MAX_SLEEP = 5.0


def intents() -> discord.Intents:
    """Only what the bot uses: guilds (channels, threads) and reactions (Nomic votes). No privileged intents."""
    i = discord.Intents.none()
    i.guilds = True
    i.guild_reactions = True
    return i


class ParlorBot(commands.Bot):
    def __init__(self, config: Config, store: Store, *, clock: Callable[[], float] = time.time,
                 extensions: tuple[str, ...] = EXTENSIONS, sync_commands: bool = True, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
            allowed_mentions=discord.AllowedMentions.none(), application_id=config.application_id,
            activity=discord.Game("/help · board games"), http_trace=metrics.trace_config(), **options,
        )
        self.config = config
        self.store = store
        self.service = MatchService(store, clock=clock)
        self.scheduler = Scheduler(self.service, self.present_result)
        if config.sharded or not config.database.startswith("sqlite:"):
            self.scheduler.max_sleep = SHARED_DB_MAX_SLEEP  # deadlines set by other processes
        self.game_cogs: dict[str, GameCog] = {}
        self.extensions_to_load = extensions
        # with several shard processes only the one running shard 0 uploads the commands
        self.sync_commands = sync_commands and config.syncs_commands
        self.started_at = time.perf_counter()
        self.ai_resume_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        from cogs._views import MatchButton, MatchSelect

        await self.store.open()
        self.add_dynamic_items(MatchButton, MatchSelect)
        for ext in self.extensions_to_load:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_app_commands()
        self.scheduler.start()
        self.ai_resume_task = asyncio.create_task(ai_resume.run(self), name="parlor-ai-resume")
        if self.config.metrics_port is not None:
            metrics.set_shards(self.config.shard_ids, self.config.shard_count)
            metrics.watch_active_matches(self._count_active)

    async def _count_active(self) -> int:
        return len(await self.store.active_ids_with_components())

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
        if self.ai_resume_task is not None:
            self.ai_resume_task.cancel()
        await self.scheduler.stop()
        await super().close()
        await self.store.close()


class ShardedParlorBot(ParlorBot, commands.AutoShardedBot):
    """Parlor on discord.py's sharded client: runs the shards ``config.shard_ids`` of ``config.shard_count``.

    Several processes (``PARLOR_SHARD_IDS``) share one PostgreSQL database; every handler works from
    the database and REST, so a DM (delivered on shard 0) can advance a match whose guild is elsewhere.
    """


def create_bot(config: Config, store: Store, **kwargs: Any) -> ParlorBot:
    """The client for ``config``: plain unless ``PARLOR_SHARD_COUNT`` is set."""
    if not config.sharded:
        return ParlorBot(config, store, **kwargs)
    return ShardedParlorBot(config, store, shard_count=config.shard_count,
                            shard_ids=list(config.shard_ids or ()), **kwargs)
