"""DiscordDouble: the world, its rules, the connected bot, recording and waiting."""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from . import fixtures as F
from . import perms as P
from . import pseudo
from .errors import InteractionFailed, WaitTimeout
from .gateway import GatewayLink
from .interactions import Interaction
from .models import (
    Channel,
    Guild,
    Message,
    User,
)
from .rest import RequestRecord, RestAPI
from .simuser import SimUser
from .snowflake import SnowflakeFactory, bot_token, interaction_token, iso
from .world import DiscordWorld

log = logging.getLogger("discord_double")

_HANDLER_TASK_PREFIXES = (
    "discord.py: ",
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-view-timeout",
    "parlor-computer: ",  # cogs._game.play.COMPUTER_TASK: the computer's move, presented after the reply
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


class DiscordDouble(DiscordWorld):
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
        self._new_snowflake = SnowflakeFactory(clock)
        self._init_world(
            ack_deadline=ack_deadline,
            strict_ack=strict_ack,
            attachment_size_limit=attachment_size_limit,
            bot_permissions=bot_permissions,
            privileged_intents=privileged_intents,
        )
        self.fast_ready = fast_ready
        self.latency = latency
        self.fill_deadline = fill_deadline
        self.capture_loggers = tuple(capture_loggers)

        self.bot_user = User(self, bot_name, id=self.new_id(), bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = User(self, f"{bot_name.lower()}-developer", id=self.new_id())
        self.token = bot_token(self.bot_user.id)

        self.interactions: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self.global_commands: dict[tuple[int, str], dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[tuple[int, str], dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}

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
        self._in_flight = 0
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
                    self._emit("GUILD_CREATE", self._guild_create_payload(g, self._bot_intents()))
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
    # the world's transport hooks (see world.py)
    # ==================================================================================================
    def new_id(self) -> int:
        return self._new_snowflake()

    def now(self) -> str:
        return iso(self.clock())

    def _new_user(self, username: str, **kw: Any) -> SimUser:
        return SimUser(self, username, **kw)

    def _bot_intents(self) -> int:
        return int(self.bot._connection._intents.value) if self.bot is not None else 0

    def _message_payload_for_bot(self, msg: Message) -> dict[str, Any]:
        return self._message_for_bot(msg, self._bot_intents())

    # ==================================================================================================
    # interactions
    # ==================================================================================================
    def _new_interaction_token(self) -> str:
        return interaction_token()

    def _new_interaction(self, **kw: Any) -> Interaction:
        return Interaction(self, **kw)

    async def _send_interaction(self, inter: Interaction, timeout: float | None, check: bool) -> Interaction:
        """SimUser's transport hook: INTERACTION_CREATE parsed by the bot, then the ack awaited."""
        await self._dispatch_interaction(inter)
        return await self._await_ack(inter, 5.0 if timeout is None else timeout, check)

    def interaction_by_token(self, token: str) -> Interaction | None:
        return self._interactions_by_token.get(token)

    async def _dispatch_interaction(self, inter: Interaction) -> Interaction:
        pseudo.collect_typed(inter.data, self.pseudo_typed)
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

    def known_names(self) -> set[str]:
        """Names a text may quote as they are: users, members' nicknames, servers, channels, roles."""
        names: set[str] = set()
        for u in self.users.values():
            names.update(filter(None, (getattr(u, "username", None), getattr(u, "global_name", None))))
        for g in self.guilds.values():
            names.add(g.name)
        for c in self.channels.values():
            if getattr(c, "type", 0) in (0, 5):  # the server's own channels (not the threads the bot names)
                names.update(str(getattr(c, "name", "") or "").replace("-", " ").split())
        return {w for n in names for w in (n, *str(n).split())}

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
        msg = self._interaction_callback(inter, body, files, now)
        return F.callback_response(self, inter, body.get("type"), msg)  # type: ignore[arg-type]

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

    def _command_candidates(self, channel: Channel) -> list[dict[str, Any]]:
        g = channel.guild
        local = list(self.guild_commands.get(g.id, {}).values()) if g is not None else []
        return local + list(self.global_commands.values())

    # ==================================================================================================
    # gateway
    # ==================================================================================================
    def _emit(
        self, event: str, data: Any, *, guild: Guild | None = None, intent: int | None = None
    ) -> asyncio.Future | None:
        """Queue a gateway event for the connected bot (``data`` may be ``data(intents)``, built now;
        ``None`` drops the event)."""
        if self.link is None or not self.connected:
            return None
        if intent is not None and not self._bot_intents() & intent:
            return None
        if callable(data):
            data = data(self._bot_intents())
            if data is None:
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
    def mark(self) -> int:
        """A point in time for ``since=`` (wait_for, api_calls, api_summary)."""
        self._changed()
        return self._seq

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

    def _handler_tasks(self) -> list[asyncio.Task]:
        current = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name().startswith(_HANDLER_TASK_PREFIXES)
        ]

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> bool:
        """Wait until no request is in flight, no event is queued, the bot's event/command/view tasks and the
        computer's thinking tasks finished, and nothing happened for ``quiet`` seconds. Returns False on
        timeout."""
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
