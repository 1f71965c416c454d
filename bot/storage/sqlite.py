"""The SQLite backend (aiosqlite): WAL, one connection behind one lock, numbered migrations.

Concurrency (measured in ``bench/store_concurrency.py``):

* **Writes** go through ONE writer connection behind an :class:`asyncio.Lock`. A
  write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) holds the lock for its whole
  life, so actions of different matches never interleave statements on one
  connection, and a match action (version check, state, seats, move log, ratings
  read and written, rating history, counters) is one transaction.
* **Reads** take the same lock and run on the same connection, between write
  transactions: a handler only ever sees committed state (never a match whose
  seats are being rewritten), and a multi-statement read is one consistent view.
  ``readers=N`` instead gives N separate read-only WAL connections; measured with
  ``bench/store_concurrency.py`` on 2 cores, one connection was as fast or faster
  at every concurrency (1–100 matches acting at once, also with long listings
  running), because every connection is a thread competing for the GIL, and a
  connection per write transaction was 4–6× slower with p99 in seconds.
* Every write to a match is guarded by a version check (``UPDATE … WHERE id = ?
  AND version = ?``), so two clicks can never both apply a move.

Opening checks the file first (unreadable, read-only, not a database, truncated,
schema newer than the code) and raises :class:`bot.storage.StorageError` with one
line for the operator, without writing to the file. Only one process may use a
database file at a time (an exclusive lock on ``<file>.lock``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import stat
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.errors import NotSaved
from bot.i18n import _
from bot.storage.records import MatchRecord, StorageError
from bot.storage.sql import SQLITE, Conn, SqlStore, code_schema_version, migrations  # noqa: F401 (re-export)
from bot.storage.sql_matches import MATCH_COLUMNS, SEAT_CHUNK, _row_to_match, attach_seats, seats_query

log = logging.getLogger(__name__)

READERS = 0
"""Separate read connections (each a thread in aiosqlite); 0 (the default, the fastest measured): reads share
the writer connection and its lock."""

HEADER = b"SQLite format 3\x00"


def _exec_count(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> int:
    cur = conn.execute(sql, args)
    n = cur.rowcount
    cur.close()
    return n


def _exec_fetchrow(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> Any | None:
    cur = conn.execute(sql, args)
    try:
        return cur.fetchone()
    finally:
        cur.close()


def _matches_with_seats(conn: sqlite3.Connection, where: str,
                        params: tuple[Any, ...]) -> tuple[list[Any], list[Any]]:
    """In a reader's thread, in one transaction (one snapshot): the matching rows and their seats."""
    if conn.in_transaction:  # left open by a cancelled read (see _begin)
        conn.execute("ROLLBACK")
    conn.execute("BEGIN")
    try:
        rows = conn.execute(f"SELECT {MATCH_COLUMNS}, rev FROM matches WHERE {where}", params).fetchall()
        ids = [r[0] for r in rows]
        seats: list[Any] = []
        for start in range(0, len(ids), SEAT_CHUNK):
            chunk = ids[start:start + SEAT_CHUNK]
            seats += conn.execute(seats_query(len(chunk)), chunk).fetchall()
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")
    return rows, seats


def _exec_one(conn: sqlite3.Connection, sql: str, args_otherwise: tuple[Sequence[Any], Exception]) -> int:
    args, otherwise = args_otherwise
    if _exec_count(conn, sql, args) != 1:
        raise otherwise
    return 1


def _exec_many(conn: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> int:
    cur = conn.executemany(sql, rows)
    n = cur.rowcount
    cur.close()
    return n


def _exec_fetchall(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> list[Any]:
    cur = conn.execute(sql, args)
    try:
        return cur.fetchall()
    finally:
        cur.close()


def _begin_in_thread(conn: sqlite3.Connection, statement: str, _args: Sequence[Any] = ()) -> int:
    """``statement`` (a BEGIN), first ending a transaction a cancelled task left open (see :func:`_begin`)."""
    if conn.in_transaction:
        log.warning("ending a transaction a cancelled task left open")
        conn.execute("ROLLBACK")
    conn.execute(statement)
    return 0


Step = tuple[Callable[[sqlite3.Connection, str, Any], Any], str, Any]


def _steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> Any:
    """In the connection's thread: the statements in order; the last one's result. The first that fails
    raises, and none after it runs."""
    result = None
    for fn, sql, args in steps:
        result = fn(conn, sql, args)
    return result


class _Conn:
    """:class:`bot.storage.sql.Conn` over an aiosqlite connection, one trip per result.

    Every trip to the connection's thread waits for the event loop twice (there and back), so the statements
    whose result is not needed (``write``, ``executemany``, and the transaction's ``BEGIN``) are not sent on
    their own: they wait here and go with the next statement that has a result, or with the ``COMMIT``, all
    in one trip, run in order and stopping at the first that fails. A move's transaction (``BEGIN``, the
    versioned ``UPDATE`` checked in the thread by ``write_one``, seats, moves, claims, ``COMMIT``) is one
    trip, made while the event loop draws the new board; it was three, plus one per statement in between.
    """

    __slots__ = ("db", "pending")

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.pending: list[Step] = []

    async def _run(self, fn: Callable[[sqlite3.Connection, str, Any], Any], sql: str, args: Any) -> Any:
        steps, self.pending = self.pending, []
        steps.append((fn, sql, args))
        return await _in_thread(self.db, _steps, steps)

    def begin(self, statement: str) -> None:
        """Start the transaction with the next trip (ending one a cancelled task left open: see _begin)."""
        self.pending.append((_begin_in_thread, statement, ()))

    async def flush(self) -> None:
        """Run the statements still waiting; the first one that fails raises."""
        if self.pending:
            last = self.pending.pop()
            await self._run(*last)

    def settle(self) -> None:
        """Forget the statements still waiting (before a rollback: none may run after it). Nothing else is
        under way: every trip is awaited by the statement that made it."""
        self.pending.clear()

    async def execute(self, sql: str, *args: Any) -> int:
        return int(await self._run(_exec_count, sql, args))

    async def write(self, sql: str, *args: Any) -> None:
        self.pending.append((_exec_count, sql, args))

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        self.pending.append((_exec_one, sql, (args, otherwise)))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.pending.append((_exec_many, sql, list(rows)))

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._run(_exec_fetchall, sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        return await self._run(_exec_fetchrow, sql, args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]


# Locks held by this process, per database file: several stores of one process may share a file
# (tests, a restart inside one process); another process may not.
_HELD: dict[str, tuple[int, int]] = {}  # real path -> (fd, users)


def _lock_file(path: Path) -> str:
    key = str(path.resolve())
    held = _HELD.get(key)
    if held is not None:
        _HELD[key] = (held[0], held[1] + 1)
        return key
    import fcntl

    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        finally:
            os.close(fd)
        raise StorageError(
            f"{path} is already in use by another Parlor process (pid {other}): SQLite serves one process; "
            "stop the other one, or use PostgreSQL (PARLOR_DATABASE=postgresql://…) to run several."
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    _HELD[key] = (fd, 1)
    return key


def _unlock_file(key: str) -> None:
    held = _HELD.get(key)
    if held is None:
        return
    fd, users = held
    if users > 1:
        _HELD[key] = (fd, users - 1)
        return
    del _HELD[key]
    os.close(fd)  # closing releases the flock


def _readable(p: Path, st: os.stat_result) -> bool:
    return os.access(p, os.R_OK) and bool(st.st_mode & 0o444)


def _writable(p: Path, st: os.stat_result) -> bool:
    return os.access(p, os.W_OK) and bool(st.st_mode & 0o222)


def check_file(path: Path) -> None:
    """Refuse a database file Parlor cannot safely use, before anything touches it.

    Raises:
        StorageError: one line: what is wrong, which file, what to do.
    """
    folder = path.parent
    if not folder.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(
                f"cannot create the database folder {folder}: {exc.strerror}; create it or point "
                "PARLOR_DATABASE elsewhere."
            ) from None
    fst = folder.stat()
    if not _writable(folder, fst):
        raise StorageError(
            f"the database folder {folder} is read-only (SQLite writes its journal there): make it "
            "writable for the bot's user, or point PARLOR_DATABASE at a writable folder."
        )
    if not path.exists():
        return
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        raise StorageError(f"{path} is not a regular file: point PARLOR_DATABASE at a database file.")
    if not _readable(path, st):
        raise StorageError(
            f"cannot read the database file {path} (permission denied): give the bot's user read "
            "and write access to it."
        )
    if not _writable(path, st):
        raise StorageError(
            f"the database file {path} is read-only: make it writable for the bot's user "
            f"(e.g. chmod u+w {path})."
        )
    if st.st_size == 0:
        return  # an empty file is a new database
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise StorageError(
            f"cannot read the database file {path}: {exc.strerror}; check the disk and its permissions."
        ) from None
    if not head.startswith(HEADER):
        raise StorageError(
            f"{path} is not a SQLite database (corrupt, or another kind of file): restore it from a "
            "backup, or move it away to start with an empty database."
        )
    if len(head) < 100:
        raise StorageError(
            f"the database file {path} is truncated ({st.st_size} bytes): restore it from a backup."
        )
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    valid_for = int.from_bytes(head[92:96], "big")
    change = int.from_bytes(head[24:28], "big")
    if pages and valid_for == change and st.st_size < pages * page_size:
        raise StorageError(
            f"the database file {path} is truncated ({st.st_size} of {pages * page_size} bytes): "
            "restore it from a backup."
        )


def describe(exc: BaseException, path: str) -> str:
    """One line for an error SQLite raised while opening ``path``."""
    text = str(exc)
    if "malformed" in text or "not a database" in text:
        return (  # (operator messages: the start-up's error, like the logs)
            f"the database file {path} is corrupt ({text}): restore it from a backup, "  # not translated
            "or move it away to start with an empty database."
        )
    if "readonly" in text or "read-only" in text:
        return (f"the database file {path} is read-only ({text}): "  # not translated: operator
                "make the file and its folder writable.")
    if "unable to open" in text:
        return (f"cannot open the database file {path} ({text}): "  # not translated: operator
                "check the path and its permissions.")
    return (f"cannot use the database file {path} ({text}): "  # not translated: operator
            "check the file, the disk and their permissions.")


class SqliteStore(SqlStore):
    """:class:`bot.storage.Store` on one SQLite file.

    ``readers=0`` reads on the writer connection, in turn with the writes (one connection
    for everything; what ``:memory:`` uses, and one of the bench's options).
    """

    dialect = SQLITE

    def __init__(self, path: str, *, readers: int = READERS) -> None:
        self.path = path
        self.readers = 0 if path == ":memory:" else readers
        self._db: aiosqlite.Connection | None = None
        self._wlock = asyncio.Lock()
        self._pool: asyncio.Queue[aiosqlite.Connection] | None = None
        self._read_conns: list[aiosqlite.Connection] = []
        self._lock_key: str | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        """The writer connection (tests peek at PRAGMAs through it)."""
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def open(self) -> None:
        """Check the file, take the process lock, apply migrations, open the readers.

        Raises:
            StorageError: the file cannot be used (nothing was written to it).
            SchemaTooNew: the database was written by a newer Parlor.
        """
        if self.path != ":memory:":
            p = Path(self.path)
            check_file(p)
            self._lock_key = _lock_file(p)
        try:
            await self._open_connections()
        except BaseException:
            await self.close()
            raise

    async def _connect(self, *, read_only: bool) -> aiosqlite.Connection:
        if read_only:
            uri = f"{Path(self.path).resolve().as_uri()}?mode=ro"
            db = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        else:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA busy_timeout=5000")
        return db

    async def _open_connections(self) -> None:
        from bot.storage.records import SchemaTooNew

        try:
            self._db = await self._connect(read_only=False)
            # Read the schema version before changing anything (journal mode, migrations).
            row = await (
                await self._db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
                )
            ).fetchone()
            if row is not None:
                found = await _Conn(self._db).fetchval("SELECT MAX(version) FROM schema_version")
                if found is not None and found > code_schema_version():
                    where = f"the database {self.path}"  # not translated: operator message
                    raise SchemaTooNew(found, code_schema_version(), where=where)
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")  # durable across process crashes in WAL mode
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self.migrate()
            async with self._write() as db:
                # Claims (bot.storage.sql.SqlStore.claim) are for processes sharing a database; a SQLite file
                # has one process (the lock above), so any claim found now was left by a process that died:
                # its computer moves and deadlines are this process's to take at once.
                await db.execute("DELETE FROM claims")
            if self.readers:
                self._pool = asyncio.Queue()
                for _i in range(self.readers):
                    conn = await self._connect(read_only=True)
                    self._read_conns.append(conn)
                    self._pool.put_nowait(conn)
        except sqlite3.DatabaseError as exc:
            raise StorageError(describe(exc, self.path)) from exc

    async def close(self) -> None:
        for conn in self._read_conns:
            await conn.close()
        self._read_conns.clear()
        self._pool = None
        if self._db is not None:
            await self._db.close()
            self._db = None
        if self._lock_key is not None:
            _unlock_file(self._lock_key)
            self._lock_key = None

    async def migrate(self) -> list[int]:
        """Apply the migrations not yet recorded; returns the numbers applied."""
        async with self._write() as db:
            return await self._migrate(db)

    async def _select_matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        """Matches with their seats, read in one trip to a reader's thread (one snapshot: BEGIN, the two
        SELECTs, COMMIT) instead of four: every click reads its match first."""
        if self._pool is None:  # the one connection, between write transactions
            async with self._wlock:
                rows, seats = await _in_thread(self.db, _matches_with_seats, where, tuple(params))
        else:
            conn = await self._pool.get()
            try:
                rows, seats = await _in_thread(conn, _matches_with_seats, where, tuple(params))
            finally:
                self._pool.put_nowait(conn)
        return attach_seats([_row_to_match(r) for r in rows], seats)

    # -- connections --------------------------------------------------------------------

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        if self._pool is None:  # one connection for everything: reads wait for the writer
            async with self._wlock:
                reads = _Conn(self.db)
                yield reads
                await reads.flush()  # reads queue nothing; were one written here, it is done here
            return
        conn = await self._pool.get()
        try:
            await _begin(conn, "BEGIN")  # one snapshot for the whole block (WAL: never blocks the writer)
            reads = _Conn(conn)
            try:
                yield reads
                await reads.flush()
            finally:
                reads.settle()
                if conn.in_transaction:
                    await conn.execute("COMMIT")
        finally:
            self._pool.put_nowait(conn)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Conn]:
        async with self._wlock:
            db = self.db
            conn = _Conn(db)
            try:
                conn.begin("BEGIN IMMEDIATE")  # sent with the transaction's first trip
                yield conn
                await conn.execute("COMMIT")  # with the statements still waiting: one trip
            except BaseException as exc:
                conn.settle()  # nothing waiting may run after the rollback
                if db.in_transaction:
                    try:
                        await db.execute("ROLLBACK")
                    except sqlite3.Error:  # never hide the real cause behind a failed rollback
                        log.warning("rollback after %r failed", exc, exc_info=True)
                if isinstance(exc, sqlite3.OperationalError) and _is_storage_fault(exc):
                    log.error("database write to %s failed: %s", self.path, exc, exc_info=exc)
                    raise NotSaved(
                        _("That was not saved: the bot's database cannot be written right now "
                          "(the server's disk may be full). Nothing changed; please tell the bot's "
                          "operator.")
                    ) from exc
                raise


async def _begin(db: aiosqlite.Connection, statement: str) -> None:
    """Start a transaction, first ending one a cancelled task left open on this connection.

    Runs in the connection's own thread, after everything queued before it (aiosqlite is FIFO): a
    ``BEGIN`` whose awaiting task was cancelled has run by then, and is ended here instead of making
    this ``BEGIN`` fail with "cannot start a transaction within a transaction". The caller holds the
    connection exclusively (the write lock, or a reader taken from the pool), so an open transaction
    can only be such a leftover.
    """

    await _in_thread(db, _begin_in_thread, statement)


async def _in_thread(db: aiosqlite.Connection, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(connection, *args)`` in the connection's own thread: one trip (aiosqlite's own calls each make
    several)."""
    run_in_thread: Callable[..., Awaitable[Any]] = db._execute  # aiosqlite leaves _execute unannotated
    return await run_in_thread(fn, db._conn, *args)


def _is_storage_fault(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    words = ("full", "disk i/o", "readonly", "read-only", "no such file")  # not translated: SQLite's words
    return any(word in text for word in words)
