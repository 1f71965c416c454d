"""FakeDiscord: the fake server's state and behaviour, and the driver's entry point.

The aiohttp server (REST + gateway + CDN) runs in the test's event loop; the bot runs in a
subprocess started with :meth:`FakeDiscord.start_bot`.
"""
from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from aiohttp import web

from tests.discord_double import perms as P
from .errors import APIError, CommandNotFound, WaitTimeout, unknown
from .gateway import GatewayHub, Intents, Session
from .interactions import ALLOWED_CALLBACKS, Interaction, InteractionType, ModalView
from .models import (Attachment, BotUser, Channel, ChannelType, Guild, Member, Message, MessageFlags, Role, User,
                     emoji_display, emoji_key, overwrites_from_payload, walk_components)
from .ratelimit import RateLimiter
from .snowflake import make_bot_token, now_iso
from tests.discord_double.validation import resolve_mentions, validate_choices, validate_message, validate_modal

log = logging.getLogger("fakecord")

# the name under which the bot process imports this package (see BotProcess.command_line)
LAUNCH_PACKAGE = "parlor_loopback"


@dataclasses.dataclass
class RequestRecord:
    """One HTTP request the bot made."""
    method: str
    path: str
    route: str  # e.g. "POST /channels/{channel_id}/messages"
    status: int = 0
    started: float = 0.0  # time.monotonic()
    duration: float = 0.0
    tag: str = ""
    query: Dict[str, str] = dataclasses.field(default_factory=dict)
    json: Any = None
    files: List[Tuple[str, int]] = dataclasses.field(default_factory=list)
    error: Optional[Dict[str, Any]] = None
    interaction_id: Optional[int] = None
    seq: int = 0

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def __repr__(self) -> str:
        err = f" {self.error.get('code')} {self.error.get('message')!r}" if self.error else ""
        return f"<{self.route} -> {self.status}{err} {self.duration * 1000:.1f}ms>"


@dataclasses.dataclass
class Violation:
    """Something the bot did that Discord would reject or users would see as broken."""
    kind: str  # ack_timeout, late_ack, double_ack, invalid_callback, ...
    message: str
    interaction_id: Optional[int] = None
    when: float = dataclasses.field(default_factory=time.monotonic)


class FakeDiscord:
    """A fake Discord (API v10) on loopback plus the driver that plays users.

    Use as ``async with FakeDiscord() as fd: ...``. Options:

    - ``privileged_intents``: privileged intents "enabled in the developer portal"
      (subset of ``{"members", "presences", "message_content"}``); asking for others closes
      the gateway with 4014 like Discord.
    - ``ack_deadline`` (3.0 s) and ``strict_ack``: a callback after the deadline is answered
      404 "Unknown interaction" (strict) and always recorded as a violation.
    - ``attachment_size_limit``: per-file upload limit (bytes), 413 above it.
    - ``bot_permissions``: permissions of the bot's managed role in every new guild.
    - ``shard_count``: what ``GET /gateway/bot`` recommends.
    - ``log_dir``: where bot logs go (a temporary directory by default).
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0,
                 privileged_intents: Iterable[str] = ("members", "presences", "message_content"),
                 ack_deadline: float = 3.0, strict_ack: bool = True,
                 attachment_size_limit: int = 10 * 1024 * 1024,
                 bot_name: str = "FakeBot", bot_permissions: P.PermSpec = None,
                 shard_count: int = 1, require_sharding: bool = False,
                 heartbeat_interval: float = 41.25, log_dir: Optional[Union[str, Path]] = None,
                 interaction_token_ttl: float = 15 * 60):
        self.host = host
        self.port = port
        self.privileged_intents = set(privileged_intents)
        self.ack_deadline = ack_deadline
        self.strict_ack = strict_ack
        self.attachment_size_limit = attachment_size_limit
        self.interaction_token_ttl = interaction_token_ttl
        self.require_sharding = require_sharding
        self.default_bot_permissions = P.DEFAULT_BOT if bot_permissions is None else P.to_bits(bot_permissions)
        self.dm_app_permissions = P.to_bits(["view_channel", "send_messages", "embed_links", "attach_files",
                                             "add_reactions", "read_message_history", "use_external_emojis"])

        self.users: Dict[int, User] = {}
        self.guilds: Dict[int, Guild] = {}
        self.channels: Dict[int, Channel] = {}
        self.messages: Dict[int, Message] = {}
        self.attachments: Dict[int, Attachment] = {}
        self.interactions: Dict[int, Interaction] = {}
        self.interactions_by_token: Dict[str, Interaction] = {}
        self.dm_channels: Dict[int, Channel] = {}
        self.open_modals: Dict[int, Interaction] = {}
        self.global_commands: Dict[int, Dict[str, Any]] = {}
        self.guild_commands: Dict[int, Dict[int, Dict[str, Any]]] = {}

        self.requests: List[RequestRecord] = []
        self.gateway_log: List[Dict[str, Any]] = []
        self.violations: List[Violation] = []
        self.warnings: List[str] = []
        self.unimplemented: List[str] = []
        self.bot_events: List[Dict[str, Any]] = []
        self.bot_errors: List[Dict[str, Any]] = []  # records the bot logged at ERROR or above
        self.bot_warnings: List[Dict[str, Any]] = []  # ... and at WARNING (e.g. discord.py rate-limit notices)

        self.bot_user = BotUser(self, bot_name, bot=True)
        self.bot_user.global_name = None
        self.users[self.bot_user.id] = self.bot_user
        self.application_id = self.bot_user.id
        self.token = make_bot_token(self.bot_user.id)
        self.app_owner = User(self, "app-owner")
        self.users[self.app_owner.id] = self.app_owner

        self.hub = GatewayHub(self)
        self.hub.heartbeat_interval_ms = int(heartbeat_interval * 1000)
        self.hub.shard_count = shard_count
        self.ratelimits = RateLimiter(self)
        self.bots: Dict[str, Any] = {}  # name -> BotProcess

        self._seq = 0
        self._event: Optional[asyncio.Event] = None
        self._inflight: Dict[str, int] = {}
        self._last_request_end: Dict[str, float] = {}
        self._runner: Optional[web.AppRunner] = None
        self._site: Optional[web.TCPSite] = None
        self._tmp = Path(tempfile.mkdtemp(prefix="fakecord-"))
        self.log_dir = Path(log_dir) if log_dir else self._tmp / "logs"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._pylib = self._tmp / "pylib"
        self._nonces: Dict[Tuple[int, str], Message] = {}
        self._timers: List[asyncio.TimerHandle] = []
        self.api_url = ""

    # ------------------------------------------------------------------
    # lifecycle
    # ------------------------------------------------------------------
    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the HTTP/gateway server on loopback."""
        from .http_api import build_app

        self._event = asyncio.Event()
        app = build_app(self)
        try:
            self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        except TypeError:  # older aiohttp
            self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self.port)
        await self._site.start()
        sock = self._site._server.sockets[0]  # type: ignore[union-attr]
        self.port = sock.getsockname()[1]
        self.api_url = f"http://{self.host}:{self.port}"
        # a private import root holding only this package (as ``parlor_loopback``) for the bot's
        # PYTHONPATH, so the launcher imports without the repository's ``tests`` package on the path
        self._pylib.mkdir(parents=True, exist_ok=True)
        link = self._pylib / LAUNCH_PACKAGE
        if not link.exists():
            try:
                link.symlink_to(Path(__file__).resolve().parent, target_is_directory=True)
            except OSError:  # pragma: no cover - filesystems without symlinks
                shutil.copytree(Path(__file__).resolve().parent, link)

    async def close(self) -> None:
        """Stop all bot processes and the server."""
        for bot in list(self.bots.values()):
            try:
                await bot.stop(timeout=3.0)
            except Exception:  # pragma: no cover
                log.exception("stopping bot %s", bot.name)
        for h in self._timers:
            h.cancel()
        for conn in list(self.hub.connections):
            try:
                if not conn.ws.closed:
                    await asyncio.wait_for(conn.ws.close(code=1001), 1.0)
            except Exception:
                pass
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._tmp not in self.log_dir.resolve().parents:  # keep the temp dir only if it holds the logs
            shutil.rmtree(self._tmp, ignore_errors=True)

    @property
    def gateway_url(self) -> str:
        return self.api_url.replace("http://", "ws://", 1) + "/gateway"

    # ------------------------------------------------------------------
    # change notification and waiting
    # ------------------------------------------------------------------
    def _changed(self) -> None:
        self._seq += 1
        ev = self._event
        if ev is not None:
            self._event = asyncio.Event()
            ev.set()

    def mark(self) -> int:
        """A point in time: pass as ``since=`` to only see later messages/edits/requests."""
        return self._seq

    async def wait_until(self, check: Callable[[], Any], *, timeout: float = 5.0,
                         describe: Optional[Callable[[], str]] = None) -> Any:
        """Re-evaluate ``check`` whenever the fake server's state changes; return its first truthy value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                text = describe() if describe else "condition not met"
                raise WaitTimeout(f"timed out after {timeout:.1f}s: {text}{self._diagnostics()}")
            if self._event is None:
                self._event = asyncio.Event()
            ev = self._event
            try:
                await asyncio.wait_for(ev.wait(), min(remaining, 0.25))
            except asyncio.TimeoutError:
                pass

    async def settle(self, quiet: float = 0.2, timeout: float = 5.0) -> None:
        """Wait until no bot request is in flight and none finished for ``quiet`` seconds
        (e.g. before counting ``api_calls(since=mark)`` for one move)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            busy = any(n > 0 for n in self._inflight.values())
            last = max(self._last_request_end.values(), default=0.0)
            if not busy and time.monotonic() - last >= quiet:
                return
            await asyncio.sleep(0.02)
        raise WaitTimeout(f"the bot did not go quiet within {timeout:.1f}s{self._diagnostics()}")

    async def wait_for_message(self, channel: Channel, predicate: Optional[Callable[[Message], bool]] = None, *,
                               timeout: float = 5.0, since: Any = None, user: Optional[User] = None,
                               author: Optional[User] = None) -> Message:
        pred = predicate or (lambda m: True)
        since_seq, since_id = _since(since)

        def check():
            for m in reversed(channel.messages):
                if not m.visible_to(user) or m.loading:
                    continue
                if author is not None and m.author.id != author.id:
                    continue
                if since_seq is not None and max(m.created_seq, m.updated_seq) <= since_seq:
                    continue
                if since_id is not None and m.id <= since_id:
                    continue
                try:
                    if pred(m):
                        return m
                except (KeyError, IndexError, AttributeError, TypeError):
                    continue
            return None

        def describe():
            recent = channel.visible_messages(user)[-6:]
            lines = "\n    ".join(repr(m) for m in recent) or "(none)"
            return f"no matching message in {channel!r}; latest:\n    {lines}"

        return await self.wait_until(check, timeout=timeout, describe=describe)

    def _diagnostics(self) -> str:
        parts = []
        for bot in self.bots.values():
            tail = bot.log_tail(15)
            state = "running" if bot.alive else f"exited rc={bot.returncode}"
            parts.append(f"\n--- bot {bot.tag} ({state}), log tail:\n{tail}")
        errs = [r for r in self.requests[-40:] if r.status >= 400]
        if errs:
            parts.append("\n--- recent failed bot requests:\n" + "\n".join(repr(r) for r in errs[-8:]))
        if self.violations:
            parts.append("\n--- violations:\n" + "\n".join(f"{v.kind}: {v.message}" for v in self.violations[-8:]))
        if self.bot_errors:
            parts.append("\n--- bot errors:\n" + "\n".join(e.get("message", "")[:500] for e in self.bot_errors[-3:]))
        return "".join(parts)

    # ------------------------------------------------------------------
    # world building (driver API)
    # ------------------------------------------------------------------
    def create_user(self, username: str, *, dms_open: bool = True, global_name: Optional[str] = None,
                    locale: str = "en-US") -> "SimUser":
        """A simulated human. ``dms_open=False`` makes the bot's DMs fail with 50007."""
        from .simuser import SimUser

        user = SimUser(self, username, dms_open=dms_open, global_name=global_name, locale=locale)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str = "Test Guild", *, owner: Optional[User] = None,
                     bot_permissions: P.PermSpec = None) -> Guild:
        """A guild the bot is a member of (GUILD_CREATE is dispatched if the bot is connected)."""
        if owner is None:
            owner = self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = Guild(self, name, owner)
        self.guilds[guild.id] = guild
        guild.members[owner.id] = Member(guild, owner)
        perms = self.default_bot_permissions if bot_permissions is None else P.to_bits(bot_permissions)
        bot_role = Role(guild, self.bot_user.username, perms, position=1, managed=True, bot_id=self.bot_user.id)
        guild.roles[bot_role.id] = bot_role
        guild.bot_role = bot_role
        guild.members[self.bot_user.id] = Member(guild, self.bot_user, [bot_role.id])
        for s in self.hub.live_sessions():
            if s.handles_guild(guild.id):
                s.dispatch("GUILD_CREATE", self._guild_create_payload(guild, s))
        self._changed()
        return guild

    def _create_guild_channel(self, guild: Guild, name: str, type: int, *, parent: Optional[Channel] = None,
                              topic: Optional[str] = None, overwrites: Optional[List[Dict[str, Any]]] = None,
                              dispatch: bool = True) -> Channel:
        position = len([c for c in guild.channels.values() if not c.is_thread])
        ch = Channel(self, type, guild=guild, name=name, parent=parent, topic=topic, position=position)
        if overwrites:
            ch.overwrites = overwrites_from_payload(overwrites)
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        if dispatch:
            self.hub.dispatch("CHANNEL_CREATE", ch.payload(), guild_id=guild.id, intent=Intents.GUILDS)
        self._changed()
        return ch

    def _create_role(self, guild: Guild, name: str, permissions: int, *, color: int = 0,
                     mentionable: bool = False) -> Role:
        # new roles go below the bot's role, like roles made by an admin after inviting the bot
        role = Role(guild, name, permissions, position=1, color=color, mentionable=mentionable)
        for r in guild.roles.values():
            if r.position >= 1 and r is not role:
                r.position += 1
        guild.roles[role.id] = role
        self.hub.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()},
                          guild_id=guild.id, intent=Intents.GUILDS)
        self._changed()
        return role

    def _add_member(self, guild: Guild, user: User, roles: Sequence[int], nick: Optional[str]) -> Member:
        member = Member(guild, user, roles, nick)
        guild.members[user.id] = member
        data = member.payload()
        data["guild_id"] = str(guild.id)
        self.hub.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=Intents.GUILD_MEMBERS)
        self._changed()
        return member

    def _remove_member(self, guild: Guild, user: User) -> None:
        guild.members.pop(user.id, None)
        self.hub.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.payload()},
                          guild_id=guild.id, intent=Intents.GUILD_MEMBERS)
        self._changed()

    def _member_update(self, guild: Guild, member: Member) -> None:
        data = member.payload()
        data["guild_id"] = str(guild.id)
        self.hub.dispatch("GUILD_MEMBER_UPDATE", data, guild_id=guild.id, intent=Intents.GUILD_MEMBERS)
        self._changed()

    def _member_role(self, guild: Guild, user: User, role: Role, *, add: bool) -> None:
        member = guild.members[user.id]
        if add and role.id not in member.role_ids:
            member.role_ids.append(role.id)
        elif not add and role.id in member.role_ids:
            member.role_ids.remove(role.id)
        self._member_update(guild, member)

    def _set_overwrite(self, channel: Channel, target: Union[Role, User, Guild], allow: int, deny: int) -> None:
        tid = target.id
        kind = 1 if isinstance(target, User) else 0
        channel.overwrites[tid] = (allow, deny, kind)
        if channel.guild:
            self.hub.dispatch("CHANNEL_UPDATE", channel.payload(), guild_id=channel.guild.id, intent=Intents.GUILDS)
        self._changed()

    def _set_bot_permissions(self, guild: Guild, bits: int) -> None:
        role = guild.bot_role
        assert role is not None
        role.permissions = bits
        self.hub.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()},
                          guild_id=guild.id, intent=Intents.GUILDS)
        self._changed()

    def new_attachment(self, channel: Channel, filename: str, data: bytes, **kw: Any) -> Attachment:
        att = Attachment(self, channel.id, filename, data, **kw)
        self.attachments[att.id] = att
        return att

    def user(self, user_id: int) -> Optional[User]:
        if user_id == self.bot_user.id:
            return self.bot_user
        return self.users.get(user_id)

    def dm_channel_for(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use)."""
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self, ChannelType.DM, recipient=user)
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
            self._changed()
        return ch

    # ------------------------------------------------------------------
    # gateway payloads
    # ------------------------------------------------------------------
    def _ready_payload(self, session: Session) -> Dict[str, Any]:
        user = self.bot_user.payload()
        user.update({"verified": True, "mfa_enabled": False, "email": None, "flags": 0, "bot": True})
        return {
            "v": 10,
            "user_settings": {},
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds.values()
                       if session.handles_guild(g.id)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": [session.shard_id, session.shard_count],
            "application": {"id": str(self.application_id), "flags": self._application_flags()},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fakecord"],
            "auth": {},
            "_trace": ["[\"fakecord\"]"],
        }

    def _application_flags(self) -> int:
        flags = 0
        if "presences" in self.privileged_intents:
            flags |= 1 << 13
        if "members" in self.privileged_intents:
            flags |= 1 << 15
        if "message_content" in self.privileged_intents:
            flags |= 1 << 19
        return flags

    def _guild_create_payload(self, guild: Guild, session: Session) -> Dict[str, Any]:
        data = guild.base_payload()
        if session.has(Intents.GUILD_MEMBERS):
            members = [m.payload() for m in guild.members.values()]
        else:
            members = [guild.members[self.bot_user.id].payload()] if self.bot_user.id in guild.members else []
        data.update({
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": members,
            "channels": [c.payload(include_guild_id=False) for c in guild.channels.values()
                         if not c.is_thread and not c.deleted],
            "threads": [c.payload(for_user=self.bot_user) for c in guild.channels.values()
                        if c.is_thread and not c.deleted and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "lazy": True,
            "application_command_counts": {},
            "version": int(time.time() * 1000),
        })
        return data

    def _message_payload_for_bot(self, msg: Message, session: Optional[Session]) -> Dict[str, Any]:
        """A message as the bot receives it (message-content intent applied)."""
        strip = False
        if msg.author.id != self.bot_user.id and msg.channel.guild is not None \
                and self.bot_user.id not in msg.mention_ids:
            if session is not None:
                strip = not session.has(Intents.MESSAGE_CONTENT)
            else:
                strip = "message_content" not in self.privileged_intents
        return msg.payload(strip_content=strip)

    def _dispatch_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral_to is not None:
            return
        g = msg.channel.guild
        intent = Intents.GUILD_MESSAGES if g is not None else Intents.DIRECT_MESSAGES
        self.hub.dispatch(event, msg, guild_id=g.id if g else None, intent=intent,
                          transform=lambda s, m: self._message_payload_for_bot(m, s))

    # ------------------------------------------------------------------
    # messages
    # ------------------------------------------------------------------
    def _build_attachments(self, channel: Channel, files: Sequence[Tuple[str, bytes, Optional[str]]],
                           meta: Optional[List[Dict[str, Any]]], *, ephemeral: bool = False) -> List[Attachment]:
        """Attachments from uploaded ``files[n]`` parts, using the payload's ``attachments`` metadata."""
        out: List[Attachment] = []
        by_index: Dict[int, Dict[str, Any]] = {}
        for m in meta or []:
            try:
                idx = int(m.get("id"))
            except (TypeError, ValueError):
                continue
            if idx < 1000:
                by_index[idx] = m
        for i, (filename, data, _ct) in enumerate(files):
            m = by_index.get(i, {})
            att = Attachment(self, channel.id, m.get("filename") or filename, data,
                             description=m.get("description"), title=m.get("title"), ephemeral=ephemeral)
            self.attachments[att.id] = att
            out.append(att)
        return out

    def _resolve_embed_media(self, msg: Message) -> None:
        by_name = {a.filename: a for a in msg.attachments}

        def fix(obj: Dict[str, Any], key: str, where: str) -> bool:
            url = obj.get(key)
            if isinstance(url, str) and url.startswith("attachment://"):
                att = by_name.get(url[len("attachment://"):])
                if att is None:
                    self.warnings.append(f"message {msg.id}: {where} refers to {url} but no such file was uploaded")
                    return False
                obj[key] = att.url
                obj["proxy_url"] = att.url
                if att.width is not None:
                    obj["width"], obj["height"] = att.width, att.height
                obj["content_type"] = att.content_type
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
            media = None
            if comp.get("type") == 11:
                media = comp.get("media")
            elif comp.get("type") == 13:
                media = comp.get("file")
            if isinstance(media, dict):
                url = media.get("url", "")
                att = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") else None
                if att is not None:
                    media.update({"proxy_url": att.url, "attachment_id": str(att.id), "content_type": att.content_type,
                                  "width": att.width, "height": att.height})
            if comp.get("type") == 12:
                for item in comp.get("items") or []:
                    m = item.get("media") or {}
                    url = m.get("url", "")
                    att = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") else None
                    if att is not None:
                        m.update({"proxy_url": att.url, "attachment_id": str(att.id),
                                  "content_type": att.content_type, "width": att.width, "height": att.height})

    def _apply_mentions(self, msg: Message, allowed: Optional[Dict[str, Any]]) -> None:
        g = msg.channel.guild
        if g is not None:
            known_users = list(g.members)
            roles = {r.id: r.mentionable for r in g.roles.values() if r.id != g.id}
            author = g.members.get(msg.author.id)
            can_everyone = author is not None and author.has("mention_everyone", msg.channel)
        else:
            known_users = [self.bot_user.id] + ([msg.channel.recipient.id] if msg.channel.recipient else [])
            roles, can_everyone = {}, False
        reply_author = None
        if msg.reference:
            ref = self.messages.get(int(msg.reference.get("message_id", 0)))
            if ref is not None and msg.type == 19 and ref.author.id != msg.author.id:
                reply_author = ref.author.id
        users, role_ids, everyone = resolve_mentions(msg.content, allowed, known_users=known_users, roles=roles,
                                                     can_mention_everyone=can_everyone, reply_author=reply_author)
        msg.mention_ids, msg.mention_role_ids, msg.mention_everyone = users, role_ids, everyone
        msg.allowed_mentions = allowed

    def post_message(self, channel: Channel, author: User, *, content: Optional[str] = None,
                     embeds: Optional[List[Dict[str, Any]]] = None, components: Optional[List[Dict[str, Any]]] = None,
                     files: Sequence[Tuple[str, bytes, Optional[str]]] = (), attachments_meta=None, flags: int = 0,
                     reference: Optional[Dict[str, Any]] = None, allowed_mentions: Optional[Dict[str, Any]] = None,
                     nonce: Any = None, tts: bool = False, ephemeral_to: Optional[int] = None,
                     interaction: Optional[Interaction] = None, msg_type: Optional[int] = None,
                     poll: Optional[Dict[str, Any]] = None, sticker_ids: Sequence[str] = ()) -> Message:
        """Create a message (no validation: REST handlers validate first) and dispatch MESSAGE_CREATE."""
        ephemeral = ephemeral_to is not None
        atts = self._build_attachments(channel, files, attachments_meta, ephemeral=ephemeral)
        keep_flags = flags & (MessageFlags.SUPPRESS_EMBEDS | MessageFlags.SUPPRESS_NOTIFICATIONS |
                              MessageFlags.IS_COMPONENTS_V2 | MessageFlags.LOADING | (1 << 13))
        if ephemeral:
            keep_flags |= MessageFlags.EPHEMERAL
        msg = Message(self, channel, author, content=content or "", embeds=copy.deepcopy(embeds or []),
                      components=copy.deepcopy(components or []), attachments=atts, flags=keep_flags, tts=tts,
                      ephemeral_to=ephemeral_to, nonce=nonce)
        if reference:
            msg.reference = {"type": reference.get("type", 0), "message_id": str(reference["message_id"]),
                             "channel_id": str(reference.get("channel_id") or channel.id)}
            if channel.guild:
                msg.reference["guild_id"] = str(channel.guild.id)
        if msg_type is not None:
            msg.type = msg_type
        elif reference:
            msg.type = 19
        if interaction is not None:
            msg.interaction = interaction
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
        msg.poll = copy.deepcopy(poll) if poll else None
        msg.sticker_ids = list(sticker_ids)
        self._resolve_embed_media(msg)
        self._apply_mentions(msg, allowed_mentions)
        if channel.is_thread:
            msg.position = channel.total_message_sent
            channel.total_message_sent += 1
        self.messages[msg.id] = msg
        channel.messages.append(msg)
        if interaction is not None:
            msg.interaction_metadata = interaction.metadata()
            if interaction.type == InteractionType.APPLICATION_COMMAND:
                msg.interaction_legacy = interaction.legacy()
        self._changed()
        msg.created_seq = msg.updated_seq = self._seq
        self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    def edit_message(self, msg: Message, payload: Dict[str, Any],
                     files: Sequence[Tuple[str, bytes, Optional[str]]] = ()) -> Message:
        """Apply an edit body (fields present are replaced) and dispatch MESSAGE_UPDATE."""
        completing = msg.loading
        if not completing:
            msg.edits.append(msg.snapshot())
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            msg.components = copy.deepcopy(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (MessageFlags.EPHEMERAL | MessageFlags.IS_COMPONENTS_V2)
            msg.flags = keep | (payload["flags"] & (MessageFlags.SUPPRESS_EMBEDS | MessageFlags.IS_COMPONENTS_V2))
        if "attachments" in payload or files:
            meta = payload.get("attachments")
            if meta is None:
                kept = list(msg.attachments)
            else:
                keep_ids = set()
                for m in meta:
                    try:
                        keep_ids.add(int(m.get("id")))
                    except (TypeError, ValueError):
                        pass
                kept = [a for a in msg.attachments if a.id in keep_ids]
            new = self._build_attachments(msg.channel, files, meta, ephemeral=msg.ephemeral_to is not None)
            msg.attachments = kept + new
        msg.flags &= ~MessageFlags.LOADING
        if completing:
            msg.edited_timestamp = None
        else:
            msg.edited_timestamp = now_iso()
        self._resolve_embed_media(msg)
        if "content" in payload or "allowed_mentions" in payload:
            self._apply_mentions(msg, payload.get("allowed_mentions", msg.allowed_mentions))
        self._changed()
        msg.updated_seq = self._seq
        self._dispatch_message("MESSAGE_UPDATE", msg)
        return msg

    def delete_message(self, msg: Message) -> None:
        if msg.deleted:
            return
        msg.deleted = True
        self._changed()
        msg.updated_seq = self._seq
        if msg.ephemeral_to is not None:
            return
        g = msg.channel.guild
        data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        if g:
            data["guild_id"] = str(g.id)
        self.hub.dispatch("MESSAGE_DELETE", data, guild_id=g.id if g else None,
                          intent=Intents.GUILD_MESSAGES if g else Intents.DIRECT_MESSAGES)

    # ------------------------------------------------------------------
    # reactions
    # ------------------------------------------------------------------
    def add_reaction(self, msg: Message, user: User, emoji: Dict[str, Any]) -> bool:
        key = emoji_key(emoji)
        entry = msg._reactions.setdefault(key, {"emoji": dict(emoji), "users": [], "display": emoji_display(emoji)})
        if user.id in entry["users"]:
            return False
        entry["users"].append(user.id)
        self._changed()
        msg.updated_seq = self._seq
        g = msg.channel.guild
        data: Dict[str, Any] = {
            "user_id": str(user.id), "channel_id": str(msg.channel.id), "message_id": str(msg.id),
            "emoji": {k: v for k, v in emoji.items() if k in ("id", "name", "animated")},
            "message_author_id": str(msg.author.id), "burst": False, "burst_colors": [], "type": 0,
        }
        if g:
            data["guild_id"] = str(g.id)
            if user.id in g.members:
                data["member"] = g.members[user.id].payload()
        self.hub.dispatch("MESSAGE_REACTION_ADD", data, guild_id=g.id if g else None,
                          intent=Intents.GUILD_MESSAGE_REACTIONS if g else Intents.DIRECT_MESSAGE_REACTIONS)
        return True

    def remove_reaction(self, msg: Message, user_id: int, emoji: Dict[str, Any]) -> bool:
        key = emoji_key(emoji)
        entry = msg._reactions.get(key)
        if not entry or user_id not in entry["users"]:
            return False
        entry["users"].remove(user_id)
        if not entry["users"]:
            del msg._reactions[key]
        self._changed()
        msg.updated_seq = self._seq
        g = msg.channel.guild
        data: Dict[str, Any] = {
            "user_id": str(user_id), "channel_id": str(msg.channel.id), "message_id": str(msg.id),
            "emoji": {k: v for k, v in entry["emoji"].items() if k in ("id", "name", "animated")},
            "burst": False, "type": 0,
        }
        if g:
            data["guild_id"] = str(g.id)
        self.hub.dispatch("MESSAGE_REACTION_REMOVE", data, guild_id=g.id if g else None,
                          intent=Intents.GUILD_MESSAGE_REACTIONS if g else Intents.DIRECT_MESSAGE_REACTIONS)
        return True

    def clear_reactions(self, msg: Message, emoji: Optional[Dict[str, Any]] = None) -> None:
        g = msg.channel.guild
        base: Dict[str, Any] = {"channel_id": str(msg.channel.id), "message_id": str(msg.id)}
        if g:
            base["guild_id"] = str(g.id)
        intent = Intents.GUILD_MESSAGE_REACTIONS if g else Intents.DIRECT_MESSAGE_REACTIONS
        if emoji is None:
            msg._reactions.clear()
            self.hub.dispatch("MESSAGE_REACTION_REMOVE_ALL", base, guild_id=g.id if g else None, intent=intent)
        else:
            entry = msg._reactions.pop(emoji_key(emoji), None)
            if entry:
                data = dict(base, emoji={k: v for k, v in entry["emoji"].items() if k in ("id", "name")})
                self.hub.dispatch("MESSAGE_REACTION_REMOVE_EMOJI", data, guild_id=g.id if g else None, intent=intent)
        self._changed()
        msg.updated_seq = self._seq

    # ------------------------------------------------------------------
    # threads
    # ------------------------------------------------------------------
    def create_thread(self, parent: Channel, name: str, owner: User, *, type: int = ChannelType.PUBLIC_THREAD,
                      from_message: Optional[Message] = None, auto_archive_duration: int = 1440,
                      invitable: bool = True, rate_limit_per_user: int = 0) -> Channel:
        guild = parent.guild
        assert guild is not None
        thread = Channel(self, type, guild=guild, name=name, parent=parent, owner_id=owner.id,
                         id=from_message.id if from_message else None)
        thread.auto_archive_duration = auto_archive_duration
        thread.invitable = invitable
        thread.rate_limit_per_user = rate_limit_per_user
        thread.thread_members[owner.id] = now_iso()
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        data = thread.payload()
        data["newly_created"] = True
        if owner.id == self.bot_user.id:
            data["member"] = {"id": str(thread.id), "user_id": str(owner.id),
                              "join_timestamp": thread.thread_members[owner.id], "flags": 1}
        self.hub.dispatch("THREAD_CREATE", data, guild_id=guild.id, intent=Intents.GUILDS)
        if from_message is not None:
            from_message.thread = thread
            self._changed()
            from_message.updated_seq = self._seq
            self._dispatch_message("MESSAGE_UPDATE", from_message)
        elif type != ChannelType.PRIVATE_THREAD:
            sysmsg = self.post_message(parent, owner, content=name, msg_type=18,
                                       reference={"message_id": thread.id, "channel_id": thread.id})
            sysmsg.reference = {"type": 0, "channel_id": str(thread.id), "guild_id": str(guild.id)}
        self._changed()
        return thread

    def add_thread_member(self, thread: Channel, user: User) -> bool:
        if user.id in thread.thread_members:
            return False
        thread.thread_members[user.id] = now_iso()
        guild = thread.guild
        member = guild.members.get(user.id) if guild else None
        added = {"id": str(thread.id), "user_id": str(user.id), "join_timestamp": thread.thread_members[user.id],
                 "flags": 1 if user.id == self.bot_user.id else 0}
        if member:
            added["member"] = member.payload()
        data = {"id": str(thread.id), "guild_id": str(guild.id), "member_count": len(thread.thread_members),
                "added_members": [added], "removed_member_ids": []}
        is_bot = user.id == self.bot_user.id
        self.hub.dispatch("THREAD_MEMBERS_UPDATE", data, guild_id=guild.id,
                          transform=lambda s, d: d if (s.has(Intents.GUILD_MEMBERS) or is_bot) else None)
        self._changed()
        return True

    def remove_thread_member(self, thread: Channel, user: User) -> bool:
        if user.id not in thread.thread_members:
            return False
        del thread.thread_members[user.id]
        guild = thread.guild
        data = {"id": str(thread.id), "guild_id": str(guild.id), "member_count": len(thread.thread_members),
                "added_members": [], "removed_member_ids": [str(user.id)]}
        is_bot = user.id == self.bot_user.id
        self.hub.dispatch("THREAD_MEMBERS_UPDATE", data, guild_id=guild.id,
                          transform=lambda s, d: d if (s.has(Intents.GUILD_MEMBERS) or is_bot) else None)
        self._changed()
        return True

    def update_thread(self, thread: Channel, changes: Dict[str, Any]) -> None:
        for key in ("name", "archived", "locked", "auto_archive_duration", "invitable", "rate_limit_per_user"):
            if key in changes and changes[key] is not None:
                setattr(thread, key, changes[key])
        if "archived" in changes:
            thread.archive_timestamp = now_iso()
        data = thread.payload()
        self.hub.dispatch("THREAD_UPDATE", data, guild_id=thread.guild.id, intent=Intents.GUILDS)
        self._changed()

    def delete_channel(self, channel: Channel) -> None:
        channel.deleted = True
        g = channel.guild
        if g is not None:
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            data = channel.payload() if not channel.is_thread else {
                "id": str(channel.id), "guild_id": str(g.id), "parent_id": str(channel.parent.id) if channel.parent else None,
                "type": channel.type}
            g.channels.pop(channel.id, None)
            self.hub.dispatch(event, data, guild_id=g.id, intent=Intents.GUILDS)
        self._changed()

    # ------------------------------------------------------------------
    # interactions
    # ------------------------------------------------------------------
    def dispatch_interaction(self, inter: Interaction) -> Interaction:
        self.interactions[inter.id] = inter
        self.interactions_by_token[inter.token] = inter
        gid = inter.guild.id if inter.guild else None
        sessions = [s for s in self.hub.sessions_for_guild(gid)]
        connected = [s for s in sessions if s.connected]
        target = (connected or sessions)
        if not target:
            inter.failed = True
            inter.failure_reason = "no bot is connected to the gateway (the user sees 'This interaction failed')"
            self._changed()
            return inter
        session = max(target, key=lambda s: s.created)
        session.dispatch("INTERACTION_CREATE", inter.payload())
        inter.delivered_to.append(session.tag)
        inter.delivered_shard = session.shard_id
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.ack_deadline, self._check_ack, inter))
        self._changed()
        return inter

    def _check_ack(self, inter: Interaction) -> None:
        if not inter.acked and not inter.failed:
            inter.failed = True
            inter.failure_reason = f"the bot did not acknowledge within {self.ack_deadline:g} s"
            self._violation("ack_timeout", f"{inter!r} not acknowledged within {self.ack_deadline:g} s", inter)
            self._changed()

    def _failure_text(self, inter: Interaction) -> str:
        return f"interaction failed: {inter!r}: {inter.failure_reason}{self._diagnostics()}"

    def _violation(self, kind: str, message: str, inter: Optional[Interaction] = None) -> None:
        v = Violation(kind, message, inter.id if inter else None)
        self.violations.append(v)
        if inter is not None:
            inter.violations.append(f"{kind}: {message}")
        log.warning("violation %s: %s", kind, message)

    def interaction_callback(self, inter: Interaction, body: Dict[str, Any],
                             files: Sequence[Tuple[str, bytes, Optional[str]]]) -> Tuple[Dict[str, Any], Optional[Message]]:
        now = time.monotonic()
        if inter.acked:
            self._violation("double_ack", f"{inter!r} acknowledged twice (second: type {body.get('type')})", inter)
            raise APIError(400, 40060, "Interaction has already been acknowledged.")
        if now > inter.deadline:
            late = now - inter.created
            self._violation("late_ack", f"{inter!r} acknowledged after {late:.2f} s", inter)
            if self.strict_ack:
                raise unknown("interaction")
        cb = body.get("type")
        data = body.get("data") or {}
        itype = inter.type
        allowed = ALLOWED_CALLBACKS.get(itype, set())
        if cb in (6, 7) and itype == InteractionType.MODAL_SUBMIT and inter.component_message is None:
            allowed = allowed - {6, 7}
        if cb not in allowed:
            self._violation("invalid_callback", f"{inter!r}: callback type {cb} is not valid here", inter)
            raise APIError(400, 50035, "Invalid Form Body", {"type": {"_errors": [{
                "code": "INTERACTION_RESPONSE_TYPE_INVALID" if cb in (1, 4, 5, 6, 7, 8, 9) else "BASE_TYPE_CHOICES",
                "message": f"Interaction response type {cb} is not valid for this interaction"}]}})
        msg: Optional[Message] = None
        if cb == 4:
            validate_message(data, n_files=len(files), creating=True)
            self._check_file_sizes(files)
            ephemeral = bool((data.get("flags") or 0) & MessageFlags.EPHEMERAL)
            msg = self.post_message(inter.channel, self.bot_user, content=data.get("content"),
                                    embeds=data.get("embeds"), components=data.get("components"), files=files,
                                    attachments_meta=data.get("attachments"), flags=data.get("flags") or 0,
                                    allowed_mentions=data.get("allowed_mentions"), tts=bool(data.get("tts")),
                                    ephemeral_to=inter.user.id if ephemeral else None, interaction=inter,
                                    msg_type=self._response_msg_type(inter), poll=data.get("poll"))
            inter.original = msg
            inter.response_ephemeral = ephemeral
        elif cb == 5:
            flags = (data.get("flags") or 0) if isinstance(data, dict) else 0
            ephemeral = bool(flags & MessageFlags.EPHEMERAL)
            msg = self.post_message(inter.channel, self.bot_user, content="", flags=MessageFlags.LOADING,
                                    ephemeral_to=inter.user.id if ephemeral else None, interaction=inter,
                                    msg_type=self._response_msg_type(inter))
            inter.original = msg
            inter.response_ephemeral = ephemeral
        elif cb == 6:
            inter.response_ephemeral = bool(inter.component_message and inter.component_message.ephemeral)
        elif cb == 7:
            target = inter.component_message
            if target is None:
                raise unknown("message")
            validate_message(data, n_files=len(files), creating=False)
            self._check_file_sizes(files)
            msg = self.edit_message(target, data, files)
            inter.response_ephemeral = target.ephemeral
        elif cb == 8:
            validate_choices(data)
            inter.choices = list(data.get("choices") or [])
        elif cb == 9:
            validate_modal(data)
            inter.modal = ModalView(inter, copy.deepcopy(data))
            self.open_modals[inter.user.id] = inter
        inter.response_type = cb
        inter.acked_at = now
        self._changed()
        resp: Dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type,
            "response_message_id": str(msg.id) if msg else None,
            "response_message_loading": cb == 5,
            "response_message_ephemeral": inter.response_ephemeral,
        }}
        if msg is not None:
            resp["resource"] = {"type": cb, "message": self._message_payload_for_bot(msg, None)}
        elif cb in (6, 8, 9):
            resp["resource"] = {"type": cb}
        return resp, msg

    @staticmethod
    def _response_msg_type(inter: Interaction) -> int:
        if inter.type == InteractionType.APPLICATION_COMMAND:
            return 20 if inter.data.get("type", 1) == 1 else 23
        return 0

    def _check_file_sizes(self, files: Sequence[Tuple[str, bytes, Optional[str]]]) -> None:
        for _name, data, _ct in files:
            if len(data) > self.attachment_size_limit:
                raise APIError(413, 40005, "Request entity too large")

    def interaction_original(self, inter: Interaction) -> Message:
        if inter.response_type in (6, 7) and inter.component_message is not None:
            return inter.component_message
        if inter.original is not None:
            return inter.original
        raise unknown("message")

    # ------------------------------------------------------------------
    # commands
    # ------------------------------------------------------------------
    def registered_commands(self, guild: Optional[Guild] = None) -> List[Dict[str, Any]]:
        """Global commands, plus that guild's commands if ``guild`` is given (raw Discord objects)."""
        out = list(self.global_commands.values())
        if guild is not None:
            out += list(self.guild_commands.get(guild.id, {}).values())
        return copy.deepcopy(out)

    def command_names(self, guild: Optional[Guild] = None, *, include_subcommands: bool = True) -> List[str]:
        """Full names like ``"pylon new"`` of everything a user could invoke."""
        names: List[str] = []
        for cmd in self.registered_commands(guild):
            if cmd.get("type", 1) != 1:
                names.append(cmd["name"])
                continue
            subs = [o for o in cmd.get("options") or [] if o.get("type") in (1, 2)]
            if not subs or not include_subcommands:
                names.append(cmd["name"])
            for sub in subs:
                if sub["type"] == 1:
                    names.append(f"{cmd['name']} {sub['name']}")
                else:
                    for leaf in sub.get("options") or []:
                        names.append(f"{cmd['name']} {sub['name']} {leaf['name']}")
        return sorted(names)

    def find_command(self, name: str, channel: Channel, ctype: int = 1) -> Dict[str, Any]:
        """The command a user in ``channel`` would pick by its top-level name (guild commands first)."""
        guild = channel.guild
        candidates: List[Dict[str, Any]] = []
        if guild is not None:
            candidates += list(self.guild_commands.get(guild.id, {}).values())
        candidates += list(self.global_commands.values())
        for cmd in candidates:
            if cmd["name"] != name or cmd.get("type", 1) != ctype:
                continue
            if guild is None:
                if cmd.get("guild_id"):
                    continue
                contexts = cmd.get("contexts")
                if contexts is not None and 1 not in contexts:
                    continue
                if contexts is None and cmd.get("dm_permission") is False:
                    continue
            else:
                contexts = cmd.get("contexts")
                if not cmd.get("guild_id") and contexts is not None and 0 not in contexts:
                    continue
            return cmd
        available = [c["name"] for c in candidates if c.get("type", 1) == ctype]
        raise CommandNotFound(f"no {'slash' if ctype == 1 else 'context menu'} command {name!r} usable in "
                              f"{channel!r}; registered: {sorted(set(available))}")

    # ------------------------------------------------------------------
    # recording
    # ------------------------------------------------------------------
    def _record_gateway(self, direction: str, session: Optional[Session], event: str, data: Any) -> None:
        self.gateway_log.append({"time": time.monotonic(), "direction": direction,
                                 "tag": session.tag if session else None, "event": event,
                                 "shard": session.shard_id if session else None})
        if len(self.gateway_log) > 20000:
            del self.gateway_log[:5000]

    def api_calls(self, since: Any = None, *, route: Optional[str] = None, method: Optional[str] = None,
                  tag: Optional[str] = None) -> List[RequestRecord]:
        """Requests the bot made (after ``since=fd.mark()``), optionally filtered by route substring."""
        since_seq, _ = _since(since)
        out = []
        for r in self.requests:
            if since_seq is not None and r.seq <= since_seq:
                continue
            if route is not None and route not in r.route:
                continue
            if method is not None and r.method != method.upper():
                continue
            if tag is not None and r.tag != tag:
                continue
            out.append(r)
        return out

    def api_summary(self, since: Any = None) -> Dict[str, int]:
        """``{"POST /channels/{channel_id}/messages": 3, ...}``"""
        counts: Dict[str, int] = {}
        for r in self.api_calls(since):
            counts[r.route] = counts.get(r.route, 0) + 1
        return dict(sorted(counts.items()))

    def failed_requests(self, since: Any = None) -> List[RequestRecord]:
        return [r for r in self.api_calls(since) if r.status >= 400]

    def stuck_interactions(self, older_than: float = 3.0) -> List[Interaction]:
        """Deferred replies still "thinking" after ``older_than`` seconds (users see a spinner forever)."""
        now = time.monotonic()
        return [i for i in self.interactions.values()
                if i.original is not None and i.original.loading and not i.original.deleted
                and now - (i.acked_at or i.created) > older_than]

    def assert_no_violations(self, *, stuck_after: Optional[float] = 3.0) -> None:
        """Fail if the bot broke an interaction rule (late/missing/double acks, invalid callback types,
        follow-ups before the ack) or left a deferred reply loading for more than ``stuck_after`` s."""
        problems = [f"  {v.kind}: {v.message}" for v in self.violations]
        if stuck_after is not None:
            problems += [f"  stuck_loading: {i!r} still 'thinking'" for i in self.stuck_interactions(stuck_after)]
        if problems:
            raise AssertionError("bot violated Discord's rules:\n" + "\n".join(problems))

    def assert_clean(self) -> None:
        """No violations, no errors logged by the bot, no unimplemented routes, no fakecord internal errors."""
        self.assert_no_violations()
        self.assert_no_bot_errors()
        if self.unimplemented:
            raise AssertionError(f"bot called routes fakecord does not implement: {sorted(set(self.unimplemented))}")
        internal = [w for w in self.warnings if w.startswith("fakecord internal error")]
        if internal:
            raise AssertionError("fakecord internal errors:\n" + "\n".join(internal))

    def assert_no_bot_errors(self) -> None:
        if self.bot_errors:
            raise AssertionError("bot logged errors:\n" + "\n\n".join(e.get("message", "") for e in self.bot_errors))

    def interaction_stats(self) -> Dict[str, Any]:
        lat = sorted(i.ack_latency for i in self.interactions.values() if i.ack_latency is not None)
        if not lat:
            return {"count": 0}

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, int(round(p * (len(lat) - 1))))]

        return {"count": len(lat), "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": lat[-1],
                "failed": sum(1 for i in self.interactions.values() if i.failed)}

    # ------------------------------------------------------------------
    # bot processes
    # ------------------------------------------------------------------
    async def start_bot(self, cwd: Union[str, Path] = ".", *, module: Optional[str] = "bot",
                        script: Optional[str] = None, args: Sequence[str] = (), env: Optional[Dict[str, str]] = None,
                        inherit_env: bool = True, python: Optional[str] = None, name: str = "bot",
                        wait: bool = True, timeout: float = 30.0, settle: float = 0.3, fast_ready: bool = True,
                        wait_commands: bool = False) -> "BotProcess":
        """Start ``python -m <module>`` (default ``bot``) in ``cwd`` via the launcher and wait until its
        client dispatched ``on_ready`` and went quiet (command sync done).

        ``env`` is added to the (inherited unless ``inherit_env=False``) environment; ``DISCORD_TOKEN``
        is always the fake token. ``fast_ready`` lowers discord.py's 2 s ``guild_ready_timeout`` (unless
        the bot sets it) so on_ready comes sooner. ``name`` tells several processes (shards) apart.
        """
        from .process import BotProcess

        if name in self.bots and self.bots[name].alive:
            raise RuntimeError(f"bot {name!r} is already running; use restart_bot()")
        prev = self.bots.get(name)
        bot = BotProcess(self, name=name, cwd=Path(cwd), module=None if script else module, script=script,
                         args=list(args), env=dict(env or {}), inherit_env=inherit_env, python=python,
                         fast_ready=fast_ready, incarnation=(prev.incarnation + 1) if prev else 1)
        self.bots[name] = bot
        await bot.start()
        if wait:
            await bot.wait_ready(timeout=timeout, settle=settle)
            if wait_commands:
                await self.wait_until(lambda: bool(self.global_commands or any(self.guild_commands.values())),
                                      timeout=timeout, describe=lambda: "the bot registered no commands")
                await bot.wait_quiet(settle, timeout)
        return bot

    @property
    def bot(self) -> "BotProcess":
        """The first (or only) bot process."""
        if not self.bots:
            raise RuntimeError("no bot started")
        return next(iter(self.bots.values()))

    async def restart_bot(self, *, kill: bool = True, name: Optional[str] = None, wait: bool = True,
                          timeout: float = 30.0, **overrides: Any) -> "BotProcess":
        """Stop the bot (``kill=True``: SIGKILL, like a crash; otherwise a graceful SIGINT) and start it
        again with the same settings (``overrides`` change them, e.g. ``env=``)."""
        bot = self.bots[name] if name else self.bot
        if kill:
            await bot.kill()
        else:
            await bot.stop()
        params = dict(cwd=bot.cwd, module=bot.module, script=bot.script, args=bot.args, env=bot.env,
                      inherit_env=bot.inherit_env, python=bot.python, name=bot.name, fast_ready=bot.fast_ready)
        params.update(overrides)
        return await self.start_bot(wait=wait, timeout=timeout, **params)

    async def stop_bot(self, name: Optional[str] = None, *, kill: bool = False) -> None:
        bot = self.bots[name] if name else self.bot
        await (bot.kill() if kill else bot.stop())

    def _bot_notify(self, data: Dict[str, Any]) -> None:
        data["time"] = time.monotonic()
        event = data.get("event")
        if event == "log":
            if data.get("level") in ("ERROR", "CRITICAL"):
                self.bot_errors.append(data)
            else:
                self.bot_warnings.append(data)
        else:
            self.bot_events.append(data)
        self._changed()


def _since(since: Any) -> Tuple[Optional[int], Optional[int]]:
    """``since`` may be a mark (int), a Message (only later messages), or None."""
    if since is None:
        return None, None
    if isinstance(since, Message):
        return None, since.id
    if isinstance(since, int):
        return since, None
    raise TypeError(f"since must be fd.mark() or a Message, not {type(since).__name__}")


from .process import BotProcess  # noqa: E402  (type reference for annotations)
from .simuser import SimUser  # noqa: E402
