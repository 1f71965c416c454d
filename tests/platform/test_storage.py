"""SQLite storage: migrations, version checks, ratings queries."""

import time

import pytest

from bot.storage import GuildSettings, MatchRecord, MoveRecord, SeatRecord, Status, VersionConflict
from bot.storage.sqlite import SqliteStore, migrations


def record(**kw):
    now = time.time()
    base = dict(id=0, game="pylon", guild_id=1, channel_id=10, thread_id=None, message_id=None,
                status=Status.RUNNING, options={}, state={"v": 1}, version=0, seed="ab", host_id=5, rated=True,
                turn_limit=60, deadline=now + 60, clocks=None, outcome=None, ui={}, created_at=now, updated_at=now,
                finished_at=None, seats=[SeatRecord(0, 5, "alice"), SeatRecord(1, 6, "bob")])
    base.update(kw)
    return MatchRecord(**base)


@pytest.fixture
async def store(tmp_path):
    s = SqliteStore(str(tmp_path / "db" / "p.sqlite3"))
    await s.open()
    yield s
    await s.close()


async def test_migrations_are_recorded_and_idempotent(store):
    assert await store.migrate() == []
    async with store.db.execute("SELECT version FROM schema_version") as cur:
        assert [r[0] async for r in cur] == [n for n, _ in migrations()]
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store.db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1


async def test_match_round_trip_with_seats(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    assert m.seats[1].name == "bob" and m.state == {"v": 1} and m.status == Status.RUNNING


async def test_save_checks_the_version_and_appends_moves(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version = 1
    await store.save_match(m, 0, new_moves=[MoveRecord(0, 0, 5, "L a1", time.time())])
    stale = await store.load_match(mid)
    stale.version = 2
    with pytest.raises(VersionConflict):
        await store.save_match(stale, 0, new_moves=[MoveRecord(1, 1, 6, "S a2", time.time())])
    assert [mv.notation for mv in await store.moves(mid)] == ["L a1"]


async def test_move_log_is_append_only(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version = 1
    await store.save_match(m, 0, new_moves=[MoveRecord(0, 0, 5, "L a1", time.time())])
    m.version = 2
    with pytest.raises(Exception):  # the same ply twice is refused by the primary key
        await store.save_match(m, 1, new_moves=[MoveRecord(0, 0, 5, "S a1", time.time())])
    assert (await store.load_match(mid)).version == 1


async def test_deadlines(store):
    now = time.time()
    a = await store.create_match(record(deadline=now - 1))
    await store.create_match(record(deadline=now + 100))
    await store.create_match(record(deadline=now - 5, status=Status.FINISHED))
    assert await store.due_matches(now) == [a]
    assert await store.next_deadline() == pytest.approx(now - 1)


async def test_guild_settings_default_and_saved(store):
    assert await store.guild_settings(7) == GuildSettings(7, True, 86400)
    await store.save_guild_settings(GuildSettings(7, False, 300))
    assert await store.guild_settings(7) == GuildSettings(7, False, 300)


async def test_matches_in_place_prefers_thread(store):
    a = await store.create_match(record(channel_id=10, thread_id=99))
    b = await store.create_match(record(channel_id=10))
    assert [m.id for m in await store.matches_in_place(99)] == [a]
    assert [m.id for m in await store.matches_in_place(10)] == [b]
