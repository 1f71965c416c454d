"""``python -m bot migrate`` and ``python -m bot copy-db SOURCE TARGET``.

copy-db moves a whole SQLite database into an EMPTY PostgreSQL one: the target is migrated and every table
(matches, seats, move logs, ratings, rating history, counters, settings, claims and any table later
migrations add) copied in ONE target transaction; the row counts are compared inside it, so either
everything is there and verified, or nothing was written. The source is opened read-only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage import SchemaTooNew, StorageError, open_store
from bot.storage.sql import TABLES, code_schema_version


async def migrate_only(url: str) -> tuple[list[int], int]:
    """Apply the migrations to ``url``; (numbers applied, schema version now)."""
    store = open_store(url)
    await store.open()  # open() migrates (SQLite: after its file checks)
    try:
        return getattr(store, "applied_on_open", []), await store.schema_version()  # type: ignore[attr-defined]
    finally:
        await store.close()


def _sqlite_path(source: str) -> Path:
    if source.startswith(("postgresql://", "postgres://")):
        raise StorageError(
            "copy-db copies FROM a SQLite database: give its file (or sqlite:///path) as SOURCE."
        )
    return Path(source.removeprefix("sqlite:///"))


async def copy_db(source: str, target: str) -> dict[str, int]:
    """Copy SOURCE (SQLite) into TARGET (an empty PostgreSQL database); rows per table, verified.

    Raises:
        StorageError: one line; nothing was written to the target.
    """
    path = _sqlite_path(source)
    if not target.startswith(("postgresql://", "postgres://")):
        raise StorageError("copy-db copies INTO a PostgreSQL database: give a postgresql:// URL as TARGET.")
    if not path.is_file():
        raise StorageError(f"cannot reach the source database {path}: no such file.")
    from bot.storage.sqlite import check_file, describe

    check_file(path)
    try:
        src = await aiosqlite.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except Exception as exc:
        raise StorageError(f"cannot open the source database {path}: {exc}") from None
    try:
        try:
            names = [
                r[0]
                for r in await src.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                )
            ]
            if "schema_version" not in names:
                raise StorageError(f"the source {path} is not a Parlor database (no schema_version table).")
            found = next(iter(await src.execute_fetchall("SELECT MAX(version) FROM schema_version")))[0] or 0
        except Exception as exc:
            if isinstance(exc, StorageError):
                raise
            raise StorageError(describe(exc, str(path))) from None
        if found > code_schema_version():
            raise SchemaTooNew(found, code_schema_version(), where=f"the source {path}")
        if found < code_schema_version():
            raise StorageError(
                f"the source {path} has schema version {found}, older than this Parlor's "
                f"{code_schema_version()}: run `PARLOR_DATABASE=sqlite:///{path} python -m bot "
                "migrate` first (back it up before)."
            )
        tables = [t for t in TABLES if t in names] + sorted(
            t for t in names if t not in TABLES and t != "schema_version"
        )
        rows: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
        await src.execute("BEGIN")  # one snapshot of every table, even if a bot is still writing
        for table in tables:
            cols = [r[1] for r in await src.execute_fetchall(f'PRAGMA table_info("{table}")')]
            data = [tuple(r) for r in await src.execute_fetchall(f'SELECT {", ".join(cols)} FROM "{table}"')]
            rows[table] = (cols, data)
        await src.execute("COMMIT")
    finally:
        await src.close()
    return await _write_target(target, rows)


async def _write_target(
    target: str, rows: dict[str, tuple[list[str], list[tuple[Any, ...]]]]
) -> dict[str, int]:
    import asyncpg  # type: ignore[import-untyped]

    from bot.storage.postgres import PostgresStore, safe_url

    try:
        conn = await asyncpg.connect(target, timeout=10)
    except Exception as exc:
        raise StorageError(
            f"cannot reach the target PostgreSQL at {safe_url(target)} ({type(exc).__name__}: "
            f"{exc}): check the URL and that the server is running."
        ) from None
    try:
        existing = {
            r[0]
            for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
        for table in sorted(existing):
            if table == "schema_version":
                continue
            n = await conn.fetchval(f'SELECT COUNT(*) FROM "{table}"')
            if n:
                raise StorageError(
                    f"the target {safe_url(target)} is not empty (table {table} has {n} rows): "
                    "copy-db only fills an empty database; nothing was written."
                )
        if "schema_version" in existing:
            found = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if found > code_schema_version():
                raise SchemaTooNew(found, code_schema_version(), where=f"the target {safe_url(target)}")
        store = PostgresStore(target)
        from bot.storage.postgres import MIGRATION_LOCK, _Conn

        counts: dict[str, int] = {}
        async with conn.transaction():
            db = _Conn(conn)
            await db.execute("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)
            await store._migrate(db)
            for table, (cols, data) in rows.items():
                if data:
                    await conn.copy_records_to_table(
                        table,
                        records=data,
                        columns=cols,
                        schema_name=await conn.fetchval("SELECT current_schema()"),
                    )
                if "id" in cols:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f'GREATEST((SELECT COALESCE(MAX(id), 0) FROM "{table}"), 1), '
                        f'(SELECT COUNT(*) > 0 FROM "{table}"))'
                    )
                stored = await conn.fetchval(f'SELECT COUNT(*) FROM "{table}"')
                if stored != len(data):
                    raise StorageError(
                        f"copy-db: table {table} has {stored} rows in the target but {len(data)} in "
                        "the source; nothing was written."
                    )
                counts[table] = stored
        return counts
    finally:
        await conn.close()
