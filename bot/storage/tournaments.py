"""Tournament records and their SQL (migration 004), kept apart from the match tables' code.

:class:`TournamentSql` is mixed into the SQLite store (``SqliteStore``). Its SQL is plain
SQL-92 with ``?`` placeholders and ``ON CONFLICT`` upserts — nothing SQLite-only except the
``BEGIN IMMEDIATE`` used by the host store's transaction helper — so that a PostgreSQL backend
can run the same statements through its own ``execute``/``transaction``.

Every change of a tournament is one transaction guarded by its ``version``
(``UPDATE ... WHERE id = ? AND version = ?``); starting a round also inserts the
``(tournament_id, round)`` row of ``tournament_rounds`` in that transaction, so a round can be
started — and paired — only once, whatever crashes or races.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage import MatchRecord, VersionConflict

TOURNAMENT_ACTIVE = ("signup", "running", "paused")


@dataclass
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    game: str
    format: str
    rounds: int | None
    round_time: int
    turn_limit: int
    rated: bool
    status: str                 # signup, running, paused, finished, cancelled
    current_round: int
    starts_at: float
    deadline: float | None      # the start time while signing up, then the round's deadline
    seed: str
    version: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None


@dataclass
class EntrantRecord:
    user_id: int
    name: str
    seed: int                   # sign-up order
    withdrawn_round: int | None = None
    joined_at: float = 0.0


@dataclass
class PairingRecord:
    round: int
    board: int
    white_id: int
    black_id: int | None
    result: str | None = None
    match_id: int | None = None


@dataclass
class TournamentChange:
    """What one transaction writes besides the tournament row."""

    add_entrants: Sequence[EntrantRecord] = ()
    remove_entrants: Sequence[int] = ()
    withdraw: Sequence[tuple[int, int]] = ()               # (user_id, round)
    new_round: tuple[int, float, float | None] | None = None  # (round, started_at, deadline)
    finish_round: tuple[int, float] | None = None          # (round, finished_at)
    pairings: Sequence[PairingRecord] = ()                 # new pairings
    results: Sequence[tuple[int, int, str]] = ()           # (round, board, result) where still undecided


_T_COLUMNS = (
    "id, guild_id, channel_id, message_id, organiser_id, game, format, rounds, round_time, turn_limit, rated, "
    "status, current_round, starts_at, deadline, seed, version, data, created_at, updated_at, finished_at"
)


def _t_values(t: TournamentRecord) -> tuple[Any, ...]:
    return (t.guild_id, t.channel_id, t.message_id, t.organiser_id, t.game, t.format, t.rounds, t.round_time,
            t.turn_limit, int(t.rated), t.status, t.current_round, t.starts_at, t.deadline, t.seed, t.version,
            json.dumps(t.data, separators=(",", ":")), t.created_at, t.updated_at, t.finished_at)


def _t_row(r: Sequence[Any]) -> TournamentRecord:
    return TournamentRecord(
        id=r[0], guild_id=r[1], channel_id=r[2], message_id=r[3], organiser_id=r[4], game=r[5], format=r[6],
        rounds=r[7], round_time=r[8], turn_limit=r[9], rated=bool(r[10]), status=r[11], current_round=r[12],
        starts_at=r[13], deadline=r[14], seed=r[15], version=r[16], data=json.loads(r[17] or "{}"),
        created_at=r[18], updated_at=r[19], finished_at=r[20],
    )


class TournamentSql:
    """The tournament half of the store. The host class provides ``db`` (an aiosqlite-like
    connection), ``_insert_match`` (insert a match and its seats inside an open transaction)."""

    db: Any

    async def _insert_match(self, match: MatchRecord) -> int:  # provided by the host store
        raise NotImplementedError

    async def _tx_begin(self) -> None:
        await self.db.execute("BEGIN IMMEDIATE")

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self.db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    # -- tournaments ----------------------------------------------------------------

    async def create_tournament(self, t: TournamentRecord) -> int:
        await self._tx_begin()
        try:
            cur = await self.db.execute(
                f"INSERT INTO tournaments ({_T_COLUMNS}) VALUES (NULL, {', '.join('?' * 20)})", _t_values(t))
            t.id = int(cur.lastrowid or 0)
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return t.id

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        rows = await self._fetchall(f"SELECT {_T_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return _t_row(rows[0]) if rows else None

    async def tournaments_in_guild(self, guild_id: int, *, active_only: bool = True,
                                   limit: int = 25) -> list[TournamentRecord]:
        where = "guild_id = ?"
        params: list[Any] = [guild_id]
        if active_only:
            where += f" AND status IN ({', '.join('?' * len(TOURNAMENT_ACTIVE))})"
            params += TOURNAMENT_ACTIVE
        rows = await self._fetchall(f"SELECT {_T_COLUMNS} FROM tournaments WHERE {where} ORDER BY id DESC LIMIT ?",
                                    (*params, limit))
        return [_t_row(r) for r in rows]

    async def active_tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentRecord]:
        """Events of this server where the user is signed up or still playing."""
        marks = ", ".join("?" * len(TOURNAMENT_ACTIVE))
        rows = await self._fetchall(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN ({marks}) AND id IN "
            "(SELECT tournament_id FROM tournament_entrants WHERE user_id = ? AND withdrawn_round IS NULL) "
            "ORDER BY id DESC", (guild_id, *TOURNAMENT_ACTIVE, user_id))
        return [_t_row(r) for r in rows]

    async def save_tournament(self, t: TournamentRecord, expected_version: int,
                              change: TournamentChange | None = None) -> None:
        """Write the tournament row and ``change`` in one transaction.

        Raises:
            VersionConflict: the stored version is no longer ``expected_version``, or the round
                in ``change.new_round`` was already started (by another process, or before a crash).
        """
        change = change or TournamentChange()
        db = self.db
        await self._tx_begin()
        try:
            cur = await db.execute(
                "UPDATE tournaments SET guild_id=?, channel_id=?, message_id=?, organiser_id=?, game=?, format=?, "
                "rounds=?, round_time=?, turn_limit=?, rated=?, status=?, current_round=?, starts_at=?, deadline=?, "
                "seed=?, version=?, data=?, created_at=?, updated_at=?, finished_at=? WHERE id=? AND version=?",
                (*_t_values(t), t.id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(f"tournament {t.id} is no longer at version {expected_version}")
            if change.new_round is not None:
                rnd, started, deadline = change.new_round
                cur = await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, started_at, deadline) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (tournament_id, round) DO NOTHING", (t.id, rnd, started, deadline))
                if cur.rowcount != 1:
                    raise VersionConflict(f"round {rnd} of tournament {t.id} has already started")
            if change.finish_round is not None:
                await db.execute("UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND round = ?",
                                 (change.finish_round[1], t.id, change.finish_round[0]))
            for e in change.add_entrants:
                await db.execute(
                    "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed, withdrawn_round, joined_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (t.id, e.user_id, e.name, e.seed, e.withdrawn_round, e.joined_at))
            for uid in change.remove_entrants:
                await db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (t.id, uid))
            for uid, rnd in change.withdraw:
                await db.execute("UPDATE tournament_entrants SET withdrawn_round = ? WHERE tournament_id = ? AND "
                                 "user_id = ? AND withdrawn_round IS NULL", (rnd, t.id, uid))
            for p in change.pairings:
                await db.execute(
                    "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, result, match_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)", (t.id, p.round, p.board, p.white_id, p.black_id, p.result,
                                                      p.match_id))
            for rnd, board, result in change.results:
                await db.execute("UPDATE tournament_pairings SET result = ? WHERE tournament_id = ? AND round = ? "
                                 "AND board = ? AND result IS NULL", (result, t.id, rnd, board))
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        rows = await self._fetchall(
            "SELECT user_id, name, seed, withdrawn_round, joined_at FROM tournament_entrants WHERE tournament_id = ? "
            "ORDER BY seed, user_id", (tournament_id,))
        return [EntrantRecord(*r) for r in rows]

    async def pairings(self, tournament_id: int, round: int | None = None) -> list[PairingRecord]:
        sql = ("SELECT round, board, white_id, black_id, result, match_id FROM tournament_pairings "
               "WHERE tournament_id = ?")
        params: list[Any] = [tournament_id]
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        rows = await self._fetchall(sql + " ORDER BY round, board", params)
        return [PairingRecord(*r) for r in rows]

    async def pairing_of_match(self, match_id: int) -> tuple[int, PairingRecord] | None:
        """(tournament id, pairing) of a tournament match, or None for an ordinary match."""
        rows = await self._fetchall(
            "SELECT tournament_id, round, board, white_id, black_id, result, match_id FROM tournament_pairings "
            "WHERE match_id = ?", (match_id,))
        if not rows:
            return None
        r = rows[0]
        return r[0], PairingRecord(*r[1:])

    async def create_pairing_match(self, tournament_id: int, round: int, board: int, match: MatchRecord) -> int:
        """Insert ``match`` as the match of a pairing, unless the pairing has one already.

        One transaction: a crash either leaves no match, or a match linked to its pairing; never a
        stray second match. Returns the pairing's match id (the existing one if there was one).
        """
        db = self.db
        await self._tx_begin()
        try:
            rows = await self._fetchall(
                "SELECT match_id FROM tournament_pairings WHERE tournament_id = ? AND round = ? AND board = ?",
                (tournament_id, round, board))
            if not rows:
                raise LookupError(f"no pairing {tournament_id}/{round}/{board}")
            if rows[0][0] is not None:
                await db.execute("ROLLBACK")
                return int(rows[0][0])
            match_id = await self._insert_match(match)
            await db.execute("UPDATE tournament_pairings SET match_id = ? WHERE tournament_id = ? AND round = ? AND "
                             "board = ?", (match_id, tournament_id, round, board))
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return match_id

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Where the sign-up message is (no version change)."""
        await self.db.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def next_tournament_deadline(self) -> float | None:
        rows = await self._fetchall(
            "SELECT MIN(deadline) FROM tournaments WHERE deadline IS NOT NULL AND status IN ('signup', 'running')")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due_tournaments(self, now: float) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM tournaments WHERE deadline IS NOT NULL AND deadline <= ? AND status IN ('signup', "
            "'running') ORDER BY deadline", (now,))
        return [r[0] for r in rows]

    async def running_tournaments(self) -> list[int]:
        rows = await self._fetchall("SELECT id FROM tournaments WHERE status IN ('running', 'paused') ORDER BY id")
        return [r[0] for r in rows]

    # -- per-server settings ----------------------------------------------------------

    async def tournament_settings(self, guild_id: int) -> tuple[int | None, int]:
        """(organiser role id or None, most active events a player may be in)."""
        rows = await self._fetchall("SELECT organiser_role, max_events FROM tournament_settings WHERE guild_id = ?",
                                    (guild_id,))
        return (rows[0][0], int(rows[0][1])) if rows else (None, 3)

    async def save_tournament_settings(self, guild_id: int, organiser_role: int | None, max_events: int) -> None:
        await self.db.execute(
            "INSERT INTO tournament_settings (guild_id, organiser_role, max_events, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role, "
            "max_events = excluded.max_events, updated_at = excluded.updated_at",
            (guild_id, organiser_role, max_events, time.time()))
