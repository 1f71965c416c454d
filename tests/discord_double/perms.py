"""Permission bits (names as in discord.py) and Discord's permission computation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:  # pragma: no cover
    from .models import Channel, Guild

FLAGS = dict(discord.Permissions.VALID_FLAGS)
FLAGS.setdefault("use_vad", FLAGS["use_voice_activation"])  # the API's name (fakecord's spelling)
ALL = discord.Permissions.all().value

PermSpec = int | str | Iterable[str] | None


def to_bits(spec: PermSpec) -> int:
    """An int, a permission name, or an iterable of names (``["manage_guild", "kick_members"]``)."""
    if spec is None:
        return 0
    if isinstance(spec, int):
        return spec
    if isinstance(spec, str):
        spec = [spec]
    bits = 0
    for name in spec:
        try:
            bits |= FLAGS[name]
        except KeyError:
            raise ValueError(f"unknown permission {name!r}; known: {sorted(FLAGS)}") from None
    return bits


def bit(name: str) -> int:
    return FLAGS[name]


DEFAULT_EVERYONE = to_bits(
    [
        "view_channel",
        "create_instant_invite",
        "change_nickname",
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "create_private_threads",
        "embed_links",
        "attach_files",
        "add_reactions",
        "use_external_emojis",
        "use_external_stickers",
        "mention_everyone",
        "read_message_history",
        "use_application_commands",
        "connect",
        "speak",
        "stream",
        "use_voice_activation",
        "send_voice_messages",
        "send_polls",
        "use_embedded_activities",
        "use_external_apps",
        "request_to_speak",
        "create_expressions",
        "create_events",
        "use_soundboard",
        "use_external_sounds",
    ]
)

DEFAULT_BOT = to_bits(
    [
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "create_private_threads",
        "manage_threads",
        "embed_links",
        "attach_files",
        "add_reactions",
        "use_external_emojis",
        "read_message_history",
        "manage_messages",
        "use_application_commands",
        "pin_messages",
    ]
)

# lost implicitly when a member cannot send messages in a channel
TEXT_ONLY_WITH_SEND = to_bits(["mention_everyone", "attach_files", "embed_links", "send_tts_messages"])


def compute(guild: Guild, user_id: int, channel: Channel | None = None) -> int:
    """Discord's algorithm: owner, @everyone + roles, administrator, then channel overwrites
    (@everyone, roles, member); threads use their parent's overwrites."""
    if guild.owner_id == user_id:
        return ALL
    member = guild.members.get(user_id)
    if member is None:
        return 0
    bits = guild.everyone.permissions
    for rid in member.role_ids:
        role = guild.roles.get(rid)
        if role is not None:
            bits |= role.permissions
    if bits & FLAGS["administrator"]:
        return ALL
    if channel is None:
        return bits
    target = channel.parent if channel.is_thread and channel.parent is not None else channel
    overwrites = target.overwrites
    ow = overwrites.get(guild.id)
    if ow:
        bits = (bits & ~ow[1]) | ow[0]
    allow = deny = 0
    for rid in member.role_ids:
        ow = overwrites.get(rid)
        if ow:
            allow |= ow[0]
            deny |= ow[1]
    bits = (bits & ~deny) | allow
    ow = overwrites.get(user_id)
    if ow:
        bits = (bits & ~ow[1]) | ow[0]
    if not bits & FLAGS["view_channel"]:
        return 0
    if not bits & FLAGS["send_messages"]:
        bits &= ~TEXT_ONLY_WITH_SEND
    return bits


def names(bits: int) -> list:
    return [n for n, v in discord.Permissions.VALID_FLAGS.items() if bits & v == v and n != "read_messages"]
