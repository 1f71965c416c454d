"""DiscordDouble: the world, its rules, the connected bot, recording and waiting."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from . import fixtures as F
from . import perms as P
from . import validation as V
from .errors import APIError, InteractionFailed, UserActionError, WaitTimeout, unknown
from .gateway import GatewayLink, Intent
from .interactions import ALLOWED_CALLBACKS, Interaction, InteractionType, ModalView, _safe
from .models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    MessageFlags,
    Role,
    User,
    emoji_display,
    emoji_key,
)
from .rest import RequestRecord, RestAPI
from .simuser import SimUser
from .snowflake import SnowflakeFactory, bot_token, interaction_token, iso

log = logging.getLogger("discord_double")

_HANDLER_TASK_PREFIXES = (
    "discord.py: ",
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-view-timeout",
)


@dataclass
class Violation:
    """A breach of Discord's interaction rules by the bot."""

    # ack_timeout | late_ack | double_ack | invalid_callback | followup_before_ack | deferred_unfilled
    kind: str
    message: str
    interaction_id: int | None = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class CapturedLog:
    level: int
    logger: str
    message: str
    traceback: str | None

    def __str__(self) -> str:
        return f"[{logging.getLevelName(self.level)} {self.logger}] {self.message}" + (
            f"\n{self.traceback}" if self.traceback else ""
        )


class _LogCapture(logging.Handler):
    def __init__(self, dd: DiscordDouble) -> None:
        super().__init__(logging.WARNING)
        self.dd = dd

    def emit(self, record: logging.LogRecord) -> None:
        tb = None
        if record.exc_info:
            tb = logging.Formatter().formatException(record.exc_info)
        entry = CapturedLog(record.levelno, record.name, record.getMessage(), tb)
        (self.dd.bot_errors if record.levelno >= logging.ERROR else self.dd.bot_warnings).append(entry)


class DiscordDouble:
    """An in-process Discord for end-to-end tests of a discord.py bot. See the package docstring."""

    def __init__(
        self,
        *,
        bot_name: str = "Parlor",
        ack_deadline: float = 3.0,
        strict_ack: bool = True,
        attachment_size_limit: int = F.ATTACHMENT_SIZE_LIMIT,
        bot_permissions: P.PermSpec = None,
        privileged_intents: Sequence[str] = ("members", "presences", "message_content"),
        clock: Callable[[], float] = time.time,
        fast_ready: bool = True,
        latency: float = 0.0,
        fill_deadline: float = 5.0,
        capture_loggers: Sequence[str] = ("discord",),
    ):
        self.clock = clock
        self.new_id = SnowflakeFactory(clock)
        self.ack_deadline = ack_deadline
        self.strict_ack = strict_ack
        self.attachment_size_limit = attachment_size_limit
        self.default_bot_permissions = (
            P.DEFAULT_BOT if bot_permissions is None else P.to_bits(bot_permissions)
        )
        self.privileged_intents = set(privileged_intents)
        self.fast_ready = fast_ready
        self.latency = latency
        self.fill_deadline = fill_deadline
        self.capture_loggers = tuple(capture_loggers)

        self.bot_user = User(self, bot_name, id=self.new_id(), bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = User(self, f"{bot_name.lower()}-developer", id=self.new_id())
        self.token = bot_token(self.bot_user.id)
        self.dm_app_permissions = P.to_bits(
            [
                "view_channel",
                "send_messages",
                "embed_links",
                "attach_files",
                "read_message_history",
                "add_reactions",
                "use_external_emojis",
            ]
        )

        self.users: dict[int, SimUser] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self.global_commands: dict[tuple[int, str], dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[tuple[int, str], dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._open_modals: dict[int, Interaction] = {}

        self.requests: list[RequestRecord] = []
        self.unimplemented: list[str] = []
        self._violations: list[Violation] = []
        self.bot_errors: list[CapturedLog] = []
        self.bot_warnings: list[CapturedLog] = []
        self.gateway_errors: list[str] = []
        self.internal_errors: list[str] = []
        self.gateway_log: list[tuple[float, str, dict[str, Any]]] = []
        self.presence: dict[str, Any] | None = None

        self.bot: discord.Client | None = None
        self.link: GatewayLink | None = None
        self.connections = 0
        self.rest = RestAPI(self)
        self._seq = 0
        self._change_event: asyncio.Event | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._log_handler: _LogCapture | None = None
        self._active = False

    # ==================================================================================================
    # lifecycle
    # ==================================================================================================
    async def __aenter__(self) -> DiscordDouble:
        from . import patches

        patches.install(self)
        self._active = True
        self._log_handler = _LogCapture(self)
        for name in self.capture_loggers:
            logging.getLogger(name).addHandler(self._log_handler)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        from . import patches

        try:
            if self.bot is not None:
                try:
                    await self.disconnect()
                except Exception:  # pragma: no cover - never mask the test's own exception
                    log.exception("disconnect failed")
        finally:
            for t in self._timers:
                t.cancel()
            self._timers.clear()
            if self._log_handler is not None:
                for name in self.capture_loggers:
                    logging.getLogger(name).removeHandler(self._log_handler)
            self._active = False
            patches.uninstall(self)

    async def connect(self, bot: discord.Client, *, timeout: float = 10.0) -> discord.Client:
        """Log ``bot`` in through the patched HTTP (``setup_hook`` runs), deliver READY and the guilds,
        and return once ``on_ready`` has been dispatched."""
        if not self._active:
            raise RuntimeError("use `async with DiscordDouble() as dd:` before connecting a bot")
        if self.bot is not None:
            raise RuntimeError("a bot is already connected; call `await dd.disconnect()` first")
        if isinstance(bot, discord.AutoShardedClient):
            raise TypeError("AutoShardedClient is not supported by the double; use a plain Client/Bot")
        if bot.is_closed():
            raise RuntimeError("this client was closed; connect a new client object (a restart)")
        intents = bot._connection._intents
        missing = [
            name
            for name, on in (
                ("members", intents.members),
                ("presences", intents.presences),
                ("message_content", intents.message_content),
            )
            if on and name not in self.privileged_intents
        ]
        if missing:
            raise discord.PrivilegedIntentsRequired(None)
        self.bot = bot
        self.connections += 1
        try:
            await bot.login(self.token)
            if self.fast_ready:
                bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.02)
            self.link = GatewayLink(self, bot)
            self.link.start()
            self._emit("READY", F.ready(self, self.link.session_id))
            for g in self.guilds.values():
                if g.bot_member is not None:
                    self._emit("GUILD_CREATE", self._guild_create_payload(g))
            try:
                await asyncio.wait_for(bot.wait_until_ready(), timeout)
            except TimeoutError:
                raise WaitTimeout(
                    f"the bot did not become ready within {timeout:g} s{self.diagnostics()}"
                ) from None
        except BaseException as exc:
            if self.link is not None:
                self.link.stop()
            self.link = None
            self.bot = None
            if isinstance(exc, Exception) and not bot.is_closed():
                try:
                    await bot.close()
                except Exception:  # pragma: no cover - best effort
                    log.exception("closing the bot after a failed connect")
            raise
        await asyncio.sleep(0)  # let on_ready start
        return bot

    async def disconnect(self) -> None:
        """Close the connected bot (``bot.close()``); the world (messages, commands...) stays."""
        bot, link = self.bot, self.link
        if bot is None:
            return
        try:
            await bot.close()
        finally:
            if link is not None:
                link.stop()
            self.bot = None
            self.link = None
            self._changed()

    @property
    def connected(self) -> bool:
        return self.bot is not None and not self.bot.is_closed()

    # ==================================================================================================
    # world building
    # ==================================================================================================
    @property
    def application_flags(self) -> int:
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        for name, bit in (("presences", 1 << 13), ("members", 1 << 15), ("message_content", 1 << 19)):
            if name in self.privileged_intents:
                flags |= bit
        return flags

    def now(self) -> str:
        return iso(self.clock())

    def create_user(
        self, username: str, *, dms_open: bool = True, global_name: str | None = None, locale: str = "en-US"
    ) -> SimUser:
        """A simulated human (``global_name`` defaults to ``username``)."""
        user = SimUser(
            self,
            username,
            id=self.new_id(),
            global_name=global_name or username,
            dms_open=dms_open,
            locale=locale,
        )
        self.users[user.id] = user
        self._changed()
        return user

    def user(self, user_id: int) -> User | None:
        if user_id == self.bot_user.id:
            return self.bot_user
        return self.users.get(user_id)

    def create_guild(
        self, name: str = "Test Guild", *, owner: User | None = None, bot_permissions: P.PermSpec = None
    ) -> Guild:
        """A guild with the bot as a member (managed role with ``bot_permissions``, default: view, send,
        threads, embed, attach, react, history, manage messages, pin). Dispatched as a guild join if the
        bot is connected."""
        if owner is None:
            owner = self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        g = Guild(self, name, id=self.new_id(), owner_id=owner.id, joined_at=self.now())
        self.guilds[g.id] = g
        g.members[owner.id] = Member(g, owner, joined_at=self.now())
        bits = self.default_bot_permissions if bot_permissions is None else P.to_bits(bot_permissions)
        g.bot_role = Role(
            g,
            self.bot_user.username,
            bits,
            id=self.new_id(),
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        g.roles[g.bot_role.id] = g.bot_role
        g.members[self.bot_user.id] = Member(g, self.bot_user, [g.bot_role.id], joined_at=self.now())
        self._changed()
        self._emit("GUILD_CREATE", lambda: self._guild_create_payload(g, joined=True))
        return g

    def _guild_create_payload(self, g: Guild, *, joined: bool = False) -> dict[str, Any]:
        members = bool(self.bot is not None and self.bot._connection._intents.members)
        data = F.guild_create(self, g, members_intent=members)
        if joined:  # a guild join (not one announced in READY): no "unavailable" key -> on_guild_join
            del data["unavailable"]
        return data

    def _create_guild_channel(
        self, guild: Guild, name: str, type: int, *, parent: Channel | None = None, topic: str | None = None
    ) -> Channel:
        position = len([c for c in guild.channels.values() if not c.is_thread])
        ch = Channel(
            self,
            type,
            id=self.new_id(),
            guild=guild,
            name=name,
            parent=parent,
            topic=topic,
            position=position,
            created=self.now(),
        )
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        self._changed()
        self._emit("CHANNEL_CREATE", lambda: F.channel(ch))
        return ch

    def _create_role(
        self, guild: Guild, name: str, permissions: int, *, mentionable: bool = False, color: int = 0
    ) -> Role:
        r = Role(
            guild,
            name,
            permissions,
            id=self.new_id(),
            position=len(guild.roles),
            mentionable=mentionable,
            color=color,
        )
        guild.roles[r.id] = r
        self._changed()
        self._emit("GUILD_ROLE_CREATE", lambda: F.role_event(r))
        return r

    def _update_role(self, r: Role, *, permissions: int | None = None) -> None:
        if permissions is not None:
            r.permissions = permissions
        self._changed()
        self._emit("GUILD_ROLE_UPDATE", lambda: F.role_event(r))

    def _add_member(self, guild: Guild, user: User, role_ids: Sequence[int], nick: str | None) -> Member:
        m = Member(guild, user, role_ids, nick, joined_at=self.now())
        guild.members[user.id] = m
        self._changed()
        self._emit("GUILD_MEMBER_ADD", lambda: F.guild_member_event(m), intent=Intent.MEMBERS)
        return m

    def _remove_member(self, guild: Guild, user: User) -> None:
        guild.members.pop(user.id, None)
        self._changed()
        self._emit("GUILD_MEMBER_REMOVE", lambda: F.guild_member_remove(guild, user), intent=Intent.MEMBERS)

    def _member_roles(
        self, guild: Guild, user: User, add: Sequence[int] = (), remove: Sequence[int] = ()
    ) -> None:
        m = guild.members[user.id]
        m.role_ids = [r for r in m.role_ids if r not in remove] + [r for r in add if r not in m.role_ids]
        self._changed()
        self._emit("GUILD_MEMBER_UPDATE", lambda: F.guild_member_event(m), intent=Intent.MEMBERS)

    def _set_overwrite(self, channel: Channel, target: Role | User | Guild, allow: int, deny: int) -> None:
        if isinstance(target, (Guild, Role)):
            key, kind = target.id, 0
        else:
            key, kind = target.id, 1
        if allow or deny:
            channel.overwrites[key] = (allow, deny, kind)
        else:
            channel.overwrites.pop(key, None)
        self._changed()
        self._emit("CHANNEL_UPDATE", lambda: F.channel(channel))

    def dm_channel_for(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use, like Discord)."""
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self, ChannelType.DM, id=self.new_id(), recipient=user, created=self.now())
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
            self._changed()
        return ch

    def shares_guild_with_bot(self, user: User) -> bool:
        return any(user.id in g.members and self.bot_user.id in g.members for g in self.guilds.values())

    def bot_permissions(self, channel: Channel) -> int:
        if channel.guild is None:
            return self.dm_app_permissions
        return P.compute(channel.guild, self.bot_user.id, channel)

    def can_bot(self, channel: Channel, *names: str) -> bool:
        bits = self.bot_permissions(channel)
        return all(bits & P.bit(n) for n in names)

    # ==================================================================================================
    # messages
    # ==================================================================================================
    def _build_attachments(
        self,
        channel: Channel,
        files: Sequence[tuple[str, bytes]],
        meta: list[dict[str, Any]] | None,
        *,
        ephemeral: bool,
    ) -> list[Attachment]:
        by_index: dict[int, dict[str, Any]] = {}
        for m in meta or []:
            try:
                idx = int(m.get("id"))
            except (TypeError, ValueError):
                continue
            if idx < 1000:  # upload indexes, not ids of existing attachments
                by_index[idx] = m
        out = []
        for i, (filename, data) in enumerate(files):
            m = by_index.get(i, {})
            att = Attachment(
                self.new_id(),
                channel.id,
                m.get("filename") or filename,
                data,
                description=m.get("description"),
                ephemeral=ephemeral,
            )
            self.attachments[att.id] = att
            out.append(att)
        return out

    def new_attachment(self, channel: Channel, filename: str, data: bytes, **kw: Any) -> Attachment:
        """A stored upload (served by the CDN routes)."""
        att = Attachment(self.new_id(), channel.id, filename, data, **kw)
        self.attachments[att.id] = att
        return att

    @staticmethod
    def _resolve_embed_media(msg: Message) -> None:
        by_name = {a.filename: a for a in msg.attachments}
        for e in msg.embeds:
            e.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                obj = e.get(key)
                if isinstance(obj, dict) and str(obj.get("url", "")).startswith("attachment://"):
                    att = by_name.get(obj["url"][len("attachment://") :])
                    if att is None:
                        del e[key]  # Discord drops media that points at no uploaded file
                        continue
                    obj.update({"url": att.url, "proxy_url": att.url, "content_type": att.content_type})
                    if att.width is not None:
                        obj.update({"width": att.width, "height": att.height})

    def _apply_mentions(self, msg: Message, allowed: dict[str, Any] | None) -> None:
        g = msg.channel.guild
        if g is not None:
            known = list(g.members)
            roles = {r.id: r.mentionable for r in g.roles.values() if r.id != g.id}
            can_everyone = bool(P.compute(g, msg.author.id, msg.channel) & P.bit("mention_everyone"))
        else:
            known = [self.bot_user.id] + ([msg.channel.recipient.id] if msg.channel.recipient else [])
            roles, can_everyone = {}, False
        reply_author = None
        if msg.type == 19 and msg.reference:
            ref = self.messages.get(int(msg.reference.get("message_id") or 0))
            if ref is not None and ref.author.id != msg.author.id:
                reply_author = ref.author.id
        users, role_ids, everyone = V.resolve_mentions(
            msg.content,
            allowed,
            known_users=known,
            roles=roles,
            can_mention_everyone=can_everyone,
            reply_author=reply_author,
        )
        msg.mention_ids, msg.mention_role_ids, msg.mention_everyone = users, role_ids, everyone
        msg.allowed_mentions = copy.deepcopy(allowed)

    def _create_message(
        self,
        channel: Channel,
        author: User,
        *,
        content: str | None = None,
        embeds: list[dict[str, Any]] | None = None,
        components: list[dict[str, Any]] | None = None,
        files: Sequence[tuple[str, bytes]] = (),
        attachments_meta: list[dict[str, Any]] | None = None,
        flags: int = 0,
        reference: dict[str, Any] | None = None,
        allowed_mentions: dict[str, Any] | None = None,
        nonce: Any = None,
        tts: bool = False,
        ephemeral_to: int | None = None,
        interaction: Interaction | None = None,
        msg_type: int | None = None,
    ) -> Message:
        ephemeral = ephemeral_to is not None
        keep = flags & (
            MessageFlags.SUPPRESS_EMBEDS
            | MessageFlags.SUPPRESS_NOTIFICATIONS
            | MessageFlags.IS_COMPONENTS_V2
            | MessageFlags.LOADING
        )
        if ephemeral:
            keep |= MessageFlags.EPHEMERAL
        msg = Message(
            self,
            channel,
            author,
            id=self.new_id(),
            timestamp=self.now(),
            content=content or "",
            embeds=copy.deepcopy(embeds or []),
            components=copy.deepcopy(components or []),
            attachments=self._build_attachments(channel, files, attachments_meta, ephemeral=ephemeral),
            flags=keep,
            tts=tts,
            ephemeral_to=ephemeral_to,
        )
        msg.nonce = nonce
        if reference and reference.get("message_id"):
            msg.reference = {
                "type": reference.get("type", 0),
                "message_id": str(reference["message_id"]),
                "channel_id": str(reference.get("channel_id") or channel.id),
            }
            if channel.guild is not None:
                msg.reference["guild_id"] = str(channel.guild.id)
        if msg_type is not None:
            msg.type = msg_type
        elif msg.reference is not None:
            msg.type = 19
        if interaction is not None:
            msg.interaction = interaction
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
        self._resolve_embed_media(msg)
        self._apply_mentions(msg, allowed_mentions)
        msg.notified_ids = list(msg.mention_ids)  # who Discord notified: decided once, when it is created
        if channel.is_thread:
            msg.position = channel.total_message_sent
            channel.total_message_sent += 1
        self.messages[msg.id] = msg
        channel.messages.append(msg)
        if interaction is not None:
            msg.interaction_metadata = F.interaction_metadata(self, interaction)
            if interaction.type == InteractionType.APPLICATION_COMMAND:
                msg.interaction_legacy = F.interaction_legacy(interaction)
        self._changed()
        msg.created_seq = msg.updated_seq = self._seq
        self._emit_message("MESSAGE_CREATE", msg)
        return msg

    def _edit_message(
        self, msg: Message, body: dict[str, Any], files: Sequence[tuple[str, bytes]] = ()
    ) -> Message:
        completing = msg.loading
        if not completing:
            msg.edits.append(msg.snapshot())
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = copy.deepcopy(body["embeds"] or [])
        if "components" in body:
            msg.components = copy.deepcopy(body["components"] or [])
        if body.get("flags") is not None:
            keep = msg.flags & (MessageFlags.EPHEMERAL | MessageFlags.IS_COMPONENTS_V2)
            msg.flags = keep | (
                body["flags"] & (MessageFlags.SUPPRESS_EMBEDS | MessageFlags.IS_COMPONENTS_V2)
            )
        if "attachments" in body or files:
            meta = body.get("attachments")
            if meta is None:
                kept = list(msg.attachments)
            else:
                keep_ids = set()
                for m in meta:
                    with contextlib.suppress(TypeError, ValueError):
                        keep_ids.add(int(m.get("id")))
                kept = [a for a in msg.attachments if a.id in keep_ids]
            msg.attachments = kept + self._build_attachments(
                msg.channel, files, meta, ephemeral=msg.ephemeral_to is not None
            )
        msg.flags &= ~MessageFlags.LOADING
        if not completing:
            msg.edited_timestamp = self.now()
        self._resolve_embed_media(msg)
        if "content" in body or "allowed_mentions" in body:
            self._apply_mentions(msg, body.get("allowed_mentions", msg.allowed_mentions))
        self._changed()
        msg.updated_seq = self._seq
        self._emit_message("MESSAGE_UPDATE", msg)
        return msg

    def _delete_message(self, msg: Message) -> None:
        if msg.deleted:
            return
        msg.deleted = True
        if msg.id in msg.channel.pins:
            msg.channel.pins.remove(msg.id)
        self._changed()
        msg.updated_seq = self._seq
        if msg.ephemeral_to is None:
            g = msg.channel.guild
            self._emit(
                "MESSAGE_DELETE",
                F.message_delete(msg),
                intent=Intent.GUILD_MESSAGES if g else Intent.DM_MESSAGES,
            )

    def _message_payload_for_bot(self, msg: Message) -> dict[str, Any]:
        """MESSAGE_CONTENT intent: other users' guild messages arrive without content unless they
        mention the bot."""
        strip = False
        if (
            msg.author.id != self.bot_user.id
            and msg.channel.guild is not None
            and self.bot_user.id not in msg.mention_ids
            and self.bot is not None
        ):
            strip = not self.bot._connection._intents.message_content
        return F.message(self, msg, strip_content=strip)

    def _emit_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral_to is not None:
            return  # ephemeral messages never reach the gateway
        intent = Intent.GUILD_MESSAGES if msg.channel.guild is not None else Intent.DM_MESSAGES
        self._emit(event, lambda: self._message_payload_for_bot(msg), intent=intent)

    # -- reactions ---------------------------------------------------------------------------------------
    def _add_reaction(self, msg: Message, user_id: int, emoji: dict[str, Any]) -> bool:
        key = emoji_key(emoji)
        entry = msg._reactions.setdefault(
            key, {"emoji": dict(emoji), "users": [], "display": emoji_display(emoji)}
        )
        if user_id in entry["users"]:
            return False
        entry["users"].append(user_id)
        self._changed()
        msg.updated_seq = self._seq
        self._emit(
            "MESSAGE_REACTION_ADD",
            lambda: F.reaction_event(self, msg, user_id, entry["emoji"], add=True),
            intent=Intent.GUILD_REACTIONS if msg.channel.guild else Intent.DM_REACTIONS,
        )
        return True

    def _remove_reaction(self, msg: Message, user_id: int, emoji: dict[str, Any]) -> bool:
        key = emoji_key(emoji)
        entry = msg._reactions.get(key)
        if entry is None or user_id not in entry["users"]:
            return False
        entry["users"].remove(user_id)
        if not entry["users"]:
            del msg._reactions[key]
        self._changed()
        msg.updated_seq = self._seq
        self._emit(
            "MESSAGE_REACTION_REMOVE",
            F.reaction_event(self, msg, user_id, entry["emoji"], add=False),
            intent=Intent.GUILD_REACTIONS if msg.channel.guild else Intent.DM_REACTIONS,
        )
        return True

    def _clear_reactions(self, msg: Message, emoji: dict[str, Any] | None = None) -> None:
        intent = Intent.GUILD_REACTIONS if msg.channel.guild else Intent.DM_REACTIONS
        if emoji is None:
            msg._reactions.clear()
            self._emit("MESSAGE_REACTION_REMOVE_ALL", F.reaction_clear(msg), intent=intent)
        elif msg._reactions.pop(emoji_key(emoji), None) is not None:
            self._emit("MESSAGE_REACTION_REMOVE_EMOJI", F.reaction_clear(msg, emoji), intent=intent)
        self._changed()
        msg.updated_seq = self._seq

    # -- threads ---------------------------------------------------------------------------------------------
    def _create_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        type: int = ChannelType.PUBLIC_THREAD,
        from_message: Message | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        rate_limit_per_user: int = 0,
    ) -> Channel:
        guild = parent.guild
        assert guild is not None
        thread = Channel(
            self,
            type,
            id=from_message.id if from_message else self.new_id(),
            guild=guild,
            name=name,
            parent=parent,
            owner_id=owner.id,
            created=self.now(),
        )
        thread.auto_archive_duration = auto_archive_duration
        thread.invitable = invitable
        thread.rate_limit_per_user = rate_limit_per_user or 0
        thread.thread_members[owner.id] = self.now()
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        self._changed()
        self._emit("THREAD_CREATE", lambda: F.thread_create(self, thread))
        if from_message is not None:
            from_message.thread = thread
            thread.starter_message = from_message
            self._changed()
            from_message.updated_seq = self._seq
            self._emit_message("MESSAGE_UPDATE", from_message)
        elif type == ChannelType.PUBLIC_THREAD:
            notice = self._create_message(parent, owner, content=name, msg_type=18)
            notice.reference = {"type": 0, "channel_id": str(thread.id), "guild_id": str(guild.id)}
        return thread

    def _update_channel(self, channel: Channel, changes: dict[str, Any]) -> None:
        for key in (
            "name",
            "archived",
            "locked",
            "auto_archive_duration",
            "invitable",
            "rate_limit_per_user",
            "topic",
        ):
            if changes.get(key) is not None:
                setattr(channel, key, changes[key])
        if "archived" in changes:
            channel.archive_timestamp = self.now()
        self._changed()
        self._emit("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", lambda: F.channel(channel))

    def _delete_channel(self, channel: Channel) -> None:
        for thread in channel.threads:  # a deleted channel's threads go with it
            thread.deleted = True
        channel.deleted = True
        g = channel.guild
        self._changed()
        if g is not None:
            if channel.is_thread:
                self._emit("THREAD_DELETE", F.thread_delete(channel))
            else:
                self._emit("CHANNEL_DELETE", F.channel(channel))

    # ==================================================================================================
    # interactions
    # ==================================================================================================
    def _new_interaction_token(self) -> str:
        return interaction_token()

    def interaction_by_token(self, token: str) -> Interaction | None:
        return self._interactions_by_token.get(token)

    async def _dispatch_interaction(self, inter: Interaction) -> Interaction:
        self.interactions[inter.id] = inter
        self._interactions_by_token[inter.token] = inter
        if not self.connected or self.link is None:
            inter.failed = True
            inter.failure_reason = "no bot is connected (the user sees 'This interaction failed')"
            self._changed()
            return inter
        inter.payload = F.interaction_create(self, inter)

        def delivered() -> None:
            inter.dispatched_at = time.monotonic()

        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.ack_deadline, self._check_ack, inter))
        await self._deliver("INTERACTION_CREATE", inter.payload, before=delivered)
        return inter

    def _check_ack(self, inter: Interaction) -> None:
        if not inter.acked and not inter.failed:
            inter.failed = True
            inter.failure_reason = f"the bot did not acknowledge within {self.ack_deadline:g} s"
            self._violation(
                "ack_timeout", f"{inter!r} not acknowledged within {self.ack_deadline:g} s", inter
            )
            self._changed()

    def _violation(self, kind: str, message: str, inter: Interaction | None = None) -> None:
        self._violations.append(Violation(kind, message, inter.id if inter else None))
        if inter is not None:
            inter.violations.append(f"{kind}: {message}")
        log.debug("violation %s: %s", kind, message)

    @property
    def violations(self) -> list[Violation]:
        """Recorded rule breaks, plus deferred replies still "thinking" after ``fill_deadline`` seconds."""
        return self._violations + self._unfilled(self.fill_deadline)

    def _unfilled(self, older_than: float) -> list[Violation]:
        now = time.monotonic()
        out = []
        for inter in self.interactions.values():
            m = inter.original
            if (
                inter.response_type == 5
                and m is not None
                and m.loading
                and not m.deleted
                and inter.acked_at is not None
                and now - inter.acked_at >= older_than
            ):
                out.append(
                    Violation("deferred_unfilled", f"{inter!r}: deferred reply never filled in", inter.id)
                )
        return out

    def _interaction_failed(self, inter: Interaction) -> InteractionFailed:
        return InteractionFailed(
            f"interaction failed: {inter!r}: {inter.failure_reason or 'not acknowledged'}{self.diagnostics()}"
        )

    async def _await_ack(self, inter: Interaction, timeout: float, check: bool) -> Interaction:
        try:
            await self.wait_until(lambda: inter.acked or inter.failed, timeout=timeout)
        except WaitTimeout:
            if not inter.acked:
                inter.failure_reason = (
                    inter.failure_reason or f"not acknowledged within the {timeout:g} s timeout"
                )
        if check and not inter.acked:
            raise self._interaction_failed(inter)
        return inter

    def interaction_callback(
        self,
        inter: Interaction,
        body: dict[str, Any],
        files: Sequence[tuple[str, bytes]],
        at: float | None = None,
    ) -> dict[str, Any]:
        now = time.monotonic() if at is None else at
        cb = body.get("type")
        if inter.acked:
            self._violation("double_ack", f"{inter!r} acknowledged twice (second callback type {cb})", inter)
            raise APIError(400, 40060, "Interaction has already been acknowledged.")
        if inter.dispatched_at is not None and now - inter.dispatched_at > self.ack_deadline:
            self._violation(
                "late_ack", f"{inter!r} acknowledged after {now - inter.dispatched_at:.2f} s", inter
            )
            if self.strict_ack:
                raise unknown("interaction")
        if cb not in ALLOWED_CALLBACKS.get(inter.type, set()) or (
            cb in (6, 7) and inter.type == InteractionType.MODAL_SUBMIT and inter.component_message is None
        ):
            self._violation("invalid_callback", f"{inter!r}: callback type {cb} is not valid here", inter)
            raise APIError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": (
                                    f"Interaction response type {cb} is not valid for this interaction"
                                ),
                            }
                        ]
                    }
                },
            )
        data = body.get("data") or {}
        msg: Message | None = None
        if cb == 4:
            V.validate_message(data, n_files=len(files), creating=True)
            self._check_file_sizes(files)
            ephemeral = bool((data.get("flags") or 0) & MessageFlags.EPHEMERAL)
            inter.ephemeral = ephemeral
            inter.acked_at, inter.response_type = now, cb
            msg = inter.original = self._create_message(
                inter.channel,
                self.bot_user,
                content=data.get("content"),
                embeds=data.get("embeds"),
                components=data.get("components"),
                files=files,
                attachments_meta=data.get("attachments"),
                flags=data.get("flags") or 0,
                allowed_mentions=data.get("allowed_mentions"),
                tts=bool(data.get("tts")),
                ephemeral_to=inter.user.id if ephemeral else None,
                interaction=inter,
                msg_type=self._response_type_for(inter),
            )
        elif cb == 5:
            ephemeral = bool((data.get("flags") or 0) & MessageFlags.EPHEMERAL)
            inter.ephemeral = ephemeral
            inter.acked_at, inter.response_type = now, cb
            msg = inter.original = self._create_message(
                inter.channel,
                self.bot_user,
                flags=MessageFlags.LOADING,
                ephemeral_to=inter.user.id if ephemeral else None,
                interaction=inter,
                msg_type=self._response_type_for(inter),
            )
        elif cb == 6:
            inter.ephemeral = bool(inter.component_message and inter.component_message.ephemeral)
        elif cb == 7:
            target = inter.component_message
            if target is None or target.deleted:
                raise unknown("message")
            V.validate_message(data, n_files=len(files), creating=False)
            self._check_file_sizes(files)
            inter.ephemeral = target.ephemeral
            inter.acked_at, inter.response_type = now, cb
            msg = self._edit_message(target, data, files)
        elif cb == 8:
            V.validate_choices(data)
            inter.choices = list(data.get("choices") or [])
        elif cb == 9:
            V.validate_modal(data)
            inter.modal = ModalView(inter, copy.deepcopy(data))
            self._open_modals[inter.user.id] = inter
        inter.response_type = cb
        if inter.acked_at is None:
            inter.acked_at = now
        self._changed()
        return F.callback_response(self, inter, cb, msg)

    @staticmethod
    def _response_type_for(inter: Interaction) -> int:
        if inter.type == InteractionType.APPLICATION_COMMAND:
            return 20 if inter.data.get("type", 1) == 1 else 23
        return 0

    def _check_file_sizes(self, files: Sequence[tuple[str, bytes]]) -> None:
        for _name, data in files:
            if len(data) > self.attachment_size_limit:
                raise APIError(413, 40005, "Request entity too large")

    # -- commands ------------------------------------------------------------------------------------------
    def _store_commands(self, guild_id: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        store: dict[tuple[int, str], dict[str, Any]] = {}
        for body in commands:
            ctype = body.get("type", 1)
            key = (guild_id, ctype, body["name"])
            cid = self._command_ids.setdefault(key, self.new_id())
            store[(ctype, body["name"])] = F.command(
                self, body, id=cid, version=self.new_id(), guild_id=guild_id
            )
        if guild_id is None:
            self.global_commands = store
        else:
            self.guild_commands[guild_id] = store
        self._changed()
        return [copy.deepcopy(c) for c in store.values()]

    def registered_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """Global commands, plus ``guild``'s commands (raw Discord objects)."""
        out = list(self.global_commands.values())
        if guild is not None:
            out += list(self.guild_commands.get(guild.id, {}).values())
        return copy.deepcopy(out)

    def command_names(self, guild: Guild | None = None) -> list[str]:
        """``"pylon new"``-style names of every invocable chat-input command."""
        names: list[str] = []

        def walk(prefix: str, options: list[dict[str, Any]]) -> None:
            subs = [o for o in options if o.get("type") in (1, 2)]
            if not subs:
                names.append(prefix)
            for o in subs:
                walk(f"{prefix} {o['name']}", o.get("options") or [])

        for c in self.registered_commands(guild):
            if c.get("type", 1) == 1:
                walk(c["name"], c.get("options") or [])
        return names

    def find_command(self, name: str, channel: Channel, ctype: int = 1) -> dict[str, Any]:
        g = channel.guild
        candidates = []
        if g is not None:
            candidates.append(self.guild_commands.get(g.id, {}).get((ctype, name)))
        candidates.append(self.global_commands.get((ctype, name)))
        for c in candidates:
            if c is not None:
                return c
        raise UserActionError(
            f"no command {name!r} registered for {channel!r}; registered: {self.command_names(g)}"
        )

    # ==================================================================================================
    # gateway
    # ==================================================================================================
    def _emit(self, event: str, data: Any, *, intent: int | None = None) -> asyncio.Future | None:
        """Queue a gateway event for the connected bot (``data`` may be a callable: built at delivery)."""
        if self.link is None or not self.connected:
            return None
        return self.link.send(event, data, intent=intent)

    async def _deliver(
        self, event: str, data: Any, *, intent: int | None = None, before: Callable[[], None] | None = None
    ) -> None:
        """Queue an event and wait until the bot's parser handled it (re-raising a parser error)."""
        if self.link is None or not self.connected:
            return
        fut = self.link.send(event, data, intent=intent, before=before)
        if fut is None:
            return
        exc = await fut
        if exc is not None:
            raise exc

    async def _deliver_pending(self) -> None:
        """Wait until the bot's client handled every event queued so far; raise if a parser failed."""
        if self.link is None or not self.connected:
            return
        before = len(self.gateway_errors)
        await self.link.barrier()
        if len(self.gateway_errors) > before:
            raise AssertionError(
                "discord.py could not parse an event:\n" + "\n".join(self.gateway_errors[before:])
            )

    # ==================================================================================================
    # waiting, recording
    # ==================================================================================================
    def _changed(self) -> None:
        self._seq += 1
        self._last_activity = time.monotonic()
        ev = self._change_event
        if ev is not None:
            self._change_event = None
            ev.set()

    def mark(self) -> int:
        """A point in time for ``since=`` (wait_for, api_calls, api_summary)."""
        self._changed()
        return self._seq

    async def wait_until(
        self, check: Callable[[], Any], *, timeout: float = 5.0, describe: Callable[[], str] | None = None
    ) -> Any:
        """Re-evaluate ``check`` on every change of the world until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                what = describe() if describe is not None else "condition not met"
                raise WaitTimeout(f"timed out after {timeout:g} s: {what}{self.diagnostics()}")
            if self._change_event is None:
                self._change_event = asyncio.Event()
            ev = self._change_event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), remaining)

    @staticmethod
    def _since_threshold(since: Any) -> tuple[int | None, Message | None]:
        if since is None:
            return None, None
        if isinstance(since, Message):
            return since.created_seq, since
        return int(since), None

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], Any] | None = None,
        *,
        timeout: float = 5.0,
        since: Any = None,
        user: User | None = None,
    ) -> Message:
        pred = predicate or (lambda m: True)
        threshold, exclude = self._since_threshold(since)

        def candidates() -> list[Message]:
            msgs = channel.visible_messages(user) if user is not None else channel.public_messages
            out = []
            for m in msgs:
                if m.loading or m is exclude:
                    continue
                if threshold is not None and m.created_seq <= threshold and m.updated_seq <= threshold:
                    continue
                out.append(m)
            return out

        def check() -> Message | None:
            for m in reversed(candidates()):
                if _safe(pred, m):
                    return m
            return None

        def describe() -> str:
            msgs = candidates()
            shown = "\n".join(f"    {m!r}" for m in msgs[-10:]) or "    (none)"
            return f"no message in {channel!r} matched; {len(msgs)} candidate(s):\n{shown}"

        return await self.wait_until(check, timeout=timeout, describe=describe)

    def diagnostics(self) -> str:
        parts = []
        failed = self.failed_requests()[-5:]
        if failed:
            parts.append("recent failed requests:\n" + "\n".join(f"    {r!r}" for r in failed))
        if self._violations:
            parts.append("violations:\n" + "\n".join(f"    {v}" for v in self._violations[-5:]))
        if self.bot_errors:
            parts.append("bot errors:\n" + "\n".join(f"    {e}" for e in self.bot_errors[-3:]))
        if self.gateway_errors or self.internal_errors:
            parts.append(
                "double errors:\n"
                + "\n".join(f"    {e}" for e in (self.gateway_errors + self.internal_errors)[-3:])
            )
        return ("\n" + "\n".join(parts)) if parts else ""

    def api_calls(
        self, since: Any = None, *, route: str | None = None, method: str | None = None
    ) -> list[RequestRecord]:
        threshold, _ = self._since_threshold(since)
        return [
            r
            for r in self.requests
            if (threshold is None or r.seq > threshold)
            and (route is None or r.route == route or r.route.split(" ", 1)[1] == route)
            and (method is None or r.method == method)
        ]

    def api_summary(self, since: Any = None) -> dict[str, int]:
        """``{"POST /channels/{channel_id}/messages": 2, ...}`` for the requests since ``since``."""
        out: dict[str, int] = {}
        for r in self.api_calls(since):
            out[r.route] = out.get(r.route, 0) + 1
        return out

    def failed_requests(self, since: Any = None) -> list[RequestRecord]:
        return [r for r in self.api_calls(since) if r.status >= 400]

    def _handler_tasks(self) -> list[asyncio.Task]:
        current = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name().startswith(_HANDLER_TASK_PREFIXES)
        ]

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> bool:
        """Wait until no request is in flight, no event is queued, the bot's event/command/view tasks
        finished, and nothing happened for ``quiet`` seconds. Returns False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            busy = (
                self._in_flight > 0
                or (self.link is not None and self.link.pending)
                or bool(self._handler_tasks())
            )
            idle = time.monotonic() - self._last_activity
            if not busy and idle >= quiet:
                return True
            await asyncio.sleep(min(0.01, quiet / 2) if busy else max(0.0, quiet - idle) + 0.001)
        return False

    def assert_clean(self, *, allow_unimplemented: bool = False) -> None:
        """No violations (deferred replies left thinking count), no unimplemented routes, no ERROR log
        records from the bot, no errors inside the double."""
        problems = []
        violations = self._violations + self._unfilled(0.0)
        if violations:
            problems.append("violations:\n" + "\n".join(f"    {v}" for v in violations))
        if self.unimplemented and not allow_unimplemented:
            problems.append(f"unimplemented routes: {self.unimplemented}")
        if self.bot_errors:
            problems.append("bot errors:\n" + "\n".join(f"    {e}" for e in self.bot_errors))
        if self.gateway_errors or self.internal_errors:
            problems.append(
                "double errors:\n" + "\n".join(f"    {e}" for e in self.gateway_errors + self.internal_errors)
            )
        if problems:
            raise AssertionError("DiscordDouble is not clean:\n" + "\n".join(problems))

    def interaction_stats(self) -> dict[str, Any]:
        lat = sorted(i.latency for i in self.interactions.values() if i.latency is not None)

        def pct(p: float) -> float | None:
            return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else None

        return {
            "count": len(self.interactions),
            "acked": len(lat),
            "p50": pct(0.5),
            "p90": pct(0.9),
            "max": lat[-1] if lat else None,
            "failed": sum(1 for i in self.interactions.values() if i.failed),
        }

    def __repr__(self) -> str:
        return (
            f"<DiscordDouble guilds={len(self.guilds)} users={len(self.users)} requests={len(self.requests)} "
            f"connected={self.connected}>"
        )


__all__ = ["CapturedLog", "DiscordDouble", "Violation"]
