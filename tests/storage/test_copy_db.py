"""``python -m bot migrate`` and ``python -m bot copy-db SOURCE TARGET`` (SQLite → an empty PostgreSQL)."""

import asyncio

import pytest

from bot.__main__ import main
from bot.matches.service import MatchService, Player
from bot.storage import GuildSettings
from bot.storage.postgres import PostgresStore
from bot.storage.sql import code_schema_version
from bot.storage.sqlite import SqliteStore
from tests import pg


async def fill(path: str) -> None:
    store = SqliteStore(path)
    await store.open()
    svc = MatchService(store)
    await store.save_guild_settings(GuildSettings(9, False, 600))
    for i in range(4):
        m = await svc.create("pylon", guild_id=9, channel_id=10, host=Player(1, "a"), opponent=Player(2, "b"),
                             options={"first": "challenger"}, turn_limit=600)
        m = (await svc.accept(m.id, 2)).match
        await svc.play(m.id, 1, "L a1")
        if i % 2:
            await svc.resign(m.id, 2)
    await store.close()


async def dump(store) -> dict:
    out = {}
    async with store._read() as db:
        for table, order in (
            ("matches", "id"),
            ("seats", "match_id, seat"),
            ("moves", "match_id, ply"),
            ("ratings", "user_id"),
            ("rating_history", "id"),
            ("guild_settings", "guild_id"),
        ):
            out[table] = [tuple(r) for r in await db.fetch(f"SELECT * FROM {table} ORDER BY {order}")]
    return out


def test_copy_db_copies_every_table_and_verifies_counts(tmp_path, pg_url, capsys):
    src = str(tmp_path / "src.sqlite3")
    asyncio.run(fill(src))
    assert main(["copy-db", src, pg_url]) == 0
    out = capsys.readouterr().out
    assert "counts verified" in out and "matches 4" in out and "rating_history 4" in out

    async def compare():
        a, b = SqliteStore(src), PostgresStore(pg_url)
        await a.open()
        await b.open()
        try:
            assert await dump(a) == await dump(b)
            svc = MatchService(b)  # the copy is a working database: ids continue after the copied ones
            m = await svc.create(
                "pylon",
                guild_id=9,
                channel_id=10,
                host=Player(1, "a"),
                opponent=Player(2, "b"),
                options={},
                turn_limit=600,
            )
            assert m.id == 5
            running = (await b.active_matches())[0]
            r = await svc.play(running.id, 2, "S b1")
            assert r.match.version == running.version + 1
        finally:
            await a.close()
            await b.close()

    asyncio.run(compare())
    # a second copy into the now non-empty target: refused, nothing written
    assert main(["copy-db", src, pg_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and "nothing was written" in err


def test_copy_db_refusals_write_nothing(tmp_path, pg_url, capsys):
    src = str(tmp_path / "src.sqlite3")
    asyncio.run(fill(src))

    async def tables(url):
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            return await conn.fetchval("SELECT COUNT(*) FROM information_schema.tables "
                                       "WHERE table_schema = current_schema()")
        finally:
            await conn.close()

    import sqlite3

    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes((tmp_path / "src.sqlite3").read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("INSERT INTO schema_version VALUES (999, 0)")
    assert main(["copy-db", str(newer), pg_url]) == 2
    err = capsys.readouterr().err
    assert "999" in err and "newer" in err and err.count("\n") == 1
    assert main(["copy-db", str(tmp_path / "missing.sqlite3"), pg_url]) == 2
    assert "cannot reach the source" in capsys.readouterr().err
    assert main(["copy-db", src, "postgresql://postgres@127.0.0.1:1/nothing"]) == 2
    assert "cannot reach the target" in capsys.readouterr().err
    assert pg.run(tables(pg_url)) == 0  # nothing was written by any of them


def test_migrate_applies_and_exits(tmp_path, pg_url, capsys):
    assert main(["migrate", pg_url]) == 0
    assert f"schema version {code_schema_version()} (applied 1, 2" in capsys.readouterr().out
    assert main(["migrate", pg_url]) == 0
    assert "nothing to apply" in capsys.readouterr().out
    db = tmp_path / "m.sqlite3"
    assert main(["migrate", f"sqlite:///{db}"]) == 0
    assert "applied 1, 2" in capsys.readouterr().out and db.exists()


@pytest.fixture
def pg_url(pg_session):
    url, _ = pg_session.fresh_schema_url()
    return url
