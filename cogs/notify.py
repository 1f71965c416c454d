"""``/notify``: how each member hears that it is their turn, per server (thread ping, DM, or nothing).

It is a command of its own rather than ``/parlor notify`` because ``/parlor`` is for server managers
(registered with Manage Server as its default permission, so members never see it), and this choice
belongs to every player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.storage import NotifyMode
from cogs._game.describe import text_boards_of

if TYPE_CHECKING:
    from bot.app import ParlorBot

# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
MODES = [
    app_commands.Choice(name="a ping in the match thread (default)",
                        value=NotifyMode.THREAD.value),
    app_commands.Choice(name="a direct message with a link to the match",
                        value=NotifyMode.DM.value),
    app_commands.Choice(name="nothing", value=NotifyMode.OFF.value),
]
BOARDS = [
    app_commands.Choice(name="pictures (default)", value="picture"),
    app_commands.Choice(name="pictures and the position as text",
                        value="text"),
]
BOARDS_SAY = {
    False: N_("Boards come as pictures (each with a description for screen readers)."),
    True: N_("Every board you are sent (the board you are to move on, your turn DM) also gives the position "
             "as text, and the turn notice says your opponent's move in words."),
}
SAYS = {
    NotifyMode.THREAD: N_("a ping in the match thread (only you are mentioned)"),
    NotifyMode.DM: N_("a direct message linking to the match (if your DMs are closed, a ping in the thread)"),
    NotifyMode.OFF: N_("nothing: no pings and no reminders"),
}


class Notify(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="notify",
        description="How you are told it is your turn in this server",
    )
    @app_commands.describe(
        mode=("thread: a ping in the match thread · dm: a direct message "
              "· off: nothing"),
        boards=("text: every board you are sent also gives "
                "the position as text"),
    )
    @app_commands.choices(mode=MODES, boards=BOARDS)
    @app_commands.guild_only()
    async def notify(
        self, interaction: discord.Interaction, mode: app_commands.Choice[str] | None = None,
        boards: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = interaction.guild_id or 0
        said = ""
        if boards is not None:
            on = boards.value == "text"
            await self.bot.store.set_text_boards(guild_id, interaction.user.id, on)
            text_boards_of(self.bot).changed(guild_id, interaction.user.id, on)
            said = _(BOARDS_SAY[on])
            if mode is None:
                await interaction.response.send_message(said, ephemeral=True)
                return
        if mode is None:
            current = (await self.bot.store.notify_modes(guild_id, [interaction.user.id])).get(
                interaction.user.id, NotifyMode.THREAD)
            texts = interaction.user.id in await text_boards_of(self.bot).users(guild_id)
            await interaction.response.send_message(
                _("When it is your turn here you get {how}. Change it with `/notify mode:`.\n"
                  "{boards} Change it with `/notify boards:`.", how=_(SAYS[current]),
                  boards=_(BOARDS_SAY[texts])),
                ephemeral=True,
            )
            return
        chosen = NotifyMode(mode.value)
        channel_id = None
        note = ""
        if chosen == NotifyMode.DM:  # open the DM channel now (not during a move) and check it is open
            turns = getattr(self.bot, "turns", None)
            try:
                channel_id = await turns.dm_channel_of(interaction.user.id) if turns else None
                if channel_id is not None:
                    await self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(
                        _("Turn notices for **{server}** come here from now on.",
                          server=discord.utils.escape_markdown(interaction.guild.name))
                        if interaction.guild
                        else _("Turn notices come here from now on."),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
            except discord.Forbidden:
                note = " " + _("Your DMs are closed right now, so you get the thread ping until you open "
                               "them.")
        await self.bot.store.set_notify_mode(guild_id, interaction.user.id, chosen, channel_id)
        await interaction.response.send_message(
            _("From now on, when it is your turn here you get {how}.", how=_(SAYS[chosen])) + note
            + (f"\n{said}" if said else ""), ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Notify(bot))
