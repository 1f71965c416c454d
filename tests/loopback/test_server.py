"""The fake server on its own (no bot process): validation, errors, gateway protocol, interactions."""

from __future__ import annotations

import asyncio
import json
import zlib

import aiohttp
import pytest

from tests.loopback import FakeDiscord
from tests.loopback.errors import UserActionError


class Raw:
    """A minimal HTTP client that talks like a bot (token header, JSON or multipart)."""

    def __init__(self, fd: FakeDiscord, session: aiohttp.ClientSession):
        self.fd = fd
        self.s = session

    async def call(self, method: str, path: str, *, token: bool = True, **kwargs):
        headers = {"Authorization": f"Bot {self.fd.token}"} if token else {}
        async with self.s.request(method, f"{self.fd.api_url}/api/v10{path}", headers=headers, **kwargs) as r:
            text = await r.text()
            body = json.loads(text) if r.headers.get("Content-Type") == "application/json" else text
            return r.status, body, r.headers


@pytest.fixture
async def raw(fd):
    async with aiohttp.ClientSession() as s:
        yield Raw(fd, s)


def cmd(name="game", **extra):
    c = {"name": name, "description": "A game", "type": 1}
    c.update(extra)
    return c


def err_codes(body, *path):
    node = body["errors"]
    for p in path:
        node = node[str(p)]
    return [e["code"] for e in node["_errors"]]


async def test_command_validation(fd, raw):
    url = f"/applications/{fd.application_id}/commands"
    status, body, _ = await raw.call("PUT", url, json=[cmd("Game")])
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert err_codes(body, 0, "name") == ["APPLICATION_COMMAND_INVALID_NAME"]
    status, body, _ = await raw.call("PUT", url, json=[cmd(description="x" * 101)])
    assert err_codes(body, 0, "description") == ["BASE_TYPE_BAD_LENGTH"]
    opts = [{"name": f"o{i}", "description": "d", "type": 3} for i in range(26)]
    status, body, _ = await raw.call("PUT", url, json=[cmd(options=opts)])
    assert err_codes(body, 0, "options") == ["BASE_TYPE_MAX_LENGTH"]
    opts = [
        {"name": "a", "description": "d", "type": 3},
        {"name": "b", "description": "d", "type": 3, "required": True},
    ]
    status, body, _ = await raw.call("PUT", url, json=[cmd(options=opts)])
    assert err_codes(body, 0, "options", 1, "required") == [
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER"
    ]
    opts = [
        {
            "name": "a",
            "description": "d",
            "type": 3,
            "autocomplete": True,
            "choices": [{"name": "x", "value": "x"}],
        }
    ]
    status, body, _ = await raw.call("PUT", url, json=[cmd(options=opts)])
    assert err_codes(body, 0, "options", 0, "autocomplete") == [
        "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE"
    ]
    status, body, _ = await raw.call("PUT", url, json=[cmd(), cmd()])
    assert err_codes(body, 1, "name") == ["APPLICATION_COMMANDS_DUPLICATE_NAME"]
    status, body, _ = await raw.call("PUT", url, json=[{"name": "Menu Item", "type": 2, "description": "no"}])
    assert err_codes(body, 0, "description") == ["APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION"]
    nested = [
        {
            "name": "g",
            "description": "d",
            "type": 2,
            "options": [
                {
                    "name": "s",
                    "description": "d",
                    "type": 1,
                    "options": [{"name": "v", "description": "d", "type": 4, "min_value": 5, "max_value": 1}],
                }
            ],
        }
    ]
    status, body, _ = await raw.call("PUT", url, json=[cmd(options=nested)])
    assert err_codes(body, 0, "options", 0, "options", 0, "options", 0, "min_value") == [
        "APPLICATION_COMMAND_OPTION_MIN_GREATER_THAN_MAX"
    ]
    assert fd.registered_commands() == []

    # valid: ids are kept across overwrites, versions change only with content
    status, body, _ = await raw.call("PUT", url, json=[cmd(), {"name": "Menu Item", "type": 3}])
    assert status == 200 and len(body) == 2
    first = {c["name"]: c for c in body}
    status, body, _ = await raw.call("PUT", url, json=[cmd(description="changed")])
    assert body[0]["id"] == first["game"]["id"] and body[0]["version"] != first["game"]["version"]
    assert [c["name"] for c in fd.registered_commands()] == ["game"]
    status, _, _ = await raw.call("DELETE", f"{url}/{body[0]['id']}")
    assert status == 204 and fd.registered_commands() == []


async def test_discord_py_sees_discord_style_errors(fd, monkeypatch):
    """discord.py's own HTTPClient turns our error bodies into its usual exception text."""
    import discord
    from discord.http import HTTPClient, Route

    monkeypatch.setattr(Route, "BASE", f"{fd.api_url}/api/v10")
    http = HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(fd.token)
        with pytest.raises(discord.HTTPException) as info:
            await http.bulk_upsert_global_commands(fd.application_id, [cmd("Bad Name")])
        assert info.value.status == 400 and info.value.code == 50035
        assert "In 0.name: Command name is invalid" in str(info.value)
        with pytest.raises(discord.NotFound) as info:
            await http.get_channel(1234)
        assert info.value.code == 10003
    finally:
        await http.close()


async def test_message_limits(fd, raw):
    g = fd.create_guild()
    chan = g.create_text_channel("games")
    url = f"/channels/{chan.id}/messages"

    async def post(payload):
        return await raw.call("POST", url, json=payload)

    status, body, _ = await post({"content": "x" * 2001})
    assert status == 400 and err_codes(body, "content") == ["BASE_TYPE_MAX_LENGTH"]
    status, body, _ = await post({"content": ""})
    assert (status, body["code"], body["message"]) == (400, 50006, "Cannot send an empty message")
    status, body, _ = await post({"embeds": [{"title": "t" * 257}]})
    assert err_codes(body, "embeds", 0, "title") == ["BASE_TYPE_MAX_LENGTH"]
    status, body, _ = await post({"embeds": [{"description": "d" * 4097}]})
    assert err_codes(body, "embeds", 0, "description") == ["BASE_TYPE_MAX_LENGTH"]
    status, body, _ = await post({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert err_codes(body, "embeds", 0, "fields") == ["BASE_TYPE_MAX_LENGTH"]
    status, body, _ = await post({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert err_codes(body, "embeds") == ["MAX_EMBED_SIZE_EXCEEDED"]
    button = lambda i: {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"c{i}"}  # noqa: E731
    rows = [{"type": 1, "components": [button(i)]} for i in range(6)]
    status, body, _ = await post({"content": "x", "components": rows})
    assert err_codes(body, "components") == ["BASE_TYPE_MAX_LENGTH"]
    status, body, _ = await post(
        {"content": "x", "components": [{"type": 1, "components": [button(1), button(1)]}]}
    )
    assert err_codes(body, "components", 0, "components", 1, "custom_id") == [
        "COMPONENT_CUSTOM_ID_DUPLICATED"
    ]
    status, body, _ = await post(
        {"content": "x", "components": [{"type": 1, "components": [dict(button(1), custom_id="c" * 101)]}]}
    )
    assert err_codes(body, "components", 0, "components", 0, "custom_id") == ["BASE_TYPE_BAD_LENGTH"]
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(26)],
    }
    status, body, _ = await post({"content": "x", "components": [{"type": 1, "components": [select]}]})
    assert err_codes(body, "components", 0, "components", 0, "options") == ["BASE_TYPE_BAD_LENGTH"]
    status, body, _ = await post(
        {
            "content": "x",
            "components": [
                {
                    "type": 1,
                    "components": [
                        button(1),
                        {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                    ],
                }
            ],
        }
    )
    assert err_codes(body, "components", 0, "components") == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]
    status, body, _ = await post({"content": "x", "components": [{"type": 10, "content": "v2 only"}]})
    assert err_codes(body, "components", 0) == ["COMPONENT_V2_FLAG_REQUIRED"]
    status, body, _ = await post(
        {"content": "x", "flags": 1 << 15, "components": [{"type": 10, "content": "hi"}]}
    )
    assert err_codes(body, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    status, body, _ = await post({"flags": 1 << 15, "components": [{"type": 10, "content": "hi"}]})
    assert status == 200 and body["flags"] == 1 << 15
    assert chan.last_message.text_displays() == ["hi"]

    # multipart upload: bytes kept, metadata from payload_json, size limit -> 413
    fd.attachment_size_limit = 1000
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json",
        json.dumps(
            {"content": "file", "attachments": [{"id": 0, "filename": "a.png", "description": "alt text"}]}
        ),
    )
    form.add_field(
        "files[0]",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 8 + (3).to_bytes(4, "big") + (2).to_bytes(4, "big"),
        filename="a.png",
        content_type="application/octet-stream",
    )
    status, body, _ = await raw.call("POST", url, data=form)
    assert status == 200 and body["attachments"][0]["content_type"] == "image/png"
    att = chan.last_message.attachments[0]
    assert (att.width, att.height, att.description) == (3, 2, "alt text") and att.bytes.startswith(b"\x89PNG")
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "big"}))
    form.add_field("files[0]", b"x" * 1001, filename="big.bin")
    status, body, _ = await raw.call("POST", url, data=form)
    assert (status, body["code"]) == (413, 40005)

    status, body, _ = await raw.call("POST", "/channels/1234/messages", json={"content": "x"})
    assert (status, body["code"]) == (404, 10003)
    status, body, _ = await raw.call("GET", "/users/@me", token=False)
    assert (status, body["message"]) == (401, "401: Unauthorized")
    assert [r.status for r in fd.requests][-1] == 401


async def test_permissions_are_enforced(fd, raw):
    g = fd.create_guild()
    chan = g.create_text_channel("read-only")
    chan.deny_bot("send_messages")
    status, body, _ = await raw.call("POST", f"/channels/{chan.id}/messages", json={"content": "x"})
    assert (status, body["code"]) == (403, 50013)
    hidden = g.create_text_channel("hidden")
    hidden.deny_bot("view_channel")
    status, body, _ = await raw.call("POST", f"/channels/{hidden.id}/messages", json={"content": "x"})
    assert (status, body["code"]) == (403, 50001)
    user = fd.create_user("shy", dms_open=False)
    status, body, _ = await raw.call("POST", "/users/@me/channels", json={"recipient_id": str(user.id)})
    assert status == 200 and body["type"] == 1
    status, body, _ = await raw.call("POST", f"/channels/{body['id']}/messages", json={"content": "hi"})
    assert (status, body["code"], body["message"]) == (403, 50007, "Cannot send messages to this user")


async def test_rules_shared_with_the_in_process_double(fd, raw):
    """Rules written once in tests/discord_double/world.py hold on the loopback server too."""
    g = fd.create_guild()
    stranger = fd.create_user("stranger")  # shares no guild with the bot
    status, body, _ = await raw.call("POST", "/users/@me/channels", json={"recipient_id": str(stranger.id)})
    assert status == 200
    status, body, _ = await raw.call("POST", f"/channels/{body['id']}/messages", json={"content": "hi"})
    assert (status, body["code"]) == (403, 50007)
    bot_id = str(fd.bot_user.id)
    status, body, _ = await raw.call("POST", "/users/@me/channels", json={"recipient_id": bot_id})
    assert (status, body["code"]) == (400, 50007)
    chan = g.create_text_channel("games")
    thread = fd.create_thread(chan, "locked", fd.bot_user)
    g.set_bot_permissions(["view_channel", "send_messages", "send_messages_in_threads"])
    fd.update_thread(thread, {"locked": True})
    status, body, _ = await raw.call("POST", f"/channels/{thread.id}/messages", json={"content": "x"})
    assert (status, body["code"]) == (400, 50083)
    role = g.create_role("late", ["send_messages"])
    assert role.position < g.bot_role.position


async def test_rate_limit_simulation_and_unimplemented(fd, raw):
    fd.ratelimits.inject("GET /users/@me", count=1, retry_after=0.25)
    status, body, headers = await raw.call("GET", "/users/@me")
    assert status == 429 and body == {
        "message": "You are being rate limited.",
        "retry_after": 0.25,
        "global": False,
        "code": 0,
    }
    assert (
        headers["Via"] and headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user"
    )
    status, _, _ = await raw.call("GET", "/users/@me")
    assert status == 200
    fd.ratelimits.bucket("GET /users/@me", limit=2, per=5)
    s1, _, h1 = await raw.call("GET", "/users/@me")
    s2, _, h2 = await raw.call("GET", "/users/@me")
    s3, b3, _ = await raw.call("GET", "/users/@me")
    assert (s1, h1["X-RateLimit-Remaining"], s2, h2["X-RateLimit-Remaining"], s3) == (200, "1", 200, "0", 429)
    assert 0 < b3["retry_after"] <= 5

    status, body, _ = await raw.call("GET", "/guilds/1/audit-logs")
    assert status == 404 and fd.unimplemented == ["GET /guilds/1/audit-logs"]
    with pytest.raises(AssertionError, match="does not implement"):
        fd.assert_clean()


class RawGateway:
    """Speaks the gateway protocol by hand (to test the server, not discord.py)."""

    def __init__(self, ws, compress: bool):
        self.ws = ws
        self.inflator = zlib.decompressobj() if compress else None

    async def recv(self, timeout=5.0):
        msg = await self.ws.receive(timeout=timeout)
        if msg.type == aiohttp.WSMsgType.BINARY:
            assert self.inflator is not None
            return json.loads(self.inflator.decompress(msg.data))
        if msg.type == aiohttp.WSMsgType.TEXT:
            return json.loads(msg.data)
        return msg

    async def until(self, event, timeout=5.0):
        while True:
            m = await self.recv(timeout)
            if isinstance(m, dict) and m.get("t") == event:
                return m


async def connect(fd, s, compress=False):
    url = f"{fd.gateway_url}?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
    ws = await s.ws_connect(url)
    return RawGateway(ws, compress)


async def test_gateway_protocol(fd):
    g = fd.create_guild("G")
    g.create_text_channel("games")
    async with aiohttp.ClientSession() as s:
        gw = await connect(fd, s)
        hello = await gw.recv()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
        await gw.ws.send_json({"op": 2, "d": {"token": "nope", "intents": 0, "properties": {}}})
        closed = await gw.recv()
        assert closed.type == aiohttp.WSMsgType.CLOSE and gw.ws.close_code == 4004

        gw = await connect(fd, s)
        await gw.recv()
        await gw.ws.send_json({"op": 2, "d": {"token": fd.token, "intents": 1 << 30, "properties": {}}})
        await gw.recv()
        assert gw.ws.close_code == 4013

        gw = await connect(fd, s, compress=True)  # zlib-stream: binary frames ending in Z_SYNC_FLUSH
        assert (await gw.recv())["op"] == 10
        await gw.ws.send_json({"op": 1, "d": None})
        assert (await gw.recv())["op"] == 11
        await gw.ws.send_json(
            {"op": 2, "d": {"token": fd.token, "intents": (1 << 0) | (1 << 9), "properties": {}}}
        )
        ready = await gw.until("READY")
        assert ready["s"] == 1 and ready["d"]["guilds"] == [{"id": str(g.id), "unavailable": True}]
        gc = await gw.until("GUILD_CREATE")
        assert [c["name"] for c in gc["d"]["channels"]] == ["games"]
        assert [m["user"]["id"] for m in gc["d"]["members"]] == [
            str(fd.bot_user.id)
        ]  # no GUILD_MEMBERS intent
        await gw.ws.send_json({"op": 8, "d": {"guild_id": str(g.id), "query": "", "limit": 0, "nonce": "n1"}})
        chunk = await gw.until("GUILD_MEMBERS_CHUNK")
        assert chunk["d"]["nonce"] == "n1" and len(chunk["d"]["members"]) == 2
        session_id, seq = ready["d"]["session_id"], chunk["s"]
        await gw.ws.close()

        # events while disconnected are replayed on RESUME
        alice = fd.create_user("alice")
        g.add_member(alice)  # GUILD_MEMBER_ADD needs GUILD_MEMBERS: not sent to this session
        await alice.say(g.channel("games"), "hello")
        gw = await connect(fd, s)
        await gw.recv()
        await gw.ws.send_json({"op": 6, "d": {"token": fd.token, "session_id": session_id, "seq": seq}})
        replayed = await gw.recv()
        assert (
            replayed["t"] == "MESSAGE_CREATE" and replayed["d"]["content"] == ""
        )  # no MESSAGE_CONTENT intent
        assert replayed["s"] == seq + 1
        assert (await gw.recv())["t"] == "RESUMED"
        await gw.ws.close()


async def test_interaction_callback_rules(fd):
    """Callbacks checked like Discord: valid types per interaction, one ack only, deadline."""
    g = fd.create_guild()
    chan = g.create_text_channel("games")
    alice = fd.create_user("alice")
    g.add_member(alice)
    fd.global_commands[1] = {
        "id": "1",
        "application_id": str(fd.application_id),
        "version": "1",
        "type": 1,
        "name": "ping",
        "description": "p",
        "options": [],
    }
    async with aiohttp.ClientSession() as s:
        gw = await connect(fd, s)
        await gw.recv()
        await gw.ws.send_json({"op": 2, "d": {"token": fd.token, "intents": 1, "properties": {}}})
        await gw.until("GUILD_CREATE")
        task = asyncio.ensure_future(alice.slash(chan, "ping", check=False))
        ev = await gw.until("INTERACTION_CREATE")
        d = ev["d"]
        assert d["member"]["user"]["id"] == str(alice.id) and d["data"]["name"] == "ping"
        assert d["channel"]["id"] == str(chan.id) and d["attachment_size_limit"] == fd.attachment_size_limit
        cb = f"{fd.api_url}/api/v10/interactions/{d['id']}/{d['token']}/callback?with_response=true"
        async with s.post(cb, json={"type": 7, "data": {"content": "x"}}) as r:
            assert r.status == 400
        async with s.post(cb, json={"type": 4, "data": {"content": "pong", "flags": 64}}) as r:
            assert r.status == 200
            body = await r.json()
            assert body["interaction"]["response_message_ephemeral"] is True
            assert body["resource"]["message"]["content"] == "pong"
        async with s.post(cb, json={"type": 4, "data": {"content": "again"}}) as r:
            assert r.status == 400 and (await r.json())["code"] == 40060
        inter = await task
        assert [v.kind for v in fd.violations] == ["invalid_callback", "double_ack"]
        msg = await inter.message()
        assert msg.ephemeral and msg.content == "pong" and msg.visible_to(alice)
        # follow-ups ride on the interaction token; unknown tokens are 404 Unknown Webhook
        hook = f"{fd.api_url}/api/v10/webhooks/{fd.application_id}/{d['token']}?wait=true"
        async with s.post(hook, json={"content": "follow"}) as r:
            assert r.status == 200
        async with s.post(
            f"{fd.api_url}/api/v10/webhooks/{fd.application_id}/bogus", json={"content": "x"}
        ) as r:
            assert (r.status, (await r.json())["code"]) == (404, 10015)
        assert [m.content for m in inter.messages] == ["pong", "follow"]
        await gw.ws.close()


async def test_driver_refuses_impossible_actions(fd):
    g = fd.create_guild()
    chan = g.create_text_channel("games")
    secret = g.create_text_channel("secret")
    alice, stranger = fd.create_user("alice"), fd.create_user("stranger")
    g.add_member(alice)
    secret.set_overwrite(g.everyone, deny=["view_channel"])
    with pytest.raises(UserActionError, match="not a member"):
        await stranger.say(chan, "hi")
    with pytest.raises(UserActionError, match="cannot see"):
        await alice.say(secret, "hi")
    with pytest.raises(UserActionError, match="someone else's DM"):
        await alice.say(stranger.dm_channel(), "hi")
    msg = await alice.say(chan, f"hello <@{alice.id}>")
    assert msg.mentions == [alice]
    with pytest.raises(UserActionError, match="no button"):
        await alice.click(msg, "Nope")
