"""One place that turns errors into short ephemeral replies (and logs the unexpected).

Used by the client (components nobody claims), every component and every cog; ``cogs/errors.py``
hooks it into the slash-command tree."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ParlorError
from bot.games.base import GameError
from bot.i18n import N_, _, again
from bot.matches import changes

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on my side; the match is unchanged. Please try again.")
"""Only said when it is true: nothing was committed during this interaction."""
SAVED_THEN_FAILED = N_(
    "Your action was saved (match #{ids}), but something went wrong on my side while showing it. "
    "`/matches` links the match; its board catches up with the next move."
)
FORBIDDEN = N_(
    "I am missing a permission in this channel, so I could not post here{saved}. Ask a server admin to give "
    "me **View Channel**, **Send Messages** (in threads: **Send Messages in Threads**), **Embed Links** and "
    "**Attach Files** here."
)
"""Discord's permission names (in bold) are those of the reader's Discord client: translators use the names
Discord shows in their language."""


def user_message(error: BaseException) -> str | None:
    """The text to show for an expected error, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError | commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError):
        return error.user_text()
    if isinstance(error, ParlorError):  # (in the reader's language, if it was written in another)
        return again(error.args[0]) if error.args and isinstance(error.args[0], str) else str(error)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return _("That command has changed; Discord will show the current one shortly. Please try again "
                 "then.")
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("That only works in a server.")
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use that here.")
    if isinstance(error, app_commands.TransformerError):
        return _("I could not read {value}.", value=repr(error.value))
    return None


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    text = user_message(error)
    if text is None:
        original = getattr(error, "original", error)
        changed = sorted(changes.changed())
        ids = ", #".join(map(str, changed))
        if isinstance(original, discord.Forbidden):
            log.warning("missing permission in %s (%s): %s", interaction.channel_id,
                        getattr(interaction.command, "qualified_name", "component"), original)
            saved = _(" (your action was saved: match #{ids})", ids=ids) if changed else ""
            text = _(FORBIDDEN, saved=saved)
        else:
            log.error(
                "unhandled error in %s by %s",
                getattr(interaction.command, "qualified_name", "component"),
                interaction.user.id,
                exc_info=original,
            )
            text = _(SAVED_THEN_FAILED, ids=ids) if changed else _(UNEXPECTED)
    text = text[:1900]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not tell the user about an error", exc_info=True)
