"""The only places where the double touches discord.py (installed by ``DiscordDouble.__aenter__``,
removed by ``__aexit__``):

- ``discord.http.HTTPClient.request``: every REST call goes to :class:`~.rest.RestAPI`;
- ``discord.http.HTTPClient.static_login``: the same as the original (token, ``GET /users/@me``) but
  with an offline stand-in for the aiohttp session, so no socket can ever be opened;
- ``discord.http.HTTPClient.get_from_cdn``: attachment URLs are served from the world;
- ``discord.http.HTTPClient.ws_connect``: refused (the gateway is fed by :mod:`.gateway`);
- ``discord.webhook.async_.AsyncWebhookAdapter.request``: interaction callbacks, ``@original`` and
  follow-ups go to :class:`~.rest.RestAPI` as well.

Request bodies are encoded exactly as discord.py would send them (``utils._to_json``; multipart through
``aiohttp.FormData(quote_fields=False)``) and decoded back, so tests see what Discord would receive.
"""

from __future__ import annotations

import asyncio
import http
import json
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import yarl
from discord import utils
from discord.errors import DiscordServerError, Forbidden, HTTPException, LoginFailure, NotFound
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble

_active: DiscordDouble | None = None
_originals: dict[tuple[type, str], Any] = {}

_TARGETS = [
    (HTTPClient, "request"),
    (HTTPClient, "static_login"),
    (HTTPClient, "get_from_cdn"),
    (HTTPClient, "ws_connect"),
    (AsyncWebhookAdapter, "request"),
]


def active() -> DiscordDouble:
    if _active is None:  # pragma: no cover - the patches are only installed while a double is active
        raise RuntimeError("no DiscordDouble is active")
    return _active


def install(dd: DiscordDouble) -> None:
    global _active
    if _active is not None:
        raise RuntimeError("another DiscordDouble is already active (doubles cannot be nested)")
    replacements = {
        (HTTPClient, "request"): _http_request,
        (HTTPClient, "static_login"): _static_login,
        (HTTPClient, "get_from_cdn"): _get_from_cdn,
        (HTTPClient, "ws_connect"): _ws_connect,
        (AsyncWebhookAdapter, "request"): _webhook_request,
    }
    for owner, name in _TARGETS:
        _originals[(owner, name)] = owner.__dict__[name]
        setattr(owner, name, replacements[(owner, name)])
    _active = dd


def uninstall(dd: DiscordDouble) -> None:
    global _active
    if _active is not dd:
        return
    for (owner, name), original in _originals.items():
        setattr(owner, name, original)
    _originals.clear()
    _active = None


def is_installed() -> bool:
    return _active is not None


# -- the offline session ----------------------------------------------------------------------------------


class OfflineSession:
    """Stands in for ``HTTPClient``'s aiohttp session: closable, and refuses any network use."""

    def __init__(self) -> None:
        self.closed = False

    async def close(self) -> None:
        self.closed = True

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"DiscordDouble: network access through the aiohttp session ({name}) is disabled")


# -- fake responses for discord.py's exceptions ----------------------------------------------------------


class FakeResponse:
    """What ``discord.HTTPException`` reads from an ``aiohttp.ClientResponse``."""

    def __init__(self, status: int, method: str, url: str):
        self.status = status
        try:
            self.reason = http.HTTPStatus(status).phrase
        except ValueError:
            self.reason = "Unknown"
        self.method = method
        self.url = yarl.URL(url)
        self.headers: dict[str, str] = {"Content-Type": "application/json"}


def _answer(status: int, body: Any, method: str, url: str) -> Any:
    if 200 <= status < 300:
        return "" if body is None else body
    resp = FakeResponse(status, method, url)
    if status == 403:
        raise Forbidden(resp, body)
    if status == 404:
        raise NotFound(resp, body)
    if status >= 500:
        raise DiscordServerError(resp, body)
    raise HTTPException(resp, body)


_API_PREFIX = re.compile(r"^/api/v\d+")


def _split_url(url: str, params: dict[str, Any] | None) -> tuple[str, dict[str, str]]:
    parts = urlsplit(url)
    path = _API_PREFIX.sub("", parts.path)
    query = dict(parse_qsl(parts.query))
    for k, v in (params or {}).items():
        if v is not None:
            query[k] = str(v).lower() if isinstance(v, bool) else str(v)
    return path, query


# -- multipart -----------------------------------------------------------------------------------------------


async def encode_multipart(parts: Sequence[dict[str, Any]]) -> tuple[bytes, str]:
    """The exact bytes discord.py would send (``aiohttp.FormData(quote_fields=False)``)."""
    form = aiohttp.FormData(quote_fields=False)
    for p in parts:
        form.add_field(**p)
    writer = form()
    content_type = writer.headers["Content-Type"]
    if hasattr(writer, "as_bytes"):
        return await writer.as_bytes(), content_type

    chunks: list[bytes] = []  # pragma: no cover - older aiohttp

    class _Sink:
        async def write(self, data: bytes) -> None:
            chunks.append(bytes(data))

    await writer.write(_Sink())  # pragma: no cover
    return b"".join(chunks), content_type  # pragma: no cover


_DISPOSITION_PARAM = re.compile(r';\s*([A-Za-z*]+)="((?:[^"\\]|\\.)*)"')


def decode_multipart(raw: bytes, content_type: str) -> tuple[Any | None, list[tuple[str, bytes]]]:
    """``multipart/form-data`` -> (decoded ``payload_json``,
    [(filename, bytes) of ``files[n]`` in n order])."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if m is None:
        raise ValueError(f"no boundary in {content_type!r}")
    boundary = b"--" + m.group(1).encode()
    payload: Any | None = None
    files: list[tuple[int, str, bytes]] = []
    for chunk in raw.split(boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        chunk = chunk[2:] if chunk.startswith(b"\r\n") else chunk
        head, _, body = chunk.partition(b"\r\n\r\n")
        if body.endswith(b"\r\n"):
            body = body[:-2]
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        params = {
            k: v.replace('\\"', '"').replace("\\\\", "\\")
            for k, v in _DISPOSITION_PARAM.findall(headers.get("content-disposition", ""))
        }
        name = params.get("name", "")
        if name == "payload_json":
            payload = json.loads(body.decode("utf-8"))
        else:
            fm = re.fullmatch(r"files\[(\d+)\]", name)
            index = int(fm.group(1)) if fm else len(files)
            files.append((index, params.get("filename", name), body))
    return payload, [(fn, data) for _, fn, data in sorted(files, key=lambda t: t[0])]


async def _decode_body(
    json_body: Any, multipart: Sequence[dict[str, Any]] | None
) -> tuple[Any, list[tuple[str, bytes]]]:
    if multipart:
        raw, ctype = await encode_multipart(multipart)
        return decode_multipart(raw, ctype)
    if json_body is not None:
        return json.loads(utils._to_json(json_body)), []
    return None, []


# -- the replacements ----------------------------------------------------------------------------------------


async def _http_request(
    self: HTTPClient, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
) -> Any:
    dd = active()
    started = time.monotonic()
    session = self.__dict__.get("_HTTPClient__session")
    if not session or getattr(session, "closed", False):
        raise RuntimeError("Session is closed")
    path, query = _split_url(route.url, kwargs.get("params"))
    body, decoded = await _decode_body(kwargs.get("json"), form)
    auth = f"Bot {self.token}" if self.token is not None else None
    status, resp = await dd.rest.call(
        route.method,
        path,
        query=query,
        body=body,
        files=decoded,
        authorization=auth,
        source="http",
        started=started,
    )
    return _answer(status, resp, route.method, route.url)


async def _static_login(self: HTTPClient, token: str) -> Any:
    self._HTTPClient__session = OfflineSession()  # type: ignore[attr-defined]
    self._global_over = asyncio.Event()
    self._global_over.set()
    old_token = self.token
    self.token = token
    try:
        data = await self.request(Route("GET", "/users/@me"))
    except HTTPException as exc:
        self.token = old_token
        if exc.status == 401:
            raise LoginFailure("Improper token has been passed.") from exc
        raise
    return data


async def _get_from_cdn(self: HTTPClient, url: str) -> bytes:
    dd = active()
    clean = url.split("?", 1)[0].replace("media.discordapp.net", "cdn.discordapp.com")
    for att in dd.attachments.values():
        if att.url == clean:
            return att.bytes
    raise NotFound(FakeResponse(404, "GET", url), "asset not found")


async def _ws_connect(self: HTTPClient, url: str, *, compress: int = 0) -> Any:
    raise RuntimeError(
        "DiscordDouble: the gateway websocket is simulated; connect the bot with `await dd.connect(bot)`"
    )


async def _webhook_request(
    self: AsyncWebhookAdapter,
    route: Route,
    session: Any,
    *,
    payload: dict[str, Any] | None = None,
    multipart: list[dict[str, Any]] | None = None,
    proxy: str | None = None,
    proxy_auth: Any = None,
    files: Any = None,
    reason: str | None = None,
    auth_token: str | None = None,
    params: dict[str, Any] | None = None,
) -> Any:
    dd = active()
    started = time.monotonic()
    path, query = _split_url(route.url, params)
    body, decoded = await _decode_body(payload, multipart)
    auth = f"Bot {auth_token}" if auth_token is not None else None
    status, resp = await dd.rest.call(
        route.method,
        path,
        query=query,
        body=body,
        files=decoded,
        authorization=auth,
        source="webhook",
        started=started,
    )
    return _answer(status, resp, route.method, route.url)
