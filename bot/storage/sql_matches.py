"""Matches, seats and moves in SQL: create, load, the one-transaction save, places, lookups, boards."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from bot.storage.records import (
    ACTIVE,
    MatchRecord,
    MoveRecord,
    NotifyMode,
    RatingChange,
    RatingUpdate,
    SeatRecord,
    Status,
    VersionConflict,
)
from bot.storage.sql_ratings import RatingSql
from bot.storage.sql_timers import TimerSql
from bot.storage.sqlbase import ACTIVE_MARKS, Conn, dumps, loads, marks

MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, message_id, status, options, "  # not translated: SQL
    "state, version, seed, host_id, "
    "rated, turn_limit, deadline, clocks, outcome, ui, created_at, updated_at, finished_at, remind_at, "
    "archive_at"
)
"""The columns a match is created with (the revision ``rev`` starts at 0 and is read besides them)."""


def _match_values(m: MatchRecord) -> tuple[Any, ...]:
    return (
        m.game,
        m.guild_id,
        m.channel_id,
        m.thread_id,
        m.message_id,
        m.status.value,
        dumps(m.options),
        dumps(m.state),
        m.version,
        m.seed,
        m.host_id,
        int(m.rated),
        m.turn_limit,
        m.deadline,
        dumps(m.clocks),
        dumps(m.outcome),
        dumps(m.ui) or "{}",
        m.created_at,
        m.updated_at,
        m.finished_at,
        m.remind_at,
        m.archive_at,
    )


SEAT_CHUNK = 500
"""Matches whose seats one query reads."""


def seats_query(n: int) -> str:
    """The seats of ``n`` matches (their ids are the parameters), in order, each with its member's ``/notify``
    choice in the match's server (``NULL``: none stored, the default)."""
    return ("SELECT s.match_id, s.seat, s.user_id, s.name, s.ai_level, s.data, n.mode FROM seats s "
            "JOIN matches m ON m.id = s.match_id "
            "LEFT JOIN notify_prefs n ON n.guild_id = m.guild_id AND n.user_id = s.user_id "
            f"WHERE s.match_id IN ({marks(n)}) ORDER BY s.match_id, s.seat")


def attach_seats(matches: list[MatchRecord], rows: list[Any]) -> list[MatchRecord]:
    """``matches`` with the seat rows of :func:`seats_query` added to them."""
    by_id = {m.id: m for m in matches}
    for r in rows:
        by_id[r[0]].seats.append(SeatRecord(r[1], r[2], r[3], r[4], loads(r[5]) or {},
                                            NotifyMode(r[6]) if r[6] else NotifyMode.THREAD))
    return matches


def _row_to_match(row: Any) -> MatchRecord:
    return MatchRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        status=Status(row["status"]),
        options=loads(row["options"]),
        state=loads(row["state"]),
        version=row["version"],
        seed=row["seed"],
        host_id=row["host_id"],
        rated=bool(row["rated"]),
        turn_limit=row["turn_limit"],
        deadline=row["deadline"],
        clocks=loads(row["clocks"]),
        outcome=loads(row["outcome"]),
        ui=loads(row["ui"]) or {},
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        remind_at=row["remind_at"],
        archive_at=row["archive_at"],
        rev=row["rev"],
    )


class MatchSql(RatingSql, TimerSql):
    """The match tables' part of :class:`bot.storage.sql.SqlStore`; ``save_match`` also writes ratings
    (:class:`RatingSql`) and the computer-move claim (:class:`TimerSql`) in its transaction."""

    async def create_match(self, match: MatchRecord) -> int:
        async with self._write() as db:
            await self._insert_match(db, match)
        return match.id

    async def _insert_match(self, db: Conn, match: MatchRecord) -> int:
        """Insert a match and its seats in the caller's write transaction; sets and returns ``match.id``."""
        match.id = int(
            await db.fetchval(
                f"INSERT INTO matches ({MATCH_COLUMNS.removeprefix('id, ')}) VALUES ({marks(22)}) RETURNING "
                "id",
                *_match_values(match),
            )
        )
        await self._write_seats(db, match, fresh=True)
        return match.id

    @staticmethod
    async def _write_seats(db: Conn, match: MatchRecord, *, fresh: bool = False) -> None:
        """Seats updated in place: upsert every seat, delete only seats that really left."""
        if match.seats:
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, ai_level, data) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id, name = "
                "excluded.name, "
                "ai_level = excluded.ai_level, data = excluded.data",
                [
                    (match.id, s.seat, s.user_id, s.name, s.ai_level, dumps(s.data) or "{}")
                    for s in match.seats
                ],
            )
        if not fresh:
            await db.write("DELETE FROM seats WHERE match_id = ? AND seat >= ?", match.id, len(match.seats))

    @staticmethod
    async def _attach_seats(db: Conn, matches: list[MatchRecord]) -> list[MatchRecord]:
        ids = [m.id for m in matches]
        rows = []
        for start in range(0, len(ids), SEAT_CHUNK):
            chunk = ids[start : start + SEAT_CHUNK]
            rows += await db.fetch(seats_query(len(chunk)), *chunk)
        return attach_seats(matches, rows)

    async def _select_matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        async with self._read() as db:
            rows = await db.fetch(f"SELECT {MATCH_COLUMNS}, rev FROM matches WHERE {where}", *params)
            return await self._attach_seats(db, [_row_to_match(r) for r in rows])

    async def load_match(self, match_id: int) -> MatchRecord | None:
        found = await self._select_matches("id = ?", (match_id,))
        return found[0] if found else None

    async def save_match(
        self,
        match: MatchRecord,
        expected_version: int,
        *,
        new_moves: Sequence[MoveRecord] = (),
        rate: RatingUpdate | None = None,
        counters: Sequence[tuple[int, str, int]] = (),
        ai_claim: tuple[str, float] | None = None,
    ) -> list[RatingChange]:
        """Write the whole match action in ONE transaction and return the rating changes it made.

        The version check, state, seats, new moves, the ratings read and written (``rate`` computes the
        changes from the ratings as they are inside this transaction, so two matches of the same
        players ending at once chain correctly), rating history and counters. ``ai_claim`` =
        ``(owner, lease_until)`` records that the computer must move next (see :meth:`claim`); without
        it any pending computer-move claim of the match is cleared.

        Raises:
            VersionConflict: the stored version is no longer ``expected_version``.
        """
        async with self._write() as db:
            await db.write_one(
                "UPDATE matches SET guild_id=?, channel_id=?, thread_id=?, message_id=?, status=?, "
                "options=?, "
                "state=?, version=?, seed=?, host_id=?, rated=?, turn_limit=?, deadline=?, clocks=?, "
                "outcome=?, "
                "ui=?, created_at=?, updated_at=?, finished_at=?, remind_at=?, archive_at=?, rev=rev + 1 "
                "WHERE id=? AND version=? AND rev=?",
                *_match_values(match)[1:],
                match.id,
                expected_version,
                match.rev,
                otherwise=VersionConflict(  # (retried; never shown)
                    f"match {match.id} is no longer at version {expected_version} "  # not translated: log
                    f"(revision {match.rev})"),
            )
            await self._write_seats(db, match)
            if new_moves:
                await db.executemany(
                    "INSERT INTO moves (match_id, ply, seat, user_id, notation, created_at) VALUES (?, ?, "
                    "?, ?, ?, ?)",
                    [(match.id, m.ply, m.seat, m.user_id, m.notation, m.created_at) for m in new_moves],
                )
            now = time.time()
            changes: list[RatingChange] = []
            if rate is not None:
                current = await self._ratings_for_update(db, rate.guild_id, rate.game, rate.user_ids)
                changes = list(rate.compute(current))
                for change in changes:
                    await self._apply_rating(db, match, change, now)
            for user_id, name, delta in sorted(counters):  # one lock order for every transaction (PostgreSQL)
                await db.write(
                    "INSERT INTO counters (guild_id, game, user_id, name, value) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, game, user_id, name) DO UPDATE SET value = counters.value + "
                    "excluded.value",
                    match.guild_id or 0,
                    match.game,
                    user_id,
                    name,
                    delta,
                )
            if ai_claim is not None:
                await self._upsert_claim(db, "ai", match.id, ai_claim[0], ai_claim[1])
            else:
                await db.write("DELETE FROM claims WHERE kind = 'ai' AND item = ?", match.id)
        match.rev += 1  # committed: the record is the row as stored now
        return changes

    async def set_place(
        self, match_id: int, *, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Update only where a match is shown (no version change)."""
        if thread_id is None and message_id is None:
            return
        async with self._write() as db:
            if thread_id is not None:
                await db.execute("UPDATE matches SET thread_id = ?, rev = rev + 1 WHERE id = ?", thread_id,
                                 match_id)
            if message_id is not None:
                await db.execute("UPDATE matches SET message_id = ?, rev = rev + 1 WHERE id = ?", message_id,
                                 match_id)

    async def moves(self, match_id: int) -> list[MoveRecord]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT ply, seat, user_id, notation, created_at FROM moves WHERE match_id = ? ORDER BY ply",
                match_id,
            )
        return [MoveRecord(*r) for r in rows]

    async def active_matches(self, *, guild_id: int | None = None) -> list[MatchRecord]:
        if guild_id is None:
            return await self._select_matches(
                f"status IN ({ACTIVE_MARKS}) ORDER BY id", ACTIVE)  # not translated: SQL
        return await self._select_matches(
            f"status IN ({ACTIVE_MARKS}) AND guild_id = ? ORDER BY id",  # not translated: SQL
            (*ACTIVE, guild_id)
        )

    async def active_matches_of_user(self, user_id: int, game: str | None = None) -> list[MatchRecord]:
        """Active matches where ``user_id`` holds a seat (newest first): for commands used in DMs."""
        where = (f"status IN ({ACTIVE_MARKS}) "  # not translated: SQL
                 "AND id IN (SELECT match_id FROM seats WHERE user_id = ?)")
        params: list[Any] = [*ACTIVE, user_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        return await self._select_matches(where + " ORDER BY id DESC", params)

    async def matches_in_place(self, place_id: int, *, active_only: bool = True) -> list[MatchRecord]:
        """Matches played in a thread, or directly in a channel, newest first (active, or the last 10)."""
        place = "(thread_id = ? OR (thread_id IS NULL AND channel_id = ?))"  # not translated: SQL
        if not active_only:
            return await self._select_matches(f"{place} ORDER BY id DESC LIMIT 10",  # not translated: SQL
                                              (place_id, place_id))
        return await self._select_matches(
            f"status IN ({ACTIVE_MARKS}) AND {place} ORDER BY id DESC",  # not translated: SQL
            (*ACTIVE, place_id, place_id)
        )

    async def active_ids_with_components(self) -> list[int]:
        async with self._read() as db:
            return [
                r[0]
                for r in await db.fetch(f"SELECT id FROM matches WHERE status IN ({ACTIVE_MARKS})", *ACTIVE)
            ]

    async def latest_finished_in_place(self, place_id: int) -> MatchRecord | None:
        """The most recently ended match played in this thread or directly in this channel."""
        found = await self._select_matches(
            f"status NOT IN ({ACTIVE_MARKS}) AND state IS NOT NULL AND "  # not translated: SQL
            "(thread_id = ? OR (thread_id IS NULL AND channel_id = ?)) ORDER BY finished_at DESC, id DESC "
            "LIMIT 1",
            (*ACTIVE, place_id, place_id),
        )
        return found[0] if found else None

    async def played_in_guild(self, guild_id: int, *, user_id: int | None = None, game: str | None = None,
                              limit: int = 25) -> list[MatchRecord]:
        """A server's matches that were played (started: running, finished or stopped), newest first;
        with ``user_id`` only theirs (replays: ``/<game> history match:``, ``/stats``)."""
        where = "guild_id = ? AND state IS NOT NULL AND status IN (?, ?, ?)"  # not translated: SQL
        params: list[Any] = [guild_id, Status.RUNNING.value, Status.FINISHED.value, Status.ABORTED.value]
        if user_id is not None:
            where += " AND id IN (SELECT match_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        return await self._select_matches(
            f"{where} ORDER BY id DESC LIMIT {int(limit)}", params)  # not translated: SQL

    async def set_board_version(self, match_id: int, version: int) -> None:
        """The live board now shows ``version`` (no version change, like :meth:`set_place`)."""
        async with self._write() as db:
            await db.execute("UPDATE matches SET board_version = ? WHERE id = ?", version, match_id)

    async def stale_boards(self) -> list[int]:
        """Running or finished matches whose live board is behind the stored match."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM matches WHERE board_version IS NOT NULL AND board_version < version "
                "AND status IN (?, ?) AND message_id IS NOT NULL ORDER BY id",
                Status.RUNNING.value,
                Status.FINISHED.value,
            )
        return [r[0] for r in rows]
