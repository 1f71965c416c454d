"""Prometheus metrics for operators, one endpoint per process (``PARLOR_METRICS_PORT``).

    parlor_moves_total{game}                     moves played (players and the computer)
    parlor_move_seconds{game}                    a move inside the bot: waiting for the match, engine, commit
    parlor_interaction_response_seconds          interaction created (its snowflake time) -> the bot's
                                                 response sent
    parlor_active_matches                        matches in a lobby, challenged or running (every process
                                                 sees all)
    parlor_discord_http_responses_total{status}  Discord HTTP answers with status >= 400, per try
                                                 (429 included)
    parlor_discord_rate_limited_total{scope}     429s from Discord (``scope``: bucket, global or shared)
    parlor_discord_http_failures_total           requests that got no answer (connection errors, timeouts)
    parlor_discord_retries_total{kind}           Discord requests the bot made on its own (retire, ping,
                                                 result) that failed with 5xx or no answer, retried later
    parlor_discord_chores_pending                those still waiting for Discord (stored, across restarts)
    parlor_scheduler_lag_seconds                 how late the deadline scheduler woke after the earliest
                                                 deadline
    parlor_shard_info{shard, shard_count}        the shards this process runs (1 per shard)

The counters are always kept (a few dict lookups per event); ``serve`` exposes them with
prometheus-client's WSGI app on a small threaded HTTP server (a daemon thread). Prometheus adds ``instance``
per scrape target, so two processes are told apart by their endpoints.

The same port answers ``/healthz`` (the Docker ``HEALTHCHECK``, ``parlor health``): 200 when every gateway
connection of the process is open and the database answered a one-row read within 2 s, else 503; the JSON
body says which part failed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from typing import Any, cast
from wsgiref.simple_server import WSGIRequestHandler, make_server

import aiohttp
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, make_wsgi_app
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import ThreadingWSGIServer
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000
LATENCY_BUCKETS = (
    0.0025,
    0.005,
    0.01,
    0.02,
    0.035,
    0.05,
    0.075,
    0.1,
    0.15,
    0.25,
    0.5,
    1.0,
    2.0,
    3.0,
    5.0,
    10.0,
)
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)

MOVES = Counter("parlor_moves", "Moves played (players and the computer)", ["game"])
MOVE_SECONDS = Histogram("parlor_move_seconds", "A move inside the bot: wait for the match, engine, commit",
                         ["game"], buckets=LATENCY_BUCKETS)
RESPONSE_SECONDS = Histogram(
    "parlor_interaction_response_seconds",
    "Interaction created (snowflake time) to the bot's response sent",
    buckets=LATENCY_BUCKETS,
)
HTTP_ERRORS = Counter("parlor_discord_http_responses",
                      "Discord HTTP answers with status >= 400, per try (429 included)", ["status"])
RATE_LIMITED = Counter("parlor_discord_rate_limited", "429 Too Many Requests from Discord", ["scope"])
HTTP_FAILURES = Counter("parlor_discord_http_failures", "Discord HTTP requests that got no answer")
SCHEDULER_LAG = Histogram(
    "parlor_scheduler_lag_seconds",
    "How late the deadline scheduler woke after the earliest deadline",
    buckets=LAG_BUCKETS,
)
RETRIES = Counter("parlor_discord_retries",
                  "Discord requests made by the bot on its own that failed (5xx, no answer) and are retried",
                  ["kind"])
CHORES_PENDING = Gauge("parlor_discord_chores_pending", "Failed Discord requests waiting to be retried")
SHARD_INFO = Gauge("parlor_shard_info", "The shards this process runs", ["shard", "shard_count"])


def move_played(game: str, seconds: float) -> None:
    MOVES.labels(game).inc()
    MOVE_SECONDS.labels(game).observe(seconds)


def discord_retry(kind: str) -> None:
    RETRIES.labels(kind).inc()


def chores_pending(count: int) -> None:
    CHORES_PENDING.set(count)


def scheduler_lag(seconds: float) -> None:
    SCHEDULER_LAG.observe(max(0.0, seconds))


def set_shards(shard_ids: tuple[int, ...] | None, shard_count: int | None) -> None:
    for sid in shard_ids or (0,):
        SHARD_INFO.labels(str(sid), str(shard_count or 1)).set(1)


def _interaction_created(url: Any) -> float | None:
    """The creation time of the interaction whose callback ``url`` is
    (``/interactions/{id}/{token}/callback``)."""
    parts = url.path.split("/")
    try:
        i = parts.index("interactions")
        if parts[-1] != "callback":
            return None
        return ((int(parts[i + 1]) >> 22) + DISCORD_EPOCH_MS) / 1000.0
    except (ValueError, IndexError):
        return None


def _no_activity(started: bool) -> None:
    return None


def trace_config(activity: Callable[[bool], None] = _no_activity) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session (``Client(http_trace=...)``): every try is seen,
    including the 429s and 5xx that discord.py retries by itself, and interaction callbacks; each try's
    start and end are also told to ``activity`` (``True``: started; bot/heap.py's collector)."""
    trace = aiohttp.TraceConfig()

    async def on_request_start(session: Any, ctx: Any, params: aiohttp.TraceRequestStartParams) -> None:
        activity(True)

    async def on_request_end(session: Any, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        activity(False)
        status = params.response.status
        if status >= 400:
            HTTP_ERRORS.labels(str(status)).inc()
            if status == 429:
                scope = params.response.headers.get("X-RateLimit-Scope", "bucket")
                if params.response.headers.get("X-RateLimit-Global"):
                    scope = "global"
                RATE_LIMITED.labels(scope).inc()
        elif params.method == "POST":
            created = _interaction_created(params.url)
            if created is not None:
                RESPONSE_SECONDS.observe(max(0.0, time.time() - created))

    async def on_request_exception(
        session: Any, ctx: Any, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        activity(False)
        HTTP_FAILURES.inc()

    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_request_exception)
    return trace


HEALTH_PATH = "/healthz"


class Health:
    """What ``/healthz`` asks, from the HTTP thread: ``connected()`` (the gateway) and ``ping()`` (a cheap
    database read), both run on the bot's event loop (``loop()``, ``None`` until the bot runs), at most
    ``timeout`` s: a loop too busy to answer is unhealthy too."""

    def __init__(self, connected: Callable[[], bool], ping: Callable[[], Awaitable[Any]],
                 loop: Callable[[], asyncio.AbstractEventLoop | None], timeout: float = 2.0) -> None:
        self.connected = connected
        self.ping = ping
        self.loop = loop
        self.timeout = timeout

    def check(self) -> tuple[bool, dict[str, str]]:
        loop = self.loop()
        if loop is None or not loop.is_running():
            return False, {"gateway": "not started", "database": "not checked"}  # not translated: health JSON

        async def probe() -> dict[str, str]:
            out = {"gateway": "connected" if self.connected() else "disconnected"}
            try:
                await self.ping()
                out["database"] = "ok"
            except Exception as exc:
                out["database"] = f"error: {type(exc).__name__}: {exc}"[:200]
            return out

        fut = asyncio.run_coroutine_threadsafe(probe(), loop)
        try:
            status = fut.result(self.timeout)
        except concurrent.futures.TimeoutError:
            fut.cancel()
            status = {"gateway": "not checked",  # not translated: the health check's JSON
                      "database": f"no answer within {self.timeout:g}s"}  # not translated: health JSON
        except Exception as exc:  # the loop stopped meanwhile
            status = {"gateway": "not checked",  # not translated: the health check's JSON
                      "database": f"not checked ({type(exc).__name__})"}  # not translated: health JSON
        return status == {"gateway": "connected", "database": "ok"}, status


_health: Health | None = None


def watch_health(health: Health | None) -> None:
    """Answer ``/healthz`` with ``health`` (``None``: 503 "not started")."""
    global _health
    _health = health


def gateway_connected(client: Any) -> bool:
    """READY was received and every gateway connection the client runs (one per shard) is open now."""
    if client.is_closed() or not client.is_ready():
        return False
    shards = getattr(client, "shards", None)
    if isinstance(shards, dict):
        return bool(shards) and not any(info.is_closed() for info in shards.values())
    ws = client.ws
    return ws is not None and bool(ws.open)


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _app(registry: CollectorRegistry) -> Callable[..., Iterable[bytes]]:
    metrics_app = make_wsgi_app(registry)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != HEALTH_PATH:
            return cast("Iterable[bytes]", metrics_app(environ, start_response))
        if _health is None:
            ok, status = False, {"gateway": "not started", "database": "not checked"}  # not translated: JSON
        else:
            ok, status = _health.check()
        body = json.dumps({"healthy": ok, **status}).encode()
        start_response("200 OK" if ok else "503 Service Unavailable",  # not translated: HTTP
                       [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]

    return app


def serve(port: int, addr: str = "0.0.0.0", registry: CollectorRegistry = REGISTRY) -> int:
    """Start the endpoint (``/metrics``, and ``/healthz``) in a daemon thread; returns the port (``0`` picks a
    free one)."""
    server = make_server(addr, port, _app(registry), ThreadingWSGIServer, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="parlor-metrics", daemon=True).start()
    bound = server.server_port
    log.info("metrics on http://%s:%d/metrics, health on %s", addr, bound, HEALTH_PATH)
    return bound


class ActiveMatches(Collector):
    """``parlor_active_matches``, counted when scraped: the scrape thread asks the bot's event loop for a
    cheap id query (at most ``timeout`` s; a busy or stopped loop gives the last count)."""

    def __init__(self, count: Callable[[], Coroutine[Any, Any, int]], loop: asyncio.AbstractEventLoop,
                 timeout: float = 2.0) -> None:
        self.count = count
        self.loop = loop
        self.timeout = timeout
        self.last = 0

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            fut: concurrent.futures.Future[int] = asyncio.run_coroutine_threadsafe(self.count(), self.loop)
            self.last = fut.result(self.timeout)
        except Exception:  # a scrape must never fail or touch the bot
            log.debug("counting active matches for metrics failed", exc_info=True)
        yield GaugeMetricFamily("parlor_active_matches",
                                "Matches in a lobby, challenged or running",  # not translated: metric help
                                value=self.last)

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily("parlor_active_matches",
                                "Matches in a lobby, challenged or running")  # not translated: metric help


_active: ActiveMatches | None = None


def watch_active_matches(
    count: Callable[[], Coroutine[Any, Any, int]], registry: CollectorRegistry = REGISTRY
) -> None:
    """Serve ``parlor_active_matches`` from ``count`` (run on the current event loop)."""
    global _active
    if _active is not None:
        registry.unregister(_active)
    _active = ActiveMatches(count, asyncio.get_running_loop())
    registry.register(_active)
