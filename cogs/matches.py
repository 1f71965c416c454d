"""``/matches``: the active matches in this server, with links."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.names import shown
from bot.storage import Status

if TYPE_CHECKING:
    from bot.app import ParlorBot


class Matches(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(name="matches", description="Active matches in this server")
    @app_commands.guild_only()
    async def matches(self, interaction: discord.Interaction) -> None:
        recs = await self.bot.store.active_matches(guild_id=interaction.guild_id)
        if not recs:
            await interaction.response.send_message("No active matches here. Start one with `/<game> new`.",
                                                    ephemeral=True)
            return
        lines = []
        for r in recs[-40:]:
            title = GAMES[r.game].spec.title
            names = ", ".join(shown(s.name) for s in r.seats) or "nobody yet"
            where = f"https://discord.com/channels/{r.guild_id}/{r.place_id}"
            if r.message_id:
                where += f"/{r.message_id}"
            state = {Status.RUNNING: "playing", Status.LOBBY: "lobby, open to join",
                     Status.CHALLENGE: "challenge"}.get(r.status, r.status.value)
            lines.append(f"**{title}** #{r.id} · {names} · {state} · [open]({where})")
        text = "\n".join(lines)
        if len(text) > 4000:
            text = text[-4000:].split("\n", 1)[-1]
        embed = discord.Embed(title=f"Active matches ({len(recs)})", description=text,
                              colour=discord.Colour.blurple())
        await interaction.response.send_message(embed=embed, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Matches(bot))
