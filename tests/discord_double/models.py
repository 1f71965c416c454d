"""The double's world: users, guilds, roles, members, channels, threads, messages, attachments.

These objects are the *server's* records (what Discord stores), and tests read them directly: a
:class:`Message` is live (edits, reactions and deletion show up on the same object). Gateway and REST
payloads are built from them in :mod:`.fixtures`.
"""

from __future__ import annotations

import copy
import datetime as _dt
import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from . import perms as P
from .snowflake import snowflake_time

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble
    from .interactions import Interaction
    from .simuser import SimUser


class ChannelType:
    TEXT = 0
    DM = 1
    VOICE = 2
    CATEGORY = 4
    NEWS = 5
    NEWS_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    FORUM = 15
    THREADS = (10, 11, 12)


class MessageFlags:
    CROSSPOSTED = 1 << 0
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_EMBEDS = 1 << 2
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class User:
    """A Discord user. Simulated humans are :class:`~.simuser.SimUser`; the bot's own user is a plain User."""

    def __init__(
        self,
        dd: DiscordDouble,
        username: str,
        *,
        id: int,
        bot: bool = False,
        global_name: str | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
    ):
        self._dd = dd
        self.id = id
        self.username = username
        self.global_name = global_name
        self.bot = bot
        self.dms_open = dms_open
        self.locale = locale
        self.avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def name(self) -> str:
        return self.username

    def payload(self) -> dict[str, Any]:
        from . import fixtures as F

        return F.user(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.username} id={self.id}>"


class Role:
    def __init__(
        self,
        guild: Guild,
        name: str,
        permissions: int,
        *,
        id: int,
        position: int = 0,
        color: int = 0,
        hoist: bool = False,
        managed: bool = False,
        mentionable: bool = False,
        bot_id: int | None = None,
    ):
        self.guild = guild
        self.id = id
        self.name = name
        self.permissions = permissions
        self.position = position
        self.color = color
        self.hoist = hoist
        self.managed = managed
        self.mentionable = mentionable
        self.bot_id = bot_id

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        from . import fixtures as F

        return F.role(self)

    def __repr__(self) -> str:
        return f"<Role {self.name} id={self.id}>"


class Member:
    def __init__(
        self,
        guild: Guild,
        user: User,
        role_ids: Sequence[int] = (),
        nick: str | None = None,
        joined_at: str = "",
    ):
        self.guild = guild
        self.user = user
        self.role_ids: list[int] = list(role_ids)
        self.nick = nick
        self.joined_at = joined_at

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def roles(self) -> list[Role]:
        return [self.guild.roles[r] for r in self.role_ids if r in self.guild.roles]

    def permissions_in(self, channel: Channel | None = None) -> int:
        return P.compute(self.guild, self.user.id, channel)

    def has(self, permission: str, channel: Channel | None = None) -> bool:
        bit = P.bit(permission)
        return self.permissions_in(channel) & bit == bit

    def payload(self, *, include_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        from . import fixtures as F

        return F.member(self, include_user=include_user, permissions=permissions)

    def __repr__(self) -> str:
        return f"<Member {self.user.username} of {self.guild.name}>"


class Guild:
    """A guild. Create with :meth:`DiscordDouble.create_guild`; world changes are dispatched to a
    connected bot (CHANNEL_CREATE, GUILD_MEMBER_ADD, GUILD_ROLE_*...)."""

    def __init__(self, dd: DiscordDouble, name: str, *, id: int, owner_id: int, joined_at: str):
        self._dd = dd
        self.id = id
        self.name = name
        self.owner_id = owner_id
        self.joined_at = joined_at
        self.locale = "en-US"  # the server's community language (preferred_locale / guild_locale)
        self.roles: dict[int, Role] = {}
        self.members: dict[int, Member] = {}
        self.channels: dict[int, Channel] = {}
        self.everyone = Role(self, "@everyone", P.DEFAULT_EVERYONE, id=id, position=0)
        self.roles[id] = self.everyone
        self.bot_role: Role | None = None
        self.emojis: list[dict[str, Any]] = []  # custom emojis (raw objects)

    # -- building the world ------------------------------------------------------------------
    def create_text_channel(
        self,
        name: str,
        *,
        category: Channel | None = None,
        topic: str | None = None,
        overwrites: list[dict[str, Any]] | None = None,
    ) -> Channel:
        return self._dd._create_guild_channel(
            self, name, ChannelType.TEXT, parent=category, topic=topic, overwrites=overwrites
        )

    def create_category(self, name: str) -> Channel:
        return self._dd._create_guild_channel(self, name, ChannelType.CATEGORY)

    def create_role(
        self, name: str, permissions: P.PermSpec = None, *, mentionable: bool = False, color: int = 0
    ) -> Role:
        return self._dd._create_role(self, name, P.to_bits(permissions), mentionable=mentionable, color=color)

    def add_member(
        self,
        user: User,
        *,
        roles: Sequence[Role | int] = (),
        nick: str | None = None,
        permissions: P.PermSpec = None,
    ) -> Member:
        """Add ``user``; ``permissions=["manage_guild"]`` gives them a role with those bits."""
        role_ids = [r.id if isinstance(r, Role) else int(r) for r in roles]
        if permissions is not None:
            role_ids.append(self.create_role(f"{user.username}-perms", permissions).id)
        return self._dd._add_member(self, user, role_ids, nick)

    def remove_member(self, user: User) -> None:
        self._dd._remove_member(self, user)

    def give_role(self, user: User, role: Role) -> None:
        self._dd._member_roles(self, user, add=[role.id])

    def take_role(self, user: User, role: Role) -> None:
        self._dd._member_roles(self, user, remove=[role.id])

    def set_bot_permissions(self, permissions: P.PermSpec) -> None:
        """Replace the permissions of the bot's managed role (GUILD_ROLE_UPDATE). As on Discord, the
        bot keeps what @everyone grants (see :meth:`set_everyone_permissions`)."""
        assert self.bot_role is not None
        self._dd._update_role(self.bot_role, permissions=P.to_bits(permissions))

    def set_everyone_permissions(self, permissions: P.PermSpec) -> None:
        """Replace the permissions of @everyone (GUILD_ROLE_UPDATE)."""
        self._dd._update_role(self.everyone, permissions=P.to_bits(permissions))

    def set_locale(self, locale: str) -> None:
        """Change the server's community language (``preferred_locale``; interactions' ``guild_locale``), as
        an admin does in Server Settings → Community (GUILD_UPDATE)."""
        self.locale = locale
        self._dd._update_guild(self)

    # -- lookups -------------------------------------------------------------------------------
    def member(self, user: User | int) -> Member | None:
        return self.members.get(user if isinstance(user, int) else user.id)

    def channel(self, name: str) -> Channel:
        for c in self.channels.values():
            if c.name == name and not c.deleted:
                return c
        raise KeyError(name)

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == ChannelType.TEXT and not c.deleted]

    @property
    def threads(self) -> list[Channel]:
        """Threads in this guild, oldest first."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    @property
    def bot_member(self) -> Member | None:
        return self.members.get(self._dd.bot_user.id)

    def base_payload(self) -> dict[str, Any]:
        from . import fixtures as F

        return F.guild_base(self)

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


class Channel:
    """A guild text channel, a category, a thread, or a DM channel."""

    def __init__(
        self,
        dd: DiscordDouble,
        type: int,
        *,
        id: int,
        guild: Guild | None = None,
        name: str | None = None,
        parent: Channel | None = None,
        topic: str | None = None,
        position: int = 0,
        recipient: User | None = None,
        owner_id: int | None = None,
        created: str = "",
    ):
        self._dd = dd
        self.id = id
        self.type = type
        self.guild = guild
        self.name = name
        self.parent = parent
        self.topic = topic
        self.position = position
        self.recipient = recipient
        self.owner_id = owner_id
        self.nsfw = False
        self.rate_limit_per_user = 0
        # target id -> (allow, deny, type 0 role / 1 member)
        self.overwrites: dict[int, tuple[int, int, int]] = {}
        self.messages: list[Message] = []
        self.pins: list[int] = []
        self.deleted = False
        # threads
        self.thread_members: dict[int, str] = {}
        self.archived = False
        self.locked = False
        self.invitable = True
        self.auto_archive_duration = 1440
        self.archive_timestamp = created
        self.create_timestamp = created
        self.total_message_sent = 0
        self.starter_message: Message | None = None

    # -- kinds -------------------------------------------------------------------------------------
    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    # -- messages ----------------------------------------------------------------------------------
    def visible_messages(self, user: User | None = None) -> list[Message]:
        """Not deleted, public or ephemeral to ``user``."""
        return [m for m in self.messages if m.visible_to(user)]

    @property
    def public_messages(self) -> list[Message]:
        return [m for m in self.messages if not m.deleted and m.ephemeral_to is None]

    @property
    def last_message(self) -> Message | None:
        msgs = self.public_messages
        return msgs[-1] if msgs else None

    @property
    def last_message_id(self) -> int | None:
        m = self.last_message
        return m.id if m else None

    @property
    def threads(self) -> list[Channel]:
        """Threads whose parent is this channel, oldest first."""
        if self.guild is None:
            return []
        return [c for c in self.guild.channels.values() if c.is_thread and c.parent is self and not c.deleted]

    async def wait_for(
        self,
        predicate: Callable[[Message], Any] | None = None,
        *,
        timeout: float = 5.0,
        since: Any = None,
        user: User | None = None,
        author: User | None = None,
    ) -> Message:
        """Wait until a message here matches ``predicate`` (newest match wins; messages already present
        count). ``since`` (a message or ``dd.mark()``): only messages created or edited after it.
        ``user``: also consider that user's ephemeral messages; ``author``: only that author's messages.
        Deferred ("thinking") messages are skipped."""
        if author is not None:
            pred = predicate
            predicate = lambda m: m.author.id == author.id and (pred is None or pred(m))  # noqa: E731
        return await self._dd.wait_for_message(self, predicate, timeout=timeout, since=since, user=user)

    def history(self, limit: int = 50, user: User | None = None) -> list[Message]:
        """Newest first, like Discord's channel history."""
        return list(reversed(self.visible_messages(user)))[:limit]

    # -- permissions -------------------------------------------------------------------------------
    def set_overwrite(
        self, target: Role | User | Guild, *, allow: P.PermSpec = None, deny: P.PermSpec = None
    ) -> None:
        """Set a permission overwrite for a role, a user or @everyone (CHANNEL_UPDATE)."""
        self._dd._set_overwrite(self, target, P.to_bits(allow), P.to_bits(deny))

    async def delete(self) -> None:
        """Someone (an admin) deletes this channel or thread (CHANNEL_DELETE / THREAD_DELETE). A text
        channel takes its threads with it, as on Discord (no THREAD_DELETE for them: the client drops
        them itself). Returns once the bot's client has parsed the event."""
        self._dd._delete_channel(self)
        await self._dd._deliver_pending()

    def deny_bot(self, *permissions: str) -> None:
        """Deny the bot these permissions here (a member overwrite), e.g. ``"create_public_threads"``."""
        self.set_overwrite(self._dd.bot_user, deny=list(permissions))

    def payload(self, *, include_guild_id: bool = True, for_user: User | None = None) -> dict[str, Any]:
        from . import fixtures as F

        uid = for_user.id if for_user else None
        return F.channel(self, include_guild_id=include_guild_id, for_user_id=uid)

    def __repr__(self) -> str:
        kind = {0: "text", 1: "dm", 4: "category", 11: "thread", 12: "private-thread"}.get(
            self.type, str(self.type)
        )
        label = self.name if self.name else (self.recipient.username if self.recipient else "")
        return f"<Channel {kind} {label!r} id={self.id}>"


# ---------------------------------------------------------------------------------------------------
# attachments
# ---------------------------------------------------------------------------------------------------


class Attachment:
    def __init__(
        self,
        id: int,
        channel_id: int,
        filename: str,
        data: bytes,
        *,
        description: str | None = None,
        title: str | None = None,
        ephemeral: bool = False,
        content_type: str | None = None,
        cdn: str = "https://cdn.discordapp.com",
    ):
        self.id = id
        self.filename = filename
        self.bytes: bytes = data
        self.size = len(data)
        self.description = description
        self.title = title
        self.ephemeral = ephemeral
        self.content_type = content_type or sniff_content_type(filename, data)
        self.width, self.height = image_size(data)
        self.url = f"{cdn}/attachments/{channel_id}/{id}/{filename}"

    @property
    def data(self) -> bytes:
        return self.bytes

    @property
    def is_png(self) -> bool:
        return self.bytes[:8] == b"\x89PNG\r\n\x1a\n"

    @property
    def is_gif(self) -> bool:
        return self.bytes[:6] in (b"GIF87a", b"GIF89a")

    @property
    def spoiler(self) -> bool:
        return self.filename.startswith("SPOILER_")

    def image(self):
        """The attachment decoded with Pillow (``PIL.Image.Image``; GIFs keep their frames)."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.bytes))
        img.load()
        return img

    def payload(self) -> dict[str, Any]:
        from . import fixtures as F

        return F.attachment(self)

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.content_type} {self.size}B>"


def sniff_content_type(filename: str, data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return {
        "txt": "text/plain; charset=utf-8",
        "log": "text/plain; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "pdf": "application/pdf",
        "svg": "image/svg+xml",
        "mp4": "video/mp4",
        "ogg": "audio/ogg",
        "mp3": "audio/mpeg",
        "zip": "application/zip",
    }.get(ext, "application/octet-stream")


def image_size(data: bytes) -> tuple[int | None, int | None]:
    """Width and height of a PNG, GIF or JPEG (read from the header) or a WebP (Pillow)."""
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
            return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
            return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
        if data[:3] == b"\xff\xd8\xff":
            i = 2
            while i + 9 < len(data):
                if data[i] != 0xFF:
                    i += 1
                    continue
                marker = data[i + 1]
                if marker in (0xC0, 0xC1, 0xC2):  # start of frame: height, then width
                    height = int.from_bytes(data[i + 5 : i + 7], "big")
                    return int.from_bytes(data[i + 7 : i + 9], "big"), height
                i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            from PIL import Image

            with Image.open(io.BytesIO(data)) as im:
                return im.size
    except Exception:  # pragma: no cover - best effort
        pass
    return None, None


# ---------------------------------------------------------------------------------------------------
# component and embed views
# ---------------------------------------------------------------------------------------------------


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a (possibly nested, components-v2) tree, depth first."""
    for comp in components or []:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from walk_components(comp["components"])
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


def _emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    if emoji.get("id"):
        return f"<{'a' if emoji.get('animated') else ''}:{emoji.get('name')}:{emoji['id']}>"
    return emoji.get("name")


class Button:
    """A button as a user sees it."""

    STYLES: ClassVar[dict[int, str]] = {
        1: "primary",
        2: "secondary",
        3: "success",
        4: "danger",
        5: "link",
        6: "premium",
    }

    def __init__(self, raw: dict[str, Any], row: int, index: int = 0):
        self.raw = raw
        self.row = row
        self.index = index  # position among the buttons of its row
        self.label: str | None = raw.get("label")
        self.custom_id: str | None = raw.get("custom_id")
        self.style: int = raw.get("style", 2)
        self.disabled: bool = bool(raw.get("disabled", False))
        self.url: str | None = raw.get("url")
        self.emoji: str | None = _emoji_text(raw.get("emoji"))

    @property
    def style_name(self) -> str:
        return self.STYLES.get(self.style, str(self.style))

    def __repr__(self) -> str:
        return (
            f"<Button {self.label or self.emoji!r} custom_id={self.custom_id!r} {self.style_name}"
            f"{' disabled' if self.disabled else ''}>"
        )


class SelectOption:
    def __init__(self, raw: dict[str, Any]):
        self.raw = raw
        self.label: str = raw.get("label", "")
        self.value: str = raw.get("value", "")
        self.description: str | None = raw.get("description")
        self.default: bool = bool(raw.get("default", False))
        self.emoji: str | None = _emoji_text(raw.get("emoji"))

    def __repr__(self) -> str:
        return f"<Option {self.label!r}={self.value!r}>"


class SelectMenu:
    """A select menu as a user sees it."""

    KINDS: ClassVar[dict[int, str]] = {3: "string", 5: "user", 6: "role", 7: "mentionable", 8: "channel"}

    def __init__(self, raw: dict[str, Any], row: int):
        self.raw = raw
        self.row = row
        self.type: int = raw["type"]
        self.custom_id: str = raw.get("custom_id", "")
        self.placeholder: str | None = raw.get("placeholder")
        self.min_values: int = raw.get("min_values", 1)
        self.max_values: int = raw.get("max_values", 1)
        self.disabled: bool = bool(raw.get("disabled", False))
        self.options: list[SelectOption] = [SelectOption(o) for o in raw.get("options") or []]
        self.channel_types: list[int] | None = raw.get("channel_types")

    @property
    def kind(self) -> str:
        return self.KINDS.get(self.type, str(self.type))

    @property
    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    @property
    def values(self) -> list[str]:
        return [o.value for o in self.options]

    def __repr__(self) -> str:
        return (
            f"<Select {self.kind} custom_id={self.custom_id!r} placeholder={self.placeholder!r} "
            f"options={self.labels}>"
        )


class EmbedView:
    """Read access to an embed dict (``.raw``)."""

    def __init__(self, message: Message, raw: dict[str, Any]):
        self._message = message
        self.raw = raw
        self.title: str | None = raw.get("title")
        self.description: str | None = raw.get("description")
        self.url: str | None = raw.get("url")
        self.color: int | None = raw.get("color")
        self.fields: list[dict[str, Any]] = raw.get("fields") or []
        self.footer: str | None = (raw.get("footer") or {}).get("text")
        self.author: str | None = (raw.get("author") or {}).get("name")
        self.image_url: str | None = (raw.get("image") or {}).get("url")
        self.thumbnail_url: str | None = (raw.get("thumbnail") or {}).get("url")

    def field(self, name: str) -> str | None:
        for f in self.fields:
            if f.get("name") == name:
                return f.get("value")
        return None

    @property
    def text(self) -> str:
        parts = [self.author, self.title, self.description]
        for f in self.fields:
            parts += [f.get("name"), f.get("value")]
        parts.append(self.footer)
        return "\n".join(p for p in parts if p)

    def image(self) -> Attachment | None:
        """The attachment the embed image shows (``attachment://name`` uploads)."""
        return self._message._attachment_for_url(self.image_url)

    def thumbnail(self) -> Attachment | None:
        return self._message._attachment_for_url(self.thumbnail_url)

    def __repr__(self) -> str:
        return f"<Embed title={self.title!r}>"


# ---------------------------------------------------------------------------------------------------
# messages
# ---------------------------------------------------------------------------------------------------


class Message:
    """A stored message (live: edits, reactions, deletion and threads show up on this object)."""

    def __init__(
        self,
        dd: DiscordDouble,
        channel: Channel,
        author: User,
        *,
        id: int,
        timestamp: str,
        content: str = "",
        embeds: list[dict[str, Any]] | None = None,
        components: list[dict[str, Any]] | None = None,
        attachments: list[Attachment] | None = None,
        flags: int = 0,
        type: int = 0,
        ephemeral_to: int | None = None,
        tts: bool = False,
    ):
        self._dd = dd
        self.id = id
        self.channel = channel
        self.author = author
        self.content = content
        self.embeds: list[dict[str, Any]] = embeds or []
        self.components: list[dict[str, Any]] = components or []
        self.attachments: list[Attachment] = attachments or []
        self.flags = flags
        self.type = type
        self.tts = tts
        self.timestamp = timestamp
        self.edited_timestamp: str | None = None
        self.ephemeral_to = ephemeral_to
        self.deleted = False
        self.pinned = False
        self.nonce: Any = None
        self.mention_ids: list[int] = []
        self.notified_ids: list[int] = []  # pinged when created (edits never notify, Discord's rule)
        self.mention_role_ids: list[int] = []
        self.mention_everyone = False
        self.allowed_mentions: dict[str, Any] | None = None
        self._reactions: dict[str, dict[str, Any]] = {}  # key -> {"emoji": {...}, "users": [ids]}
        self.reference: dict[str, Any] | None = None
        self.webhook_id: int | None = None
        self.application_id: int | None = None
        self.interaction: Interaction | None = None  # the interaction this message answers
        self.interaction_metadata: dict[str, Any] | None = None
        self.interaction_legacy: dict[str, Any] | None = None
        self.thread: Channel | None = None
        self.edits: list[dict[str, Any]] = []
        self.created_seq = 0
        self.updated_seq = 0
        self.position: int | None = None
        self.poll: dict[str, Any] | None = None
        self.sticker_ids: list[str] = []

    # -- reading -------------------------------------------------------------------------------------
    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlags.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred interaction reply that was not filled in yet ("Bot is thinking...")."""
        return bool(self.flags & MessageFlags.LOADING)

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & MessageFlags.IS_COMPONENTS_V2)

    @property
    def created_at(self) -> _dt.datetime:
        return snowflake_time(self.id)

    @property
    def edit_count(self) -> int:
        return len(self.edits)

    def all_components(self) -> list[dict[str, Any]]:
        return list(walk_components(self.components))

    def visible_to(self, user: User | None) -> bool:
        if self.deleted:
            return False
        return self.ephemeral_to is None or (user is not None and user.id == self.ephemeral_to)

    @property
    def embed_views(self) -> list[EmbedView]:
        return [EmbedView(self, e) for e in self.embeds]

    @property
    def embed(self) -> EmbedView | None:
        return EmbedView(self, self.embeds[0]) if self.embeds else None

    def buttons(self) -> list[Button]:
        out: list[Button] = []
        for row, comp in enumerate(self.components):
            found = [c for c in walk_components([comp]) if c.get("type") == 2]
            out.extend(Button(c, row, i) for i, c in enumerate(found))
        return out

    def button_labels(self) -> list[str]:
        return [b.label or b.emoji or "" for b in self.buttons()]

    def button(
        self, label: str | None = None, *, custom_id: str | None = None, emoji: str | None = None
    ) -> Button:
        for b in self.buttons():
            if (
                (custom_id is not None and b.custom_id == custom_id)
                or (label is not None and b.label == label)
                or (emoji is not None and b.emoji == emoji)
            ):
                return b
        raise KeyError(
            f"no button label={label!r} custom_id={custom_id!r} emoji={emoji!r}; buttons: {self.buttons()}"
        )

    def selects(self) -> list[SelectMenu]:
        out: list[SelectMenu] = []
        for row, comp in enumerate(self.components):
            out.extend(
                SelectMenu(c, row) for c in walk_components([comp]) if c.get("type") in (3, 5, 6, 7, 8)
            )
        return out

    def select_menu(self, custom_id: str | None = None, *, placeholder: str | None = None) -> SelectMenu:
        sels = [
            s
            for s in self.selects()
            if (custom_id is None or s.custom_id == custom_id)
            and (placeholder is None or s.placeholder == placeholder)
        ]
        if not sels:
            raise KeyError(
                f"no select custom_id={custom_id!r} placeholder={placeholder!r}; selects: {self.selects()}"
            )
        return sels[0]

    def text_displays(self) -> list[str]:
        return [c.get("content", "") for c in walk_components(self.components) if c.get("type") == 10]

    @property
    def text(self) -> str:
        """Everything readable: content, embed texts, components-v2 text displays."""
        parts = [self.content] + [e.text for e in self.embed_views] + self.text_displays()
        return "\n".join(p for p in parts if p)

    @property
    def notified(self) -> list[User]:
        """Users this message notified when it was sent (its mentions then; a later edit notifies nobody)."""
        return [u for u in (self._dd.user(i) for i in self.notified_ids) if u is not None]

    @property
    def mentions(self) -> list[User]:
        """Users this message actually pings (content mentions filtered by ``allowed_mentions``)."""
        return [u for u in (self._dd.user(i) for i in self.mention_ids) if u is not None]

    @property
    def reactions(self) -> dict[str, list[int]]:
        """Emoji (``"✅"`` or ``"<:name:id>"``) -> ids of the users who reacted, in order."""
        return {r["display"]: list(r["users"]) for r in self._reactions.values() if r["users"]}

    def reaction_counts(self) -> dict[str, int]:
        return {r["display"]: len(r["users"]) for r in self._reactions.values() if r["users"]}

    def reaction_users(self, emoji: str) -> list[User]:
        r = self._reactions.get(emoji_key(parse_emoji(emoji)))
        return [u for u in (self._dd.user(i) for i in (r["users"] if r else [])) if u is not None]

    @property
    def ephemeral_user(self) -> SimUser | None:
        return self._dd.users.get(self.ephemeral_to) if self.ephemeral_to is not None else None

    def _attachment_for_url(self, url: str | None) -> Attachment | None:
        if not url:
            return None
        for a in self.attachments:
            if url in (a.url, f"attachment://{a.filename}") or url.split("?")[0] == a.url:
                return a
        m = re.search(r"/attachments/\d+/(\d+)/", url)  # another message's upload
        return self._dd.attachments.get(int(m.group(1))) if m else None

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "timestamp": self.edited_timestamp or self.timestamp,
        }

    async def refresh(self) -> Message:  # symmetry with discord.py; the object is always live
        return self

    def payload(
        self, *, include_guild: bool = True, strip_content: bool = False, include_reference: bool = True
    ) -> dict[str, Any]:
        from . import fixtures as F

        return F.message(
            self._dd,
            self,
            include_guild=include_guild,
            strip_content=strip_content,
            include_reference=include_reference,
        )

    def __repr__(self) -> str:
        text = self.text.replace("\n", " ")
        if len(text) > 60:
            text = text[:57] + "..."
        extra = [
            k
            for k, on in (("ephemeral", self.ephemeral), ("loading", self.loading), ("deleted", self.deleted))
            if on
        ]
        if self.buttons():
            extra.append(f"buttons={self.button_labels()}")
        if self.selects():
            extra.append(f"selects={[s.placeholder or s.custom_id for s in self.selects()]}")
        if self.attachments:
            extra.append(f"files={[a.filename for a in self.attachments]}")
        return f"<Message {self.id} by {self.author.username}: {text!r} {' '.join(extra)}>".replace(" >", ">")


# -- emoji helpers --------------------------------------------------------------------------------

_CUSTOM_EMOJI = re.compile(r"^<?(a?):?([A-Za-z0-9_~]+):(\d+)>?$")


def parse_emoji(text: str) -> dict[str, Any]:
    """``"✅"``, ``"name:123"`` or ``"<:name:123>"`` -> an emoji object."""
    m = _CUSTOM_EMOJI.match(text)
    if m:
        return {"id": m.group(3), "name": m.group(2), "animated": bool(m.group(1))}
    return {"id": None, "name": text}


def emoji_key(emoji: dict[str, Any]) -> str:
    return f"{emoji['name']}:{emoji['id']}" if emoji.get("id") else emoji["name"]


def emoji_display(emoji: dict[str, Any]) -> str:
    if emoji.get("id"):
        return f"<{'a' if emoji.get('animated') else ''}:{emoji['name']}:{emoji['id']}>"
    return emoji["name"]
