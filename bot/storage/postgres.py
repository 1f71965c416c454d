"""The PostgreSQL backend (asyncpg): the same methods as SQLite (``bot.storage.sql``), for several processes.

* Reads: a pooled connection in a read-only REPEATABLE READ transaction (one committed snapshot).
* Writes: a pooled connection in one READ COMMITTED transaction per action. Per-match serialisation is
  the version check (``UPDATE … WHERE id = ? AND version = ?``): a concurrent writer of the same match
  waits for the row lock, then finds the version moved on and gets :class:`VersionConflict` — in every
  process. Ratings updated by a transaction are locked first (advisory transaction locks per player,
  taken in one order, which also covers players who have no rating row yet), so two matches of the same
  player ending at once are both applied, one after the other.
* Migrations: the same numbered files, turned into PostgreSQL DDL by :data:`bot.storage.sql.POSTGRES`,
  applied under an advisory lock so two processes starting together do not both apply them.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]

from bot.errors import NotSaved
from bot.i18n import _
from bot.storage.records import StorageError
from bot.storage.sql import POSTGRES, Conn, SqlStore

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x7061726C6F72  # "parlor"


def safe_url(url: str) -> str:
    """The URL without its password (for messages)."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def lock_key(*parts: Any) -> int:
    """A signed 64-bit advisory-lock key for ``parts``."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class _Conn:
    """:class:`bot.storage.sql.Conn` over an asyncpg connection (``?`` becomes ``$n``)."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self.conn.execute(POSTGRES.sql(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def write(self, sql: str, *args: Any) -> None:
        await self.conn.execute(POSTGRES.sql(sql), *args)

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        if await self.execute(sql, *args) != 1:
            raise otherwise

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(POSTGRES.sql(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self.conn.fetch(POSTGRES.sql(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        return await self.conn.fetchrow(POSTGRES.sql(sql), *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(POSTGRES.sql(sql), *args)


_WRITE_FAULTS = (
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
    asyncpg.exceptions.PostgresSystemError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    ConnectionError,
)


class PostgresStore(SqlStore):
    """:class:`bot.storage.Store` on a PostgreSQL database shared by any number of processes."""

    dialect = POSTGRES
    poll_interval = 2.0  # other processes' deadlines and lapsed claims are noticed within seconds

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.min_size, self.max_size = min_size, max_size
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    async def open(self) -> None:
        """Connect and apply migrations.

        Raises:
            StorageError: the server cannot be reached or refuses us (one line, nothing written).
            SchemaTooNew: the database was written by a newer Parlor (nothing written).
        """
        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=self.min_size, max_size=self.max_size, timeout=10, command_timeout=60
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
            raise StorageError(
                f"cannot reach PostgreSQL at {safe_url(self.url)} ({type(exc).__name__}: "
                f"{str(exc) or 'no answer'}): check PARLOR_DATABASE and that the server is running."
            ) from None
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def migrate(self) -> list[int]:
        from bot.storage.records import SchemaTooNew

        try:
            async with self._write() as db:
                await db.execute("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)
                return await self._migrate(db)
        except SchemaTooNew as exc:
            where = f"the database {safe_url(self.url)}"  # not translated: operator message
            raise SchemaTooNew(exc.found, exc.known, where=where) from None

    # -- connections --------------------------------------------------------------------

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            yield _Conn(conn)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Conn]:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield _Conn(conn)
        except _WRITE_FAULTS as exc:
            log.error("database write to %s failed: %s", safe_url(self.url), exc, exc_info=exc)
            raise NotSaved(
                _("That was not saved: the bot's database cannot be written right now. Nothing changed; "
                  "please tell the bot's operator.")
            ) from exc

    async def _ratings_for_update(
        self, db: Conn, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, Any]:
        # Row locks cannot lock a player who has no row yet: an advisory lock per player can.
        for key in sorted(lock_key("rating", guild_id, game, uid) for uid in set(user_ids)):
            await db.execute("SELECT pg_advisory_xact_lock(?)", key)
        return await super()._ratings_for_update(db, guild_id, game, user_ids)
