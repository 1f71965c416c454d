"""The Discord client: receives its dependencies, loads the cogs, resumes matches.

Shape of discord.py's ``examples/advanced_startup.py``: the bot is given a
config and a store; ``setup_hook`` opens the store, registers the persistent
components, loads the extensions, syncs slash commands and starts the
deadline scheduler (which re-arms every stored timer and clock). Its listeners
answer every component interaction no item claims, and abort (unrated) the
matches whose thread or channel is deleted.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import pkgutil
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot import i18n, metrics
from bot.chores import Chores
from bot.components import (
    ANYWHERE,
    NOT_OURS,
    VERSION_FREE,
    BadComponent,
    ComponentId,
    MatchComponent,
    component_ids,
)
from bot.config import Config
from bot.daily import DailyPuzzles
from bot.errors import LobbyError, MatchError, MatchOver, NotAPlayer, StaleBoard
from bot.games import GAMES
from bot.heap import IdleCollector
from bot.i18n import N_, _, public
from bot.i18n.catalogs import preload
from bot.i18n.commands import ParlorTranslator
from bot.matches.replay import ended_match
from bot.matches.scheduler import Scheduler
from bot.matches.service import Match, MatchService, Result
from bot.matches.workers import warm_computer
from bot.names import shown, versus
from bot.puzzles import Puzzle
from bot.replies import reply_error
from bot.storage import Status, Store
from bot.turns import Turns

log = logging.getLogger(__name__)

def discover_extensions(package: str = "cogs") -> tuple[str, ...]:
    """Every module or package directly under ``package`` whose name does not start with ``_``.

    The Discord layer is found, not listed: a new game's cog is one more file in ``cogs/``. Found by
    path (:func:`importlib.util.find_spec` imports nothing), so ``bot/`` never imports ``cogs/``; the
    ``_``-prefixed modules are the cogs' shared parts, imported by the cogs themselves.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"no package {package!r} to load the cogs from")
    names = sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations)
                   if not m.name.startswith("_"))
    return tuple(f"{package}.{name}" for name in names)


EXTENSIONS = discover_extensions()


class GameFrontend(Protocol):
    """What the client asks of a game's cog (``cogs/_game.GameCog`` fills it; registered in ``game_cogs``).

    The client knows only this shape, so ``bot/`` never imports ``cogs/``: each game cog puts itself into
    ``bot.game_cogs`` when it is loaded.
    """

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        version: int | None,
        action: str,
        values: list[str],
    ) -> None: ...

    async def present_timeout(self, result: Result) -> None: ...

    async def remind(self, match: Match) -> None: ...

    async def recover(self, match: Match) -> None: ...

    def schedule_ai(self, match_id: int) -> None: ...


def intents() -> discord.Intents:
    """Only what the bot uses: guilds (channels, threads) and reactions (Nomic votes).

    No privileged intents.
    """
    i = discord.Intents.none()
    i.guilds = True
    i.guild_reactions = True
    return i


class ParlorBot(commands.Bot):
    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        extensions: tuple[str, ...] = EXTENSIONS,
        sync_commands: bool = True,
        freeze_heap: bool = False,
        **options: Any,
    ) -> None:
        heap = IdleCollector()  # (told of every request: its trace goes to discord.py's session)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            application_id=config.application_id,  # type: ignore[arg-type]  # discord.py: int, default None
            activity=discord.Game("/help · board games"),  # not translated: one status for every reader
            http_trace=metrics.trace_config(heap.request),
            **options,
        )
        self.config = config
        self.store = store
        self.service = MatchService(store, clock=clock)
        self.scheduler = Scheduler(
            self.service,
            self.present_result,
            on_remind=self.present_reminder,
            on_archive=self.archive_thread,
            check=self.place_still_there,
        )
        self.chores = Chores(self, clock=self.service.clock)  # Discord requests left by an incident
        self.chores.poke = self.scheduler.poke
        self.scheduler.sources.append(self.chores)
        self.daily = DailyPuzzles(self, clock=self.service.clock)  # each server's puzzle of the day
        self.daily.poke = self.scheduler.poke
        self.scheduler.sources.append(self.daily)
        self.game_cogs: dict[str, GameFrontend] = {}
        self.turns = Turns(self)  # turn notices, shared by every game cog
        self.extensions_to_load = extensions
        self.freeze_heap = freeze_heap
        self._warmed = False
        self.heap = heap
        # with several shard processes only the one running shard 0 uploads the commands
        self.sync_commands = sync_commands and config.syncs_commands
        self.started_at = time.perf_counter()
        self._component_templates: dict[type, re.Pattern[str]] = {}
        i18n.install(self)  # each interaction's tasks know their reader's language (bot/i18n)

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.load_languages()
        self.add_dynamic_items(MatchComponent)
        await self.tree.set_translator(ParlorTranslator())
        self._catalogs = asyncio.create_task(asyncio.to_thread(preload), name="parlor-catalogs")
        warm_computer()  # the computer's processes start while the bot connects, not at its first move
        for ext in self.extensions_to_load:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_app_commands()
        self.scheduler.start()
        self._recovery = asyncio.create_task(self.recover_boards(), name="parlor-board-recovery")
        if self.config.shard_ids is not None and self.config.shard_count is not None \
                and len(self.config.shard_ids) < self.config.shard_count:
            # other processes run the other shards: a /language chosen there reaches this one this way
            self._languages = asyncio.create_task(self.refresh_languages(), name="parlor-languages")
        if self.config.metrics_port is not None:
            metrics.set_shards(self.config.shard_ids, self.config.shard_count)
            metrics.watch_active_matches(self._count_active)

    LANGUAGES_REFRESH = 30.0
    """Seconds between two reads of the chosen languages when other processes serve other shards."""

    async def refresh_languages(self) -> None:
        """Read the chosen languages again every :attr:`LANGUAGES_REFRESH` seconds (a change made in
        another shard process shows here within that time; this process's own changes show at once)."""
        while True:
            await asyncio.sleep(self.LANGUAGES_REFRESH)
            try:
                users = await self.store.user_languages()
                guilds = await self.store.guild_languages()
            except Exception:  # a database that is down for a moment: the next round reads it
                log.warning("could not read the chosen languages again", exc_info=True)
                continue
            for kept, read in ((i18n.prefs.users, users), (i18n.prefs.guilds, guilds)):
                fresh = {k: v for k, v in read.items() if v in i18n.LANGUAGES}
                for k in [k for k in kept if k not in fresh]:
                    del kept[k]
                kept.update(fresh)

    async def load_languages(self) -> None:
        """The languages players (``/language``) and servers (``/parlor settings language:``) chose, read
        whole into :data:`bot.i18n.prefs` (a text looks its reader's language up there, never in the
        database). Servers' Discord languages are noted as Discord announces them (``cogs/language.py``)."""
        i18n.prefs.clear()
        i18n.prefs.users.update(
            (k, v) for k, v in (await self.store.user_languages()).items() if v in i18n.LANGUAGES)
        i18n.prefs.guilds.update(
            (k, v) for k, v in (await self.store.guild_languages()).items() if v in i18n.LANGUAGES)

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
        log.info(
            "ready as %s in %d server(s) after %.2fs",
            self.user,
            len(self.guilds),
            time.perf_counter() - self.started_at,
        )
        if self.freeze_heap and not self._warmed:
            self._warmed = True
            await self.warm_pictures()  # moves are served meanwhile (the pictures are drawn in a thread)
            # The start-up heap (modules, fonts, caches, palettes, the guild cache) is frozen, and full
            # garbage collections run between interactions, not in the middle of a move (bot/heap.py).
            self.heap.start()

    async def warm_pictures(self) -> None:
        """Each game draws a few sample boards in a worker thread (its picture palette is learnt before the
        first move: :meth:`cogs._game.board.BoardCog.warm_pictures`); about a second in all, once."""
        started = time.perf_counter()
        for key, cog in self.game_cogs.items():
            warm = getattr(cog, "warm_pictures", None)
            if warm is None:
                continue
            try:
                await asyncio.to_thread(warm)
            except Exception:  # a picture that cannot be drawn now is drawn (and reported) when it is needed
                log.warning("warming the %s pictures failed", key, exc_info=True)
        log.info("pictures warmed in %.2fs", time.perf_counter() - started)

    # ---------------------------------------------------------------- components

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        for item in items:
            self._component_templates[item] = item.__discord_ui_compiled_template__

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        for item in items:
            self._component_templates.pop(item, None)

    def component_is_routed(self, interaction: discord.Interaction) -> bool:
        """Whether discord.py hands this component interaction to one of our DynamicItems.

        It does when a registered template matches the custom id *and* the message carries a
        component with that id and type (``ViewStore.schedule_dynamic_item_call``); anything else
        would otherwise go unanswered ("This interaction failed").
        """
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        cid, ctype = data.get("custom_id"), data.get("component_type")
        if not isinstance(cid, str) or interaction.message is None:
            return False
        # a View item registered for this message (or persistently, bot.add_view) handles it itself
        store = getattr(self._connection, "_view_store", None)
        views: dict[int | None, dict[tuple[int, str], Any]] = getattr(store, "_views", {})
        if (ctype, cid) in views.get(interaction.message.id, {}) or (ctype, cid) in views.get(None, {}):
            return True
        templates = [*self._component_templates.values(), *getattr(store, "_dynamic_items", {})]
        if not any(t.fullmatch(cid) for t in templates):
            return False
        return (ctype, cid) in component_ids(interaction.message.components)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The catch-all: a component nobody handles gets a short private refusal."""
        self.heap.touch(interaction)
        if interaction.type is not discord.InteractionType.component or self.component_is_routed(interaction):
            return
        await reply_error(interaction, BadComponent(_(NOT_OURS)))

    async def handle_component(
        self, interaction: discord.Interaction, cid: ComponentId, values: list[str]
    ) -> None:
        """Every board/lobby component lands here (see bot/components.py), its id already parsed."""

        try:
            # a replay's click on an ended match: its record is kept (it never changes again)
            kept = ended_match(cid.match_id) if cid.action.startswith(ANYWHERE) else None
            match = kept if kept is not None else await self.service.get(cid.match_id)
            cog = self.game_cogs.get(match.rec.game)
            if cog is None:
                title = GAMES[match.rec.game].spec.title
                raise LobbyError(_("{game} is not available right now.", game=title))
            if cid.action.startswith(ANYWHERE):  # a replay: anywhere in the match's own server
                if interaction.guild_id is None or interaction.guild_id != match.rec.guild_id:
                    raise MatchError(_("That replay belongs to another server."))
            else:
                self.check_component_place(interaction, match)
            if cid.version is None and not cid.action.startswith(VERSION_FREE):
                raise StaleBoard(
                    _("This board is out of date: the position has changed. Use the newest board."))
            await cog.on_component(interaction, match, cid.version, cid.action, values)
        except Exception as exc:
            await reply_error(interaction, exc)

    @staticmethod
    def check_component_place(interaction: discord.Interaction, match: Match) -> None:
        """A component acts only where its match lives: its channel or thread, or a player's DM."""
        rec = match.rec
        if interaction.guild_id is None:
            if match.seat_of(interaction.user.id) is None:
                raise NotAPlayer(_("That control belongs to a match you are not playing in."))
            return
        if interaction.guild_id != rec.guild_id or interaction.channel_id not in (
            rec.channel_id,
            rec.thread_id,
        ):
            raise MatchError(
                _("That control belongs to a match played elsewhere; use it in the match's thread.")
            )

    # ---------------------------------------------------------------- deleted places

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.place_deleted(payload.guild_id, payload.thread_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.place_deleted(channel.guild.id, channel.id)

    async def place_deleted(self, guild_id: int | None, place_id: int) -> list[Result]:
        """A thread or channel was deleted: every active match played there is aborted, unrated.

        A match whose thread went is announced in its channel (when that still exists); one whose
        channel went (with its threads) has nowhere to be announced.
        """
        try:
            recs = await self.store.active_matches(guild_id=guild_id)
        except Exception:
            log.exception("looking up the matches of deleted channel %s failed", place_id)
            return []
        out = []
        for rec in recs:
            if place_id in (rec.thread_id, rec.channel_id):
                result = await self.abort_match_without_place(rec.id, thread_only=rec.thread_id == place_id)
                if result is not None:
                    out.append(result)
        return out

    async def abort_match_without_place(self, match_id: int, *, thread_only: bool) -> Result | None:
        """Abort the match (unrated) and, when only its thread went, say so in its channel: both in the
        server's language (the service writes the stopping reason inside ``public``)."""
        what = "thread" if thread_only else "channel"  # (for the log)
        reason = (N_("Stopped: the match's thread was deleted. Unrated.") if thread_only
                  else N_("Stopped: the match's channel was deleted. Unrated."))
        try:
            result = await self.service.abort(match_id, reason)
        except MatchOver:
            return None
        except Exception:
            log.exception("aborting match %s after its %s was deleted failed", match_id, what)
            return None
        rec = result.match.rec
        log.info("match %s aborted: its %s was deleted", match_id, what)
        if thread_only:
            channel = self.get_channel(rec.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                title = GAMES[rec.game].spec.title
                with public(rec.guild_id):
                    names = versus(shown(s.name) for s in rec.seats) or _("nobody yet")
                    text = _("**{game}** #{number} ({players}) was stopped because its thread was deleted. "
                             "The match is unrated.", game=title, number=rec.id, players=names)
                try:
                    await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
                except discord.HTTPException:
                    log.info("could not announce the abort of match %s in its channel", match_id)
        return result

    async def place_still_there(self, match_id: int) -> bool:
        """Before a timer acts on a running match: is its thread/channel still there? If Discord says it is
        gone (10003 Unknown Channel: deleted while the bot was offline, or the event was lost), the match is
        aborted instead of anyone forfeiting. One request per expiry; other errors let the timer act."""
        try:
            match = await self.service.get(match_id)
        except MatchError:
            return True
        rec = match.rec
        if rec.guild_id is None or rec.status != Status.RUNNING:
            return True
        try:  # asked of Discord, not the cache: a deletion may have happened while we were not listening
            await self.fetch_channel(rec.place_id)
        except discord.NotFound as exc:
            if exc.code == 10003:
                await self.place_gone(match)
                return False
        except discord.HTTPException:
            pass
        return True

    async def place_gone(self, match: Match) -> None:
        """Discord answered 10003 Unknown Channel for the match's place: abort it like a deletion."""
        rec = match.rec
        if rec.thread_id is not None and self.get_channel(rec.channel_id) is not None:
            await self.abort_match_without_place(rec.id, thread_only=True)
        else:
            await self.abort_match_without_place(rec.id, thread_only=False)

    async def present_result(self, result: Result) -> None:
        """A timer's result (an expiry, a timeout) presented by the game's cog: public posts, in the
        server's language (a DM the cog sends sets its reader's own)."""
        cog = self.game_cogs.get(result.match.rec.game)
        if cog is not None:
            try:
                with public(result.match.rec.guild_id):
                    await cog.present_timeout(result)
            except discord.NotFound as exc:
                if exc.code != 10003:
                    raise
                await self.place_gone(result.match)

    async def present_reminder(self, match: Match) -> None:
        cog = self.game_cogs.get(match.rec.game)
        if cog is not None:
            with public(match.rec.guild_id):  # the thread's reminder; a DM reminder is in its reader's
                await cog.remind(match)

    async def archive_thread(self, match_id: int) -> None:
        """An hour after the end the match thread is archived (kept, readable, reopened by any message)."""
        match = await self.service.get(match_id)
        thread_id = match.rec.thread_id
        if thread_id is None or await self.service.find_here(thread_id):
            return  # no thread, or a newer match is being played in it
        try:
            with public(match.rec.guild_id):  # (the server's audit log)
                reason = _("match #{number} ended an hour ago", number=match_id)
            await self.http.edit_channel(thread_id, archived=True, reason=reason)
        except discord.HTTPException as exc:
            log.info("could not archive the thread of match %s: %s", match_id, exc)

    async def bring_up_to_date(self, match_id: int) -> None:
        """A ``board`` chore (bot/chores.py): present the match's board as it is now, if it is still behind
        its match; raises what Discord answered, so the chore is tried again."""
        if match_id not in await self.store.stale_boards():
            return
        match = await self.service.get(match_id)
        cog = self.game_cogs.get(match.rec.game)
        if cog is not None:
            with public(match.rec.guild_id):
                await cog.recover(match)

    async def post_daily_puzzle(self, guild_id: int, channel_id: int, p: Puzzle) -> None:
        """The daily puzzle (bot/daily.py), posted by its game's cog; raises what Discord answered."""
        post = getattr(self.game_cogs.get(p.game), "post_daily", None)
        if post is None:
            log.warning("no cog posts %s puzzles: the daily puzzle of server %s is skipped", p.game, guild_id)
            return
        with public(guild_id):
            await post(guild_id, channel_id, p)

    async def recover_boards(self) -> None:
        """At start-up: boards behind their match (the reply never went out) are brought up to date."""
        await self.wait_until_ready()
        for match_id in await self.store.stale_boards():
            try:
                match = await self.service.get(match_id)
                cog = self.game_cogs.get(match.rec.game)
                if cog is not None:
                    with public(match.rec.guild_id):
                        await cog.recover(match)
            except Exception:
                log.exception("bringing the board of match %s up to date failed", match_id)
        for rec in await self.store.active_matches():  # a computer move lost with the old process
            match = Match(rec)
            cog = self.game_cogs.get(rec.game)
            if cog is not None and match.ai_to_act() is not None:
                cog.schedule_ai(match.id)

    async def close(self) -> None:
        await self.heap.stop()
        await self.scheduler.stop()
        for name in ("_recovery", "_languages"):
            task = getattr(self, name, None)
            if task is not None and not task.done():
                task.cancel()
        for cog in list(self.cogs.values()):  # writes done after a reply (lesson progress) reach the store
            flush = getattr(cog, "flush_lesson_saves", None)  # even if a cog's unload skips them
            if flush is not None:
                await flush()
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
    return ShardedParlorBot(
        config, store, shard_count=config.shard_count, shard_ids=list(config.shard_ids or ()), **kwargs
    )
