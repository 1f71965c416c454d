"""Hooks the one error reply (:mod:`bot.replies`) into the slash-command tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import changes
from bot.replies import FORBIDDEN, SAVED_THEN_FAILED, UNEXPECTED, log, reply_error, user_message

if TYPE_CHECKING:
    from bot.app import ParlorBot

__all__ = [
    "FORBIDDEN",
    "SAVED_THEN_FAILED",
    "UNEXPECTED",
    "Errors",
    "log",
    "reply_error",
    "setup",
    "user_message",
]


class Errors(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        bot.tree.interaction_check = self.start_tracking  # type: ignore[method-assign]

    @staticmethod
    async def start_tracking(interaction: discord.Interaction) -> bool:
        """Every slash command starts a fresh record of the matches it changes (see reply_error)."""
        changes.track()
        return True

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        await reply_error(interaction, error)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Errors(bot))
