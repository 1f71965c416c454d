"""DiscordWorld: Discord's state and rules, written once for both doubles.

The in-process :class:`~.core.DiscordDouble` (events fed to the bot's parser) and the loopback server's
:class:`tests.loopback.core.FakeDiscord` (events over a websocket gateway, REST over aiohttp) inherit
this class and supply only their transport:

- ``new_id()`` and ``now()`` (ids and timestamps),
- ``cdn_base`` (where attachment URLs point),
- ``_emit(event, data, *, guild, intent)``: send a gateway event to the bot. ``data`` is a payload or a
  callable ``data(intents)`` building it for a connection with those intent bits (``None``: drop it),
- ``diagnostics()`` (what a timed-out wait explains) and ``_since_filter(since)``.

Everything else is here: users, guilds, roles, members, channels, DMs, threads, messages, mentions,
attachments, reactions, the rules the REST handlers of both doubles enforce (who may be sent a
message, who may be DMed), waiting on changes and reading the request record.
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import fixtures as F
from . import perms as P
from . import validation as V
from .errors import APIError, CommandNotFound, WaitTimeout, cannot_dm, unknown
from .gateway import Intent
from .interactions import ALLOWED_CALLBACKS, InteractionType, ModalView, _safe
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
    walk_components,
)

if TYPE_CHECKING:  # pragma: no cover
    import asyncio

# one file of an upload: (filename, bytes) or (filename, bytes, content type)
FileSpec = Sequence[Any]

DM_APP_PERMISSIONS = P.to_bits(
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


class DiscordWorld:
    """Discord's state and rules; subclasses add the transport (see the module docstring)."""

    cdn_base = "https://cdn.discordapp.com"
    # what a created thing notifies the bot of needs a transport; these set the world's options
    attachment_size_limit: int
    privileged_intents: set[str]
    bot_user: User

    def _init_world(
        self,
        *,
        ack_deadline: float,
        strict_ack: bool,
        attachment_size_limit: int,
        bot_permissions: P.PermSpec,
        privileged_intents: Sequence[str],
    ) -> None:
        self.ack_deadline = ack_deadline
        self.strict_ack = strict_ack
        self.attachment_size_limit = attachment_size_limit
        self.default_bot_permissions = (
            P.DEFAULT_BOT if bot_permissions is None else P.to_bits(bot_permissions)
        )
        self.privileged_intents = set(privileged_intents)
        self.dm_app_permissions = DM_APP_PERMISSIONS
        self.users: dict[int, Any] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.requests: list[Any] = []
        self.unimplemented: list[str] = []
        self.warnings: list[str] = []
        self.pseudo_findings: list[str] = []  # PARLOR_PSEUDO_LOCALE=1: English a user would read (pseudo.py)
        self.pseudo_typed: set[str] = set()  # ... except what players typed
        self.pseudo_sent: dict[str, str] = {}  # English → the words the bot sent (what it reads back)
        self._seq = 0
        self._change_event: asyncio.Event | None = None
        self._last_activity = time.monotonic()
        self._timers: list[asyncio.TimerHandle] = []
        self.open_modals: dict[int, Any] = {}  # user id -> the interaction whose modal is open for them

    # -- transport hooks -----------------------------------------------------------------------------------
    def new_id(self) -> int:  # pragma: no cover - supplied by the transport
        raise NotImplementedError

    def now(self) -> str:  # pragma: no cover
        raise NotImplementedError

    def _emit(self, event: str, data: Any, *, guild: Guild | None = None, intent: int | None = None) -> Any:
        raise NotImplementedError  # pragma: no cover

    def diagnostics(self) -> str:
        return ""

    @staticmethod
    def _since_threshold(since: Any) -> tuple[int | None, Message | None]:
        """``since`` (a mark, a Message, or None) -> (change number, the message if one was given)."""
        if since is None:
            return None, None
        if isinstance(since, Message):
            return since.created_seq, since
        if isinstance(since, int):
            return since, None
        raise TypeError(f"since must be a mark() or a Message, not {type(since).__name__}")

    def _since_filter(self, since: Any) -> Callable[[Message], bool]:
        """The one meaning of ``since=`` in both doubles' waits: ``since=mark()`` takes messages created
        **or edited** after the mark; ``since=msg`` only messages created after ``msg`` (an older message
        edited later does not count -- take a mark for that)."""
        threshold, msg = self._since_threshold(since)
        if threshold is None:
            return lambda m: True
        if msg is not None:
            return lambda m: m.created_seq > threshold
        return lambda m: m.created_seq > threshold or m.updated_seq > threshold

    def _new_user(self, username: str, **kw: Any) -> Any:
        """The object for a simulated human (the transport's SimUser)."""
        raise NotImplementedError  # pragma: no cover

    # how SimUser's actions travel (see simuser.py)
    def _new_interaction(self, **kw: Any) -> Any:
        """The transport's Interaction record for a user action."""
        raise NotImplementedError  # pragma: no cover

    async def _send_interaction(self, inter: Any, timeout: float | None, check: bool) -> Any:
        """Deliver INTERACTION_CREATE and wait for the ack (InteractionFailed if none and ``check``)."""
        raise NotImplementedError  # pragma: no cover

    async def _deliver_pending(self) -> None:
        """After a user's message/reaction: wait until the bot's client has the events (if it can tell)."""

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

    def create_user(
        self, username: str, *, dms_open: bool = True, global_name: str | None = None, locale: str = "en-US"
    ) -> Any:
        """A simulated human (``global_name`` defaults to ``username``; ``dms_open=False`` makes the bot's
        DMs fail with 50007)."""
        user = self._new_user(
            username, id=self.new_id(), global_name=global_name or username, dms_open=dms_open, locale=locale
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
        g = Guild(self, name, id=self.new_id(), owner_id=owner.id, joined_at=self.now())  # type: ignore[arg-type]
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
        self._emit(
            "GUILD_CREATE", lambda intents: self._guild_create_payload(g, intents, joined=True), guild=g
        )
        return g

    def _guild_create_payload(self, g: Guild, intents: int, *, joined: bool = False) -> dict[str, Any]:
        data = F.guild_create(self, g, members_intent=bool(intents & Intent.MEMBERS))  # type: ignore[arg-type]
        if joined:  # a guild join (not one announced in READY): no "unavailable" key -> on_guild_join
            del data["unavailable"]
        return data

    def _create_guild_channel(
        self,
        guild: Guild,
        name: str,
        type: int,
        *,
        parent: Channel | None = None,
        topic: str | None = None,
        overwrites: list[dict[str, Any]] | None = None,
        dispatch: bool = True,
    ) -> Channel:
        position = len([c for c in guild.channels.values() if not c.is_thread])
        ch = Channel(
            self,  # type: ignore[arg-type]
            type,
            id=self.new_id(),
            guild=guild,
            name=name,
            parent=parent,
            topic=topic,
            position=position,
            created=self.now(),
        )
        if overwrites:
            ch.overwrites = overwrites_from_payload(overwrites)
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        self._changed()
        if dispatch:
            self._emit("CHANNEL_CREATE", lambda _i: F.channel(ch), guild=guild, intent=Intent.GUILDS)
        return ch

    def _create_role(
        self, guild: Guild, name: str, permissions: int, *, mentionable: bool = False, color: int = 0
    ) -> Role:
        # new roles go just below the bot's role, like roles an admin makes after inviting the bot
        r = Role(guild, name, permissions, id=self.new_id(), position=1, mentionable=mentionable, color=color)
        for other in guild.roles.values():
            if other.position >= 1:
                other.position += 1
        guild.roles[r.id] = r
        self._changed()
        self._emit("GUILD_ROLE_CREATE", lambda _i: F.role_event(r), guild=guild, intent=Intent.GUILDS)
        return r

    def _update_role(self, r: Role, *, permissions: int | None = None) -> None:
        if permissions is not None:
            r.permissions = permissions
        self._changed()
        self._emit("GUILD_ROLE_UPDATE", lambda _i: F.role_event(r), guild=r.guild, intent=Intent.GUILDS)

    def _update_guild(self, guild: Guild) -> None:
        self._changed()
        self._emit("GUILD_UPDATE", lambda _i: F.guild_base(guild), guild=guild, intent=Intent.GUILDS)

    def _set_bot_permissions(self, guild: Guild, bits: int) -> None:
        assert guild.bot_role is not None
        self._update_role(guild.bot_role, permissions=bits)

    def _add_member(self, guild: Guild, user: User, role_ids: Sequence[int], nick: str | None) -> Member:
        m = Member(guild, user, role_ids, nick, joined_at=self.now())
        guild.members[user.id] = m
        self._changed()
        self._emit("GUILD_MEMBER_ADD", lambda _i: F.guild_member_event(m), guild=guild, intent=Intent.MEMBERS)
        return m

    def _remove_member(self, guild: Guild, user: User) -> None:
        guild.members.pop(user.id, None)
        self._changed()
        self._emit(
            "GUILD_MEMBER_REMOVE",
            lambda _i: F.guild_member_remove(guild, user),
            guild=guild,
            intent=Intent.MEMBERS,
        )

    def _member_update(self, guild: Guild, member: Member) -> None:
        self._changed()
        self._emit(
            "GUILD_MEMBER_UPDATE", lambda _i: F.guild_member_event(member), guild=guild, intent=Intent.MEMBERS
        )

    def _member_roles(
        self, guild: Guild, user: User, add: Sequence[int] = (), remove: Sequence[int] = ()
    ) -> None:
        m = guild.members[user.id]
        m.role_ids = [r for r in m.role_ids if r not in remove] + [r for r in add if r not in m.role_ids]
        self._member_update(guild, m)

    def _set_overwrite(self, channel: Channel, target: Role | User | Guild, allow: int, deny: int) -> None:
        kind = 0 if isinstance(target, (Guild, Role)) else 1
        if allow or deny:
            channel.overwrites[target.id] = (allow, deny, kind)
        else:
            channel.overwrites.pop(target.id, None)
        self._changed()
        if channel.guild is not None:
            self._emit(
                "CHANNEL_UPDATE", lambda _i: F.channel(channel), guild=channel.guild, intent=Intent.GUILDS
            )

    def dm_channel_for(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use, like Discord)."""
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self, ChannelType.DM, id=self.new_id(), recipient=user, created=self.now())  # type: ignore[arg-type]
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
    # the rules the REST handlers enforce
    # ==================================================================================================
    def check_can_open_dm(self, user: User) -> None:
        """``POST /users/@me/channels``: Discord refuses a DM channel with a bot (400 / 50007)."""
        if user.bot:
            raise APIError(400, 50007, "Cannot send messages to this user")

    def check_can_send(self, ch: Channel, n_files: int, need: Callable[[Channel, str], None]) -> None:
        """May the bot post in ``ch``? ``need(channel, permission)`` raises 50013/50001 when it lacks one.
        DMs need the user's DMs open and a guild shared with the bot (else 403 / 50007); a locked thread
        refuses the bot unless it may manage threads (400 / 50083); an archived one is unarchived."""
        if ch.type in (ChannelType.CATEGORY, ChannelType.FORUM):
            raise APIError(400, 50008, "Cannot send messages in a non-text channel")
        if ch.is_dm:
            rec = ch.recipient
            if rec is None or rec.bot or not rec.dms_open or not self.shares_guild_with_bot(rec):
                raise cannot_dm()
            return
        need(ch, "send_messages_in_threads" if ch.is_thread else "send_messages")
        if n_files:
            need(ch, "attach_files")
        if ch.is_thread and ch.locked and not self.can_bot(ch, "manage_threads"):
            raise APIError(400, 50083, "Thread is archived")
        if ch.is_thread and ch.archived:
            self._update_channel(ch, {"archived": False})

    def check_can_add_thread_member(
        self, thread: Channel, user: User, need: Callable[[Channel, str], None]
    ) -> None:
        """``PUT /channels/{thread}/thread-members/{user}``: an archived thread refuses (400 / 50083); the
        bot adds others if it may send in threads and they are members of the guild (else 10007)."""
        if thread.archived:
            raise APIError(400, 50083, "Thread is archived")
        if user.id == self.bot_user.id:
            need(thread, "view_channel")
            return
        if thread.guild is not None and user.id not in thread.guild.members:
            raise unknown("member")
        need(thread, "send_messages_in_threads")

    # -- interaction callbacks (POST /interactions/{id}/{token}/callback) -----------------------------------
    def _violation(self, kind: str, message: str, inter: Any = None) -> None:  # pragma: no cover
        raise NotImplementedError  # the transport records it

    @staticmethod
    def _response_msg_type(inter: Any) -> int:
        """The type of a reply message: 20 to a slash command, 23 to a context menu, else 0."""
        if inter.type == InteractionType.APPLICATION_COMMAND:
            return 20 if inter.data.get("type", 1) == 1 else 23
        return 0

    def _interaction_callback(
        self, inter: Any, body: dict[str, Any], files: Sequence[FileSpec], now: float
    ) -> Message | None:
        """Discord's rules for the one acknowledgement of an interaction: twice is 40060, after the deadline
        10062 (strict) and always a violation, a type not allowed for the interaction 50035; then the reply
        (4), the deferred "thinking" reply (5), the deferred update (6), the update of the component's
        message (7), autocomplete choices (8) or a modal (9). Returns the message it created or edited."""
        cb = body.get("type")
        if inter.acked:
            self._violation("double_ack", f"{inter!r} acknowledged twice (second callback type {cb})", inter)
            raise APIError(400, 40060, "Interaction has already been acknowledged.")
        if inter.dispatched_at is not None and now - inter.dispatched_at > self.ack_deadline:
            late = now - inter.dispatched_at
            self._violation("late_ack", f"{inter!r} acknowledged after {late:.2f} s", inter)
            if self.strict_ack:
                raise unknown("interaction")
        if cb not in ALLOWED_CALLBACKS.get(inter.type, set()) or (
            cb in (6, 7) and inter.type == InteractionType.MODAL_SUBMIT and inter.component_message is None
        ):
            self._violation("invalid_callback", f"{inter!r}: callback type {cb} is not valid here", inter)
            code = "INTERACTION_RESPONSE_TYPE_INVALID" if cb in (1, 4, 5, 6, 7, 8, 9) else "BASE_TYPE_CHOICES"
            text = f"Interaction response type {cb} is not valid for this interaction"
            errors = {"type": {"_errors": [{"code": code, "message": text}]}}
            raise APIError(400, 50035, "Invalid Form Body", errors)
        data = body.get("data") or {}
        msg: Message | None = None
        if cb in (4, 5):
            flags = (data.get("flags") or 0) if isinstance(data, dict) else 0
            inter.ephemeral = bool(flags & MessageFlags.EPHEMERAL)
            common: dict[str, Any] = {
                "ephemeral_to": inter.user.id if inter.ephemeral else None,
                "interaction": inter,
                "msg_type": self._response_msg_type(inter),
            }
            if cb == 4:
                V.validate_message(data, n_files=len(files), creating=True)
                self._check_file_sizes(files)
                inter.acked_at, inter.response_type = now, cb
                msg = inter.original = self._create_message(
                    inter.channel,
                    self.bot_user,
                    content=data.get("content"),
                    embeds=data.get("embeds"),
                    components=data.get("components"),
                    files=files,
                    attachments_meta=data.get("attachments"),
                    flags=flags,
                    allowed_mentions=data.get("allowed_mentions"),
                    tts=bool(data.get("tts")),
                    poll=data.get("poll"),
                    **common,
                )
            else:
                inter.acked_at, inter.response_type = now, cb
                msg = inter.original = self._create_message(
                    inter.channel, self.bot_user, flags=MessageFlags.LOADING, **common
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
            self.open_modals[inter.user.id] = inter
        inter.response_type = cb
        if inter.acked_at is None:
            inter.acked_at = now
        self._changed()
        return msg

    # -- application commands as a user's client offers them ------------------------------------------------
    def _command_candidates(self, channel: Channel) -> list[dict[str, Any]]:
        """The guild's commands, then the global ones (raw Discord objects); supplied by the transport."""
        raise NotImplementedError  # pragma: no cover

    @staticmethod
    def command_usable_in(cmd: dict[str, Any], channel: Channel) -> bool:
        """Does the client offer ``cmd`` in ``channel``? Guild commands never in DMs; ``contexts`` (0 guild,
        1 bot DM) and the older ``dm_permission`` decide."""
        contexts = cmd.get("contexts")
        if channel.guild is None:
            if cmd.get("guild_id") or (contexts is not None and 1 not in contexts):
                return False
            return not (contexts is None and cmd.get("dm_permission") is False)
        return bool(cmd.get("guild_id")) or contexts is None or 0 in contexts

    def find_command(self, name: str, channel: Channel, ctype: int = 1) -> dict[str, Any]:
        """The command a user in ``channel`` picks by its top-level name (guild commands first)."""
        candidates = self._command_candidates(channel)
        for cmd in candidates:
            if cmd["name"] == name and cmd.get("type", 1) == ctype and self.command_usable_in(cmd, channel):
                return cmd
        kind = "slash" if ctype == 1 else "context menu"
        offered = sorted({c["name"] for c in candidates if c.get("type", 1) == ctype})
        raise CommandNotFound(f"no command {name!r} ({kind}) usable in {channel!r}; registered: {offered}")

    def _check_file_sizes(self, files: Sequence[FileSpec]) -> None:
        for f in files:
            if len(f[1]) > self.attachment_size_limit:
                raise APIError(413, 40005, "Request entity too large")

    # ==================================================================================================
    # messages
    # ==================================================================================================
    def _build_attachments(
        self,
        channel: Channel,
        files: Sequence[FileSpec],
        meta: list[dict[str, Any]] | None,
        *,
        ephemeral: bool,
    ) -> list[Attachment]:
        """Attachments from uploaded ``files[n]`` parts, using the payload's ``attachments`` metadata."""
        by_index: dict[int, dict[str, Any]] = {}
        for m in meta or []:
            try:
                idx = int(m.get("id"))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
            if idx < 1000:  # upload indexes, not ids of existing attachments
                by_index[idx] = m
        out = []
        for i, f in enumerate(files):
            m = by_index.get(i, {})
            out.append(
                self.new_attachment(
                    channel,
                    m.get("filename") or f[0],
                    f[1],
                    description=m.get("description"),
                    title=m.get("title"),
                    ephemeral=ephemeral,
                )
            )
        return out

    def new_attachment(self, channel: Channel, filename: str, data: bytes, **kw: Any) -> Attachment:
        """A stored upload (served by the CDN routes)."""
        att = Attachment(self.new_id(), channel.id, filename, data, cdn=self.cdn_base, **kw)
        self.attachments[att.id] = att
        return att

    def _resolve_embed_media(self, msg: Message) -> None:
        """``attachment://name`` in embeds and components v2 media -> the uploaded file's URL (Discord drops
        embed images that point at no uploaded file)."""
        by_name = {a.filename: a for a in msg.attachments}

        def fix(obj: dict[str, Any], key: str, where: str) -> bool:
            url = obj.get(key)
            if isinstance(url, str) and url.startswith("attachment://"):
                att = by_name.get(url[len("attachment://") :])
                if att is None:
                    self.warnings.append(
                        f"message {msg.id}: {where} refers to {url} but no such file was uploaded"
                    )
                    return False
                obj.update({key: att.url, "proxy_url": att.url, "content_type": att.content_type})
                if att.width is not None:
                    obj.update({"width": att.width, "height": att.height})
            return True

        for e in msg.embeds:
            e.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                if isinstance(e.get(key), dict) and not fix(e[key], "url", f"embed {key}"):
                    del e[key]
            for key in ("footer", "author"):
                if isinstance(e.get(key), dict):
                    fix(e[key], "icon_url", f"embed {key} icon")
        for comp in walk_components(msg.components):
            medias = [
                comp.get("media")
                if comp.get("type") == 11
                else comp.get("file")
                if comp.get("type") == 13
                else None
            ]
            if comp.get("type") == 12:
                medias += [item.get("media") for item in comp.get("items") or []]
            for media in medias:
                if not isinstance(media, dict):
                    continue
                url = media.get("url", "")
                att = by_name.get(url[len("attachment://") :]) if url.startswith("attachment://") else None
                if att is not None:
                    media.update(
                        {
                            "proxy_url": att.url,
                            "attachment_id": str(att.id),
                            "content_type": att.content_type,
                            "width": att.width,
                            "height": att.height,
                        }
                    )

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

    def _interaction_metadata(self, inter: Any) -> dict[str, Any]:
        return F.interaction_metadata(self, inter)  # type: ignore[arg-type]

    def _interaction_legacy(self, inter: Any) -> dict[str, Any]:
        return F.interaction_legacy(inter)

    def _create_message(
        self,
        channel: Channel,
        author: User,
        *,
        content: str | None = None,
        embeds: list[dict[str, Any]] | None = None,
        components: list[dict[str, Any]] | None = None,
        files: Sequence[FileSpec] = (),
        attachments_meta: list[dict[str, Any]] | None = None,
        flags: int = 0,
        reference: dict[str, Any] | None = None,
        allowed_mentions: dict[str, Any] | None = None,
        nonce: Any = None,
        tts: bool = False,
        ephemeral_to: int | None = None,
        interaction: Any = None,
        msg_type: int | None = None,
        poll: dict[str, Any] | None = None,
        sticker_ids: Sequence[str] = (),
    ) -> Message:
        """Create a message (no validation: REST handlers validate first) and dispatch MESSAGE_CREATE."""
        from .interactions import InteractionType

        ephemeral = ephemeral_to is not None
        keep = flags & (
            MessageFlags.SUPPRESS_EMBEDS
            | MessageFlags.SUPPRESS_NOTIFICATIONS
            | MessageFlags.IS_COMPONENTS_V2
            | MessageFlags.LOADING
            | (1 << 13)  # IS_VOICE_MESSAGE
        )
        if ephemeral:
            keep |= MessageFlags.EPHEMERAL
        msg = Message(
            self,  # type: ignore[arg-type]
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
            msg.webhook_id = self.application_id  # type: ignore[attr-defined]
            msg.application_id = self.application_id  # type: ignore[attr-defined]
        msg.poll = copy.deepcopy(poll) if poll else None
        msg.sticker_ids = list(sticker_ids)
        self._resolve_embed_media(msg)
        self._apply_mentions(msg, allowed_mentions)
        msg.notified_ids = list(msg.mention_ids)  # who Discord notified: decided once, when it is created
        if channel.is_thread:
            msg.position = channel.total_message_sent
            channel.total_message_sent += 1
        self.messages[msg.id] = msg
        channel.messages.append(msg)
        if interaction is not None:
            msg.interaction_metadata = self._interaction_metadata(interaction)
            if interaction.type == InteractionType.APPLICATION_COMMAND:
                msg.interaction_legacy = self._interaction_legacy(interaction)
        self._changed()
        msg.created_seq = msg.updated_seq = self._seq
        self._emit_message("MESSAGE_CREATE", msg)
        return msg

    def _edit_message(self, msg: Message, body: dict[str, Any], files: Sequence[FileSpec] = ()) -> Message:
        """Apply an edit body (fields present are replaced) and dispatch MESSAGE_UPDATE."""
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
                guild=g,
                intent=Intent.GUILD_MESSAGES if g else Intent.DM_MESSAGES,
            )

    def _message_for_bot(self, msg: Message, intents: int | None) -> dict[str, Any]:
        """A message as the bot receives it. MESSAGE_CONTENT: other users' guild messages arrive without
        content unless they mention the bot (``intents`` None: a REST read, judged by the portal)."""
        strip = False
        if (
            msg.author.id != self.bot_user.id
            and msg.channel.guild is not None
            and self.bot_user.id not in msg.mention_ids
        ):
            if intents is None:
                strip = "message_content" not in self.privileged_intents
            else:
                strip = not intents & Intent.MESSAGE_CONTENT
        return F.message(self, msg, strip_content=strip)  # type: ignore[arg-type]

    def _emit_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral_to is not None:
            return  # ephemeral messages never reach the gateway
        g = msg.channel.guild
        intent = Intent.GUILD_MESSAGES if g is not None else Intent.DM_MESSAGES
        self._emit(event, lambda intents: self._message_for_bot(msg, intents), guild=g, intent=intent)

    # -- reactions ---------------------------------------------------------------------------------------
    @staticmethod
    def _reaction_intent(msg: Message) -> int:
        return Intent.GUILD_REACTIONS if msg.channel.guild else Intent.DM_REACTIONS

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
            lambda _i: F.reaction_event(self, msg, user_id, entry["emoji"], add=True),  # type: ignore[arg-type]
            guild=msg.channel.guild,
            intent=self._reaction_intent(msg),
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
            F.reaction_event(self, msg, user_id, entry["emoji"], add=False),  # type: ignore[arg-type]
            guild=msg.channel.guild,
            intent=self._reaction_intent(msg),
        )
        return True

    def _clear_reactions(self, msg: Message, emoji: dict[str, Any] | None = None) -> None:
        g, intent = msg.channel.guild, self._reaction_intent(msg)
        if emoji is None:
            msg._reactions.clear()
            self._emit("MESSAGE_REACTION_REMOVE_ALL", F.reaction_clear(msg), guild=g, intent=intent)
        elif msg._reactions.pop(emoji_key(emoji), None) is not None:
            self._emit("MESSAGE_REACTION_REMOVE_EMOJI", F.reaction_clear(msg, emoji), guild=g, intent=intent)
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
            self,  # type: ignore[arg-type]
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
        self._emit(
            "THREAD_CREATE",
            lambda _i: F.thread_create(self, thread),  # type: ignore[arg-type]
            guild=guild,
            intent=Intent.GUILDS,
        )
        if from_message is not None:
            from_message.thread = thread
            thread.starter_message = from_message
            self._changed()
            from_message.updated_seq = self._seq
            self._emit_message("MESSAGE_UPDATE", from_message)
        elif type != ChannelType.PRIVATE_THREAD:
            notice = self._create_message(parent, owner, content=name, msg_type=18)
            notice.reference = {"type": 0, "channel_id": str(thread.id), "guild_id": str(guild.id)}
        return thread

    def _thread_members_update(self, thread: Channel, user_id: int, *, added: bool) -> None:
        """THREAD_MEMBERS_UPDATE: others' joins only with GUILD_MEMBERS, the bot's own always."""
        is_bot = user_id == self.bot_user.id
        data = F.thread_members_update(self, thread, user_id, added=added)  # type: ignore[arg-type]
        self._emit(
            "THREAD_MEMBERS_UPDATE",
            lambda intents: data if (is_bot or intents & Intent.MEMBERS) else None,
            guild=thread.guild,
        )

    def _add_thread_member(self, thread: Channel, user: User) -> bool:
        if user.id in thread.thread_members:
            return False
        thread.thread_members[user.id] = self.now()
        self._changed()
        self._thread_members_update(thread, user.id, added=True)
        return True

    def _remove_thread_member(self, thread: Channel, user: User) -> bool:
        if thread.thread_members.pop(user.id, None) is None:
            return False
        self._changed()
        self._thread_members_update(thread, user.id, added=False)
        return True

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
        self._emit(
            "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE",
            lambda _i: F.channel(channel),
            guild=channel.guild,
            intent=Intent.GUILDS,
        )

    def _delete_channel(self, channel: Channel) -> None:
        for thread in channel.threads:  # a deleted channel's threads go with it
            thread.deleted = True
        channel.deleted = True
        g = channel.guild
        self._changed()
        if g is not None:
            if channel.is_thread:
                self._emit("THREAD_DELETE", F.thread_delete(channel), guild=g, intent=Intent.GUILDS)
            else:
                self._emit("CHANNEL_DELETE", F.channel(channel), guild=g, intent=Intent.GUILDS)

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

    async def wait_until(
        self, check: Callable[[], Any], *, timeout: float = 5.0, describe: Callable[[], str] | None = None
    ) -> Any:
        """Re-evaluate ``check`` on every change of the world until it returns something truthy."""
        import asyncio

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
                await asyncio.wait_for(ev.wait(), min(remaining, 0.25))

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], Any] | None = None,
        *,
        timeout: float = 5.0,
        since: Any = None,
        user: User | None = None,
        author: User | None = None,
    ) -> Message:
        pred = predicate or (lambda m: True)
        fresh = self._since_filter(since)

        def candidates() -> list[Message]:
            msgs = channel.visible_messages(user) if user is not None else channel.public_messages
            return [
                m for m in msgs if not m.loading and fresh(m) and (author is None or m.author.id == author.id)
            ]

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

    def api_summary(self, since: Any = None) -> dict[str, int]:
        """``{"POST /channels/{channel_id}/messages": 2, ...}`` for the requests since ``since``."""
        out: dict[str, int] = {}
        for r in self.api_calls(since):  # type: ignore[attr-defined]
            out[r.route] = out.get(r.route, 0) + 1
        return dict(sorted(out.items()))

    def failed_requests(self, since: Any = None) -> list[Any]:
        return [r for r in self.api_calls(since) if r.status >= 400]  # type: ignore[attr-defined]


def overwrites_from_payload(items: Sequence[dict[str, Any]]) -> dict[int, tuple[int, int, int]]:
    """Discord's ``permission_overwrites`` list -> the model's ``{target id: (allow, deny, type)}``."""
    return {
        int(o["id"]): (int(o.get("allow", 0)), int(o.get("deny", 0)), int(o.get("type", 0))) for o in items
    }


__all__ = ["DiscordWorld", "overwrites_from_payload"]
