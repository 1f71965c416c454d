"""Background tasks and the lookups every part uses (the organiser check, the event meant)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import _
from bot.storage.tournaments import TournamentRecord
from bot.tournaments.service import TournamentError, TournamentService

if TYPE_CHECKING:
    from bot.app import ParlorBot
from cogs.tournament.common import Pacer, log


class TournamentBase(commands.GroupCog):
    """Background tasks and the lookups every part uses (the organiser check, the event meant)."""

    bot: ParlorBot
    service: TournamentService
    pacer: Pacer
    _tasks: set[asyncio.Task[Any]]
    _resumed: bool
    _announcing: set[tuple[int, int]]

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def wait_idle(self) -> None:
        """Until posting and result recording are done (tests and benches)."""
        while self._tasks or self.service._tasks:
            await asyncio.gather(*list(self._tasks), *list(self.service._tasks), return_exceptions=True)

    async def is_organiser(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        if perms.manage_guild or perms.administrator:
            return True
        role, _most = await self.bot.store.tournament_settings(interaction.guild_id or 0)
        roles = getattr(interaction.user, "roles", [])
        return role is not None and any(r.id == role for r in roles)

    async def find(self, interaction: discord.Interaction, event: int | None, *,
                   active_only: bool = True) -> TournamentRecord:
        gid = interaction.guild_id
        if gid is None:
            raise TournamentError(_("Tournaments live in servers."))
        if event is not None:
            t = await self.bot.store.load_tournament(event)
            if t is None or t.guild_id != gid:
                raise TournamentError(_("There is no tournament #{id} on this server.", id=event))
            return t
        here = interaction.channel_id
        parent = getattr(interaction.channel, "parent_id", None)
        found = await self.bot.store.tournaments_in_guild(gid, active_only=active_only)
        if not found and not active_only:
            found = []
        if not found and active_only:
            found = await self.bot.store.tournaments_in_guild(gid, active_only=False, limit=5)
        local = [t for t in found if t.channel_id in (here, parent)]
        if local:
            return local[0]
        if len(found) == 1:
            return found[0]
        if not found:
            raise TournamentError(
                _("There is no tournament on this server yet. Start one with `/tournament new`.")
            )
        raise TournamentError(_("Several tournaments are running: give `event:` (see `/tournament list`)."))

    async def channel_of(self, t: TournamentRecord) -> discord.abc.Messageable | None:
        ch = self.bot.get_channel(t.channel_id)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(t.channel_id)
            except discord.HTTPException:
                return None
        return ch  # type: ignore[return-value]
