"""What the bot must be allowed in a channel before a match starts there, checked up front.

Interaction responses work without any channel permission, so a match could be created and
then fail to post its board. :func:`check_can_host` runs before the match is created (or a
challenge accepted / a lobby started) and names exactly which permission to grant;
:func:`thread_blockers` tells whether a thread per match is possible (otherwise the match is
played in the channel, as before).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import ParlorError
from bot.i18n import N_, _, ngettext
from bot.render.text import in_words

# Discord's names of its permissions, as its server settings show them; looked up with _() where they are
# said, so the catalogs give Discord's own words in each language and an admin finds the switch by its name.
CHANNEL_NEEDS = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
)
GAME_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {  # Nomic's votes are reactions
    "nomic": (("add_reactions", N_("Add Reactions")), ("read_message_history", N_("Read Message History"))),
}
THREAD_NEEDS = (
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)


class MissingBotPermissions(ParlorError):
    """The bot lacks a permission it needs to host a match here."""


def _where(interaction: discord.Interaction, channel: Any = None) -> tuple[discord.Permissions, bool] | None:
    """The bot's permissions and whether it is a thread: in ``channel`` if given, else where the interaction
    happened (``app_permissions``). None in DMs."""
    if channel is not None:
        guild = getattr(channel, "guild", None)
        if guild is None:
            return None
        return channel.permissions_for(guild.me), isinstance(channel, discord.Thread)
    if interaction.guild_id is None:
        return None
    return interaction.app_permissions, isinstance(interaction.channel, discord.Thread)


def _missing(perms: discord.Permissions, needs: tuple[tuple[str, str], ...]) -> list[str]:
    return [label for attr, label in needs if not getattr(perms, attr)]


def _and(labels: list[str]) -> str:
    """The permissions' names, bold, as a list in words ("**A**, **B** and **C**")."""
    return in_words([f"**{_(x)}**" for x in labels])


def channel_blockers(interaction: discord.Interaction, game: str = "", channel: Any = None) -> list[str]:
    """The permissions the bot lacks to host ``game`` where ``interaction`` happened, or in ``channel``."""
    where = _where(interaction, channel)
    if where is None:
        return []
    perms, in_thread = where
    needs: tuple[tuple[str, str], ...] = CHANNEL_NEEDS + GAME_NEEDS.get(game, ())
    if in_thread:
        needs = tuple(
            ("send_messages_in_threads", N_("Send Messages in Threads")) if a == "send_messages" else (a, b)
            for a, b in needs
        )
    return _missing(perms, needs)


def thread_blockers(interaction: discord.Interaction, channel: Any = None) -> list[str]:
    """The permissions the bot lacks to open a thread per match there (none needed inside a thread)."""
    where = _where(interaction, channel)
    if where is None or where[1]:
        return []
    return _missing(where[0], THREAD_NEEDS)


def check_can_host(interaction: discord.Interaction, game: str = "", channel: Any = None) -> None:
    """Raise :class:`MissingBotPermissions` naming what to grant, before anything is created."""
    missing = channel_blockers(interaction, game, channel)
    if not missing:
        return
    where = getattr(channel if channel is not None else interaction.channel, "mention", None)
    raise MissingBotPermissions(ngettext(
        "I cannot host a match in {channel}: I am missing {permissions} there. Ask a server admin to give "
        "me this permission (channel settings → Permissions, or my role), then try again. Nothing was "
        "changed.",
        "I cannot host a match in {channel}: I am missing {permissions} there. Ask a server admin to give "
        "me these permissions (channel settings → Permissions, or my role), then try again. Nothing was "
        "changed.",
        len(missing), channel=where or _("this channel"), permissions=_and(missing)))


def thread_note(interaction: discord.Interaction, channel: Any = None) -> str:
    """A line for the match header when threads are on but cannot be created there."""
    missing = thread_blockers(interaction, channel)
    if not missing:
        return ""
    return _("Playing in this channel: I need {permissions} here to give each match its own thread.",
             permissions=_and(missing))
