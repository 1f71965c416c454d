"""PARLOR_METRICS_PORT: the real ``python -m bot`` serves Prometheus metrics; a scrape sees the moves,
their latency, the active matches, Discord's 429s and the shards of the process."""

from __future__ import annotations

import socket

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.loopback import FakeDiscord
from tests.loopback.helpers import start_parlor, start_pylon, two_players


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    async with aiohttp.ClientSession() as s, s.get(f"http://127.0.0.1:{port}/metrics") as r:
        assert r.status == 200
        text = await r.text()
    out = {}
    for fam in text_string_to_metric_families(text):
        for sample in fam.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def test_metrics_endpoint_counts_moves_latency_matches_and_429s(tmp_path):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild, chan, alice, bob = two_players(fd)
        port = free_port()
        await start_parlor(
            fd,
            f"sqlite:///{tmp_path}/p.sqlite3",
            guild.id,
            env={"PARLOR_METRICS_PORT": str(port), "PARLOR_SHARD_COUNT": "1"},
        )
        thread, _board = await start_pylon(fd, chan, alice, bob)
        before = await scrape(port)
        assert before[("parlor_active_matches", ())] == 1
        assert before[("parlor_shard_info", (("shard", "0"), ("shard_count", "1")))] == 1
        fd.ratelimits.inject("POST /interactions", count=1, retry_after=0.05)
        r = await alice.slash(thread, "pylon move", notation="S a1")
        assert "S a1" in (await r.message()).text
        r = await bob.slash(thread, "pylon move", notation="S b1")
        assert "S b1" in (await r.message()).text
        await fd.settle()
        after = await scrape(port)
        assert after[("parlor_moves_total", (("game", "pylon"),))] == 2
        assert after[("parlor_move_seconds_count", (("game", "pylon"),))] == 2
        assert 0 < after[("parlor_move_seconds_sum", (("game", "pylon"),))] < 2
        assert after[("parlor_discord_rate_limited_total", (("scope", "user"),))] == 1
        assert after[("parlor_discord_http_responses_total", (("status", "429"),))] == 1
        responses = after[("parlor_interaction_response_seconds_count", ())]
        assert responses - before.get(("parlor_interaction_response_seconds_count", ()), 0) >= 2
        assert ("parlor_scheduler_lag_seconds_count", ()) in after
        assert len(fd.ratelimits.hits) == 1
