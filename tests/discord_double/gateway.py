"""The gateway without a websocket: events are fed, in order, into the connected client's
``ConnectionState.parsers`` (the functions ``DiscordWebSocket.received_message`` would call), by one
pump task per connection. ``client.ws`` is a :class:`FakeWebSocket` providing what discord.py calls on
the real one (``change_presence``, ``request_chunks``, ``latency``, ``close``...)."""

from __future__ import annotations

import asyncio
import secrets
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import yarl

if TYPE_CHECKING:  # pragma: no cover
    import discord

    from .core import DiscordDouble


class Intent:
    """Gateway intent bits (both doubles): which events and fields a session gets."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MODERATION = 1 << 2
    GUILD_EXPRESSIONS = 1 << 3
    GUILD_INTEGRATIONS = 1 << 4
    GUILD_WEBHOOKS = 1 << 5
    GUILD_INVITES = 1 << 6
    GUILD_VOICE_STATES = 1 << 7
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    GUILD_MESSAGE_TYPING = 1 << 11
    DIRECT_MESSAGES = 1 << 12
    DIRECT_MESSAGE_REACTIONS = 1 << 13
    DIRECT_MESSAGE_TYPING = 1 << 14
    MESSAGE_CONTENT = 1 << 15
    GUILD_SCHEDULED_EVENTS = 1 << 16
    AUTO_MODERATION_CONFIGURATION = 1 << 20
    AUTO_MODERATION_EXECUTION = 1 << 21
    GUILD_MESSAGE_POLLS = 1 << 24
    DIRECT_MESSAGE_POLLS = 1 << 25
    # the short names the world uses
    MEMBERS = GUILD_MEMBERS
    GUILD_REACTIONS = GUILD_MESSAGE_REACTIONS
    DM_MESSAGES = DIRECT_MESSAGES
    DM_REACTIONS = DIRECT_MESSAGE_REACTIONS

    PRIVILEGED: ClassVar[dict[str, int]] = {
        "members": GUILD_MEMBERS,
        "presences": GUILD_PRESENCES,
        "message_content": MESSAGE_CONTENT,
    }
    VALID_MASK = (1 << 26) - 1


class FakeWebSocket:
    """Stands in for ``discord.gateway.DiscordWebSocket`` as ``client.ws``."""

    def __init__(self, link: GatewayLink):
        self._link = link
        self.open = True
        self.sequence: int | None = 0
        self.session_id: str | None = None
        self.shard_id: int | None = None
        self.shard_count: int | None = None
        self.gateway = yarl.URL("wss://gateway.discord.invalid")
        self.resume_gateway_url = self.gateway

    @property
    def latency(self) -> float:
        return 0.0

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(
        self, *, activity: Any = None, status: str | None = None, since: float = 0.0
    ) -> None:
        activities = [activity.to_dict()] if activity is not None else []
        self._link.dd.presence = {
            "activities": activities,
            "status": status or "online",
            "since": since,
            "afk": False,
        }

    async def request_chunks(
        self,
        guild_id: int,
        query: str | None = None,
        *,
        limit: int,
        user_ids: list | None = None,
        presences: bool = False,
        nonce: str | None = None,
    ) -> None:
        from . import fixtures as F

        guild = self._link.dd.guilds.get(int(guild_id))
        if guild is None:
            return
        wanted = {int(u) for u in user_ids} if user_ids is not None else None
        members = [
            m
            for m in guild.members.values()
            if (wanted is None or m.user.id in wanted)
            and (not query or m.user.username.lower().startswith(query.lower()))
        ]
        if limit:
            members = members[:limit]
        self._link.send("GUILD_MEMBERS_CHUNK", F.members_chunk(guild, members, nonce))

    async def voice_state(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def close(self, code: int = 4000) -> None:
        self.open = False


_Item = tuple[str, Any, Callable[[], None] | None, "asyncio.Future[BaseException | None]"]


class GatewayLink:
    """One gateway "session" of the connected client: an ordered queue of events and the pump task."""

    def __init__(self, dd: DiscordDouble, bot: discord.Client):
        self.dd = dd
        self.bot = bot
        self.session_id = secrets.token_hex(16)
        self.ws = FakeWebSocket(self)
        self._queue: deque[_Item] = deque()
        self._wake = asyncio.Event()
        self._busy = False
        self._task: asyncio.Task | None = None
        bot.ws = self.ws  # type: ignore[assignment]

    @property
    def pending(self) -> bool:
        return bool(self._queue) or self._busy

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="discord-double-gateway")

    def stop(self) -> None:
        self.ws.open = False
        if self._task is not None:
            self._task.cancel()
            self._task = None
        while self._queue:
            *_, fut = self._queue.popleft()
            if not fut.done():
                fut.set_result(None)

    def barrier(self) -> asyncio.Future[BaseException | None]:
        """A future resolved once every event queued so far has been handled."""
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        if not self.pending:
            fut.set_result(None)
        else:
            self._queue.append(("", None, None, fut))
            self._wake.set()
        return fut

    def send(
        self, event: str, data: Any, *, intent: int | None = None, before: Callable[[], None] | None = None
    ) -> asyncio.Future[BaseException | None] | None:
        """Queue ``event``; the future resolves (to the parser's exception, or None) once handled.
        Events the client's intents exclude are dropped (None). A callable ``data`` is built now (the
        payload is a snapshot of the world when the event happens, like Discord's)."""
        if intent is not None and not (self.bot._connection._intents.value & intent):
            return None
        if callable(data):
            data = data()
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._queue.append((event, data, before, fut))
        self._wake.set()
        return fut

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                event, data, before, fut = self._queue.popleft()
                if not event:  # barrier
                    if not fut.done():
                        fut.set_result(None)
                    continue
                self._busy = True
                try:
                    result = self._deliver(event, data, before)
                finally:
                    self._busy = False
                if not fut.done():
                    fut.set_result(result)
            # frames already buffered are read without suspending (as discord.py does with aiohttp);
            # once the queue is empty, let the scheduled handlers run
            await asyncio.sleep(0)

    def _deliver(self, event: str, data: Any, before: Callable[[], None] | None) -> BaseException | None:
        dd, bot = self.dd, self.bot
        if bot.is_closed():
            return None
        try:
            ws = self.ws
            ws.sequence = (ws.sequence or 0) + 1
            if event == "READY":
                ws.session_id = data["session_id"]
                ws.resume_gateway_url = yarl.URL(data["resume_gateway_url"])
            dd.gateway_log.append((time.monotonic(), event, data))
            if before is not None:
                before()
            bot.dispatch("socket_event_type", event)
            parser = bot._connection.parsers.get(event)
            if parser is not None:  # discord.py ignores unknown events the same way
                parser(data)
            return None
        except Exception as exc:  # a payload discord.py cannot parse: a bug in the double or in discord.py
            dd.gateway_errors.append(f"{event}: {exc!r}\n{traceback.format_exc()}")
            return exc
        finally:
            dd._last_activity = time.monotonic()
