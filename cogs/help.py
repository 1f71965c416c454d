"""``/help``: the games and how to start one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import N_, _
from bot.render.text import player_range

if TYPE_CHECKING:
    from bot.app import ParlorBot

BLURBS = {
    "pylon": N_("Place pyramids on a 6×5 board, then stack them; own the most pyramids under your tops."),
    "fireandice": N_("Move on seven islands; every move leaves an enemy piece behind. Three islands in a "
                     "line win."),
    "eggcarton": N_("A relay-sowing marble game: empty your side of the carton first."),
    "eof": N_("2–4 players write secret five-instruction programs that edit a shared file of pyramids."),
    "nomic": N_("Roll and roam a map, and change the rules of the game by unanimous vote."),
}


class Help(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help", description="The games I host and how to start one"
    )
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title=_("Parlor: board games in your server"),
            description=_(
                "Start a match with `/<game> new` — pick an `opponent` to challenge someone (or pick me "
                "to play the computer), or leave it empty to open a lobby anyone can join. Each match gets "
                "its own thread; play with the buttons under the board or type moves with "
                "`/<game> move`."
            ),
            colour=discord.Colour.blurple(),
        )
        for key, game in GAMES.items():
            spec = game.spec
            seats = player_range(spec.min_seats, spec.max_seats)
            ai = " · " + _("computer opponent") if spec.ai_levels else ""
            blurb = _(BLURBS[key]) if key in BLURBS else ""
            blurb = blurb.removeprefix(f"{spec.title}: ")  # the field's name already says it
            embed.add_field(
                name=f"{spec.title} — `/{key}`", value=f"{blurb}\n{seats}{ai}", inline=False
            )
        embed.add_field(
            name=_("Every game: /<game> …"),
            value=_(
                "`rules` how to play: a picture, a short summary and the full rules · `learn` a private "
                "lesson on the real board · `new` start · `move` type a move · `board` the board "
                "(`board text:` also as text, for screen readers) · `history` the moves, or `match:` a "
                "finished one with a replay · `resign`"
            ),
            inline=False,
        )
        embed.add_field(
            name=_("Under a board"),
            value=_("**Watch**: follow a match you are not playing in · **Rematch**: the same players again, "
                    "once a match has ended"),
            inline=False,
        )
        embed.add_field(
            name=_("Everything else"),
            value=_(
                "`/matches` active matches here · `/notify` how I tell you it is your turn (and "
                "`boards:text`) · `/language` the language I use with you · `/tournament` Swiss and "
                "round-robin events (`new`, `standings`, `withdraw`, `list`) · `/leaderboard` · `/stats` · "
                "`/parlor settings` (admins)"
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Help(bot))
