"""Timers and claims in SQL: deadlines, reminders, archives, and the claims by which exactly one
process acts on a deadline or a computer move."""

from __future__ import annotations

import time

from bot.storage.records import ACTIVE
from bot.storage.sqlbase import ACTIVE_MARKS, Conn, SqlBase


class TimerSql(SqlBase):
    """The timer and claim part of :class:`bot.storage.sql.SqlStore`."""

    async def next_deadline(self) -> float | None:
        async with self._read() as db:
            value = await db.fetchval(
                "SELECT MIN(deadline) FROM matches WHERE deadline IS NOT NULL AND status IN "
                f"({ACTIVE_MARKS})",
                *ACTIVE,
            )
        return None if value is None else float(value)

    async def due_matches(self, now: float) -> list[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM matches WHERE deadline IS NOT NULL AND deadline <= ? AND status IN "
                f"({ACTIVE_MARKS}) "
                "ORDER BY deadline",
                now,
                *ACTIVE,
            )
        return [r[0] for r in rows]

    async def next_timer(self) -> float | None:
        """The earliest deadline, reminder or thread archiving still to come (the scheduler's wake-up)."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT MIN(deadline) FROM matches WHERE deadline IS NOT NULL AND status IN "
                f"({ACTIVE_MARKS}) "
                "UNION ALL SELECT MIN(remind_at) FROM matches WHERE remind_at IS NOT NULL AND status IN "
                f"({ACTIVE_MARKS}) "
                "UNION ALL SELECT MIN(archive_at) FROM matches WHERE archive_at IS NOT NULL",
                *ACTIVE,
                *ACTIVE,
            )
        found = [float(r[0]) for r in rows if r[0] is not None]
        return min(found) if found else None

    async def due_reminders(self, now: float) -> list[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM matches WHERE remind_at IS NOT NULL AND remind_at <= ? AND status IN "
                f"({ACTIVE_MARKS}) "
                "ORDER BY remind_at",
                now,
                *ACTIVE,
            )
        return [r[0] for r in rows]

    async def claim_reminder(self, match_id: int, remind_at: float) -> bool:
        """Clear the reminder if it is still the one found due; False if another process took it first.

        Bumps the row's revision, so a save read before this cannot put the reminder back."""
        async with self._write() as db:
            return (
                await db.execute(
                    "UPDATE matches SET remind_at = NULL, rev = rev + 1 WHERE id = ? AND remind_at = ?",
                    match_id,
                    remind_at,
                )
                == 1
            )

    async def due_archives(self, now: float) -> list[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM matches WHERE archive_at IS NOT NULL AND archive_at <= ? ORDER BY archive_at",
                now,
            )
        return [r[0] for r in rows]

    async def clear_archive(self, match_id: int) -> None:
        """The thread was archived (or there is none): no version change, like :meth:`set_place`."""
        async with self._write() as db:
            await db.execute("UPDATE matches SET archive_at = NULL, rev = rev + 1 WHERE id = ?", match_id)

    # -- claims: exactly one process acts on a deadline or a computer move -------------------------

    async def _upsert_claim(self, db: Conn, kind: str, key: int, owner: str, until: float) -> bool:
        row = await db.fetchrow(
            "INSERT INTO claims (kind, item, owner, expires_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (kind, item) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
            "WHERE claims.owner = excluded.owner OR claims.expires_at < ? RETURNING owner",
            kind,
            key,
            owner,
            until,
            time.time(),
        )
        return row is not None

    async def claim(self, kind: str, key: int, owner: str, lease: float) -> bool:
        """Take (or renew) the claim ``(kind, key)`` for ``owner`` for ``lease`` seconds.

        True when ``owner`` holds it now; False while another owner's lease runs. A process that dies
        keeps its claims only until their lease expires; then anyone may take them over.
        """
        async with self._write() as db:
            return await self._upsert_claim(db, kind, key, owner, time.time() + lease)

    async def release(self, kind: str, key: int, owner: str) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM claims WHERE kind = ? AND item = ? AND owner = ?", kind, key, owner)

    async def lapsed_claims(self, kind: str, now: float) -> list[int]:
        """Keys of ``kind`` whose owner's lease ran out (work a dead process left behind)."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT item FROM claims WHERE kind = ? AND expires_at < ? ORDER BY expires_at", kind, now
            )
        return [r[0] for r in rows]

    async def next_claim_expiry(self, kind: str) -> float | None:
        async with self._read() as db:
            value = await db.fetchval("SELECT MIN(expires_at) FROM claims WHERE kind = ?", kind)
        return None if value is None else float(value)
