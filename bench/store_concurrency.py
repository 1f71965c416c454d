"""Budget: the store under concurrent match actions (issue 11): with 40 matches acting at once, every action
commits (0 errors), ≥ 300 actions/s and p99 ≤ 250 ms per action on SQLite (closed loop: each action queues
behind up to 39 others, so p99 ≈ 40 / rate is the floor); options compared, not guessed.

One "action" is what the match service does per move: read the match (committed state), then one write
transaction (version check, state, seats upsert, one move row; every 10th action also finishes a rated
match: ratings read inside the transaction, updated, history rows). N workers, each on its own match, act
as fast as they can for a few seconds; a reader task per worker also lists matches (like /matches,
autocomplete and reaction checks do), so reads compete with writes.

Options (SQLite):
  writer+2 readers  one writer connection behind an asyncio lock, a pool of 2 WAL read connections (chosen)
  writer+4 readers  the same with 4 readers
  one connection    everything (reads too) on the writer connection behind the one lock
  conn per write    a new connection per write transaction, SQLite's own file lock + busy_timeout
                    serialising them (no asyncio lock)
PostgreSQL (asyncpg pool, row locks + version checks) is measured too when PARLOR_TEST_POSTGRES (default
postgresql://postgres@127.0.0.1:5432/test) answers.

    python bench/store_concurrency.py [seconds per run, default 3] [N list, default 1,10,40,100]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite

from bot import ratings as rating_math
from bot.storage import MatchRecord, MoveRecord, RatingUpdate, SeatRecord, Status
from bot.storage.sql import MATCH_COLUMNS, _match_values, marks
from bot.storage.sqlite import READERS, SqliteStore, _Conn

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
SIZES = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "1,10,40,100").split(",")]
HEAVY = 2000
"""Stored matches listed by the heavy-read scenario (each reader lists every active match, like a startup or a
busy server's /matches), to show what long reads cost the writers."""
BUDGET_N, BUDGET_RATE, BUDGET_P99 = 40, 300.0, 250.0
DEFAULT = f"writer+{READERS} reader{'s' if READERS > 1 else ''}" if READERS else "one connection"


class PerWriteConnection(SqliteStore):
    """A new connection per write transaction; SQLite's lock (busy_timeout) serialises them."""

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Conn]:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA busy_timeout=10000")
        try:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield _Conn(db)
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
        finally:
            await db.close()


def record(i: int) -> MatchRecord:
    now = time.time()
    return MatchRecord(
        id=0,
        game="pylon",
        guild_id=1,
        channel_id=10 + i % 7,
        thread_id=1000 + i,
        message_id=None,
        status=Status.RUNNING,
        options={},
        state={"board": [0] * 64, "ply": 0},
        version=0,
        seed="s",
        host_id=2 * i,
        rated=True,
        turn_limit=3600,
        deadline=now + 3600,
        clocks=None,
        outcome=None,
        ui={"plies": 0},
        created_at=now,
        updated_at=now,
        finished_at=None,
        seats=[
            SeatRecord(0, 1 + (i % 3), "a"),
            SeatRecord(1, 2 + (i % 3), "b"),
        ],  # players shared across matches
    )


async def run(store, n: int, seconds: float, heavy: bool = False) -> tuple[int, int, list[float]]:
    if heavy:
        async with store.transaction() as db:
            for i in range(HEAVY):
                r = record(10_000 + i)
                await db.execute(
                    f"INSERT INTO matches ({MATCH_COLUMNS.removeprefix('id, ')}) VALUES "
                    f"({marks(len(_match_values(r)))})",
                    *_match_values(r),
                )
    ids = [await store.create_match(record(i)) for i in range(n)]
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds

    async def worker(mid: int) -> None:
        nonlocal errors
        k = 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            try:
                m = await store.load_match(mid)
                expected = m.version
                m.version += 1
                m.state["ply"] += 1
                m.ui["plies"] += 1
                k += 1
                rate = None
                if k % 10 == 0:  # the match ends, rated; the players start a new one
                    m.status = Status.FINISHED
                    m.deadline = None
                    players = [(s.user_id, s.seat) for s in m.seats]
                    rate = RatingUpdate(
                        1,
                        "pylon",
                        tuple(u for u, _ in players),
                        lambda cur, p=players: rating_math.rate(1, "pylon", p, cur),
                    )
                await store.save_match(
                    m, expected, new_moves=[MoveRecord(m.ui["plies"], 0, 1, "L a1", time.time())], rate=rate
                )
                if rate is not None:
                    mid = await store.create_match(record(mid))
                latencies.append((time.perf_counter() - t0) * 1000)
            except Exception as exc:
                errors += 1
                if errors <= 3:
                    print(f"  error: {exc!r}", file=sys.stderr)

    async def reader() -> None:
        while time.perf_counter() < stop:
            if heavy:
                await store.active_matches()
                await asyncio.sleep(0.2)
            else:
                await store.matches_in_place(10)
                await asyncio.sleep(0.005)

    await asyncio.gather(*(worker(mid) for mid in ids), *(reader() for _ in (ids[:2] if heavy else ids)))
    return len(latencies), errors, latencies


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def pg_store():
    url = os.environ.get("PARLOR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    try:
        import asyncpg

        from bot.storage.postgres import PostgresStore
    except ImportError:
        return None, None
    name = f"parlor_bench_{uuid.uuid4().hex[:8]}"
    try:
        admin = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return None, None
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    base = url.rsplit("/", 1)[0]
    return PostgresStore(f"{base}/{name}"), (url, name)


async def drop_pg(info) -> None:
    import asyncpg

    url, name = info
    admin = await asyncpg.connect(url)
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


async def main() -> None:
    options = {
        "writer+2 readers": lambda p: SqliteStore(p, readers=2),
        "writer+1 reader": lambda p: SqliteStore(p, readers=1),
        "writer+4 readers": lambda p: SqliteStore(p, readers=4),
        "one connection": lambda p: SqliteStore(p, readers=0),
        "conn per write": lambda p: PerWriteConnection(p, readers=2),
    }
    print(f"{'option':<18} {'N':>4} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    chosen = None
    for name, make in [*options.items(), ("postgresql", None)]:
        for n in SIZES:
            info = None
            with tempfile.TemporaryDirectory() as tmp:
                if make is None:
                    store, info = await pg_store()
                    if store is None:
                        print(f"{name:<18} (no PostgreSQL answered at PARLOR_TEST_POSTGRES; skipped)")
                        break
                else:
                    store = make(str(Path(tmp) / "bench.sqlite3"))
                await store.open()
                try:
                    done, errors, lat = await run(store, n, SECONDS)
                finally:
                    await store.close()
                    if info is not None:
                        await drop_pg(info)
            rate = done / SECONDS
            print(
                f"{name:<18} {n:>4} {rate:>10.0f} {statistics.median(lat) if lat else float('nan'):>8.1f} "
                f"{pct(lat, 0.99):>8.1f} {errors:>7}",
                flush=True,
            )
            if name == DEFAULT and n == BUDGET_N:
                chosen = (rate, pct(lat, 0.99), errors)
    print(
        f"heavy reads: {BUDGET_N} matches acting while 2 readers each list {HEAVY} active matches "
        "every 200 ms"
    )
    for name, make in options.items():
        if name == "conn per write":
            continue
        with tempfile.TemporaryDirectory() as tmp:
            store = make(str(Path(tmp) / "bench.sqlite3"))
            await store.open()
            try:
                done, errors, lat = await run(store, BUDGET_N, SECONDS, heavy=True)
            finally:
                await store.close()
        print(
            f"{name:<18} {BUDGET_N:>4} {done / SECONDS:>10.0f} {statistics.median(lat):>8.1f} "
            f"{pct(lat, 0.99):>8.1f} {errors:>7}",
            flush=True,
        )
    if chosen is not None:
        rate, p99, errors = chosen
        ok = errors == 0 and rate >= BUDGET_RATE and p99 <= BUDGET_P99
        print(
            f"budget: {BUDGET_N} matches acting at once on SQLite (default: {DEFAULT}): {rate:.0f} actions/s "
            f"(budget ≥ {BUDGET_RATE:.0f}), p99 {p99:.1f} ms (budget ≤ {BUDGET_P99:.0f}), {errors} errors "
            f"(budget 0) -> {'OK' if ok else 'OVER BUDGET'}"
        )


if __name__ == "__main__":
    asyncio.run(main())
