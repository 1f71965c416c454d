"""The deadline scheduler task: wakes for due deadlines on its own, re-reads them after a restart."""

import asyncio

from bot.matches.scheduler import Scheduler
from bot.matches.service import MatchService, Player
from bot.storage import Status
from bot.storage.sqlite import SqliteStore


class Clock:
    t = 1_000_000.0

    def __call__(self):
        return self.t


async def test_scheduler_task_expires_a_due_challenge_by_itself(tmp_path):
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    await store.open()
    clock = Clock()
    svc = MatchService(store, clock=clock)
    seen = []
    done = asyncio.Event()

    async def on_result(result):
        seen.append(result)
        done.set()

    sched = Scheduler(svc, on_result)
    sched.start()
    m = await svc.create("pylon", guild_id=1, channel_id=2, host=Player(1, "a"), opponent=Player(2, "b"),
                         options={}, turn_limit=60, expires=60)
    await asyncio.sleep(0.05)
    assert seen == []
    clock.t += 61
    sched.poke()
    await asyncio.wait_for(done.wait(), 2)
    assert seen[0].match.id == m.id and seen[0].match.status == Status.EXPIRED
    await asyncio.wait_for(sched.stop(), 2)
    await store.close()


async def test_restarted_scheduler_finds_stored_deadlines(tmp_path):
    path = str(tmp_path / "s.sqlite3")
    store = SqliteStore(path)
    await store.open()
    clock = Clock()
    svc = MatchService(store, clock=clock)
    m = await svc.create("pylon", guild_id=1, channel_id=2, host=Player(1, "a"), opponent=Player(2, "b"),
                         options={}, turn_limit=60)
    await svc.accept(m.id, 2)
    await store.close()
    clock.t += 3600  # the bot was down for an hour
    store2 = SqliteStore(path)
    await store2.open()
    svc2 = MatchService(store2, clock=clock)
    done = asyncio.Event()
    seen = []

    async def on_result(result):
        seen.append(result)
        done.set()

    sched = Scheduler(svc2, on_result)
    sched.start()
    await asyncio.wait_for(done.wait(), 2)
    assert seen[0].finished and "did not move" in seen[0].match.outcome.detail
    await asyncio.wait_for(sched.stop(), 2)
    await store2.close()
