"""Storage: records and the :class:`Store` interface the rest of the bot uses.

Callers never write SQL; they call intent-named methods. Storage knows JSON, not games.
``PARLOR_DATABASE`` picks the backend (:func:`open_store`): SQLite (``bot.storage.sqlite``,
the default) or PostgreSQL (``bot.storage.postgres``, asyncpg).

Adding a Store method (the pattern; one method serves both backends)
--------------------------------------------------------------------
1. Declare it in :class:`Store` below.
2. Write it ONCE, with ``?`` placeholders, in the SQL part of :class:`bot.storage.sql.SqlStore` it belongs
   to (``sql_matches``, ``sql_ratings``, ``sql_timers``, ``sql_settings``, ``tournaments``; a new job gets
   its own ``SqlBase`` subclass mixed into ``SqlStore``)::

       async def reminders_due(self, now: float) -> list[int]:
           async with self._read() as db:           # committed state, one consistent snapshot
               rows = await db.fetch("SELECT match_id FROM reminders WHERE due <= ?", now)
           return [r[0] for r in rows]

       async def add_reminder(self, match_id: int, due: float) -> None:
           async with self._write() as db:          # ONE write transaction, serialised by the backend
               await db.execute("INSERT INTO reminders (match_id, due) VALUES (?, ?) "
                                "ON CONFLICT (match_id) DO UPDATE SET due = excluded.due", match_id, due)

   ``db`` is a :class:`bot.storage.sql.Conn`: ``execute`` (returns rows affected), ``executemany``,
   ``fetch``, ``fetchrow``, ``fetchval``; rows index by position and by name. PostgreSQL gets
   ``$1, $2…`` automatically. Portable SQL: ``ON CONFLICT … DO UPDATE``, ``RETURNING id`` (not
   ``lastrowid``), table-qualified columns in upsert expressions (``counters.value + excluded.value``),
   ``self.dialect.for_update`` after a SELECT that decides a write (row lock on PostgreSQL).
   Never read with ``_read()`` to decide a write: read inside the ``_write()`` block instead.
3. Tables: a new numbered file in ``bot/storage/migrations/`` (SQLite spelling: ``INTEGER``, ``REAL``,
   ``TEXT``, ``INTEGER PRIMARY KEY AUTOINCREMENT``); :meth:`bot.storage.sql.Dialect.ddl` turns it into
   PostgreSQL (``BIGINT``, ``DOUBLE PRECISION``, identity). ``copy-db`` copies every table it finds.
4. The storage tests run against both backends (``tests/platform/conftest.py``'s ``any_store``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from bot.storage.records import (
    ACTIVE,
    JSON,
    ComputerResult,
    GuildSettings,
    MatchRecord,
    MoveRecord,
    NotifyMode,
    RatingChange,
    RatingRow,
    RatingUpdate,
    SchemaTooNew,
    SeatRecord,
    Status,
    StorageError,
    VersionConflict,
)

if TYPE_CHECKING:
    from bot.storage.tournaments import EntrantRecord, PairingRecord, TournamentChange, TournamentRecord

__all__ = [
    "ACTIVE",
    "JSON",
    "ComputerResult",
    "GuildSettings",
    "MatchRecord",
    "MoveRecord",
    "NotifyMode",
    "RatingChange",
    "RatingRow",
    "RatingUpdate",
    "SchemaTooNew",
    "SeatRecord",
    "Status",
    "StorageError",
    "Store",
    "VersionConflict",
    "open_store",
]


class Store(Protocol):
    """What the bot needs from a database."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    async def create_match(self, match: MatchRecord) -> int: ...
    async def load_match(self, match_id: int) -> MatchRecord | None: ...
    async def save_match(
        self,
        match: MatchRecord,
        expected_version: int,
        *,
        new_moves: Sequence[MoveRecord] = (),
        rate: RatingUpdate | None = None,
        counters: Sequence[tuple[int, str, int]] = (),
        ai_claim: tuple[str, float] | None = None,
    ) -> list[RatingChange]: ...
    async def set_place(
        self, match_id: int, *, thread_id: int | None = None, message_id: int | None = None
    ) -> None: ...
    async def moves(self, match_id: int) -> list[MoveRecord]: ...
    async def active_matches(self, *, guild_id: int | None = None) -> list[MatchRecord]: ...
    async def matches_in_place(self, place_id: int, *, active_only: bool = True) -> list[MatchRecord]: ...
    async def active_matches_of_user(self, user_id: int, game: str | None = None) -> list[MatchRecord]: ...
    async def active_ids_with_components(self) -> list[int]: ...
    async def next_deadline(self) -> float | None: ...
    async def due_matches(self, now: float) -> list[int]: ...
    async def next_timer(self) -> float | None: ...
    async def due_reminders(self, now: float) -> list[int]: ...
    async def claim_reminder(self, match_id: int, remind_at: float) -> bool: ...
    async def due_archives(self, now: float) -> list[int]: ...
    async def clear_archive(self, match_id: int) -> None: ...
    async def latest_finished_in_place(self, place_id: int) -> MatchRecord | None: ...
    async def played_in_guild(self, guild_id: int, *, user_id: int | None = None, game: str | None = None,
                              limit: int = 25) -> list[MatchRecord]: ...
    async def set_board_version(self, match_id: int, version: int) -> None: ...
    async def stale_boards(self) -> list[int]: ...

    async def notify_modes(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, NotifyMode]: ...
    async def set_notify_mode(
        self, guild_id: int, user_id: int, mode: NotifyMode, dm_channel_id: int | None = None
    ) -> None: ...
    async def dm_channel(self, user_id: int) -> int | None: ...

    async def claim(self, kind: str, key: int, owner: str, lease: float) -> bool: ...
    async def release(self, kind: str, key: int, owner: str) -> None: ...
    async def lapsed_claims(self, kind: str, now: float) -> list[int]: ...
    async def next_claim_expiry(self, kind: str) -> float | None: ...

    poll_interval: float

    async def ratings(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, RatingRow]: ...
    async def top_ratings(self, guild_id: int, game: str, limit: int = 10) -> list[RatingRow]: ...
    async def rating_rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None: ...
    async def user_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]: ...
    async def rating_history(self, guild_id: int, game: str, user_id: int) -> list[tuple[float, float]]: ...
    async def reset_ratings(self, guild_id: int, game: str | None = None) -> int: ...
    async def counters(self, guild_id: int, user_id: int) -> dict[tuple[str, str], int]: ...
    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResult]: ...

    # -- tournaments (issue 17; SQL in bot/storage/tournaments.py, migration 004) --------------------
    async def create_tournament(self, t: TournamentRecord) -> int: ...
    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None: ...
    async def tournaments_in_guild(
        self, guild_id: int, *, active_only: bool = True, limit: int = 25
    ) -> list[TournamentRecord]: ...
    async def active_tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentRecord]: ...
    async def save_tournament(
        self, t: TournamentRecord, expected_version: int, change: TournamentChange | None = None
    ) -> None: ...
    async def entrants(self, tournament_id: int) -> list[EntrantRecord]: ...
    async def pairings(self, tournament_id: int, round: int | None = None) -> list[PairingRecord]: ...
    async def pairing_of_match(self, match_id: int) -> tuple[int, PairingRecord] | None: ...
    async def create_pairing_match(
        self, tournament_id: int, round: int, board: int, match: MatchRecord
    ) -> int: ...
    async def next_tournament_deadline(self) -> float | None: ...
    async def due_tournaments(self, now: float) -> list[int]: ...
    async def running_tournaments(self) -> list[int]: ...
    async def tournament_settings(self, guild_id: int) -> tuple[int | None, int]: ...
    async def save_tournament_settings(
        self, guild_id: int, organiser_role: int | None, max_events: int
    ) -> None: ...


def open_store(url: str) -> Store:
    """The backend for a ``PARLOR_DATABASE`` URL."""
    if url.startswith("sqlite:///"):
        from bot.storage.sqlite import SqliteStore

        return SqliteStore(url.removeprefix("sqlite:///"))
    if url.startswith(("postgresql://", "postgres://")):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(url)
    raise ValueError(f"unsupported database URL: {url}")
