"""``/language``: the language Parlor uses with a player, the same in every server (like ``/notify``, a
choice that belongs to every player, so not under ``/parlor``, which is for server managers).

A player's language is for what only they read: ephemeral replies, lessons, their direct messages. Posts
in a channel are in the server's language (``/parlor settings language:``, see ``cogs/admin.py``).
Automatic, the default, follows the player's Discord language (the server's, for a server).

The choices live in the store and in :data:`bot.i18n.prefs` (read whole at start by ``ParlorBot``):
choosing writes both at once. This cog also keeps each server's Discord community language
(``preferred_locale``) in ``prefs.seen_guilds`` as Discord announces and changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import ENGLISH, LANGUAGES, _, discord_language, speaking

if TYPE_CHECKING:
    from bot.app import ParlorBot

AUTOMATIC = "auto"
# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
CHOICES = [
    app_commands.Choice(name="Automatic: follow Discord", value=AUTOMATIC),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
]
"""The language choices of ``/language`` and ``/parlor settings language:``: automatic, then each language
by its own name."""


def chosen(choice: app_commands.Choice[str]) -> str | None:
    """The language a choice sets; None for automatic."""
    return None if choice.value == AUTOMATIC or choice.value not in LANGUAGES else choice.value


async def choose_user_language(bot: ParlorBot, user_id: int, language: str | None) -> None:
    """A player's language (None: automatic), in the store and in memory at once."""
    await bot.store.set_user_language(user_id, language)
    if language is None:
        i18n.prefs.users.pop(user_id, None)
    else:
        i18n.prefs.users[user_id] = language


async def choose_guild_language(bot: ParlorBot, guild_id: int, language: str | None) -> None:
    """A server's language for its channels (None: automatic), in the store and in memory at once."""
    await bot.store.set_guild_language(guild_id, language)
    if language is None:
        i18n.prefs.guilds.pop(guild_id, None)
    else:
        i18n.prefs.guilds[guild_id] = language


def note_guild(guild: discord.Guild) -> None:
    """Remember the server's Discord community language (what automatic means for its channels)."""
    seen = discord_language(getattr(guild, "preferred_locale", None))
    if seen is not None:
        i18n.prefs.seen_guilds[guild.id] = seen


class Language(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="language",
        description="The language Parlor uses with you, in every server",
    )
    @app_commands.describe(
        language="Automatic follows your Discord language",
    )
    @app_commands.choices(language=CHOICES)
    async def language(self, interaction: discord.Interaction,
                       language: app_commands.Choice[str] | None = None) -> None:
        user_id = interaction.user.id
        discord_says = discord_language(interaction.locale) or ENGLISH
        if language is None:  # what is used now, in it
            mine = i18n.prefs.users.get(user_id)
            if mine is not None:
                text = _("Parlor speaks {language} with you (your choice). Change it with `/language "
                         "language:`.", language=LANGUAGES[mine])
            else:
                text = _("Parlor follows your Discord language: {language} for now. Choose another with "
                         "`/language language:`.", language=LANGUAGES.get(discord_says, LANGUAGES[ENGLISH]))
            await interaction.response.send_message(text, ephemeral=True)
            return
        new = chosen(language)
        await choose_user_language(self.bot, user_id, new)
        now = new or discord_says
        with speaking(now):  # the answer is in the language just chosen
            name = LANGUAGES.get(now, LANGUAGES[ENGLISH])
            if new is not None:
                text = _("Parlor now speaks {language} with you, in every server: the replies only you see "
                         "and your direct messages. Posts in a server's channels are in that server's "
                         "language.", language=name)
            else:
                text = _("Parlor now follows your Discord language: {language} for now, in every server: "
                         "the replies only you see and your direct messages. Posts in a server's channels "
                         "are in that server's language.", language=name)
        await interaction.response.send_message(text, ephemeral=True)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        for guild in self.bot.guilds:
            note_guild(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        note_guild(guild)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        note_guild(guild)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        note_guild(after)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Language(bot))
