"""The SQLite backend (aiosqlite): WAL, foreign keys, a busy timeout, numbered migrations.

Every write that changes a match is one transaction guarded by a version check
(``UPDATE ... WHERE id = ? AND version = ?``), so two clicks, or two processes,
can never both apply a move: the loser gets :class:`VersionConflict`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage import (
    ACTIVE,
    ComputerResult,
    GuildSettings,
    MatchRecord,
    MoveRecord,
    NotifyMode,
    RatingChange,
    RatingRow,
    SeatRecord,
    Status,
    VersionConflict,
)

MIGRATIONS = "bot.storage.migrations"


def migrations() -> list[tuple[int, str]]:
    """(number, sql) for every ``NNN_name.sql`` file, in order."""
    out = []
    for entry in resources.files(MIGRATIONS).iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            out.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(out)


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_MATCH_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, message_id, status, options, state, version, seed, host_id, "
    "rated, turn_limit, deadline, clocks, outcome, ui, created_at, updated_at, finished_at, remind_at, archive_at"
)


class SqliteStore:
    """:class:`bot.storage.Store` on one SQLite file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")  # durable across process crashes in WAL mode
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def migrate(self) -> list[int]:
        """Apply the migrations not yet recorded; returns the numbers applied."""
        db = self.db
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        async with db.execute("SELECT version FROM schema_version") as cur:
            done = {row[0] async for row in cur}
        applied = []
        for number, sql in migrations():
            if number in done:
                continue
            await db.execute("BEGIN IMMEDIATE")
            try:
                for statement in sql.split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
                await db.execute("COMMIT")
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            applied.append(number)
        return applied

    # -- settings ---------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.execute(
            "SELECT use_threads, turn_limit FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, bool(row[0]), int(row[1]))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, use_threads, turn_limit, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET use_threads = excluded.use_threads, "
            "turn_limit = excluded.turn_limit, updated_at = excluded.updated_at",
            (settings.guild_id, int(settings.use_threads), settings.turn_limit, time.time()),
        )

    # -- matches ----------------------------------------------------------------

    async def create_match(self, match: MatchRecord) -> int:
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            cur = await db.execute(
                f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?, ?, ?, ?, ?)",
                self._match_values(match),
            )
            match.id = int(cur.lastrowid or 0)
            await self._write_seats(match)
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return match.id

    @staticmethod
    def _match_values(m: MatchRecord) -> tuple[Any, ...]:
        return (
            m.game, m.guild_id, m.channel_id, m.thread_id, m.message_id, m.status.value, _dumps(m.options),
            _dumps(m.state), m.version, m.seed, m.host_id, int(m.rated), m.turn_limit, m.deadline,
            _dumps(m.clocks), _dumps(m.outcome), _dumps(m.ui) or "{}", m.created_at, m.updated_at, m.finished_at,
            m.remind_at, m.archive_at,
        )

    async def _write_seats(self, match: MatchRecord) -> None:
        await self.db.execute("DELETE FROM seats WHERE match_id = ?", (match.id,))
        await self.db.executemany(
            "INSERT INTO seats (match_id, seat, user_id, name, ai_level, data) VALUES (?, ?, ?, ?, ?, ?)",
            [(match.id, s.seat, s.user_id, s.name, s.ai_level, _dumps(s.data) or "{}") for s in match.seats],
        )

    def _row_to_match(self, row: aiosqlite.Row) -> MatchRecord:
        return MatchRecord(
            id=row["id"], game=row["game"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            thread_id=row["thread_id"], message_id=row["message_id"], status=Status(row["status"]),
            options=_loads(row["options"]), state=_loads(row["state"]), version=row["version"], seed=row["seed"],
            host_id=row["host_id"], rated=bool(row["rated"]), turn_limit=row["turn_limit"],
            deadline=row["deadline"], clocks=_loads(row["clocks"]), outcome=_loads(row["outcome"]),
            ui=_loads(row["ui"]) or {}, created_at=row["created_at"], updated_at=row["updated_at"],
            finished_at=row["finished_at"], remind_at=row["remind_at"], archive_at=row["archive_at"],
        )

    async def _attach_seats(self, matches: list[MatchRecord]) -> list[MatchRecord]:
        if not matches:
            return matches
        by_id = {m.id: m for m in matches}
        ids = list(by_id)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            async with self.db.execute(
                f"SELECT match_id, seat, user_id, name, ai_level, data FROM seats WHERE match_id IN ({marks}) "
                "ORDER BY match_id, seat", chunk,
            ) as cur:
                async for r in cur:
                    by_id[r[0]].seats.append(SeatRecord(r[1], r[2], r[3], r[4], _loads(r[5]) or {}))
        return matches

    async def _select_matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        async with self.db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {where}", params) as cur:
            rows = [self._row_to_match(r) async for r in cur]
        return await self._attach_seats(rows)

    async def load_match(self, match_id: int) -> MatchRecord | None:
        found = await self._select_matches("id = ?", (match_id,))
        return found[0] if found else None

    async def save_match(self, match: MatchRecord, expected_version: int, *,
                         new_moves: Sequence[MoveRecord] = (), ratings: Sequence[RatingChange] = (),
                         counters: Sequence[tuple[int, str, int]] = ()) -> None:
        """Write the match (and its new moves, rating changes, counters) in one transaction.

        Raises:
            VersionConflict: the stored version is no longer ``expected_version``.
        """
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            values = self._match_values(match)[1:]  # without game
            cur = await db.execute(
                "UPDATE matches SET guild_id=?, channel_id=?, thread_id=?, message_id=?, status=?, options=?, "
                "state=?, version=?, seed=?, host_id=?, rated=?, turn_limit=?, deadline=?, clocks=?, outcome=?, "
                "ui=?, created_at=?, updated_at=?, finished_at=?, remind_at=?, archive_at=? WHERE id=? AND version=?",
                (*values, match.id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"match {match.id} is no longer at version {expected_version}")
            await self._write_seats(match)
            if new_moves:
                await db.executemany(
                    "INSERT INTO moves (match_id, ply, seat, user_id, notation, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(match.id, m.ply, m.seat, m.user_id, m.notation, m.created_at) for m in new_moves],
                )
            now = time.time()
            for change in ratings:
                await self._apply_rating(match, change, now)
            for user_id, name, delta in counters:
                await db.execute(
                    "INSERT INTO counters (guild_id, game, user_id, name, value) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, game, user_id, name) DO UPDATE SET value = value + excluded.value",
                    (match.guild_id or 0, match.game, user_id, name, delta),
                )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def _apply_rating(self, match: MatchRecord, change: RatingChange, now: float) -> None:
        a = change.after
        await self.db.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, wins, losses, draws, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "mu=excluded.mu, sigma=excluded.sigma, wins=excluded.wins, losses=excluded.losses, "
            "draws=excluded.draws, games=excluded.games, updated_at=excluded.updated_at",
            (a.guild_id, a.game, a.user_id, a.mu, a.sigma, a.wins, a.losses, a.draws, a.games, now),
        )
        await self.db.execute(
            "INSERT INTO rating_history (guild_id, game, user_id, match_id, rank, mu_before, sigma_before, "
            "mu_after, sigma_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (a.guild_id, a.game, a.user_id, match.id, change.rank, change.before.mu, change.before.sigma,
             a.mu, a.sigma, now),
        )

    async def set_place(self, match_id: int, *, thread_id: int | None = None,
                        message_id: int | None = None) -> None:
        """Update only where a match is shown (no version change)."""
        if thread_id is not None:
            await self.db.execute("UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id))
        if message_id is not None:
            await self.db.execute("UPDATE matches SET message_id = ? WHERE id = ?", (message_id, match_id))

    async def moves(self, match_id: int) -> list[MoveRecord]:
        async with self.db.execute(
            "SELECT ply, seat, user_id, notation, created_at FROM moves WHERE match_id = ? ORDER BY ply",
            (match_id,),
        ) as cur:
            return [MoveRecord(*r) async for r in cur]

    async def active_matches(self, *, guild_id: int | None = None) -> list[MatchRecord]:
        marks = ",".join("?" * len(ACTIVE))
        if guild_id is None:
            return await self._select_matches(f"status IN ({marks}) ORDER BY id", ACTIVE)
        return await self._select_matches(f"status IN ({marks}) AND guild_id = ? ORDER BY id", (*ACTIVE, guild_id))

    async def active_matches_of_user(self, user_id: int, game: str | None = None) -> list[MatchRecord]:
        """Active matches where ``user_id`` holds a seat (newest first): for commands used in DMs."""
        marks = ",".join("?" * len(ACTIVE))
        where = f"status IN ({marks}) AND id IN (SELECT match_id FROM seats WHERE user_id = ?)"
        params: list[Any] = [*ACTIVE, user_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        return await self._select_matches(where + " ORDER BY id DESC", params)

    async def matches_in_place(self, place_id: int, *, active_only: bool = True) -> list[MatchRecord]:
        """Matches played in a thread, or directly in a channel, newest first (active ones, or the last 10)."""
        place = "(thread_id = ? OR (thread_id IS NULL AND channel_id = ?))"
        if not active_only:
            return await self._select_matches(f"{place} ORDER BY id DESC LIMIT 10", (place_id, place_id))
        marks = ",".join("?" * len(ACTIVE))
        return await self._select_matches(f"status IN ({marks}) AND {place} ORDER BY id DESC",
                                          (*ACTIVE, place_id, place_id))

    async def active_ids_with_components(self) -> list[int]:
        marks = ",".join("?" * len(ACTIVE))
        async with self.db.execute(f"SELECT id FROM matches WHERE status IN ({marks})", ACTIVE) as cur:
            return [r[0] async for r in cur]

    async def next_deadline(self) -> float | None:
        marks = ",".join("?" * len(ACTIVE))
        async with self.db.execute(
            f"SELECT MIN(deadline) FROM matches WHERE deadline IS NOT NULL AND status IN ({marks})", ACTIVE
        ) as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def due_matches(self, now: float) -> list[int]:
        marks = ",".join("?" * len(ACTIVE))
        async with self.db.execute(
            f"SELECT id FROM matches WHERE deadline IS NOT NULL AND deadline <= ? AND status IN ({marks}) "
            "ORDER BY deadline", (now, *ACTIVE),
        ) as cur:
            return [r[0] async for r in cur]

    async def next_timer(self) -> float | None:
        """The earliest deadline, reminder or thread archiving still to come (the scheduler's wake-up)."""
        marks = ",".join("?" * len(ACTIVE))
        async with self.db.execute(
            f"SELECT MIN(deadline) FROM matches WHERE deadline IS NOT NULL AND status IN ({marks}) "
            f"UNION ALL SELECT MIN(remind_at) FROM matches WHERE remind_at IS NOT NULL AND status IN ({marks}) "
            "UNION ALL SELECT MIN(archive_at) FROM matches WHERE archive_at IS NOT NULL", (*ACTIVE, *ACTIVE),
        ) as cur:
            found = [float(r[0]) async for r in cur if r[0] is not None]
        return min(found) if found else None

    async def due_reminders(self, now: float) -> list[int]:
        marks = ",".join("?" * len(ACTIVE))
        async with self.db.execute(
            f"SELECT id FROM matches WHERE remind_at IS NOT NULL AND remind_at <= ? AND status IN ({marks}) "
            "ORDER BY remind_at", (now, *ACTIVE),
        ) as cur:
            return [r[0] async for r in cur]

    async def claim_reminder(self, match_id: int, remind_at: float) -> bool:
        """Clear the reminder if it is still the one found due; False if another process took it first."""
        cur = await self.db.execute("UPDATE matches SET remind_at = NULL WHERE id = ? AND remind_at = ?",
                                    (match_id, remind_at))
        return cur.rowcount == 1

    async def due_archives(self, now: float) -> list[int]:
        async with self.db.execute(
            "SELECT id FROM matches WHERE archive_at IS NOT NULL AND archive_at <= ? ORDER BY archive_at", (now,),
        ) as cur:
            return [r[0] async for r in cur]

    async def clear_archive(self, match_id: int) -> None:
        """The thread was archived (or there is none): no version change, like :meth:`set_place`."""
        await self.db.execute("UPDATE matches SET archive_at = NULL WHERE id = ?", (match_id,))

    async def latest_finished_in_place(self, place_id: int) -> MatchRecord | None:
        """The most recently ended match played in this thread or directly in this channel."""
        marks = ",".join("?" * len(ACTIVE))
        found = await self._select_matches(
            f"status NOT IN ({marks}) AND state IS NOT NULL AND "
            "(thread_id = ? OR (thread_id IS NULL AND channel_id = ?)) ORDER BY finished_at DESC, id DESC LIMIT 1",
            (*ACTIVE, place_id, place_id),
        )
        return found[0] if found else None

    async def set_board_version(self, match_id: int, version: int) -> None:
        """The live board now shows ``version`` (no version change, like :meth:`set_place`)."""
        await self.db.execute("UPDATE matches SET board_version = ? WHERE id = ?", (version, match_id))

    async def stale_boards(self) -> list[int]:
        """Running or finished matches whose live board is behind the stored match."""
        async with self.db.execute(
            "SELECT id FROM matches WHERE board_version IS NOT NULL AND board_version < version "
            "AND status IN (?, ?) AND message_id IS NOT NULL ORDER BY id",
            (Status.RUNNING.value, Status.FINISHED.value),
        ) as cur:
            return [r[0] async for r in cur]

    # -- notification choices ---------------------------------------------------

    async def notify_modes(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, NotifyMode]:
        """The stored choices of these members (members without one are left out: the default applies)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.db.execute(
            f"SELECT user_id, mode FROM notify_prefs WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *user_ids),
        ) as cur:
            return {r[0]: NotifyMode(r[1]) async for r in cur}

    async def set_notify_mode(self, guild_id: int, user_id: int, mode: NotifyMode,
                              dm_channel_id: int | None = None) -> None:
        await self.db.execute(
            "INSERT INTO notify_prefs (guild_id, user_id, mode, dm_channel_id, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode, "
            "dm_channel_id = COALESCE(excluded.dm_channel_id, notify_prefs.dm_channel_id), "
            "updated_at = excluded.updated_at",
            (guild_id, user_id, mode.value, dm_channel_id, time.time()),
        )

    async def dm_channel(self, user_id: int) -> int | None:
        """The member's DM channel with the bot, if one was recorded (opening one costs a request)."""
        async with self.db.execute(
            "SELECT dm_channel_id FROM notify_prefs WHERE user_id = ? AND dm_channel_id IS NOT NULL LIMIT 1",
            (user_id,),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    # -- ratings ----------------------------------------------------------------

    @staticmethod
    def _rating(r: Any) -> RatingRow:
        return RatingRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])

    _RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, wins, losses, draws, games"

    async def ratings(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, RatingRow]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.db.execute(
            f"SELECT {self._RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        ) as cur:
            return {r[2]: self._rating(r) async for r in cur}

    async def top_ratings(self, guild_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        async with self.db.execute(
            f"SELECT {self._RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?", (guild_id, game, limit),
        ) as cur:
            return [self._rating(r) async for r in cur]

    async def rating_rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
        """(1-based rank, number of rated players), or None if the user has no rating."""
        mine = await self.ratings(guild_id, game, [user_id])
        if user_id not in mine or mine[user_id].games == 0:
            return None
        me = mine[user_id]
        async with self.db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 AND "
            "(mu - 3 * sigma > ? OR (mu - 3 * sigma = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (guild_id, game, me.ordinal, me.ordinal, me.games, me.games, user_id),
        ) as cur:
            above = (await cur.fetchone())[0]
        async with self.db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0", (guild_id, game)
        ) as cur:
            total = (await cur.fetchone())[0]
        return above + 1, total

    async def user_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        async with self.db.execute(
            f"SELECT {self._RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? AND games > 0 "
            "ORDER BY game", (guild_id, user_id),
        ) as cur:
            return [self._rating(r) async for r in cur]

    async def rating_history(self, guild_id: int, game: str, user_id: int) -> list[tuple[float, float]]:
        """(time, conservative rating after) per rated match, oldest first."""
        async with self.db.execute(
            "SELECT created_at, mu_after - 3 * sigma_after FROM rating_history "
            "WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY created_at, id", (guild_id, game, user_id),
        ) as cur:
            return [(r[0], r[1]) async for r in cur]

    async def reset_ratings(self, guild_id: int, game: str | None = None) -> int:
        """Delete a server's ratings (one game or all); returns the number of players reset."""
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            if game is None:
                cur = await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
                await db.execute("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,))
            else:
                cur = await db.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
                await db.execute("DELETE FROM rating_history WHERE guild_id = ? AND game = ?", (guild_id, game))
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return cur.rowcount

    async def counters(self, guild_id: int, user_id: int) -> dict[tuple[str, str], int]:
        async with self.db.execute(
            "SELECT game, name, value FROM counters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cur:
            return {(r[0], r[1]): r[2] async for r in cur}

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResult]:
        """The member's finished matches against the computer in this server, oldest first."""
        async with self.db.execute(
            "SELECT m.game, ai.ai_level, me.seat, m.outcome FROM matches m "
            "JOIN seats me ON me.match_id = m.id AND me.user_id = ? AND me.ai_level IS NULL "
            "JOIN seats ai ON ai.match_id = m.id AND ai.ai_level IS NOT NULL "
            "WHERE m.guild_id = ? AND m.status = ? ORDER BY m.id",
            (user_id, guild_id, Status.FINISHED.value),
        ) as cur:
            return [ComputerResult(r[0], r[1], r[2], _loads(r[3])) async for r in cur]
