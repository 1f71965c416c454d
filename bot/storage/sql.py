"""Every Store method, written once for SQLite and PostgreSQL.

A backend subclasses :class:`SqlStore` and provides three things:

* ``_read()`` — an async context manager yielding a :class:`Conn` that sees
  committed state only, as one consistent snapshot for the whole block;
* ``_write()`` — an async context manager yielding a :class:`Conn` inside ONE
  write transaction (committed when the block ends, rolled back on error);
  writes are serialised by the backend (SQLite: one writer behind a lock;
  PostgreSQL: row locks and version checks);
* ``dialect`` — a :class:`Dialect` (placeholders, DDL words, ``FOR UPDATE``).

SQL is written with ``?`` placeholders; :meth:`Dialect.sql` turns them into
``$1, $2, …`` for asyncpg. Write portable SQL: ``ON CONFLICT … DO UPDATE``,
``RETURNING``, qualified column names in upserts (``counters.value``).
The methods live in one part per job, mixed into :class:`SqlStore`: :mod:`bot.storage.sqlbase`
(``Conn``, dialects, migrations files), :mod:`bot.storage.sql_matches`, :mod:`bot.storage.sql_ratings`,
:mod:`bot.storage.sql_timers` (deadlines, reminders, archives, claims), :mod:`bot.storage.sql_settings`,
:mod:`bot.storage.sql_lessons` (lesson progress), :mod:`bot.storage.sql_puzzles` (puzzle results, the
daily puzzle), :mod:`bot.storage.sql_languages` (players' and servers' languages) and
:mod:`bot.storage.tournaments`; the migrations run
from here.
"""

from __future__ import annotations

import time
from contextlib import AbstractAsyncContextManager

from bot.storage.records import SchemaTooNew
from bot.storage.sql_chores import ChoreSql
from bot.storage.sql_languages import LanguageSql
from bot.storage.sql_lessons import LessonSql
from bot.storage.sql_matches import MATCH_COLUMNS, MatchSql, _match_values, _row_to_match
from bot.storage.sql_puzzles import PuzzleSql
from bot.storage.sql_ratings import RATING_COLUMNS, RatingSql, _rating
from bot.storage.sql_settings import SettingsSql
from bot.storage.sql_timers import TimerSql
from bot.storage.sqlbase import (
    ACTIVE_MARKS,
    MIGRATIONS,
    POSTGRES,
    SQLITE,
    Conn,
    Dialect,
    SqlBase,
    code_schema_version,
    dumps,
    loads,
    marks,
    migrations,
    split_statements,
)
from bot.storage.tournaments import TournamentSql

__all__ = [
    "ACTIVE_MARKS",
    "MATCH_COLUMNS",
    "MIGRATIONS",
    "POSTGRES",
    "RATING_COLUMNS",
    "SQLITE",
    "TABLES",
    "Conn",
    "Dialect",
    "LanguageSql",
    "LessonSql",
    "MatchSql",
    "RatingSql",
    "SettingsSql",
    "SqlBase",
    "SqlStore",
    "TimerSql",
    "_match_values",
    "_rating",
    "_row_to_match",
    "code_schema_version",
    "dumps",
    "loads",
    "marks",
    "migrations",
    "split_statements",
]

TABLES = (
    "guild_settings",
    "matches",
    "seats",
    "moves",
    "ratings",
    "rating_history",
    "counters",
    "claims",
    "notify_prefs",
)
"""Tables copied by ``copy-db`` (in foreign-key order); tables added by later migrations are found by name."""


class SqlStore(MatchSql, SettingsSql, ChoreSql, LessonSql, PuzzleSql, LanguageSql, TournamentSql):
    """The :class:`bot.storage.Store` methods over :class:`Conn`; backends add connections.

    Tournament tables (migration 004): :class:`bot.storage.tournaments.TournamentSql`, same pattern."""

    dialect: Dialect = SQLITE
    applied_on_open: list[int] = []  # noqa: RUF012 - replaced per instance by _migrate
    poll_interval: float = 60.0
    """How often the scheduler looks at the database unwoken (for other processes' deadlines)."""

    # -- provided by the backend (see SqlBase) -------------------------------------------------

    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """One write transaction for callers that need several statements at once (other modules' tables)."""
        return self._write()

    # -- migrations -------------------------------------------------------------------------

    async def _migrate(self, db: Conn) -> list[int]:
        """Apply the migrations not yet recorded in ``db`` (already inside a write transaction)."""
        await db.execute(
            self.dialect.ddl(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at REAL "
                "NOT NULL)"
            )
        )
        done = {r[0] for r in await db.fetch("SELECT version FROM schema_version")}
        known = code_schema_version()
        if done and max(done) > known:
            raise SchemaTooNew(max(done), known)
        applied = []
        for number, script in migrations():
            if number in done:
                continue
            for statement in split_statements(script):
                await db.execute(self.dialect.ddl(statement))
            await db.execute("INSERT INTO schema_version VALUES (?, ?)", number, time.time())
            applied.append(number)
        self.applied_on_open = applied
        return applied

    async def schema_version(self) -> int:
        async with self._read() as db:
            return int(await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version") or 0)
