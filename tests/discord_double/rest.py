"""The REST API the bot talks to: a route table, Discord's checks and answers, and the request log.

Requests arrive from the patched ``HTTPClient.request`` (bot REST) and
``AsyncWebhookAdapter.request`` (interaction callbacks and webhooks), already decoded (JSON, or
multipart ``payload_json`` + ``files[n]``). Each handler returns a JSON body (``None`` = 204) or
raises :class:`~.errors.APIError`. Routes not in the table answer 404 and are listed in
``dd.unimplemented``.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from . import fixtures as F
from . import pseudo
from . import validation as V
from .errors import APIError, missing_access, missing_permissions, unknown
from .models import Channel, ChannelType, Message, parse_emoji

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble
    from .interactions import Interaction


@dataclass
class RequestRecord:
    """One HTTP request the bot made (REST or interaction webhook)."""

    method: str
    route: str  # template, e.g. "POST /channels/{channel_id}/messages"
    path: str  # e.g. "/channels/1234/messages"
    query: dict[str, str] = field(default_factory=dict)
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    status: int = 0
    response: Any = None  # the error body for 4xx/5xx
    interaction_id: int | None = None
    time: float = 0.0  # time.monotonic() when the request arrived
    duration: float = 0.0
    seq: int = 0
    source: str = "http"  # "http" (HTTPClient) or "webhook" (AsyncWebhookAdapter)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def error_code(self) -> int | None:
        return self.response.get("code") if isinstance(self.response, dict) else None

    def __repr__(self) -> str:
        extra = f" code={self.error_code}" if self.error_code is not None else ""
        return f"<Request {self.route} -> {self.status}{extra}>"


@dataclass
class Req:
    dd: DiscordDouble
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    record: RequestRecord

    @property
    def body(self) -> dict[str, Any]:
        return self.json if isinstance(self.json, dict) else {}

    def id(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise APIError(
                400,
                50035,
                "Invalid Form Body",
                {
                    name: {
                        "_errors": [
                            {
                                "code": "NUMBER_TYPE_COERCE",
                                "message": f'Value "{self.params[name]}" is not snowflake.',
                            }
                        ]
                    }
                },
            ) from None


ROUTES: list[tuple[str, str, str]] = [
    # login, gateway
    ("GET", "/users/@me", "get_me"),
    ("GET", "/oauth2/applications/@me", "get_application"),
    ("GET", "/applications/@me", "get_application"),
    ("GET", "/gateway", "get_gateway"),
    ("GET", "/gateway/bot", "get_gateway_bot"),
    # application commands
    ("GET", "/applications/{application_id}/commands", "get_commands"),
    ("PUT", "/applications/{application_id}/commands", "put_commands"),
    ("POST", "/applications/{application_id}/commands", "post_command"),
    ("GET", "/applications/{application_id}/commands/{command_id}", "get_command"),
    ("PATCH", "/applications/{application_id}/commands/{command_id}", "patch_command"),
    ("DELETE", "/applications/{application_id}/commands/{command_id}", "delete_command"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "get_commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "put_commands"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", "post_command"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", "get_command"),
    ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", "patch_command"),
    ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", "delete_command"),
    # channels and messages
    ("GET", "/channels/{channel_id}", "get_channel"),
    ("PATCH", "/channels/{channel_id}", "patch_channel"),
    ("DELETE", "/channels/{channel_id}", "delete_channel"),
    ("GET", "/channels/{channel_id}/messages", "get_messages"),
    ("POST", "/channels/{channel_id}/messages", "post_message"),
    ("POST", "/channels/{channel_id}/messages/bulk-delete", "bulk_delete"),
    ("GET", "/channels/{channel_id}/messages/{message_id}", "get_message"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", "patch_message"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", "delete_message"),
    ("POST", "/channels/{channel_id}/typing", "typing"),
    # pins (current and legacy routes)
    ("GET", "/channels/{channel_id}/messages/pins", "get_pins"),
    ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", "pin"),
    ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", "unpin"),
    ("GET", "/channels/{channel_id}/pins", "get_pins_legacy"),
    ("PUT", "/channels/{channel_id}/pins/{message_id}", "pin"),
    ("DELETE", "/channels/{channel_id}/pins/{message_id}", "unpin"),
    # reactions
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", "add_own_reaction"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", "remove_own_reaction"),
    (
        "DELETE",
        "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
        "remove_user_reaction",
    ),
    ("GET", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", "get_reactions"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", "clear_emoji_reactions"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", "clear_reactions"),
    # threads
    ("POST", "/channels/{channel_id}/threads", "start_thread"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", "start_thread_from_message"),
    ("PUT", "/channels/{channel_id}/thread-members/@me", "join_thread"),
    ("DELETE", "/channels/{channel_id}/thread-members/@me", "leave_thread"),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", "add_thread_member"),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", "remove_thread_member"),
    ("GET", "/channels/{channel_id}/thread-members", "get_thread_members"),
    ("GET", "/guilds/{guild_id}/threads/active", "get_active_threads"),
    # users, DMs, guilds
    ("POST", "/users/@me/channels", "create_dm"),
    ("GET", "/users/{user_id}", "get_user"),
    ("GET", "/guilds/{guild_id}", "get_guild"),
    ("GET", "/guilds/{guild_id}/channels", "get_guild_channels"),
    ("GET", "/guilds/{guild_id}/roles", "get_roles"),
    ("GET", "/guilds/{guild_id}/members", "get_members"),
    ("GET", "/guilds/{guild_id}/members/{user_id}", "get_member"),
    # interactions (AsyncWebhookAdapter)
    ("POST", "/interactions/{interaction_id}/{token}/callback", "interaction_callback"),
    ("GET", "/webhooks/{application_id}/{token}/messages/@original", "get_original"),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/@original", "edit_original"),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/@original", "delete_original"),
    ("POST", "/webhooks/{application_id}/{token}", "post_followup"),
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", "get_followup"),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", "edit_followup"),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", "delete_followup"),
]

_NOT_FOUND = {"message": "404: Not Found", "code": 0}


class RestAPI:
    def __init__(self, dd: DiscordDouble):
        self.dd = dd
        self._routes = [(m, t, [s for s in t.split("/") if s], getattr(self, h)) for m, t, h in ROUTES]

    # -- routing ------------------------------------------------------------------------------------------
    def match(self, method: str, path: str) -> tuple[str, dict[str, str], Callable[[Req], Any]] | None:
        segs = [s for s in path.split("/") if s]
        best = None
        best_score = -1
        for m, template, tsegs, handler in self._routes:
            if m != method or len(tsegs) != len(segs):
                continue
            params: dict[str, str] = {}
            score = 0
            for t, s in zip(tsegs, segs, strict=False):
                if t.startswith("{"):
                    params[t[1:-1]] = unquote(s)
                elif t == s:
                    score += 1
                else:
                    break
            else:
                if score > best_score:
                    best, best_score = (template, params, handler), score
        return best

    async def call(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, str],
        body: Any,
        files: list[tuple[str, bytes]],
        authorization: str | None,
        source: str,
        started: float | None = None,
    ) -> tuple[int, Any]:
        dd = self.dd
        rec = RequestRecord(
            method,
            f"{method} {path}",
            path,
            query=dict(query),
            json=body,
            files=list(files),
            time=time.monotonic() if started is None else started,
            source=source,
        )
        dd._changed()
        rec.seq = dd._seq
        dd.requests.append(rec)
        dd._in_flight += 1
        status, resp = 500, None
        try:
            await asyncio.sleep(dd.latency)  # a real request always yields to the loop
            found = self.match(method, path)
            if found is None:
                dd.unimplemented.append(rec.route)
                status, resp = 404, dict(_NOT_FOUND)
                return status, resp
            template, params, handler = found
            rec.route = f"{method} {template}"
            if source == "http" and authorization != f"Bot {dd.token}":
                status, resp = 401, {"message": "401: Unauthorized", "code": 0}
                return status, resp
            token = params.get("token")
            if token is not None:
                inter = dd.interaction_by_token(token)
                if inter is not None:
                    rec.interaction_id = inter.id
                    inter.requests.append(rec)
            if body is not None and pseudo.active():  # the pseudo-locale run: check, then read as English
                dd.pseudo_findings.extend(pseudo.check(rec.route, body, dd.known_names(), dd.pseudo_typed))
                body = rec.json = pseudo.to_english(body, dd.pseudo_sent)
            req = Req(dd, method, path, params, dict(query), body, list(files), rec)
            try:
                result = handler(req)
            except APIError as e:
                status, resp = e.status, e.body()
            else:
                if isinstance(result, tuple):
                    status, resp = result
                else:
                    status, resp = (204, None) if result is None else (200, result)
            return status, resp
        except Exception:
            dd.internal_errors.append(f"{rec.route}: {traceback.format_exc()}")
            status, resp = 500, {"message": "500: Internal Server Error", "code": 0}
            return status, resp
        finally:
            rec.status = status
            rec.response = resp if status >= 400 else None
            rec.duration = time.monotonic() - rec.time
            dd._in_flight -= 1
            dd._changed()

    # -- lookups ---------------------------------------------------------------------------------------------
    def _channel(self, req: Req, *, view: bool = True) -> Channel:
        dd = self.dd
        ch = dd.channels.get(req.id("channel_id"))
        if ch is None or ch.deleted:
            raise unknown("channel")
        if ch.guild is not None:
            if dd.bot_user.id not in ch.guild.members:
                raise missing_access()
            if view and not dd.can_bot(ch, "view_channel"):
                raise missing_access()
        return ch

    def _message(self, req: Req, ch: Channel) -> Message:
        msg = self.dd.messages.get(req.id("message_id"))
        if msg is None or msg.deleted or msg.channel is not ch or msg.ephemeral_to is not None:
            raise unknown("message")
        return msg

    def _guild(self, req: Req):
        g = self.dd.guilds.get(req.id("guild_id"))
        if g is None:
            raise unknown("guild")
        if self.dd.bot_user.id not in g.members:
            raise missing_access()
        return g

    def _check_app(self, req: Req) -> None:
        if req.id("application_id") != self.dd.application_id:
            raise missing_access()

    def _need(self, ch: Channel, *names: str) -> None:
        if ch.guild is not None and not self.dd.can_bot(ch, *names):
            raise missing_permissions()

    # -- login / gateway -------------------------------------------------------------------------------------
    def get_me(self, req: Req) -> Any:
        return F.current_user(self.dd.bot_user)

    def get_application(self, req: Req) -> Any:
        return F.application(self.dd)

    def get_gateway(self, req: Req) -> Any:
        return {"url": F.gateway_bot()["url"]}

    def get_gateway_bot(self, req: Req) -> Any:
        return F.gateway_bot()

    # -- application commands --------------------------------------------------------------------------------
    def _command_store(self, req: Req) -> tuple[int | None, dict[tuple[int, str], dict[str, Any]]]:
        self._check_app(req)
        if "guild_id" in req.params:
            g = self._guild(req)
            return g.id, self.dd.guild_commands.setdefault(g.id, {})
        return None, self.dd.global_commands

    def get_commands(self, req: Req) -> Any:
        _, store = self._command_store(req)
        return list(store.values())

    def put_commands(self, req: Req) -> Any:
        guild_id, _ = self._command_store(req)
        V.validate_commands(req.json)
        return self.dd._store_commands(guild_id, req.json)

    def post_command(self, req: Req) -> Any:
        guild_id, store = self._command_store(req)
        V.validate_command(req.json)
        body = req.body
        others = [dict(c) for k, c in store.items() if k != (body.get("type", 1), body["name"])]
        out = self.dd._store_commands(guild_id, [*others, body])
        return next(c for c in out if c["name"] == body["name"] and c["type"] == body.get("type", 1))

    def _find_command(self, req: Req) -> tuple[int | None, dict[str, Any]]:
        guild_id, store = self._command_store(req)
        cid = req.params["command_id"]
        for c in store.values():
            if c["id"] == cid:
                return guild_id, c
        raise unknown("command")

    def get_command(self, req: Req) -> Any:
        return self._find_command(req)[1]

    def patch_command(self, req: Req) -> Any:
        guild_id, cmd = self._find_command(req)
        merged = dict(cmd)
        merged.update(req.body)
        V.validate_command(merged)
        _, store = self._command_store(req)
        others = [c for c in store.values() if c is not cmd]
        out = self.dd._store_commands(guild_id, [*others, merged])
        return next(c for c in out if c["name"] == merged["name"])

    def delete_command(self, req: Req) -> Any:
        guild_id, cmd = self._find_command(req)
        _, store = self._command_store(req)
        self.dd._store_commands(guild_id, [c for c in store.values() if c is not cmd])
        return None

    # -- channels --------------------------------------------------------------------------------------------
    def get_channel(self, req: Req) -> Any:
        return F.channel(self._channel(req), for_user_id=self.dd.bot_user.id)

    def patch_channel(self, req: Req) -> Any:
        ch = self._channel(req)
        body = req.body
        if ch.is_thread:
            own = ch.owner_id == self.dd.bot_user.id
            if ("locked" in body or not own) and not self.dd.can_bot(ch, "manage_threads"):
                raise missing_permissions()
            if body.get("name") is not None:
                errs = V.FormErrors()
                V._length(errs, ("name",), body["name"], 1, 100)
                errs.raise_if_any()
        else:
            self._need(ch, "manage_channels")
        self.dd._update_channel(ch, body)
        return F.channel(ch)

    def delete_channel(self, req: Req) -> Any:
        ch = self._channel(req)
        self._need(ch, "manage_threads" if ch.is_thread else "manage_channels")
        self.dd._delete_channel(ch)
        return F.channel(ch)

    def typing(self, req: Req) -> Any:
        self._channel(req)
        return None

    # -- messages --------------------------------------------------------------------------------------------
    def _check_can_send(self, ch: Channel, n_files: int) -> None:
        self.dd.check_can_send(ch, n_files, self._need)

    def post_message(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        body = req.body
        self._check_can_send(ch, len(req.files))
        V.validate_message(body, n_files=len(req.files), creating=True)
        dd._check_file_sizes(req.files)
        ref = body.get("message_reference")
        if ref and ref.get("message_id") is not None:
            target = dd.messages.get(int(ref["message_id"]))
            if (target is None or target.deleted) and ref.get("fail_if_not_exists", True):
                raise APIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "message_reference": {
                            "_errors": [
                                {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}
                            ]
                        }
                    },
                )
        msg = dd._create_message(
            ch,
            dd.bot_user,
            content=body.get("content"),
            embeds=body.get("embeds"),
            components=body.get("components"),
            files=req.files,
            attachments_meta=body.get("attachments"),
            flags=body.get("flags") or 0,
            reference=ref,
            allowed_mentions=body.get("allowed_mentions"),
            nonce=body.get("nonce"),
            tts=bool(body.get("tts")),
        )
        return F.message(dd, msg)

    def get_message(self, req: Req) -> Any:
        ch = self._channel(req)
        self._need(ch, "read_message_history")
        return F.message(self.dd, self._message(req, ch))

    def get_messages(self, req: Req) -> Any:
        ch = self._channel(req)
        if ch.guild is not None and not self.dd.can_bot(ch, "read_message_history"):
            return []
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        msgs = ch.public_messages
        if "around" in req.query:
            pivot = int(req.query["around"])
            older = [m for m in msgs if m.id <= pivot][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > pivot][: limit // 2]
            return [F.message(self.dd, m) for m in reversed(older + newer)]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
            msgs = msgs[:limit]
        else:
            msgs = msgs[-limit:]
        return [F.message(self.dd, m) for m in reversed(msgs)]

    def patch_message(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        msg = self._message(req, ch)
        body = req.body
        if msg.author.id != dd.bot_user.id:
            if set(body) - {"flags"}:
                raise APIError(403, 50005, "Cannot edit a message authored by another user")
            self._need(ch, "manage_messages")
        V.validate_message(body, n_files=len(req.files), creating=False)
        dd._check_file_sizes(req.files)
        self._check_not_emptied(msg, body, req.files)
        dd._edit_message(msg, body, req.files)
        return F.message(dd, msg)

    @staticmethod
    def _check_not_emptied(msg: Message, body: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        content = body.get("content", msg.content)
        embeds = body.get("embeds", msg.embeds)
        comps = body.get("components", msg.components)
        keeps = bool(body["attachments"]) if "attachments" in body else bool(msg.attachments)
        if not (content or embeds or comps or keeps or files):
            raise APIError(400, 50006, "Cannot send an empty message")

    def delete_message(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        msg = self._message(req, ch)
        if msg.author.id != dd.bot_user.id:
            if ch.is_dm:
                raise APIError(403, 50003, "Cannot execute action on a DM channel")
            self._need(ch, "manage_messages")
        dd._delete_message(msg)
        return None

    def bulk_delete(self, req: Req) -> Any:
        ch = self._channel(req)
        self._need(ch, "manage_messages")
        ids = req.body.get("messages") or []
        if not 2 <= len(ids) <= 100:
            raise APIError(400, 50016, "You must provide at least 2 and fewer than 100 messages to delete")
        for mid in ids:
            msg = self.dd.messages.get(int(mid))
            if msg is not None and msg.channel is ch:
                self.dd._delete_message(msg)
        return None

    # -- pins ------------------------------------------------------------------------------------------------
    def get_pins(self, req: Req) -> Any:
        ch = self._channel(req)
        return F.pins_page(self.dd, [self.dd.messages[mid] for mid in reversed(ch.pins)], self.dd.now())

    def get_pins_legacy(self, req: Req) -> Any:
        ch = self._channel(req)
        return [F.message(self.dd, self.dd.messages[mid]) for mid in reversed(ch.pins)]

    def pin(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        if ch.guild is not None and not (dd.can_bot(ch, "pin_messages") or dd.can_bot(ch, "manage_messages")):
            raise missing_permissions()
        msg = self._message(req, ch)
        if not msg.pinned:
            msg.pinned = True
            ch.pins.append(msg.id)
            dd._changed()
            msg.updated_seq = dd._seq
            dd._create_message(
                ch, dd.bot_user, msg_type=6, reference={"message_id": msg.id, "channel_id": ch.id}
            )
            dd._emit("CHANNEL_PINS_UPDATE", F.channel_pins_update(ch, dd.now()))
        return None

    def unpin(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        if ch.guild is not None and not (dd.can_bot(ch, "pin_messages") or dd.can_bot(ch, "manage_messages")):
            raise missing_permissions()
        msg = self._message(req, ch)
        if msg.pinned:
            msg.pinned = False
            ch.pins.remove(msg.id)
            dd._changed()
            msg.updated_seq = dd._seq
        return None

    # -- reactions -------------------------------------------------------------------------------------------
    def _emoji(self, req: Req) -> dict[str, Any]:
        text = req.params["emoji"]
        if not text:
            raise unknown("emoji")
        emoji = parse_emoji(text)
        if emoji.get("id"):
            raise unknown("emoji")  # the double's guilds have no custom emojis
        if text.isascii():
            raise unknown("emoji")
        return emoji

    def add_own_reaction(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        self._need(ch, "read_message_history")
        msg = self._message(req, ch)
        emoji = self._emoji(req)
        from .models import emoji_key

        if emoji_key(emoji) not in msg._reactions:
            self._need(ch, "add_reactions")
            if len(msg._reactions) >= 20:
                raise APIError(400, 30010, "Maximum number of reactions reached (20)")
        dd._add_reaction(msg, dd.bot_user.id, emoji)
        return None

    def remove_own_reaction(self, req: Req) -> Any:
        ch = self._channel(req)
        msg = self._message(req, ch)
        self.dd._remove_reaction(msg, self.dd.bot_user.id, self._emoji(req))
        return None

    def remove_user_reaction(self, req: Req) -> Any:
        ch = self._channel(req)
        msg = self._message(req, ch)
        uid = req.id("user_id")
        if uid != self.dd.bot_user.id:
            if ch.is_dm:
                raise APIError(403, 50003, "Cannot execute action on a DM channel")
            self._need(ch, "manage_messages")
        self.dd._remove_reaction(msg, uid, self._emoji(req))
        return None

    def get_reactions(self, req: Req) -> Any:
        from .models import emoji_key

        ch = self._channel(req)
        msg = self._message(req, ch)
        entry = msg._reactions.get(emoji_key(self._emoji(req)))
        ids = list(entry["users"]) if entry else []
        if "after" in req.query:
            ids = [i for i in ids if i > int(req.query["after"])]
        ids = sorted(ids)[: max(1, min(100, int(req.query.get("limit", 25))))]
        return F.reaction_user_list(self.dd, ids)

    def clear_reactions(self, req: Req) -> Any:
        ch = self._channel(req)
        self._need(ch, "manage_messages")
        self.dd._clear_reactions(self._message(req, ch))
        return None

    def clear_emoji_reactions(self, req: Req) -> Any:
        ch = self._channel(req)
        self._need(ch, "manage_messages")
        self.dd._clear_reactions(self._message(req, ch), self._emoji(req))
        return None

    # -- threads ---------------------------------------------------------------------------------------------
    def _thread_checks(self, ch: Channel, body: dict[str, Any], ttype: int) -> str:
        if ch.type not in (ChannelType.TEXT, ChannelType.NEWS):
            raise APIError(400, 50024, "Cannot execute action on this channel type")
        self._need(
            ch, "create_private_threads" if ttype == ChannelType.PRIVATE_THREAD else "create_public_threads"
        )
        name = body.get("name")
        errs = V.FormErrors()
        V._length(errs, ("name",), name, 1, 100)
        if body.get("auto_archive_duration") not in (None, 60, 1440, 4320, 10080):
            errs.add(
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                "Value must be one of {60, 1440, 4320, 10080}.",
            )
        errs.raise_if_any()
        return name

    def start_thread(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        body = req.body
        if "message" in body:  # forum/media posts are not implemented
            raise APIError(400, 50024, "Cannot execute action on this channel type")
        ttype = body.get("type") or ChannelType.PRIVATE_THREAD
        if ttype not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            raise APIError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {10, 11, 12}."}
                        ]
                    }
                },
            )
        name = self._thread_checks(ch, body, ttype)
        thread = dd._create_thread(
            ch,
            name,
            dd.bot_user,
            type=ttype,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True),
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        return F.channel(thread, for_user_id=dd.bot_user.id)

    def start_thread_from_message(self, req: Req) -> Any:
        dd = self.dd
        ch = self._channel(req)
        msg = self._message(req, ch)
        name = self._thread_checks(ch, req.body, ChannelType.PUBLIC_THREAD)
        if msg.thread is not None:
            raise APIError(400, 160004, "A thread has already been created for this message")
        thread = dd._create_thread(
            ch,
            name,
            dd.bot_user,
            type=ChannelType.PUBLIC_THREAD,
            from_message=msg,
            auto_archive_duration=req.body.get("auto_archive_duration") or 1440,
            rate_limit_per_user=req.body.get("rate_limit_per_user") or 0,
        )
        return F.channel(thread, for_user_id=dd.bot_user.id)

    def _thread(self, req: Req) -> Channel:
        ch = self._channel(req)
        if not ch.is_thread:
            raise APIError(400, 50024, "Cannot execute action on this channel type")
        return ch

    def _thread_members_update(self, thread: Channel, user_id: int, *, added: bool) -> None:
        self.dd._changed()
        self.dd._thread_members_update(thread, user_id, added=added)

    def join_thread(self, req: Req) -> Any:
        thread = self._thread(req)
        uid = self.dd.bot_user.id
        if uid not in thread.thread_members:
            thread.thread_members[uid] = self.dd.now()
            self._thread_members_update(thread, uid, added=True)
        return None

    def leave_thread(self, req: Req) -> Any:
        thread = self._thread(req)
        uid = self.dd.bot_user.id
        if thread.thread_members.pop(uid, None) is not None:
            self._thread_members_update(thread, uid, added=False)
        return None

    def add_thread_member(self, req: Req) -> Any:
        thread = self._thread(req)
        uid = req.id("user_id")
        user = self.dd.user(uid)
        if user is None:
            raise unknown("member")
        self.dd.check_can_add_thread_member(thread, user, self._need)
        if uid not in thread.thread_members:
            thread.thread_members[uid] = self.dd.now()
            self._thread_members_update(thread, uid, added=True)
        return None

    def remove_thread_member(self, req: Req) -> Any:
        thread = self._thread(req)
        uid = req.id("user_id")
        if thread.owner_id != self.dd.bot_user.id:
            self._need(thread, "manage_threads")
        if thread.thread_members.pop(uid, None) is not None:
            self._thread_members_update(thread, uid, added=False)
        return None

    def get_thread_members(self, req: Req) -> Any:
        thread = self._thread(req)
        return [
            F.thread_member(thread, uid, is_bot=uid == self.dd.bot_user.id) for uid in thread.thread_members
        ]

    def get_active_threads(self, req: Req) -> Any:
        g = self._guild(req)
        return F.active_threads(self.dd, [c for c in g.threads if not c.archived])

    # -- users, DMs, guilds ----------------------------------------------------------------------------------
    def create_dm(self, req: Req) -> Any:
        dd = self.dd
        try:
            user = dd.user(int(req.body.get("recipient_id")))
        except (TypeError, ValueError):
            user = None
        if user is None:
            raise APIError(400, 50033, "Invalid Recipient(s)")
        dd.check_can_open_dm(user)
        return F.channel(dd.dm_channel_for(user))

    def get_user(self, req: Req) -> Any:
        u = self.dd.user(req.id("user_id"))
        if u is None:
            raise unknown("user")
        return F.user(u)

    def get_guild(self, req: Req) -> Any:
        g = self._guild(req)
        data = F.guild_base(g)
        if req.query.get("with_counts") in ("1", "true", "True"):
            data.update({"approximate_member_count": len(g.members), "approximate_presence_count": 0})
        return data

    def get_guild_channels(self, req: Req) -> Any:
        g = self._guild(req)
        return [F.channel(c) for c in g.channels.values() if not c.is_thread and not c.deleted]

    def get_roles(self, req: Req) -> Any:
        g = self._guild(req)
        return [F.role(r) for r in g.roles.values()]

    def get_members(self, req: Req) -> Any:
        g = self._guild(req)
        bot = self.dd.bot
        if bot is not None and not bot._connection._intents.members:
            raise missing_access()
        limit = max(1, min(1000, int(req.query.get("limit", 1))))
        after = int(req.query.get("after", 0))
        members = sorted((m for m in g.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return [F.member(m) for m in members[:limit]]

    def get_member(self, req: Req) -> Any:
        g = self._guild(req)
        m = g.members.get(req.id("user_id"))
        if m is None:
            raise unknown("member")
        return F.member(m)

    # -- interactions ----------------------------------------------------------------------------------------
    def _interaction(self, req: Req) -> Interaction:
        inter = self.dd.interaction_by_token(req.params["token"])
        if inter is None:
            raise unknown("interaction" if "interaction_id" in req.params else "webhook")
        if "interaction_id" in req.params and req.params["interaction_id"] != str(inter.id):
            raise unknown("interaction")
        if "application_id" in req.params and req.params["application_id"] != str(self.dd.application_id):
            raise unknown("webhook")
        return inter

    def _webhook_interaction(self, req: Req) -> Interaction:
        inter = self._interaction(req)
        if not inter.acked:
            self.dd._violation(
                "followup_before_ack",
                f"{inter!r}: {req.record.route} before the interaction was acknowledged",
                inter,
            )
            raise unknown("webhook")
        return inter

    def interaction_callback(self, req: Req) -> Any:
        inter = self._interaction(req)
        return self.dd.interaction_callback(inter, req.body, req.files, at=req.record.time)

    def _original(self, inter: Interaction) -> Message:
        if inter.original is not None:
            if inter.original.deleted:
                raise unknown("message")
            return inter.original
        if (
            inter.response_type in (6, 7)
            and inter.component_message is not None
            and not inter.component_message.deleted
        ):
            return inter.component_message
        raise unknown("message")

    def get_original(self, req: Req) -> Any:
        return F.message(self.dd, self._original(self._webhook_interaction(req)))

    def _edit_webhook_message(self, req: Req, inter: Interaction, msg: Message) -> Any:
        body = req.body
        V.validate_message(body, n_files=len(req.files), creating=False)
        self.dd._check_file_sizes(req.files)
        self._check_not_emptied(msg, body, req.files)
        if msg is inter.original or msg is inter.component_message:
            inter.original_edits += 1
        self.dd._edit_message(msg, body, req.files)
        return F.message(self.dd, msg)

    def edit_original(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        return self._edit_webhook_message(req, inter, self._original(inter))

    def delete_original(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        self.dd._delete_message(self._original(inter))
        return None

    def post_followup(self, req: Req) -> Any:
        dd = self.dd
        inter = self._webhook_interaction(req)
        body = req.body
        V.validate_message(body, n_files=len(req.files), creating=True)
        dd._check_file_sizes(req.files)
        original = inter.original
        if inter.response_type == 5 and original is not None and original.loading:
            # Discord: the first follow-up after a deferred reply fills in the "thinking" message
            inter.original_edits += 1
            msg = dd._edit_message(original, body, req.files)
        else:
            ephemeral = bool((body.get("flags") or 0) & 64)
            msg = dd._create_message(
                inter.channel,
                dd.bot_user,
                content=body.get("content"),
                embeds=body.get("embeds"),
                components=body.get("components"),
                files=req.files,
                attachments_meta=body.get("attachments"),
                flags=body.get("flags") or 0,
                allowed_mentions=body.get("allowed_mentions"),
                tts=bool(body.get("tts")),
                ephemeral_to=inter.user.id if ephemeral else None,
                interaction=inter,
                msg_type=0,
            )
            inter.followups.append(msg)
            dd._changed()
        if req.query.get("wait") in ("1", "true", "True"):
            return F.message(dd, msg)
        return None

    def _followup(self, req: Req, inter: Interaction) -> Message:
        mid = req.id("message_id")
        for m in inter.messages + ([inter.component_message] if inter.component_message is not None else []):
            if m.id == mid and not m.deleted:
                return m
        raise unknown("message")

    def get_followup(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        return F.message(self.dd, self._followup(req, inter))

    def edit_followup(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        return self._edit_webhook_message(req, inter, self._followup(req, inter))

    def delete_followup(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        self.dd._delete_message(self._followup(req, inter))
        return None
