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

CHANNEL_NEEDS = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
)
GAME_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "nomic": (("add_reactions", "Add Reactions"), ("read_message_history", "Read Message History")),  # votes
}
THREAD_NEEDS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
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
    bold = [f"**{x}**" for x in labels]
    return bold[0] if len(bold) == 1 else ", ".join(bold[:-1]) + " and " + bold[-1]


def channel_blockers(interaction: discord.Interaction, game: str = "", channel: Any = None) -> list[str]:
    """The permissions the bot lacks to host ``game`` where ``interaction`` happened, or in ``channel``."""
    where = _where(interaction, channel)
    if where is None:
        return []
    perms, in_thread = where
    needs: tuple[tuple[str, str], ...] = CHANNEL_NEEDS + GAME_NEEDS.get(game, ())
    if in_thread:
        needs = tuple(
            ("send_messages_in_threads", "Send Messages in Threads") if a == "send_messages" else (a, b)
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
    where = getattr(channel if channel is not None else interaction.channel, "mention", "this channel")
    plural = "these permissions" if len(missing) > 1 else "this permission"
    raise MissingBotPermissions(
        f"I cannot host a match in {where}: I am missing {_and(missing)} there. Ask a server admin to "
        "give me "
        f"{plural} (channel settings → Permissions, or my role), then try again. Nothing was changed."
    )


def thread_note(interaction: discord.Interaction, channel: Any = None) -> str:
    """A line for the match header when threads are on but cannot be created there."""
    missing = thread_blockers(interaction, channel)
    if not missing:
        return ""
    return (f"Playing in this channel: I need {_and(missing)} here to give each match its own thread.")
