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
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot import metrics
from bot.config import Config
from bot.matches.scheduler import Scheduler
from bot.matches.service import Match, MatchService, Result
from bot.storage import Store

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.help",
    "cogs.matches",
    "cogs.leaderboard",
    "cogs.admin",
    "cogs.notify",
    "cogs.pylon",
    "cogs.fire_and_ice",
    "cogs.egg_carton",
    "cogs.eof",
    "cogs.nomic",
    "cogs.tournament",
)


class GameFront(Protocol):
    """What the core asks of a game's Discord side (``cogs/_game.py``'s ``GameCog`` provides it).

    Each game cog registers itself in :attr:`ParlorBot.game_cogs` under its game key.
    """

    async def on_component(self, interaction: discord.Interaction, match: Match, version: int | None,
                           action: str, values: list[str]) -> None: ...
    async def present_timeout(self, result: Result) -> None: ...
    async def remind(self, match: Match) -> None: ...
    async def recover(self, match: Match, result: Result | None = None) -> None: ...
    def schedule_ai(self, match_id: int) -> None: ...
    async def place_of(self, match: Match) -> discord.abc.Messageable | None: ...
    async def post_board(self, place: discord.abc.Messageable | None, match: Match, result: Result | None, *,
                         retire: bool = True) -> None: ...


ErrorReply = Callable[[discord.Interaction, BaseException], Awaitable[None]]
"""Tells the user, ephemerally, what went wrong (``cogs/errors.py``'s ``reply_error``)."""


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
            allowed_mentions=discord.AllowedMentions.none(),
            application_id=config.application_id,  # type: ignore[arg-type]  # discord.py: int, default None
            activity=discord.Game("/help · board games"), http_trace=metrics.trace_config(), **options,
        )
        self.config = config
        self.store = store
        self.service = MatchService(store, clock=clock)
        self.scheduler = Scheduler(self.service, self.present_result, on_remind=self.present_reminder,
                                   on_archive=self.archive_thread)
        # Filled in by the Discord layer (cogs/) so that bot/ needs nothing from it:
        self.game_cogs: dict[str, GameFront] = {}   # each game cog registers itself under its game key
        self.error_reply: ErrorReply | None = None  # how handle_component tells the user about an error
        self.turns: Any = None                      # turn notices, shared by every game cog
        _bridge_cogs(self)
        self.extensions_to_load = extensions
        # with several shard processes only the one running shard 0 uploads the commands
        self.sync_commands = sync_commands and config.syncs_commands
        self.started_at = time.perf_counter()

    async def setup_hook(self) -> None:
        await self.store.open()
        for ext in self.extensions_to_load:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_app_commands()
        self.scheduler.start()
        self._recovery = asyncio.create_task(self.recover_boards(), name="parlor-board-recovery")
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
        try:
            match = await self.service.get(match_id)
            cog = self.game_cogs.get(match.rec.game)
            if cog is None:
                raise RuntimeError(f"no cog for {match.rec.game}")
            await cog.on_component(interaction, match, version, action, values)
        except Exception as exc:  # noqa: BLE001 - every error gets an answer
            if self.error_reply is None:
                raise
            await self.error_reply(interaction, exc)

    async def present_result(self, result: Result) -> None:
        cog = self.game_cogs.get(result.match.rec.game)
        if cog is not None:
            await cog.present_timeout(result)

    async def present_reminder(self, match: Match) -> None:
        cog = self.game_cogs.get(match.rec.game)
        if cog is not None:
            await cog.remind(match)

    async def archive_thread(self, match_id: int) -> None:
        """An hour after the end the match thread is archived (kept, readable, reopened by any message)."""
        match = await self.service.get(match_id)
        thread_id = match.rec.thread_id
        if thread_id is None or await self.service.find_here(thread_id):
            return  # no thread, or a newer match is being played in it
        try:
            await self.http.edit_channel(thread_id, archived=True, reason=f"match #{match_id} ended an hour ago")
        except discord.HTTPException as exc:
            log.info("could not archive the thread of match %s: %s", match_id, exc)

    async def recover_boards(self) -> None:
        """At start-up: boards behind their match (the reply never went out) are brought up to date."""
        await self.wait_until_ready()
        for match_id in await self.store.stale_boards():
            try:
                match = await self.service.get(match_id)
                cog = self.game_cogs.get(match.rec.game)
                if cog is not None:
                    await cog.recover(match)
            except Exception:
                log.exception("bringing the board of match %s up to date failed", match_id)
        for rec in await self.store.active_matches():  # a computer move lost with the old process
            match = Match(rec)
            cog = self.game_cogs.get(rec.game)
            if cog is not None and match.ai_to_act() is not None:
                cog.schedule_ai(match.id)

    async def close(self) -> None:
        await self.scheduler.stop()
        task = getattr(self, "_recovery", None)
        if task is not None and not task.done():
            task.cancel()
        await super().close()
        await self.store.close()


def _bridge_cogs(bot: ParlorBot) -> None:
    """TEMPORARY, until the cogs register themselves: the last place where bot/ reaches into cogs/.

    The Discord layer is to fill the registry itself (``cogs/errors.py``'s setup sets
    ``bot.error_reply``; the extension owning the board components calls
    ``bot.add_dynamic_items(MatchButton, MatchSelect)``; ``bot.turns`` is set before the game cogs
    load); then this function and its call in ``ParlorBot.__init__`` are deleted.
    """
    from cogs._turns import Turns
    from cogs._views import MatchButton, MatchSelect
    from cogs.errors import reply_error

    bot.turns = Turns(bot)
    bot.error_reply = reply_error
    bot.add_dynamic_items(MatchButton, MatchSelect)


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
