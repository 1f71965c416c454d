"""The match platform: create, join, start, play, resign, time out — for every game.

One entry point per action. Each loads the match, checks who may act, calls
the engine, commits (state + version + move log, and ratings when it ends) and
only then returns what the cogs need to answer.

Transactions and locking: the engine works on the committed match, then ONE
store transaction writes the whole action — the version check (``UPDATE … WHERE
version = ?``), state, seats, move log, and for a finished rated match the
ratings, read and updated inside that same transaction (:class:`RatingUpdate`),
rating history and counters. The version check is the guarantee, across
processes too: a double click or another shard can never apply a move twice.
An in-process lock per match only saves wasted work; a typed move that loses a
race with another process is tried again on the new position, a click on an old
board is refused as stale. Computer moves and deadlines are claimed in the
database (:meth:`Store.claim`) so exactly one process acts on each.

The service is assembled from one part per job: :mod:`bot.matches.match` (the records and constants),
:mod:`bot.matches.core` (load, lock, save, shared bookkeeping), :mod:`bot.matches.lobby` (create, join,
start), :mod:`bot.matches.play` (moves, resign, abort, the computer), :mod:`bot.matches.timeouts`
(deadlines, reminders, archiving); lookups and places are here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.matches.lobby import Lobby
from bot.matches.match import (
    AI_LEASE,
    ARCHIVE_AFTER,
    ATTEMPTS,
    CHALLENGE_EXPIRY,
    CLOCKS,
    MAX_TURN_LIMIT,
    MIN_TURN_LIMIT,
    PLATFORM_OPTIONS,
    REMIND_FROM,
    TURN_RUN,
    Match,
    Player,
    Result,
    _Conflict,
    engine_options,
    reminder_time,
)
from bot.matches.play import Play
from bot.storage import MoveRecord, Status

__all__ = [
    "AI_LEASE", "ARCHIVE_AFTER", "ATTEMPTS", "CHALLENGE_EXPIRY", "CLOCKS", "MAX_TURN_LIMIT", "MIN_TURN_LIMIT",
    "PLATFORM_OPTIONS", "REMIND_FROM", "TURN_RUN", "Match", "MatchService", "Player", "Result",
    "engine_options", "reminder_time",
]


class MatchService(Lobby, Play):
    """All match actions. ``clock`` is injectable so tests control time."""

    # -- places and lookups -------------------------------------------------------

    async def latest_finished(self, place_id: int, game: str | None = None) -> Match | None:
        rec = await self.store.latest_finished_in_place(place_id)
        return Match(rec) if rec is not None and (game is None or rec.game == game) else None

    async def set_place(self, match_id: int, *, thread_id: int | None = None,
                        message_id: int | None = None) -> None:
        """Record where the match lives (its thread, its current board message).

        Not an action: the version stays, so the buttons on the board just
        posted remain valid.
        """
        async with self.lock(match_id):
            await self.store.set_place(match_id, thread_id=thread_id, message_id=message_id)

    async def set_ui(self, match_id: int, values: Mapping[str, Any]) -> None:
        """Remember presentation data in the match's ``ui`` dict (e.g. which message collects votes).

        Not an action: the version stays, so the components on the board remain valid. The write is
        still version-checked, so it never overwrites a move committed meanwhile.
        """
        async with self.lock(match_id):
            for attempt in range(ATTEMPTS):
                m = await self.get(match_id)
                m.rec.ui.update(values)
                try:
                    await self._save(m, m.version)
                    return
                except _Conflict:  # another process acted meanwhile: add the values to its version
                    if attempt == ATTEMPTS - 1:
                        raise

    async def find_here(self, place_id: int, user_id: int | None = None, *,
                        game: str | None = None, active_only: bool = True) -> list[Match]:
        """Matches in this thread/channel (the user's own first): active ones, or also recently ended ones."""
        recs = await self.store.matches_in_place(place_id, active_only=active_only)
        out = [Match(r) for r in recs if game is None or r.game == game]
        if user_id is not None:
            out.sort(key=lambda m: (m.seat_of(user_id) is None, m.rec.status != Status.RUNNING, -m.id))
        return out

    async def find_for_user(self, user_id: int, *, game: str | None = None) -> list[Match]:
        """The user's active matches anywhere (for commands and buttons used in DMs)."""
        return [Match(r) for r in await self.store.active_matches_of_user(user_id, game)]

    async def history(self, match_id: int) -> list[MoveRecord]:
        return await self.store.moves(match_id)

    async def replay(self, match_id: int) -> Any:
        """Rebuild the state from the move log (the log is the truth; the stored state a cache)."""
        m = await self.get(match_id)
        engine_opts = engine_options(m.options)
        setup = getattr(m.game.module, "setup_options", None)
        seats = int(m.rec.ui.get("start_seats", len(m.seats)))
        if setup is not None:
            engine_opts = setup(engine_opts, m.rec.seats[:seats])
        state = m.rules.initial(engine_opts, seats)
        for mv in await self.store.moves(match_id):
            move = m.rules.parse(mv.notation, state, mv.seat)
            state, _ = m.rules.apply(state, mv.seat, move)
        return state
