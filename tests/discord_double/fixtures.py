"""Every JSON payload the double sends to discord.py, in one place.

Gateway events (READY, GUILD_CREATE, MESSAGE_CREATE, INTERACTION_CREATE, ...) and REST response
bodies are built here from the world objects of :mod:`.models`. Shapes follow Discord's API v10 as
of discord.py 2.7.1 (which raises ``KeyError`` on missing required fields), including fields
discord.py ignores, so that payload regressions show up here first.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from . import perms, pseudo
from .models import Attachment, Channel, ChannelType, Guild, Member, Message, Role, User, emoji_display

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble
    from .interactions import Interaction

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def sid(value: int | None) -> str | None:
    return None if value is None else str(value)


# -- users, roles, members ------------------------------------------------------------------------


def user(u: User) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(u.id),
        "username": u.username,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": u.avatar,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
        "collectibles": None,
        "primary_guild": None,
        "clan": None,
    }
    if u.bot:
        data["bot"] = True
    return data


def current_user(u: User) -> dict[str, Any]:
    """``GET /users/@me`` and READY's ``user``."""
    data = user(u)
    data.update(
        {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "premium_type": 0,
            "bio": "",
            "banner_color": None,
        }
    )
    return data


def role(r: Role) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "description": None,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.managed,
        "mentionable": r.mentionable,
        "flags": 0,
    }
    if r.bot_id:
        data["tags"] = {"bot_id": str(r.bot_id)}
    return data


def member(m: Member, *, include_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in m.role_ids],
        "joined_at": m.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }
    if include_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


# -- guilds and channels ----------------------------------------------------------------------------


def guild_base(g: Guild) -> dict[str, Any]:
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in sorted(g.roles.values(), key=lambda r: r.position)],
        "emojis": list(g.emojis),
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": g.locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "nsfw": False,
        "stickers": [],
        "premium_progress_bar_enabled": False,
        "safety_alerts_channel_id": None,
        "incidents_data": None,
    }


def guild_create(dd: DiscordDouble, g: Guild, *, members_intent: bool) -> dict[str, Any]:
    """GUILD_CREATE: all members with the GUILD_MEMBERS intent, else only the bot (like Discord)."""
    data = guild_base(g)
    bot_id = dd.bot_user.id
    members = [member(m) for m in g.members.values() if members_intent or m.user.id == bot_id]
    data.update(
        {
            "joined_at": g.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(g.members),
            "voice_states": [],
            "members": members,
            "channels": [
                channel(c, include_guild_id=False)
                for c in g.channels.values()
                if not c.is_thread and not c.deleted
            ],
            "threads": [
                channel(c, for_user_id=bot_id)
                for c in g.channels.values()
                if c.is_thread and not c.deleted and not c.archived
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "lazy": True,
            "application_command_counts": {},
            "version": 1,
        }
    )
    return data


def thread_member(thread: Channel, user_id: int, *, is_bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(thread.id),
        "user_id": str(user_id),
        "join_timestamp": thread.thread_members[user_id],
        "flags": 1 if is_bot else 0,
        "muted": False,
        "mute_config": None,
    }


def channel(c: Channel, *, include_guild_id: bool = True, for_user_id: int | None = None) -> dict[str, Any]:
    if c.type == ChannelType.DM:
        return {
            "id": str(c.id),
            "type": 1,
            "last_message_id": sid(c.last_message_id),
            "recipients": [user(c.recipient)] if c.recipient else [],
            "flags": 0,
        }
    data: dict[str, Any] = {"id": str(c.id), "type": c.type, "name": c.name, "flags": 0}
    if include_guild_id and c.guild is not None:
        data["guild_id"] = str(c.guild.id)
    if c.is_thread:
        data.update(
            {
                "parent_id": sid(c.parent.id if c.parent else None),
                "owner_id": sid(c.owner_id),
                "last_message_id": sid(c.last_message_id),
                "message_count": c.total_message_sent,
                "member_count": min(len(c.thread_members), 50),
                "rate_limit_per_user": c.rate_limit_per_user,
                "total_message_sent": c.total_message_sent,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": c.archived,
                    "auto_archive_duration": c.auto_archive_duration,
                    "archive_timestamp": c.archive_timestamp,
                    "locked": c.locked,
                    "create_timestamp": c.create_timestamp,
                    **({"invitable": c.invitable} if c.type == ChannelType.PRIVATE_THREAD else {}),
                },
            }
        )
        if for_user_id is not None and for_user_id in c.thread_members:
            data["member"] = thread_member(c, for_user_id, is_bot=True)
        return data
    data.update(
        {
            "position": c.position,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (allow, deny, kind) in c.overwrites.items()
            ],
            "parent_id": sid(c.parent.id if c.parent else None),
            "nsfw": c.nsfw,
        }
    )
    if c.type in (ChannelType.TEXT, ChannelType.NEWS, ChannelType.FORUM):
        data.update(
            {
                "topic": c.topic,
                "last_message_id": sid(c.last_message_id),
                "rate_limit_per_user": c.rate_limit_per_user,
                "default_auto_archive_duration": 1440,
                "default_thread_rate_limit_per_user": 0,
                "last_pin_timestamp": None,
                "icon_emoji": None,
                "theme_color": None,
            }
        )
    return data


def thread_create(dd: DiscordDouble, thread: Channel) -> dict[str, Any]:
    data = channel(thread, for_user_id=dd.bot_user.id)
    data["newly_created"] = True
    return data


def thread_delete(thread: Channel) -> dict[str, Any]:
    return {
        "id": str(thread.id),
        "guild_id": str(thread.guild.id) if thread.guild else None,
        "type": thread.type,
        "parent_id": sid(thread.parent.id if thread.parent else None),
    }


def thread_members_update(dd: DiscordDouble, thread: Channel, user_id: int, *, added: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(thread.id),
        "guild_id": str(thread.guild.id),
        "member_count": len(thread.thread_members),
        "added_members": [],
        "removed_member_ids": [],
    }
    if added:
        entry = thread_member(thread, user_id, is_bot=user_id == dd.bot_user.id)
        m = thread.guild.members.get(user_id)
        if m is not None:
            entry["member"] = member(m)
        data["added_members"].append(entry)
    else:
        data["removed_member_ids"].append(str(user_id))
    return data


def active_threads(dd: DiscordDouble, threads: list[Channel]) -> dict[str, Any]:
    bot_id = dd.bot_user.id
    return {
        "threads": [channel(t) for t in threads],
        "members": [thread_member(t, bot_id, is_bot=True) for t in threads if bot_id in t.thread_members],
    }


def channel_pins_update(c: Channel, last_pin_timestamp: str) -> dict[str, Any]:
    data = {"channel_id": str(c.id), "last_pin_timestamp": last_pin_timestamp}
    if c.guild is not None:
        data["guild_id"] = str(c.guild.id)
    return data


def pins_page(dd: DiscordDouble, msgs: list[Message], pinned_at: str) -> dict[str, Any]:
    """``GET /channels/{id}/messages/pins`` (newest first)."""
    return {"items": [{"pinned_at": pinned_at, "message": message(dd, m)} for m in msgs], "has_more": False}


# -- guild events -------------------------------------------------------------------------------------


def role_event(r: Role) -> dict[str, Any]:
    """GUILD_ROLE_CREATE / GUILD_ROLE_UPDATE."""
    return {"guild_id": str(r.guild.id), "role": role(r)}


def guild_member_event(m: Member) -> dict[str, Any]:
    """GUILD_MEMBER_ADD / GUILD_MEMBER_UPDATE."""
    data = member(m)
    data["guild_id"] = str(m.guild.id)
    return data


def guild_member_remove(g: Guild, u: User) -> dict[str, Any]:
    return {"guild_id": str(g.id), "user": user(u)}


def members_chunk(g: Guild, members: list[Member], nonce: str | None) -> dict[str, Any]:
    """GUILD_MEMBERS_CHUNK (one chunk) answering REQUEST_GUILD_MEMBERS."""
    data: dict[str, Any] = {
        "guild_id": str(g.id),
        "members": [member(m) for m in members],
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": [],
        "presences": [],
    }
    if nonce is not None:
        data["nonce"] = nonce
    return data


# -- messages ---------------------------------------------------------------------------------------


def attachment(a: Attachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url + "?ex=0&is=0&hm=0",
        "proxy_url": a.url.replace("cdn.discordapp.com", "media.discordapp.net") + "?ex=0&is=0&hm=0",
        "content_type": a.content_type,
    }
    if a.description:
        data["description"] = a.description
    if a.title:
        data["title"] = a.title
    if a.width is not None:
        data.update(
            {
                "width": a.width,
                "height": a.height,
                "placeholder": "AAAAAAAAAAAAAAAAAAAAAA==",
                "placeholder_version": 1,
            }
        )
    if a.ephemeral:
        data["ephemeral"] = True
    return data


def message(
    dd: DiscordDouble,
    msg: Message,
    *,
    strip_content: bool = False,
    include_guild: bool = True,
    include_reference: bool = True,
) -> dict[str, Any]:
    """A message as the bot receives it (``strip_content``: no MESSAGE_CONTENT intent)."""
    g = msg.channel.guild
    data: dict[str, Any] = {
        "type": msg.type,
        "content": "" if strip_content else msg.content,
        "mentions": [],
        "mention_roles": [str(r) for r in msg.mention_role_ids],
        "attachments": [] if strip_content else [attachment(a) for a in msg.attachments],
        "embeds": [] if strip_content else copy.deepcopy(msg.embeds),
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_timestamp,
        "flags": msg.flags,
        "components": [] if strip_content else copy.deepcopy(msg.components),
        "id": str(msg.id),
        "channel_id": str(msg.channel.id),
        "author": user(msg.author),
        "pinned": msg.pinned,
        "mention_everyone": msg.mention_everyone,
        "tts": msg.tts,
    }
    for uid in msg.mention_ids:
        u = dd.user(uid)
        if u is None:
            continue
        up = user(u)
        if g is not None and uid in g.members:
            up["member"] = member(g.members[uid], include_user=False)
        data["mentions"].append(up)
    if include_guild and g is not None:
        data["guild_id"] = str(g.id)
        m = g.members.get(msg.author.id)
        if m is not None and msg.webhook_id is None:
            data["member"] = member(m, include_user=False)
    if msg.nonce is not None:
        data["nonce"] = msg.nonce
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
    if msg.application_id is not None:
        data["application_id"] = str(msg.application_id)
    if msg.interaction_metadata is not None:
        data["interaction_metadata"] = copy.deepcopy(msg.interaction_metadata)
    if msg.interaction_legacy is not None:
        data["interaction"] = copy.deepcopy(msg.interaction_legacy)
    if msg.reference is not None:
        data["message_reference"] = dict(msg.reference)
        ref = dd.messages.get(int(msg.reference.get("message_id") or 0))
        if include_reference and ref is not None and ref is not msg and msg.type == 19:
            data["referenced_message"] = (
                None
                if ref.deleted
                else message(
                    dd, ref, strip_content=strip_content, include_guild=False, include_reference=False
                )
            )
    reactions = []
    for r in msg._reactions.values():
        if r["users"]:
            n = len(r["users"])
            reactions.append(
                {
                    "emoji": dict(r["emoji"]),
                    "count": n,
                    "count_details": {"burst": 0, "normal": n},
                    "burst_colors": [],
                    "me_burst": False,
                    "burst_me": False,
                    "me": dd.bot_user.id in r["users"],
                    "burst_count": 0,
                }
            )
    if reactions:
        data["reactions"] = reactions
    if msg.thread is not None and not msg.thread.deleted:
        data["thread"] = channel(msg.thread)
    if msg.poll is not None:
        data["poll"] = copy.deepcopy(msg.poll)
    if msg.position is not None:
        data["position"] = msg.position
    if dd.pseudo_sent:  # the pseudo-locale run: the bot reads back what it sent (the tests read English)
        data = pseudo.as_sent(data, dd.pseudo_sent)
    return data


def message_delete(msg: Message) -> dict[str, Any]:
    data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
    if msg.channel.guild is not None:
        data["guild_id"] = str(msg.channel.guild.id)
    return data


def reaction_event(
    dd: DiscordDouble, msg: Message, user_id: int, emoji: dict[str, Any], *, add: bool
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user_id": str(user_id),
        "channel_id": str(msg.channel.id),
        "message_id": str(msg.id),
        "emoji": {
            k: v for k, v in emoji.items() if k in ("id", "name", "animated") and (v or k != "animated")
        },
        "burst": False,
        "type": 0,
    }
    g = msg.channel.guild
    if g is not None:
        data["guild_id"] = str(g.id)
    if add:
        data["message_author_id"] = str(msg.author.id)
        data["burst_colors"] = []
        if g is not None and user_id in g.members:
            data["member"] = member(g.members[user_id])
    return data


def reaction_clear(msg: Message, emoji: dict[str, Any] | None = None) -> dict[str, Any]:
    """MESSAGE_REACTION_REMOVE_ALL (no emoji) / MESSAGE_REACTION_REMOVE_EMOJI."""
    data: dict[str, Any] = {"channel_id": str(msg.channel.id), "message_id": str(msg.id)}
    if msg.channel.guild is not None:
        data["guild_id"] = str(msg.channel.guild.id)
    if emoji is not None:
        data["emoji"] = {"id": emoji.get("id"), "name": emoji.get("name")}
    return data


def reaction_user_list(dd: DiscordDouble, ids: list[int]) -> list[dict[str, Any]]:
    return [user(u) for u in (dd.user(i) for i in ids) if u is not None]


# -- login / READY ------------------------------------------------------------------------------------


def application(dd: DiscordDouble) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``."""
    bot = dd.bot_user
    return {
        "id": str(dd.application_id),
        "name": bot.username,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": dd.application_flags,
        "owner": user(dd.owner_user),
        "team": None,
        "bot": user(bot),
        "rpc_origins": [],
        "terms_of_service_url": None,
        "privacy_policy_url": None,
        "custom_install_url": None,
        "install_params": None,
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "tags": [],
        "approximate_guild_count": len(dd.guilds),
        "redirect_uris": [],
        "integration_types_config": {"0": {}},
    }


def gateway_bot() -> dict[str, Any]:
    """``GET /gateway/bot`` (``GET /gateway`` is its ``url`` alone)."""
    return {
        "url": "wss://gateway.discord.invalid",
        "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
    }


def ready(dd: DiscordDouble, session_id: str) -> dict[str, Any]:
    return {
        "v": 10,
        "user_settings": {},
        "user": current_user(dd.bot_user),
        "guilds": [{"id": str(g.id), "unavailable": True} for g in dd.guilds.values() if g.bot_member],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": "wss://gateway.discord.invalid",
        "shard": [0, 1],
        "application": {"id": str(dd.application_id), "flags": dd.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["double"],
        "auth": {},
        "_trace": ['["discord-double"]'],
    }


# -- interactions ----------------------------------------------------------------------------------------


def interaction_create(dd: DiscordDouble, inter: Interaction) -> dict[str, Any]:
    ch = inter.channel
    g = ch.guild
    data: dict[str, Any] = {
        "id": str(inter.id),
        "application_id": str(dd.application_id),
        "type": inter.type,
        "data": inter.data,
        "token": inter.token,
        "version": 1,
        "locale": inter.user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": dd.attachment_size_limit,
        "channel_id": str(ch.id),
    }
    if g is not None:
        m = g.members.get(inter.user.id)
        user_perms = perms.compute(g, inter.user.id, ch)
        data.update(
            {
                "guild_id": str(g.id),
                "guild": {"id": str(g.id), "locale": g.locale, "features": []},
                "guild_locale": g.locale,
                "member": member(m, permissions=user_perms) if m is not None else None,
                "app_permissions": str(perms.compute(g, dd.bot_user.id, ch)),
                "authorizing_integration_owners": {"0": str(g.id)},
                "context": 0,
            }
        )
        chp = channel(ch)
        chp["permissions"] = str(user_perms)
        data["channel"] = chp
    else:
        data.update(
            {
                "user": user(inter.user),
                "app_permissions": str(dd.dm_app_permissions),
                "authorizing_integration_owners": {"0": str(g.id) if g else "0"},
                "context": 1,
                "channel": channel(ch),
            }
        )
    if inter.component_message is not None:
        data["message"] = message(dd, inter.component_message)
        forged = getattr(inter, "forged_components", None)
        if forged:
            data["message"]["components"] = [
                *list(data["message"].get("components") or []),
                {"type": 1, "components": forged},
            ]
    return data


def interaction_metadata(dd: DiscordDouble, inter: Interaction) -> dict[str, Any]:
    g = inter.channel.guild
    meta: dict[str, Any] = {
        "id": str(inter.id),
        "type": inter.type,
        "user": user(inter.user),
        "authorizing_integration_owners": {"0": str(g.id) if g else "0"},
    }
    if inter.type == 2:
        meta["name"] = inter.name
        meta["command_type"] = inter.data.get("type", 1)
        if inter.data.get("type") == 2:
            meta["target_user"] = user(dd.users[int(inter.data["target_id"])])
        elif inter.data.get("type") == 3:
            meta["target_message_id"] = inter.data["target_id"]
    elif inter.type == 3 and inter.component_message is not None:
        meta["interacted_message_id"] = str(inter.component_message.id)
    elif inter.type == 5 and inter.source is not None:
        meta["triggering_interaction_metadata"] = interaction_metadata(dd, inter.source)
    if inter.original is not None:
        meta["original_response_message_id"] = str(inter.original.id)
    return meta


def interaction_legacy(inter: Interaction) -> dict[str, Any]:
    return {"id": str(inter.id), "type": inter.type, "name": inter.name or "", "user": user(inter.user)}


def callback_response(
    dd: DiscordDouble, inter: Interaction, cb_type: int, msg: Message | None
) -> dict[str, Any]:
    """Body of ``POST /interactions/{id}/{token}/callback?with_response=true``."""
    resp: dict[str, Any] = {
        "interaction": {
            "id": str(inter.id),
            "type": inter.type,
            "response_message_id": sid(msg.id if msg is not None else None),
            "response_message_loading": cb_type == 5,
            "response_message_ephemeral": inter.ephemeral,
        }
    }
    if msg is not None:
        resp["resource"] = {"type": cb_type, "message": message(dd, msg)}
    else:
        resp["resource"] = {"type": cb_type}
    return resp


# -- application commands ---------------------------------------------------------------------------


def command(
    dd: DiscordDouble, body: dict[str, Any], *, id: int, version: int, guild_id: int | None
) -> dict[str, Any]:
    """A stored application command as Discord returns it (defaults filled in)."""
    ctype = body.get("type", 1)
    data: dict[str, Any] = {
        "id": str(id),
        "application_id": str(dd.application_id),
        "version": str(version),
        "default_member_permissions": body.get("default_member_permissions"),
        "type": ctype,
        "name": body["name"],
        "name_localizations": body.get("name_localizations"),
        "description": body.get("description") or "",
        "description_localizations": body.get("description_localizations"),
        "dm_permission": body.get("dm_permission", True),
        "contexts": body.get("contexts"),
        "integration_types": body.get("integration_types") or [0],
        "nsfw": bool(body.get("nsfw", False)),
    }
    if ctype == 1:
        data["options"] = copy.deepcopy(body.get("options") or [])
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def emoji_text(emoji: dict[str, Any]) -> str:
    return emoji_display(emoji)
