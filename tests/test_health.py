"""``/healthz`` beside ``/metrics`` (the Docker HEALTHCHECK runs ``parlor health``, which asks it): 200 only
when the gateway is connected and the database answers on the bot's event loop, 503 saying what is wrong."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Counter

from bot import metrics
from bot.__main__ import main


def get(port: int, path: str) -> tuple[int, str]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.fixture
def port():
    registry = CollectorRegistry()
    Counter("parlor_probe", "a metric of this test's registry", registry=registry).inc()
    metrics.watch_health(None)
    yield metrics.serve(0, addr="127.0.0.1", registry=registry)
    metrics.watch_health(None)


async def healthz(port: int) -> tuple[int, dict[str, Any]]:
    status, body = await asyncio.to_thread(get, port, "/healthz")  # the check runs on this loop
    return status, json.loads(body)


async def test_metrics_still_served_and_health_503_until_the_bot_runs(port):
    status, body = await asyncio.to_thread(get, port, "/metrics")
    assert status == 200 and "parlor_probe_total 1.0" in body
    not_started = {"healthy": False, "gateway": "not started", "database": "not checked"}
    assert await healthz(port) == (503, not_started)
    metrics.watch_health(metrics.Health(lambda: True, _ok, lambda: None))  # loop not running yet
    assert (await healthz(port))[0] == 503


async def _ok() -> None:
    return None


async def test_healthy_when_gateway_connected_and_database_answers(port):
    loop = asyncio.get_running_loop()
    reads = []

    async def ping() -> None:
        reads.append(asyncio.get_running_loop())

    metrics.watch_health(metrics.Health(lambda: True, ping, lambda: loop))
    assert await healthz(port) == (200, {"healthy": True, "gateway": "connected", "database": "ok"})
    assert reads == [loop]  # the database read ran on the bot's loop


async def test_unhealthy_gateway_database_error_or_a_stuck_loop(port):
    loop = asyncio.get_running_loop()
    gateway = [False]

    metrics.watch_health(metrics.Health(lambda: gateway[0], _ok, lambda: loop))
    status, body = await healthz(port)
    assert status == 503 and body["gateway"] == "disconnected" and body["database"] == "ok"

    async def broken() -> None:
        raise OSError("disk I/O error")

    gateway[0] = True
    metrics.watch_health(metrics.Health(lambda: True, broken, lambda: loop))
    status, body = await healthz(port)
    assert status == 503 and body["database"] == "error: OSError: disk I/O error"

    async def hangs() -> None:
        await asyncio.sleep(30)

    metrics.watch_health(metrics.Health(lambda: True, hangs, lambda: loop, timeout=0.2))
    status, body = await healthz(port)
    assert status == 503 and body["database"] == "no answer within 0.2s"


def test_gateway_connected_reads_every_shard():
    def client(ready=True, closed=False, **kw):
        return SimpleNamespace(is_ready=lambda: ready, is_closed=lambda: closed, **kw)

    def ws(open_):
        return SimpleNamespace(open=open_)

    def shard(closed):
        return SimpleNamespace(is_closed=lambda: closed)

    assert metrics.gateway_connected(client(ws=ws(True)))
    assert not metrics.gateway_connected(client(ws=ws(False)))  # reconnecting
    assert not metrics.gateway_connected(client(ws=None, ready=False))  # before READY
    assert not metrics.gateway_connected(client(ws=ws(True), closed=True))  # shutting down
    assert metrics.gateway_connected(client(shards={0: shard(False), 1: shard(False)}))
    assert not metrics.gateway_connected(client(shards={0: shard(False), 1: shard(True)}))
    assert not metrics.gateway_connected(client(shards={}))


async def test_parlor_health_command_exit_codes(port, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("PARLOR_METRICS_PORT", str(port))
    assert await asyncio.to_thread(main, ["health"]) == 1
    assert "unhealthy" in capsys.readouterr().out
    loop = asyncio.get_running_loop()
    metrics.watch_health(metrics.Health(lambda: True, _ok, lambda: loop))
    assert await asyncio.to_thread(main, ["health"]) == 0
    assert '"healthy": true' in capsys.readouterr().out
    monkeypatch.delenv("PARLOR_METRICS_PORT")
    assert main(["health"]) == 2
