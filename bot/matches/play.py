"""Playing: a move by a player or the computer, resigning, an admin's abort."""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from collections.abc import Callable

from bot import metrics
from bot.errors import MatchOver, NotAPlayer, NotYourTurn, StaleBoard
from bot.games.base import Event, GameError, Outcome, Reason, Seat
from bot.i18n import N_, _, public
from bot.matches.match import AI_LEASE, ATTEMPTS, Match, Result, _Conflict
from bot.matches.timeouts import Timeouts
from bot.matches.workers import think
from bot.names import shown
from bot.storage import MoveRecord, Status


class Play(Timeouts):
    """The match service's playing actions."""

    async def play(
        self,
        match_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        seat: Seat | None = None,
        loaded: Match | None = None,
        on_applied: Callable[[Result], None] | None = None,
    ) -> Result:
        """Play ``text`` (the game's notation) for ``user_id`` (or the AI ``seat``).

        ``loaded`` is the match as the caller has just read it (a click's handler has), so it is not read
        twice; the save's version check still refuses it if anything else wrote the match in between.
        ``on_applied``: see :meth:`_apply` (called again if a retry applies the move again).

        Raises:
            StaleBoard: ``expected_version`` is not the match's version.
            NotAPlayer / NotYourTurn / MatchOver: the platform's turn checks.
            InvalidNotation / IllegalMove: the engine's.
        """
        started = time.perf_counter()
        async with self.lock(match_id):
            for attempt in range(ATTEMPTS):
                try:
                    result = await self._play(match_id, user_id, text, expected_version, seat,
                                              loaded if attempt == 0 else None, on_applied)
                except _Conflict:
                    # Read again and play again: a board's click (``expected_version``) is refused then
                    # if the position moved on, and played if only the row changed (where the board is
                    # shown, a vote message) -- such writes keep the version but not the revision.
                    if attempt == ATTEMPTS - 1:
                        raise
                else:
                    metrics.move_played(result.match.game.key, time.perf_counter() - started)
                    return result
            raise AssertionError("unreachable")

    async def _play(
        self, match_id: int, user_id: int, text: str, expected_version: int | None, seat: Seat | None,
        loaded: Match | None = None,
        on_applied: Callable[[Result], None] | None = None,
    ) -> Result:
        m = loaded if loaded is not None and loaded.id == match_id else await self.get(match_id)
        if expected_version is not None and expected_version != m.version:
            raise StaleBoard(_("This board is out of date: the position has changed. Use the newest board."))
        if m.status != Status.RUNNING:
            raise MatchOver(
                _("This match is over.") if not m.status.is_open else _("This match has not started yet.")
            )
        if seat is None:
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(_("You are not playing in this match."))
        if seat in m.to_act():
            move = m.rules.parse(text, m.state, seat)
        else:  # only moves the rules allow out of turn (agree to end, votes, joins)
            try:
                move = m.rules.parse(text, m.state, seat)
            except GameError:
                raise NotYourTurn(self._whose_turn(m)) from None
            if not m.rules.out_of_turn(m.state, seat, move):
                raise NotYourTurn(self._whose_turn(m))
        if self._clock_ran_out(m, seat):
            return await self._timeout_locked(m)
        return await self._apply(m, seat, move, m.version, user_id=user_id, on_applied=on_applied)

    def preview(self, m: Match, seat: Seat, text: str) -> tuple[Match, list[Event]]:
        """The match and events that playing ``text`` for ``seat`` would give now, as :meth:`play` reaches
        them (chance resolved with the match's seeded dice), without changing ``m`` or the store: what a
        board shows after the move can be drawn before it is made. The match returned is a copy.

        Raises:
            InvalidNotation / IllegalMove: the engine's.
        """
        move = m.rules.parse(text, m.state, seat)
        state, events = self._engine_apply(m, seat, move)
        ahead = copy.copy(m)
        ahead.rec = dataclasses.replace(m.rec, ui=copy.deepcopy(m.rec.ui), version=m.rec.version + 1)
        ahead.state, ahead._views = state, {}
        moves = [MoveRecord(int(m.rec.ui.get("plies", 0)), seat, None, m.rules.format(move, m.state),
                            self.clock())]
        events = list(events) + self._settle(ahead, moves, self.clock())
        return ahead, events

    @staticmethod
    def _whose_turn(m: Match) -> str:
        names = [shown(m.seats[s].name) for s in sorted(m.to_act())]
        if not names:
            return _("It is not your turn.")
        return _("It is not your turn: waiting for {players}.", players=", ".join(names))

    async def resign(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.RUNNING:
                raise MatchOver(_("This match is not running."))
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(_("You are not playing in this match."))
            expected = m.version
            m.rec.version += 1
            outcome = Outcome.forfeit(seat, len(m.seats), Reason.RESIGNATION)
            with public(m.rec.guild_id):  # the result's words: for the channel
                detail = _("{player} resigned.", player=m.seats[seat].name)
            outcome = Outcome(outcome.ranks, outcome.reason, outcome.scores, detail)
            ratings = await self._save(m, expected, rate=self._finish_if_over(m, outcome))
            return Result(m, actor=seat, finished=True, ratings=ratings, message=outcome.detail)

    async def abort(self, match_id: int, reason: str = N_("Stopped by an admin.")) -> Result:
        """Stop the match, unrated. ``reason`` is a text marked with ``N_`` (it is written here, in the
        server's language: it is the match's result), or one already written so."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if not m.status.is_active:
                raise MatchOver(_("This match is not active."))
            with public(m.rec.guild_id):
                reason = _(reason)
            m.rec.outcome = Outcome.draw(max(1, len(m.seats)), Reason.ABORTED, detail=reason).dump()
            return await self._close(m, Status.ABORTED, reason)

    # -- AI ---------------------------------------------------------------------

    async def ai_move(self, match_id: int) -> Result | None:
        """Let the computer play its seat, computed off the event loop (each level keeps its own time budget).

        ``None`` when there is nothing to play, or another process holds the claim on this computer move
        (the claim is written with the move that handed the turn to the computer; a dead process's claim
        lapses after :data:`AI_LEASE` and the scheduler hands it to this method again).
        """
        if not await self.store.claim("ai", match_id, self.owner, AI_LEASE):
            return None
        m = await self.get(match_id)
        seat = m.ai_to_act()
        if seat is None or m.game.choose is None:
            await self.store.release("ai", match_id, self.owner)
            return None
        level = m.seats[seat].ai_level
        rng = random.Random(f"{m.rec.seed}:ai:{m.version}")
        version = m.version
        move = await think(m.game.choose, m.state, seat, rng, level)
        text = m.rules.format(move, m.state)
        try:
            return await self.play(match_id, m.seats[seat].user_id, text, expected_version=version, seat=seat)
        except (StaleBoard, MatchOver):
            return None
