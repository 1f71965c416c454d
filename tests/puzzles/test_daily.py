"""The daily puzzle's schedule (bot/daily.py): puzzle days, the deterministic choice, and exactly one post
per day with several processes on one database."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools

from bot.daily import DAY, DailyPuzzles, daily_choice, day_start, next_post, puzzle_day
from bot.puzzles import PUZZLE_GAMES, puzzles_of
from bot.storage.sqlite import SqliteStore


def utc(*args: int) -> float:
    return dt.datetime(*args, tzinfo=dt.UTC).timestamp()


def test_a_puzzle_day_runs_from_noon_to_noon_utc():
    assert next_post(utc(2025, 3, 1, 11, 59)) == utc(2025, 3, 1, 12)
    assert next_post(utc(2025, 3, 1, 12)) == utc(2025, 3, 2, 12)  # strictly later
    assert next_post(utc(2025, 3, 1, 23)) == utc(2025, 3, 2, 12)
    assert puzzle_day(utc(2025, 3, 2, 11, 59)) == puzzle_day(utc(2025, 3, 1, 12))
    assert day_start(puzzle_day(utc(2025, 3, 1, 15))) == utc(2025, 3, 1, 12)


def test_the_choice_is_deterministic_rotates_the_games_and_goes_round_every_puzzle():
    gid = 1575563180283924484
    days = range(20000, 20000 + 3 * 40)
    picks = [daily_choice(d, gid) for d in days]
    assert picks == [daily_choice(d, gid) for d in days]
    assert all(p is not None for p in picks)
    for a, b in itertools.pairwise(picks):
        assert a.game != b.game  # the games take turns
    for game in PUZZLE_GAMES:
        seen = {p.id for p in picks if p.game == game}
        assert seen == {p.id for p in puzzles_of(game)}  # every puzzle comes round
    assert daily_choice(20000, gid) != daily_choice(20000, gid + 1)  # servers differ


class Host:
    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.posted: list[tuple[int, int, str]] = []

    async def post_daily_puzzle(self, guild_id, channel_id, p):
        await asyncio.sleep(0)
        self.posted.append((guild_id, channel_id, p.id))


async def test_several_processes_post_each_day_once(tmp_path):
    now = [utc(2025, 3, 1, 9)]
    stores = [SqliteStore(str(tmp_path / "p.sqlite3")) for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        hosts = [Host(s) for s in stores]
        procs = [DailyPuzzles(h, clock=lambda: now[0]) for h in hosts]
        assert await procs[0].choose(7, 70) == utc(2025, 3, 1, 12)
        assert await procs[1].choose(8, 80) == utc(2025, 3, 1, 12)
        assert await procs[2].next_deadline() == utc(2025, 3, 1, 12)
        assert sum(await asyncio.gather(*(p.run_due() for p in procs))) == 0  # not yet
        for step in (3 * 3600 + 5, 60, 6 * 3600, DAY):  # noon, later that day, the evening, next noon
            now[0] += step
            await asyncio.gather(*(p.run_due() for p in procs))
        posted = sorted(x for h in hosts for x in h.posted)
        assert [(g, c) for g, c, _ in posted] == [(7, 70), (7, 70), (8, 80), (8, 80)]
        assert await procs[0].next_deadline() == utc(2025, 3, 3, 12)
        await procs[1].choose(7, None)  # turned off
        now[0] += DAY
        await asyncio.gather(*(p.run_due() for p in procs))
        assert [x[0] for h in hosts for x in h.posted].count(7) == 2
    finally:
        for s in stores:
            await s.close()


class Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Service Unavailable" if status >= 500 else "Forbidden"


class FailingHost(Host):
    """Discord answers ``failures`` with the given statuses, then posts."""

    def __init__(self, store: SqliteStore, failures: list[int]) -> None:
        super().__init__(store)
        self.failures = failures

    async def post_daily_puzzle(self, guild_id, channel_id, p):
        import discord

        if self.failures:
            raise discord.HTTPException(Response(self.failures.pop(0)), "no")
        await super().post_daily_puzzle(guild_id, channel_id, p)


async def test_a_post_that_fails_on_a_discord_incident_is_tried_again_until_it_goes_out(tmp_path):
    now = [utc(2025, 3, 1, 11)]
    store = SqliteStore(str(tmp_path / "p.sqlite3"))
    await store.open()
    try:
        host = FailingHost(store, [503, 502, 500])
        daily = DailyPuzzles(host, clock=lambda: now[0])
        await daily.choose(7, 70)
        now[0] = utc(2025, 3, 1, 12)
        for _ in range(3):  # each failed try is due again after a backoff, within the day
            assert await daily.run_due() == 0 and not host.posted
            due = await daily.next_deadline()
            assert now[0] < due < utc(2025, 3, 1, 13)
            now[0] = due
        assert await daily.run_due() == 1
        assert [(g, c) for g, c, _ in host.posted] == [(7, 70)]
        assert host.posted[0][2] == daily_choice(puzzle_day(utc(2025, 3, 1, 12)), 7).id
        assert await daily.next_deadline() == utc(2025, 3, 2, 12)  # one post that day, then tomorrow's
        assert await daily.run_due() == 0
    finally:
        await store.close()


async def test_a_post_discord_refuses_is_that_days_loss(tmp_path):
    now = [utc(2025, 3, 1, 11)]
    store = SqliteStore(str(tmp_path / "p.sqlite3"))
    await store.open()
    try:
        host = FailingHost(store, [403])
        daily = DailyPuzzles(host, clock=lambda: now[0])
        await daily.choose(7, 70)
        now[0] = utc(2025, 3, 1, 12)
        assert await daily.run_due() == 0
        assert await daily.next_deadline() == utc(2025, 3, 2, 12)  # not tried again that day
        now[0] = utc(2025, 3, 2, 12)
        assert await daily.run_due() == 1
    finally:
        await store.close()
