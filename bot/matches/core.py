"""The base of the match service: loading, locking and the one-transaction save, plus the
bookkeeping every action shares (chance nodes, deadlines and clocks, finishing and rating).

See :mod:`bot.matches.service` for the transaction and locking rules.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import ratings as rating_math
from bot.errors import LobbyError
from bot.games.base import CHANCE, Chance, Event, GameError, Outcome, Seat
from bot.i18n import _, public
from bot.locks import KeyedLocks
from bot.matches.changes import note as note_changed
from bot.matches.match import AI_LEASE, ARCHIVE_AFTER, TURN_RUN, Match, Result, _Conflict, reminder_time
from bot.storage import (
    GuildSettings,
    MoveRecord,
    RatingChange,
    RatingRow,
    RatingUpdate,
    Status,
    Store,
    VersionConflict,
)


class ServiceCore:
    """State and helpers shared by the lobby, play and timeout parts.

    ``clock`` is injectable so tests control time.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        on_deadline_change: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._locks = KeyedLocks()
        self.on_deadline_change = on_deadline_change or (lambda: None)
        self.counter_hooks: dict[str, Callable[[Match, list[Event]], list[tuple[int, str, int]]]] = {}
        self.on_match_end: Callable[[Match], None] = lambda m: None
        """Called (synchronously; schedule work, do not block) after a match is stored finished or aborted."""
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name in database claims (computer moves, deadlines)."""

    # -- loading, locking, saving -------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks(match_id)

    async def get(self, match_id: int) -> Match:
        rec = await self.store.load_match(match_id)
        if rec is None:
            raise LobbyError(_("That match no longer exists."))
        return Match(rec)

    async def get_settled(self, match_id: int) -> Match:
        """The match once every action of it already under way in this process has committed.

        For decisions that must not be taken on a state about to change (removing a voter's reaction).
        """
        async with self.lock(match_id):
            return await self.get(match_id)

    async def settings(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings(0)
        return await self.store.guild_settings(guild_id)

    async def _save(
        self,
        m: Match,
        expected: int,
        *,
        moves: Sequence[MoveRecord] = (),
        rate: RatingUpdate | None = None,
        counters: Sequence[tuple[int, str, int]] = (),
    ) -> list[RatingChange]:
        """Commit the action in one store transaction; returns the rating changes it made."""
        m.rec.updated_at = self.clock()
        ai_claim = (
            (self.owner, time.time() + AI_LEASE) if m.ai_to_act() is not None else None
        )  # leases: wall time
        try:
            changes = await self.store.save_match(
                m.rec, expected, new_moves=moves, rate=rate, counters=counters, ai_claim=ai_claim
            )
        except VersionConflict:
            raise _Conflict(
                _("Someone else acted on this match at the same moment; look at the board again.")
            ) from None
        note_changed(m.id)
        self.on_deadline_change()
        if m.rec.status in (Status.FINISHED, Status.ABORTED):
            self.on_match_end(m)
        return changes

    # -- bookkeeping shared by every action ---------------------------------------

    @staticmethod
    def _engine_apply(m: Match, seat: Seat, move: Any) -> tuple[Any, list[Event]]:
        """``m.rules.apply`` on the match's state: its events (and anything else the engine words) are
        written for the match's channel, in the server's language; a move the rules refuse is explained to
        the player who tried it, in theirs (the engine is asked again: only on that rare path)."""
        try:
            with public(m.rec.guild_id):
                return m.rules.apply(m.state, seat, move)
        except GameError:
            m.rules.apply(m.state, seat, move)
            raise

    async def _close(self, m: Match, status: Status, message: str) -> Result:
        expected = m.version
        m.rec.status = status
        m.rec.version += 1
        m.rec.deadline = None
        m.rec.finished_at = self.clock()
        self._ended(m)
        await self._save(m, expected)
        return Result(m, message=message, finished=True)

    def _clock_ran_out(self, m: Match, seat: Seat) -> bool:
        remaining = m.clocks_ms(self.clock())
        return bool(
            remaining is not None
            and m.rec.clocks
            and m.rec.clocks.get("running") == seat
            and remaining[seat] <= 0
        )

    async def _apply(self, m: Match, seat: Seat, move: Any, expected: int, *, user_id: int | None,
                     on_applied: Callable[[Result], None] | None = None) -> Result:
        """Apply ``move``, then save it in one transaction.

        ``on_applied`` sees the result as soon as it is known in memory, while the transaction runs (the
        board's picture can be drawn meanwhile); it must not change the match, and anything it starts must
        be dropped if this raises (nothing was saved then).
        """
        now = self.clock()
        before = m.state
        ply = int(m.rec.ui.get("plies", 0))
        m.state, events = self._engine_apply(m, seat, move)
        moves = [MoveRecord(ply, seat, user_id, m.rules.format(move, before), now)]
        self._charge_clock(m, now)
        events = list(events) + self._settle(m, moves, now)
        m.rec.version += 1
        self._arm(m, now)
        counters = self._counters(m, events)
        rate = self._finish_if_over(m)
        result = Result(m, events=events, moves=moves, actor=seat, before=before,
                        finished=m.status == Status.FINISHED)
        if on_applied is not None:
            on_applied(result)
        result.ratings = await self._save(m, expected, moves=moves, rate=rate, counters=counters)
        return result

    def _counters(self, m: Match, events: list[Event]) -> list[tuple[int, str, int]]:
        hook = self.counter_hooks.get(m.game.key) or getattr(m.game.module, "counters", None)
        if hook is None:
            return []
        out = []
        for seat, name, delta in hook(m.state, events):
            if 0 <= seat < len(m.seats) and not m.seats[seat].is_ai:
                out.append((m.seats[seat].user_id, name, delta))
        return out

    def _settle(self, m: Match, moves: list[MoveRecord], now: float) -> list[Event]:
        """Resolve chance nodes with the match's seeded RNG, logging each like a move."""
        events: list[Event] = []
        plies = int(m.rec.ui.get("plies", 0)) + len(moves)
        for _i in range(10_000):
            who = m.rules.to_act(m.state)
            if not isinstance(who, Chance):
                break
            rng = random.Random(f"{m.rec.seed}:{plies}")
            outcome = (
                rng.choices(who.outcomes, weights=who.weights)[0] if who.weights else rng.choice(who.outcomes)
            )
            before = m.state
            m.state, evs = self._engine_apply(m, CHANCE, outcome)
            events.extend(evs)
            moves.append(MoveRecord(plies, CHANCE, None, m.rules.format(outcome, before), now))
            plies += 1
        m.rec.ui["plies"] = int(m.rec.ui.get("plies", 0)) + len(moves)
        m.rec.ui["turn"] = self._turn_run(m.rec.ui.get("turn"), moves)
        m.rec.state = m.rules.dump(m.state)
        return events

    @staticmethod
    def _turn_run(run: Any, moves: list[MoveRecord]) -> list[list[Any]]:
        """The plies ``[seat, notation]`` since another seat last moved (chance plies do not break a run).

        So a board can say "Last: Alice: `L a1`, then `a1-a2`" when one side moves twice in a row.
        At most the newest :data:`TURN_RUN` plies are kept.
        """
        out: list[list[Any]] = [list(x) for x in run] if isinstance(run, list) else []
        for mv in moves:
            mover = next((s for s, _notation in reversed(out) if s != CHANCE), None)
            if mv.seat != CHANCE and mover is not None and mover != mv.seat:
                out = []
            out.append([mv.seat, mv.notation])
        return out[-TURN_RUN:]

    def _charge_clock(self, m: Match, now: float) -> None:
        c = m.rec.clocks
        if not c or c.get("running") is None or c.get("since") is None:
            return
        c["remaining"][c["running"]] = max(0, int(c["remaining"][c["running"]] - (now - c["since"]) * 1000))
        c["since"] = (
            now  # charged up to now; if the same seat moves again (rule A) its clock runs on from here
        )

    def _ended(self, m: Match) -> None:
        """No more timers for the turn; the thread is archived an hour from now."""
        m.rec.deadline = None
        m.rec.remind_at = None
        m.rec.archive_at = (m.rec.finished_at or self.clock()) + ARCHIVE_AFTER if m.rec.thread_id else None

    def _arm(self, m: Match, now: float) -> None:
        """Set the next deadline (turn limit, and the running tournament clock) and the turn's reminder."""
        if m.status != Status.RUNNING or m.rules.outcome(m.state) is not None:
            m.rec.deadline = None
            m.rec.remind_at = None
            return
        remind = reminder_time(now, m.rec.turn_limit)
        deadline = now + m.rec.turn_limit
        c = m.rec.clocks
        if c:
            to_act = sorted(m.to_act())
            running = to_act[0] if len(to_act) == 1 else None
            if running != c.get("running"):
                c["running"], c["since"] = running, now if running is not None else None
            elif running is not None and c.get("since") is None:
                c["since"] = now
            if running is not None:
                deadline = min(deadline, c["since"] + c["remaining"][running] / 1000)
        m.rec.deadline = deadline
        m.rec.remind_at = remind if remind is not None and remind < deadline else None

    def _finish_if_over(self, m: Match, outcome: Outcome | None = None) -> RatingUpdate | None:
        """Mark the match finished if it is over; the rating update to make in the saving transaction.

        The outcome's words (stored with the match, shown with its result) are the server's language."""
        if outcome is None:
            with public(m.rec.guild_id):
                outcome = m.rules.outcome(m.state)
        if outcome is None:
            return None
        m.rec.status = Status.FINISHED
        m.rec.outcome = outcome.dump()
        m.rec.finished_at = self.clock()
        self._ended(m)
        if m.rec.clocks:
            m.rec.clocks["running"] = None
        if not m.rec.rated or m.rec.guild_id is None or any(s.is_ai for s in m.seats):
            return None
        guild_id, game = m.rec.guild_id, m.rec.game
        players = [(s.user_id, outcome.ranks[s.seat]) for s in m.seats]

        def compute(current: Mapping[int, RatingRow]) -> list[RatingChange]:
            return rating_math.rate(guild_id, game, players, current)

        return RatingUpdate(guild_id, game, tuple(uid for uid, _rank in players), compute)
