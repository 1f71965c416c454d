"""``/parlor settings``: per-server options (Manage Server only), leaderboard reset with confirmation, the
channel of the daily puzzle (``puzzle_channel:`` turns it on there, ``daily_puzzle:False`` off), and the
server's language for Parlor's posts in its channels (``language:``; automatic: its Discord language)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.daily import POST_HOUR
from bot.errors import LobbyError
from bot.games import RATED, TITLES
from bot.i18n import ENGLISH, LANGUAGES, N_, _, discord_language, ngettext, pgettext
from bot.replies import reply_error
from cogs._game import TURN_LIMITS, human_seconds
from cogs.language import CHOICES as LANGUAGE_CHOICES
from cogs.language import choose_guild_language, chosen

if TYPE_CHECKING:
    from bot.app import ParlorBot

REFUSAL = N_("Only members with the **Manage Server** permission can change Parlor's settings.")
# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
RESET_CHOICES = [app_commands.Choice(name="all games", value="all")] + [
    app_commands.Choice(name=TITLES[k], value=k) for k in RATED
]


def reset_target(game: str) -> str:
    """What a leaderboard reset covers, as its messages name it."""
    return _("all games") if game == "all" else TITLES[game]


def can_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


class ResetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"adm:reset:(?P<game>[a-z_]{1,20}):(?P<uid>[0-9]{1,20})"):
    """The confirm button of a leaderboard reset; only the admin who asked may press it."""

    def __init__(self, game: str, uid: int) -> None:
        super().__init__(discord.ui.Button(label=_("Yes, reset"), style=discord.ButtonStyle.danger,
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
            await interaction.response.send_message(_(REFUSAL), ephemeral=True)
            return
        if self.game != "all" and self.game not in RATED:
            raise LobbyError(_("That button does nothing any more."))
        bot: ParlorBot = interaction.client  # type: ignore[assignment]
        n = await bot.store.reset_ratings(
            interaction.guild_id or 0, None if self.game == "all" else self.game
        )
        if self.game == "all":
            content = ngettext("Leaderboard reset for all games ({n} rating removed).",
                               "Leaderboard reset for all games ({n} ratings removed).", n)
        else:
            content = ngettext("Leaderboard reset for {game} ({n} rating removed).",
                               "Leaderboard reset for {game} ({n} ratings removed).", n,
                               game=TITLES[self.game])
        await interaction.response.edit_message(content=content, view=None)


@app_commands.default_permissions(manage_guild=True)  # registered so: members without it never see /parlor
@app_commands.guild_only()
class Admin(commands.GroupCog, group_name="parlor",
            group_description="Parlor server settings"):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(ResetConfirm)
        super().__init__()

    @app_commands.command(
        name="settings",
        description="Show or change this server's Parlor settings",
    )
    @app_commands.describe(
        threads="Play each match in its own thread",
        turn_limit="Default time per turn",
        reset_leaderboard="Reset ratings (asks to confirm)",
        puzzle_channel="Post a puzzle a day in this channel (12:00 UTC)",
        daily_puzzle=(
            "False: stop the daily puzzle (True: post it in this channel)"
        ),
        language=("The language of Parlor's posts here "
                  "(Automatic: the server's Discord language)"),
    )
    @app_commands.choices(turn_limit=TURN_LIMITS, reset_leaderboard=RESET_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction, threads: bool | None = None,
                       turn_limit: app_commands.Choice[int] | None = None,
                       reset_leaderboard: app_commands.Choice[str] | None = None,
                       puzzle_channel: discord.TextChannel | None = None,
                       daily_puzzle: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        if not can_manage(interaction):
            await interaction.response.send_message(_(REFUSAL), ephemeral=True)
            return
        gid = interaction.guild_id or 0
        daily_saved = await self.daily_puzzle(interaction, puzzle_channel, daily_puzzle)
        if language is not None:
            await choose_guild_language(self.bot, gid, chosen(language))
        current = await self.bot.store.guild_settings(gid)
        new = current
        if threads is not None:
            new = replace(new, use_threads=threads)
        if turn_limit is not None:
            new = replace(new, turn_limit=turn_limit.value)
        if new != current:
            await self.bot.store.save_guild_settings(new)
        embed = discord.Embed(title=_("Parlor settings"), colour=discord.Colour.blurple())
        embed.add_field(
            name=_("Threads"),
            value=_("one thread per match") if new.use_threads else _("off (play in channel)"),
        )
        embed.add_field(name=_("Default turn limit"), value=human_seconds(new.turn_limit))
        embed.add_field(name=_("Language"), value=self.language_text(interaction))
        daily = await self.bot.store.daily_puzzle_channel(gid)
        where, hour = f"<#{daily}>", f"{POST_HOUR:02d}:00"
        embed.add_field(name=_("Daily puzzle"),
                        value=_("{channel} at {time} UTC", channel=where, time=hour)
                        if daily is not None else pgettext("daily puzzle", "off"))
        if new != current or daily_saved or language is not None:
            embed.set_footer(text=_("Saved."))
        view = None
        if reset_leaderboard is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(ResetConfirm(reset_leaderboard.value, interaction.user.id))
            embed.description = _("Reset the leaderboard for **{game}**? Ratings and their history are "
                                  "deleted; this cannot be undone.",
                                  game=reset_target(reset_leaderboard.value))
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
                raise LobbyError(_("Choose either a `puzzle_channel:` or `daily_puzzle:False`, not both."))
            await self.bot.daily.choose(gid, None)
            return True
        if channel is None and on:
            channel_id = interaction.channel_id
            if channel_id is None or not isinstance(interaction.channel, discord.TextChannel):
                raise LobbyError(_("Pick a text channel with `puzzle_channel:`."))
        elif channel is not None:
            channel_id = channel.id
        else:
            return False
        await self.bot.daily.choose(gid, channel_id)
        return True

    @staticmethod
    def language_text(interaction: discord.Interaction) -> str:
        """The server's language for its channels, and whether an admin chose it or it follows Discord."""
        gid = interaction.guild_id or 0
        mine = i18n.prefs.guilds.get(gid)
        if mine is not None:
            return _("{language} (chosen by an admin)", language=LANGUAGES[mine])
        seen = discord_language(interaction.guild_locale) or i18n.prefs.seen_guilds.get(gid) or ENGLISH
        return _("{language} (automatic: the server's Discord language)", language=LANGUAGES[seen])


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Admin(bot))
