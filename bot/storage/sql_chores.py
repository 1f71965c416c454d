"""Discord chores in SQL (migration 006): Discord requests that failed during an incident, retried by the
scheduler until Discord answers (see :mod:`bot.chores`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bot.storage.sqlbase import SqlBase, dumps, loads

CHORE_COLUMNS = (
    "id, match_id, kind, channel_id, message_id, payload, attempts, next_at, "  # not translated: SQL
    "created_at"
)


@dataclass
class Chore:
    """One stored chore: ``kind`` is ``retire`` (edit ``message_id``), ``ping`` or ``result`` (post)."""

    id: int
    match_id: int
    kind: str
    channel_id: int
    message_id: int | None
    payload: dict[str, Any]
    attempts: int
    next_at: float
    created_at: float


def _chore(r: Any) -> Chore:
    return Chore(int(r[0]), int(r[1]), str(r[2]), int(r[3]), None if r[4] is None else int(r[4]),
                 loads(r[5]) or {}, int(r[6]), float(r[7]), float(r[8]))


class ChoreSql(SqlBase):
    """The chore part of :class:`bot.storage.sql.SqlStore`."""

    async def add_chore(self, match_id: int, kind: str, channel_id: int, message_id: int | None,
                        payload: dict[str, Any], next_at: float) -> int:
        """Remember a chore; a retire of a board already remembered is not added twice."""
        async with self._write() as db:
            if kind == "retire" and message_id is not None:
                found = await db.fetchval(
                    "SELECT id FROM discord_chores WHERE kind = ? AND message_id = ?", kind, message_id)
                if found is not None:
                    return int(found)
            row = await db.fetchrow(
                "INSERT INTO discord_chores (match_id, kind, channel_id, message_id, payload, attempts, "
                "next_at, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?) RETURNING id",
                match_id, kind, channel_id, message_id, dumps(payload), next_at, time.time())
            assert row is not None  # RETURNING always gives the new row
            return int(row[0])

    async def due_chores(self, now: float, limit: int = 50) -> list[Chore]:
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {CHORE_COLUMNS} FROM discord_chores WHERE next_at <= ? ORDER BY next_at, id LIMIT ?",
                now, limit)
        return [_chore(r) for r in rows]

    async def claim_chore(self, chore: Chore, until: float) -> bool:
        """Take a due chore until ``until`` (one more attempt); False if another process took it first."""
        async with self._write() as db:
            done = await db.execute(
                "UPDATE discord_chores SET next_at = ?, attempts = attempts + 1 WHERE id = ? AND next_at = ?",
                until, chore.id, chore.next_at)
        if done == 1:
            chore.next_at = until
            chore.attempts += 1
        return done == 1

    async def delay_chore(self, chore_id: int, next_at: float) -> None:
        async with self._write() as db:
            await db.execute("UPDATE discord_chores SET next_at = ? WHERE id = ?", next_at, chore_id)

    async def finish_chore(self, chore_id: int) -> None:
        """Done (or dropped): the chore is gone."""
        async with self._write() as db:
            await db.execute("DELETE FROM discord_chores WHERE id = ?", chore_id)

    async def next_chore(self) -> float | None:
        async with self._read() as db:
            value = await db.fetchval("SELECT MIN(next_at) FROM discord_chores")
        return None if value is None else float(value)

    async def pending_chores(self) -> int:
        async with self._read() as db:
            return int(await db.fetchval("SELECT COUNT(*) FROM discord_chores") or 0)
