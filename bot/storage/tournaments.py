"""Tournament records and their SQL (migration 004), kept apart from the match tables' code.

:class:`TournamentSql` is written once for both dialects in the shared-SQL pattern of
``bot/storage/__init__.py``: ``?`` placeholders, ``ON CONFLICT`` upserts, ``RETURNING id``, and
every statement run on a ``Conn`` from the host store's ``_read()`` (committed snapshot) or
``_write()`` (ONE write transaction, serialised by the backend). A decision that leads to a write
is read inside the ``_write()`` block, with the dialect's ``FOR UPDATE`` where it matters.

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
from typing import TYPE_CHECKING, Any

from bot.storage.records import MatchRecord, VersionConflict

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
    status: str  # signup, running, paused, finished, cancelled
    current_round: int
    starts_at: float
    deadline: float | None  # the start time while signing up, then the round's deadline
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
    seed: int  # sign-up order
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
    withdraw: Sequence[tuple[int, int]] = ()  # (user_id, round)
    new_round: tuple[int, float, float | None] | None = None  # (round, started_at, deadline)
    finish_round: tuple[int, float] | None = None  # (round, finished_at)
    pairings: Sequence[PairingRecord] = ()  # new pairings
    results: Sequence[tuple[int, int, str]] = ()  # (round, board, result) where still undecided


_T_COLUMNS = (
    "id, guild_id, channel_id, message_id, organiser_id, game, format, "  # not translated: SQL
    "rounds, round_time, turn_limit, rated, "
    "status, current_round, starts_at, deadline, seed, version, data, created_at, updated_at, finished_at"
)


def _t_values(t: TournamentRecord) -> tuple[Any, ...]:
    return (
        t.guild_id,
        t.channel_id,
        t.message_id,
        t.organiser_id,
        t.game,
        t.format,
        t.rounds,
        t.round_time,
        t.turn_limit,
        int(t.rated),
        t.status,
        t.current_round,
        t.starts_at,
        t.deadline,
        t.seed,
        t.version,
        json.dumps(t.data, separators=(",", ":")),
        t.created_at,
        t.updated_at,
        t.finished_at,
    )


def _t_row(r: Sequence[Any]) -> TournamentRecord:
    return TournamentRecord(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        message_id=r[3],
        organiser_id=r[4],
        game=r[5],
        format=r[6],
        rounds=r[7],
        round_time=r[8],
        turn_limit=r[9],
        rated=bool(r[10]),
        status=r[11],
        current_round=r[12],
        starts_at=r[13],
        deadline=r[14],
        seed=r[15],
        version=r[16],
        data=json.loads(r[17] or "{}"),
        created_at=r[18],
        updated_at=r[19],
        finished_at=r[20],
    )


class TournamentSql:
    """The tournament half of the store. The host provides ``_read()`` / ``_write()`` (async context
    managers yielding a ``Conn``: ``execute`` → rows affected, ``fetch``, ``fetchrow``, ``fetchval``),
    ``_insert_match(db, match)`` (insert a match and its seats on that ``Conn``) and optionally
    ``dialect.for_update``."""

    if TYPE_CHECKING:  # provided by the host store

        def _read(self) -> Any: ...
        def _write(self) -> Any: ...
        async def _insert_match(self, db: Any, match: MatchRecord) -> int: ...

    @property
    def _for_update(self) -> str:
        dialect = getattr(self, "dialect", None)
        return str(getattr(dialect, "for_update", "") or "")

    # -- tournaments ----------------------------------------------------------------

    async def create_tournament(self, t: TournamentRecord) -> int:
        async with self._write() as db:
            t.id = int(
                await db.fetchval(
                    f"INSERT INTO tournaments ({_T_COLUMNS.removeprefix('id, ')}) VALUES "
                    f"({', '.join('?' * 20)}) "
                    "RETURNING id",
                    *_t_values(t),
                )
            )
        return t.id

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        async with self._read() as db:
            row = await db.fetchrow(f"SELECT {_T_COLUMNS} FROM tournaments WHERE id = ?", tournament_id)
        return _t_row(row) if row is not None else None

    async def tournaments_in_guild(
        self, guild_id: int, *, active_only: bool = True, limit: int = 25
    ) -> list[TournamentRecord]:
        where = "guild_id = ?"
        params: list[Any] = [guild_id]
        if active_only:
            where += f" AND status IN ({', '.join('?' * len(TOURNAMENT_ACTIVE))})"
            params += TOURNAMENT_ACTIVE
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {_T_COLUMNS} FROM tournaments WHERE {where} ORDER BY id DESC LIMIT ?", *params, limit
            )
        return [_t_row(r) for r in rows]

    async def active_tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentRecord]:
        """Events of this server where the user is signed up or still playing."""
        marks = ", ".join("?" * len(TOURNAMENT_ACTIVE))
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {_T_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN ({marks}) AND id IN "
                "(SELECT tournament_id FROM tournament_entrants WHERE user_id = ? AND withdrawn_round IS "
                "NULL) "
                "ORDER BY id DESC",
                guild_id,
                *TOURNAMENT_ACTIVE,
                user_id,
            )
        return [_t_row(r) for r in rows]

    async def save_tournament(
        self, t: TournamentRecord, expected_version: int, change: TournamentChange | None = None
    ) -> None:
        """Write the tournament row and ``change`` in one transaction.

        Raises:
            VersionConflict: the stored version is no longer ``expected_version``, or the round
                in ``change.new_round`` was already started (by another process, or before a crash).
        """
        change = change or TournamentChange()
        async with self._write() as db:
            n = await db.execute(
                "UPDATE tournaments SET guild_id=?, channel_id=?, message_id=?, organiser_id=?, game=?, "
                "format=?, "
                "rounds=?, round_time=?, turn_limit=?, rated=?, status=?, current_round=?, starts_at=?, "
                "deadline=?, "
                "seed=?, version=?, data=?, created_at=?, updated_at=?, finished_at=? WHERE id=? AND "
                "version=?",
                *_t_values(t),
                t.id,
                expected_version,
            )
            if n != 1:
                raise VersionConflict(  # (retried; never shown)
                    f"tournament {t.id} is no longer at version {expected_version}")  # not translated: log
            if change.new_round is not None:
                rnd, started, deadline = change.new_round
                n = await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, started_at, deadline) VALUES (?, "
                    "?, ?, ?) "
                    "ON CONFLICT (tournament_id, round) DO NOTHING",
                    t.id,
                    rnd,
                    started,
                    deadline,
                )
                if n != 1:
                    raise VersionConflict(  # (retried; never shown)
                        f"round {rnd} of tournament {t.id} has already started")  # not translated: log
            if change.finish_round is not None:
                await db.execute(
                    "UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND round = ?",
                    change.finish_round[1],
                    t.id,
                    change.finish_round[0],
                )
            for e in change.add_entrants:
                await db.execute(
                    "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed, withdrawn_round, "
                    "joined_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    t.id,
                    e.user_id,
                    e.name,
                    e.seed,
                    e.withdrawn_round,
                    e.joined_at,
                )
            for uid in change.remove_entrants:
                await db.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", t.id, uid
                )
            for uid, rnd in change.withdraw:
                await db.execute(
                    "UPDATE tournament_entrants SET withdrawn_round = ? WHERE tournament_id = ? AND "
                    "user_id = ? AND withdrawn_round IS NULL",
                    rnd,
                    t.id,
                    uid,
                )
            for p in change.pairings:
                await db.execute(
                    "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, "
                    "result, match_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    t.id,
                    p.round,
                    p.board,
                    p.white_id,
                    p.black_id,
                    p.result,
                    p.match_id,
                )
            for rnd, board, result in change.results:
                await db.execute(
                    "UPDATE tournament_pairings SET result = ? WHERE tournament_id = ? AND round = ? "
                    "AND board = ? AND result IS NULL",
                    result,
                    t.id,
                    rnd,
                    board,
                )

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id, name, seed, withdrawn_round, joined_at FROM tournament_entrants "
                "WHERE tournament_id = ? ORDER BY seed, user_id",
                tournament_id,
            )
        return [EntrantRecord(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def pairings(self, tournament_id: int, round: int | None = None) -> list[PairingRecord]:
        sql = (
            "SELECT round, board, white_id, black_id, result, match_id FROM tournament_pairings "
            "WHERE tournament_id = ?"
        )
        params: list[Any] = [tournament_id]
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        async with self._read() as db:
            rows = await db.fetch(sql + " ORDER BY round, board", *params)
        return [PairingRecord(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def pairing_of_match(self, match_id: int) -> tuple[int, PairingRecord] | None:
        """(tournament id, pairing) of a tournament match, or None for an ordinary match."""
        async with self._read() as db:
            r = await db.fetchrow(
                "SELECT tournament_id, round, board, white_id, black_id, result, match_id FROM "
                "tournament_pairings "
                "WHERE match_id = ?",
                match_id,
            )
        if r is None:
            return None
        return r[0], PairingRecord(r[1], r[2], r[3], r[4], r[5], r[6])

    async def create_pairing_match(
        self, tournament_id: int, round: int, board: int, match: MatchRecord
    ) -> int:
        """Insert ``match`` as the match of a pairing, unless the pairing has one already.

        One transaction: a crash either leaves no match, or a match linked to its pairing; never a
        stray second match. Returns the pairing's match id (the existing one if there was one).
        """
        async with self._write() as db:
            row = await db.fetchrow(
                "SELECT match_id FROM tournament_pairings WHERE tournament_id = ? AND round = ? AND board = ?"
                + self._for_update,
                tournament_id,
                round,
                board,
            )
            if row is None:
                raise LookupError(f"no pairing {tournament_id}/{round}/{board}")
            if row[0] is not None:
                return int(row[0])
            match_id = await self._insert_match(db, match)
            await db.execute(
                "UPDATE tournament_pairings SET match_id = ? WHERE tournament_id = ? AND round = ? AND "
                "board = ?",
                match_id,
                tournament_id,
                round,
                board,
            )
        return match_id

    async def next_tournament_deadline(self) -> float | None:
        async with self._read() as db:
            value = await db.fetchval(
                "SELECT MIN(deadline) FROM tournaments WHERE deadline IS NOT NULL AND status IN ('signup', "
                "'running')"
            )
        return None if value is None else float(value)

    async def due_tournaments(self, now: float) -> list[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM tournaments WHERE deadline IS NOT NULL AND deadline <= ? AND status IN "
                "('signup', "
                "'running') ORDER BY deadline",
                now,
            )
        return [r[0] for r in rows]

    async def running_tournaments(self) -> list[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM tournaments WHERE status IN ('running', 'paused') ORDER BY id"
            )
        return [r[0] for r in rows]

    # -- per-server settings ----------------------------------------------------------

    async def tournament_settings(self, guild_id: int) -> tuple[int | None, int]:
        """(organiser role id or None, most active events a player may be in)."""
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT organiser_role, max_events FROM tournament_settings WHERE guild_id = ?", guild_id
            )
        return (row[0], int(row[1])) if row is not None else (None, 3)

    async def save_tournament_settings(
        self, guild_id: int, organiser_role: int | None, max_events: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO tournament_settings (guild_id, organiser_role, max_events, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "organiser_role = excluded.organiser_role, max_events = excluded.max_events, "
                "updated_at = excluded.updated_at",
                guild_id,
                organiser_role,
                max_events,
                time.time(),
            )
