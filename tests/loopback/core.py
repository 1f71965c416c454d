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

from tests.discord_double import fixtures as F
from tests.discord_double import perms as P
from .errors import APIError, InteractionFailed, WaitTimeout, unknown
from .gateway import GatewayHub, Session
from .interactions import Interaction
from .models import (BotUser, Channel, Guild, Message, MessageFlags, Role, User)
from .ratelimit import RateLimiter
from .snowflake import interaction_token, make_bot_token, new_id, now_iso
from tests.discord_double.world import DiscordWorld
from tests.discord_double.validation import validate_choices, validate_message, validate_modal

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


class FakeDiscord(DiscordWorld):
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
        self._init_world(ack_deadline=ack_deadline, strict_ack=strict_ack,
                         attachment_size_limit=attachment_size_limit, bot_permissions=bot_permissions,
                         privileged_intents=privileged_intents)
        self.interaction_token_ttl = interaction_token_ttl
        self.require_sharding = require_sharding
        self.interactions: Dict[int, Interaction] = {}
        self.interactions_by_token: Dict[str, Interaction] = {}
        self.global_commands: Dict[int, Dict[str, Any]] = {}
        self.guild_commands: Dict[int, Dict[int, Dict[str, Any]]] = {}

        self.gateway_log: List[Dict[str, Any]] = []
        self.violations: List[Violation] = []
        self.bot_events: List[Dict[str, Any]] = []
        self.bot_errors: List[Dict[str, Any]] = []  # records the bot logged at ERROR or above
        self.bot_warnings: List[Dict[str, Any]] = []  # ... and at WARNING (e.g. discord.py rate-limit notices)

        self.bot_user = BotUser(self, bot_name, bot=True)
        self.bot_user.global_name = None
        self.users[self.bot_user.id] = self.bot_user
        self.application_id = self.bot_user.id
        self.token = make_bot_token(self.bot_user.id)
        self.app_owner = User(self, "app-owner", id=self.new_id())
        self.users[self.app_owner.id] = self.app_owner

        self.hub = GatewayHub(self)
        self.hub.heartbeat_interval_ms = int(heartbeat_interval * 1000)
        self.hub.shard_count = shard_count
        self.ratelimits = RateLimiter(self)
        self.bots: Dict[str, Any] = {}  # name -> BotProcess

        self._inflight: Dict[str, int] = {}
        self._last_request_end: Dict[str, float] = {}
        self._runner: Optional[web.AppRunner] = None
        self._site: Optional[web.TCPSite] = None
        self._tmp = Path(tempfile.mkdtemp(prefix="fakecord-"))
        self.log_dir = Path(log_dir) if log_dir else self._tmp / "logs"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._pylib = self._tmp / "pylib"
        self._nonces: Dict[Tuple[int, str], Message] = {}
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
    def mark(self) -> int:
        """A point in time: pass as ``since=`` to only see later messages/edits/requests."""
        return self._seq

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
        raise WaitTimeout(f"the bot did not go quiet within {timeout:.1f}s{self.diagnostics()}")

    def diagnostics(self) -> str:
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
    # the world's transport hooks (the world itself: tests/discord_double/world.py)
    # ------------------------------------------------------------------
    def new_id(self) -> int:
        return new_id()

    def now(self) -> str:
        return now_iso()

    @property
    def cdn_base(self) -> str:  # type: ignore[override]
        return self.api_url

    def _new_user(self, username: str, **kw: Any) -> "SimUser":
        from .simuser import SimUser

        return SimUser(self, username, **kw)

    def _emit(self, event: str, data: Any, *, guild: Optional[Guild] = None, intent: Optional[int] = None) -> int:
        """To every live session that should see it (sharding, intents); ``data(intents)`` is built per
        session (None: not for that session)."""
        transform = (lambda s, _d: data(s.intents)) if callable(data) else None
        return self.hub.dispatch(event, None if transform else data, guild_id=guild.id if guild else None,
                                 intent=intent, transform=transform)

    def _application_flags(self) -> int:
        return self.application_flags

    # the loopback's names for the world's verbs (http_api, simuser, tests)
    def post_message(self, channel: Channel, author: User, **kw: Any) -> Message:
        return self._create_message(channel, author, **kw)

    edit_message = DiscordWorld._edit_message
    delete_message = DiscordWorld._delete_message
    remove_reaction = DiscordWorld._remove_reaction
    clear_reactions = DiscordWorld._clear_reactions
    create_thread = DiscordWorld._create_thread
    add_thread_member = DiscordWorld._add_thread_member
    remove_thread_member = DiscordWorld._remove_thread_member
    update_thread = DiscordWorld._update_channel
    delete_channel = DiscordWorld._delete_channel
    _dispatch_message = DiscordWorld._emit_message

    def add_reaction(self, msg: Message, user: User, emoji: Dict[str, Any]) -> bool:
        return self._add_reaction(msg, user.id, emoji)

    def _member_role(self, guild: Guild, user: User, role: Role, *, add: bool) -> None:
        self._member_roles(guild, user, add=[role.id] if add else [], remove=[] if add else [role.id])

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

    def _message_payload_for_bot(self, msg: Message, session: Optional[Session]) -> Dict[str, Any]:
        """A message as the bot receives it (message-content intent applied)."""
        return self._message_for_bot(msg, session.intents if session is not None else None)

    # ------------------------------------------------------------------
    # interactions
    # ------------------------------------------------------------------
    def _new_interaction_token(self) -> str:
        return interaction_token()

    def _new_interaction(self, **kw: Any) -> Interaction:
        return Interaction(self, **kw)

    async def _send_interaction(self, inter: Interaction, timeout: Optional[float], check: bool) -> Interaction:
        """SimUser's transport hook: INTERACTION_CREATE to a gateway session, then the ack awaited."""
        self.dispatch_interaction(inter)
        try:
            await inter.wait_ack(timeout)
        except WaitTimeout:
            pass
        if check:
            inter.raise_if_failed()
        return inter

    async def _deliver_pending(self) -> None:
        """Events travel over the websocket; tests wait for their effects instead."""

    def _interaction_failed(self, inter: Interaction) -> InteractionFailed:
        return InteractionFailed(self._failure_text(inter))

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
        inter.dispatched_at = inter.created
        inter.payload = F.interaction_create(self, inter)  # type: ignore[arg-type]
        session.dispatch("INTERACTION_CREATE", inter.payload)
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
        return f"interaction failed: {inter!r}: {inter.failure_reason}{self.diagnostics()}"

    def _violation(self, kind: str, message: str, inter: Optional[Interaction] = None) -> None:
        v = Violation(kind, message, inter.id if inter else None)
        self.violations.append(v)
        if inter is not None:
            inter.violations.append(f"{kind}: {message}")
        log.warning("violation %s: %s", kind, message)

    def interaction_callback(self, inter: Interaction, body: Dict[str, Any],
                             files: Sequence[Tuple[str, bytes, Optional[str]]]) -> Tuple[Dict[str, Any], Optional[Message]]:
        cb = body.get("type")
        msg = self._interaction_callback(inter, body, files, time.monotonic())
        resp: Dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type,
            "response_message_id": str(msg.id) if msg else None,
            "response_message_loading": cb == 5,
            "response_message_ephemeral": inter.ephemeral,
        }}
        if msg is not None:
            resp["resource"] = {"type": cb, "message": self._message_payload_for_bot(msg, None)}
        elif cb in (6, 8, 9):
            resp["resource"] = {"type": cb}
        return resp, msg

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

    def _command_candidates(self, channel: Channel) -> List[Dict[str, Any]]:
        guild = channel.guild
        local = list(self.guild_commands.get(guild.id, {}).values()) if guild is not None else []
        return local + list(self.global_commands.values())

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
        since_seq, _ = self._since_threshold(since)
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


from .process import BotProcess  # noqa: E402  (type reference for annotations)
from .simuser import SimUser  # noqa: E402
