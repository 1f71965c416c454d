"""``/parlor settings``: per-server options (Manage Server only), leaderboard reset with confirmation, and
the channel of the daily puzzle (``puzzle_channel:`` turns it on there, ``daily_puzzle:False`` off)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.daily import POST_HOUR
from bot.errors import LobbyError
from bot.games import RATED, TITLES
from bot.replies import reply_error
from cogs._game import TURN_LIMITS, human_seconds

if TYPE_CHECKING:
    from bot.app import ParlorBot

REFUSAL = "Only members with the **Manage Server** permission can change Parlor's settings."
RESET_CHOICES = [app_commands.Choice(name="all games", value="all")] + [
    app_commands.Choice(name=TITLES[k], value=k) for k in RATED
]


def can_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


class ResetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"adm:reset:(?P<game>[a-z_]{1,20}):(?P<uid>[0-9]{1,20})"):
    """The confirm button of a leaderboard reset; only the admin who asked may press it."""

    def __init__(self, game: str, uid: int) -> None:
        super().__init__(discord.ui.Button(label="Yes, reset", style=discord.ButtonStyle.danger,
                                           custom_id=f"adm:reset:{game}:{uid}"))
        self.game, self.uid = game, uid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResetConfirm:
        return cls(match["game"], int(match["uid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.confirm(interaction)
        except Exception as exc:
            await reply_error(interaction, exc)

    async def confirm(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.uid or not can_manage(interaction) or interaction.guild_id is None:
            await interaction.response.send_message(REFUSAL, ephemeral=True)
            return
        if self.game != "all" and self.game not in RATED:
            raise LobbyError("That button does nothing any more.")
        bot: ParlorBot = interaction.client  # type: ignore[assignment]
        n = await bot.store.reset_ratings(
            interaction.guild_id or 0, None if self.game == "all" else self.game
        )
        what = "all games" if self.game == "all" else TITLES[self.game]
        await interaction.response.edit_message(
            content=f"Leaderboard reset for {what} ({n} ratings removed).", view=None
        )


@app_commands.default_permissions(manage_guild=True)  # registered so: members without it never see /parlor
@app_commands.guild_only()
class Admin(commands.GroupCog, group_name="parlor", group_description="Parlor server settings"):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(ResetConfirm)
        super().__init__()

    @app_commands.command(name="settings", description="Show or change this server's Parlor settings")
    @app_commands.describe(threads="Play each match in its own thread", turn_limit="Default time per turn",
                           reset_leaderboard="Reset ratings (asks to confirm)",
                           puzzle_channel="Post a puzzle a day in this channel (12:00 UTC)",
                           daily_puzzle="False: stop the daily puzzle (True: post it in this channel)")
    @app_commands.choices(turn_limit=TURN_LIMITS, reset_leaderboard=RESET_CHOICES)
    async def settings(self, interaction: discord.Interaction, threads: bool | None = None,
                       turn_limit: app_commands.Choice[int] | None = None,
                       reset_leaderboard: app_commands.Choice[str] | None = None,
                       puzzle_channel: discord.TextChannel | None = None,
                       daily_puzzle: bool | None = None) -> None:
        if not can_manage(interaction):
            await interaction.response.send_message(REFUSAL, ephemeral=True)
            return
        gid = interaction.guild_id or 0
        daily_saved = await self.daily_puzzle(interaction, puzzle_channel, daily_puzzle)
        current = await self.bot.store.guild_settings(gid)
        new = current
        if threads is not None:
            new = replace(new, use_threads=threads)
        if turn_limit is not None:
            new = replace(new, turn_limit=turn_limit.value)
        if new != current:
            await self.bot.store.save_guild_settings(new)
        embed = discord.Embed(title="Parlor settings", colour=discord.Colour.blurple())
        embed.add_field(
            name="Threads", value="one thread per match" if new.use_threads else "off (play in channel)"
        )
        embed.add_field(name="Default turn limit", value=human_seconds(new.turn_limit))
        daily = await self.bot.store.daily_puzzle_channel(gid)
        embed.add_field(name="Daily puzzle",
                        value=f"<#{daily}> at {POST_HOUR:02d}:00 UTC" if daily is not None else "off")
        if new != current or daily_saved:
            embed.set_footer(text="Saved.")
        view = None
        if reset_leaderboard is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(ResetConfirm(reset_leaderboard.value, interaction.user.id))
            embed.description = (f"Reset the leaderboard for **{reset_leaderboard.name}**? Ratings and their "
                                 "history are deleted; this cannot be undone.")
        if view is not None:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def daily_puzzle(self, interaction: discord.Interaction, channel: discord.TextChannel | None,
                           on: bool | None) -> bool:
        """Apply ``puzzle_channel:`` / ``daily_puzzle:``; True when something was saved."""
        gid = interaction.guild_id or 0
        if on is False:
            if channel is not None:
                raise LobbyError("Choose either a `puzzle_channel:` or `daily_puzzle:False`, not both.")
            await self.bot.daily.choose(gid, None)
            return True
        if channel is None and on:
            channel_id = interaction.channel_id
            if channel_id is None or not isinstance(interaction.channel, discord.TextChannel):
                raise LobbyError("Pick a text channel with `puzzle_channel:`.")
        elif channel is not None:
            channel_id = channel.id
        else:
            return False
        await self.bot.daily.choose(gid, channel_id)
        return True


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Admin(bot))
