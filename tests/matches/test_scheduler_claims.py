"""Deadlines with several processes on one database: exactly one acts on each; a dead one's work is taken
over after its lease (both backends)."""

import asyncio
import time

from bot.matches import scheduler as scheduler_module
from bot.matches.scheduler import Scheduler
from bot.matches.service import MatchService, Player
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore


class Clock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


async def test_two_processes_expire_each_deadline_once(any_store):
    clock = Clock()
    second = (SqliteStore(any_store.path) if isinstance(any_store, SqliteStore)  # a second process's store
              else PostgresStore(any_store.url))
    await second.open()
    services = [MatchService(store, clock=clock) for store in (any_store, second)]
    ids = []
    for i in range(6):
        m = await services[0].create("pylon", guild_id=1, channel_id=2, host=Player(10 + 2 * i, "a"),
                                     opponent=Player(11 + 2 * i, "b"), options={}, turn_limit=60)
        await services[0].accept(m.id, 11 + 2 * i)
        ids.append(m.id)
    clock.t += 3600
    seen: list[tuple[int, int]] = []

    def recorder(n):
        async def on_result(result):
            seen.append((n, result.match.id))
        return on_result

    schedulers = [Scheduler(svc, recorder(n)) for n, svc in enumerate(services)]
    await asyncio.gather(*(s.run_due() for s in schedulers))
    assert sorted(mid for _, mid in seen) == ids  # each deadline handled once, by one of them
    assert await any_store.lapsed_claims("deadline", time.time() + 3600) == []  # claims released
    await second.close()


async def test_a_deadline_claimed_by_a_dead_process_is_taken_over_after_its_lease(any_store, monkeypatch):
    clock = Clock()
    svc = MatchService(any_store, clock=clock)
    m = await svc.create("pylon", guild_id=1, channel_id=2, host=Player(1, "a"), opponent=Player(2, "b"),
                         options={}, turn_limit=60)
    await svc.accept(m.id, 2)
    clock.t += 3600
    assert await any_store.claim("deadline", m.id, "dead-process", 0.3)  # it claimed, then died
    seen = []

    async def on_result(result):
        seen.append(result.match.id)

    sched = Scheduler(svc, on_result)
    assert await sched.run_due() == [] and seen == []
    await asyncio.sleep(0.35)
    results = await sched.run_due()
    assert [r.match.id for r in results] == [m.id] and results[0].finished


async def test_the_scheduler_takes_over_a_lapsed_computer_move_by_itself(any_store, monkeypatch):
    monkeypatch.setattr(scheduler_module, "MAX_SLEEP", 0.2)
    dead, alive = MatchService(any_store), MatchService(any_store)
    m = await dead.create("pylon", guild_id=9, channel_id=10, host=Player(1, "a"),
                          opponent=Player(99, "Parlor (easy)", "easy"), options={"first": "challenger"},
                          turn_limit=3600)
    await dead.play(m.id, 1, "L a1")
    async with any_store.transaction() as db:
        await db.execute("UPDATE claims SET expires_at = ? WHERE kind = 'ai'", time.time() + 0.3)
    done = asyncio.Event()
    seen = []

    async def on_result(result):
        seen.append(result)
        done.set()

    sched = Scheduler(alive, on_result)
    sched.start()
    try:
        await asyncio.wait_for(done.wait(), 5)
    finally:
        await asyncio.wait_for(sched.stop(), 2)
    assert seen[0].actor == 1 and len(await alive.history(m.id)) == 2
