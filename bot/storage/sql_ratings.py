"""Ratings, rating history and counters in SQL.

Written inside a match's save (:meth:`bot.storage.sql_matches.MatchSql.save_match`), read by /stats and
/leaderboard.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.records import (
    ComputerResult,
    MatchRecord,
    RatingChange,
    RatingRow,
    Status,
)
from bot.storage.sqlbase import Conn, SqlBase, loads, marks

RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, wins, losses, draws, games"  # not translated: SQL


def _rating(r: Any) -> RatingRow:
    return RatingRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])


class RatingSql(SqlBase):
    """The rating tables' part of :class:`bot.storage.sql.SqlStore`."""

    async def _ratings_for_update(
        self, db: Conn, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]:
        """The players' ratings as this transaction sees them, locked until it ends (PostgreSQL: row locks,
        taken in user-id order so two transactions never wait on each other in a circle)."""
        if not user_ids:
            return {}
        ids = sorted(set(user_ids))
        rows = await db.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN "
            f"({marks(len(ids))}) "
            f"ORDER BY user_id{self.dialect.for_update}",
            guild_id,
            game,
            *ids,
        )
        return {r[2]: _rating(r) for r in rows}

    @staticmethod
    async def _apply_rating(db: Conn, match: MatchRecord, change: RatingChange, now: float) -> None:
        a = change.after
        await db.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, wins, losses, draws, games, "
            "updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "mu=excluded.mu, sigma=excluded.sigma, wins=excluded.wins, losses=excluded.losses, "
            "draws=excluded.draws, games=excluded.games, updated_at=excluded.updated_at",
            a.guild_id,
            a.game,
            a.user_id,
            a.mu,
            a.sigma,
            a.wins,
            a.losses,
            a.draws,
            a.games,
            now,
        )
        await db.execute(
            "INSERT INTO rating_history (guild_id, game, user_id, match_id, rank, mu_before, sigma_before, "
            "mu_after, sigma_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            a.guild_id,
            a.game,
            a.user_id,
            match.id,
            change.rank,
            change.before.mu,
            change.before.sigma,
            a.mu,
            a.sigma,
            now,
        )

    async def ratings(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, RatingRow]:
        if not user_ids:
            return {}
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
                f"AND user_id IN ({marks(len(user_ids))})",
                guild_id,
                game,
                *user_ids,
            )
        return {r[2]: _rating(r) for r in rows}

    async def top_ratings(self, guild_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
                guild_id,
                game,
                limit,
            )
        return [_rating(r) for r in rows]

    async def rating_rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
        """(1-based rank, number of rated players), or None if the user has no rating."""
        async with self._read() as db:
            row = await db.fetchrow(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                guild_id,
                game,
                user_id,
            )
            if row is None or row["games"] == 0:
                return None
            me = _rating(row)
            above = await db.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 AND "
                "(mu - 3 * sigma > ? OR (mu - 3 * sigma = ? AND (games > ? OR (games = ? AND user_id < ?))))",
                guild_id,
                game,
                me.ordinal,
                me.ordinal,
                me.games,
                me.games,
                user_id,
            )
            total = await db.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0", guild_id, game
            )
        return int(above) + 1, int(total)

    async def user_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? AND games > 0 "
                "ORDER BY game",
                guild_id,
                user_id,
            )
        return [_rating(r) for r in rows]

    async def rating_history(self, guild_id: int, game: str, user_id: int) -> list[tuple[float, float]]:
        """(time, conservative rating after) per rated match, oldest first."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT created_at, mu_after - 3 * sigma_after FROM rating_history "
                "WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY created_at, id",
                guild_id,
                game,
                user_id,
            )
        return [(r[0], r[1]) for r in rows]

    async def reset_ratings(self, guild_id: int, game: str | None = None) -> int:
        """Delete a server's ratings (one game or all); returns the number of players reset."""
        async with self._write() as db:
            if game is None:
                n = await db.execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
                await db.execute("DELETE FROM rating_history WHERE guild_id = ?", guild_id)
            else:
                n = await db.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", guild_id, game)
                await db.execute("DELETE FROM rating_history WHERE guild_id = ? AND game = ?", guild_id, game)
        return n

    async def counters(self, guild_id: int, user_id: int) -> dict[tuple[str, str], int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT game, name, value FROM counters WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            )
        return {(r[0], r[1]): r[2] for r in rows}

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResult]:
        """The member's finished matches against the computer in this server, oldest first."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT m.game, ai.ai_level, me.seat, m.outcome FROM matches m "
                "JOIN seats me ON me.match_id = m.id AND me.user_id = ? AND me.ai_level IS NULL "
                "JOIN seats ai ON ai.match_id = m.id AND ai.ai_level IS NOT NULL "
                "WHERE m.guild_id = ? AND m.status = ? ORDER BY m.id",
                user_id,
                guild_id,
                Status.FINISHED.value,
            )
        return [ComputerResult(r[0], r[1], r[2], loads(r[3])) for r in rows]
