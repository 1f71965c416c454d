"""``/replay match: [move:]``: any played match of this server by its number, whatever its game (the same
private replay as ``/<game> history match:``, see ``cogs/_game/replay.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import MatchError
from bot.i18n import _
from cogs._game.replay import match_choices, played_match

if TYPE_CHECKING:
    from bot.app import ParlorBot


class Replay(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    # Slash command descriptions are read from the command tree into the commands catalog and translated by
    # discord.py's translator (bot/i18n/commands.py), not by _().
    @app_commands.command(
        name="replay",
        description="Replay a match of this server by its number",
    )
    @app_commands.describe(
        match="The match's number (shown on its boards and its result)",
        move="The move to open at (0 = the start; the end unless given)",
    )
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, match: app_commands.Range[int, 1],
                     move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        found = await played_match(self.bot, interaction, match)
        cog = self.bot.game_cogs.get(found.rec.game)
        show = getattr(cog, "show_replay", None)
        if show is None:
            raise MatchError(_("That game is not available right now."))
        await show(interaction, found, move)

    @replay.autocomplete("match")
    async def replay_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[int]]:
        return await match_choices(self.bot, interaction, current)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Replay(bot))
