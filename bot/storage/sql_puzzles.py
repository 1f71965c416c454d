"""Puzzles in SQL (migration 009): who solved which puzzle per server, and each server's daily puzzle."""

from __future__ import annotations

import time

from bot.storage.sqlbase import SqlBase


class PuzzleSql(SqlBase):
    """The puzzles part of :class:`bot.storage.sql.SqlStore`."""

    async def save_puzzle_result(self, guild_id: int, user_id: int, game: str, puzzle_id: str,
                                 solved: bool) -> bool:
        """Record a member's result of a puzzle; only the first counts. True when this was the first."""
        async with self._write() as db:
            n = await db.execute(
                "INSERT INTO puzzle_results (guild_id, user_id, game, puzzle_id, solved, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, puzzle_id) DO NOTHING",
                guild_id, user_id, game, puzzle_id, int(solved), time.time())
        return bool(n)

    async def puzzle_results(self, guild_id: int, user_id: int, game: str) -> dict[str, bool]:
        """``{puzzle id: solved}`` of a member's first tries of ``game``'s puzzles here."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT puzzle_id, solved FROM puzzle_results WHERE guild_id = ? AND user_id = ? "
                "AND game = ?",
                guild_id, user_id, game)
        return {str(r[0]): bool(r[1]) for r in rows}

    async def puzzle_leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[tuple[int, int]]:
        """``(user id, puzzles solved)`` of the best solvers of ``game``'s puzzles here, most first."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id, COUNT(*) AS n FROM puzzle_results "
                "WHERE guild_id = ? AND game = ? AND solved = 1 "
                "GROUP BY user_id ORDER BY n DESC, MIN(created_at) LIMIT ?",
                guild_id, game, limit)
        return [(int(r[0]), int(r[1])) for r in rows]

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None, next_due: float) -> None:
        """Post a daily puzzle in ``channel_id`` from ``next_due`` on (None: stop posting)."""
        async with self._write() as db:
            if channel_id is None:
                await db.execute("DELETE FROM puzzle_daily WHERE guild_id = ?", guild_id)
                return
            await db.execute(
                "INSERT INTO puzzle_daily (guild_id, channel_id, next_due, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "next_due = CASE WHEN puzzle_daily.channel_id = excluded.channel_id "
                "THEN puzzle_daily.next_due ELSE excluded.next_due END, updated_at = excluded.updated_at",
                guild_id, channel_id, next_due, time.time())

    async def daily_puzzle_channel(self, guild_id: int) -> int | None:
        async with self._read() as db:
            value = await db.fetchval("SELECT channel_id FROM puzzle_daily WHERE guild_id = ?", guild_id)
        return None if value is None else int(value)

    async def next_daily_puzzle(self) -> float | None:
        async with self._read() as db:
            value = await db.fetchval("SELECT MIN(next_due) FROM puzzle_daily")
        return None if value is None else float(value)

    async def due_daily_puzzles(self, now: float) -> list[tuple[int, int, float]]:
        """``(guild id, channel id, due)`` of the daily puzzles due by ``now``."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT guild_id, channel_id, next_due FROM puzzle_daily WHERE next_due <= ? "
                "ORDER BY next_due",
                now)
        return [(int(r[0]), int(r[1]), float(r[2])) for r in rows]

    async def claim_daily_puzzle(self, guild_id: int, due: float, day: int, next_due: float) -> bool:
        """Take the post of ``day`` (once: the row still says ``due`` and another day): True if ours."""
        async with self._write() as db:
            n = await db.execute(
                "UPDATE puzzle_daily SET next_due = ?, last_day = ?, updated_at = ? "
                "WHERE guild_id = ? AND next_due = ? AND last_day <> ?",
                next_due, day, time.time(), guild_id, due, day)
        return bool(n)

    async def retry_daily_puzzle(self, guild_id: int, day: int, next_due: float) -> None:
        """The post of ``day`` failed on a Discord incident: due again at ``next_due`` (the claim undone)."""
        async with self._write() as db:
            await db.execute(
                "UPDATE puzzle_daily SET next_due = ?, last_day = ?, updated_at = ? "
                "WHERE guild_id = ? AND last_day = ?",
                next_due, day - 1, time.time(), guild_id, day)
