"""Lesson progress in SQL: the step each learner has reached in each game's lesson (migration 007)."""

from __future__ import annotations

import time

from bot.storage.sqlbase import SqlBase


class LessonSql(SqlBase):
    """The lessons part of :class:`bot.storage.sql.SqlStore`."""

    async def lesson_step(self, user_id: int, game: str) -> tuple[int, bool] | None:
        """(step to show next, finished) of ``user_id``'s lesson of ``game``; None if never started."""
        async with self._read() as db:
            row = await db.fetchrow("SELECT step, done FROM lessons WHERE user_id = ? AND game = ?",
                                    user_id, game)
        return None if row is None else (int(row[0]), bool(row[1]))

    async def save_lesson_step(self, user_id: int, game: str, step: int, done: bool = False) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO lessons (user_id, game, step, done, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, game) DO UPDATE SET step = excluded.step, done = excluded.done, "
                "updated_at = excluded.updated_at",
                user_id, game, step, int(done), time.time(),
            )
