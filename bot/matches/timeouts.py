"""Time: passed deadlines (expired invitations, turn limits, tournament clocks), reminders, archiving."""

from __future__ import annotations

from bot.games.base import Event, Outcome, Reason
from bot.i18n import _, public
from bot.matches.core import ServiceCore
from bot.matches.match import Match, Result
from bot.storage import MoveRecord, Status


class Timeouts(ServiceCore):
    """The match service's timer actions (run by :class:`bot.matches.scheduler.Scheduler`)."""

    async def expire(self, match_id: int) -> Result | None:
        """Handle a passed deadline; ``None`` if nothing was due (already handled elsewhere)."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.rec.deadline is None or m.rec.deadline > self.clock() or not m.status.is_active:
                return None
            if m.status.is_open:
                with public(m.rec.guild_id):
                    if m.status == Status.CHALLENGE:
                        said = _("The challenge expired: nobody took it up in time.")
                    else:
                        said = _("The lobby expired: nobody took it up in time.")
                return await self._close(m, Status.EXPIRED, said)
            return await self._timeout_locked(m)

    async def force_timeout(self, match_id: int, why: str | None = None) -> Result | None:
        """Decide a running match now by the game's own timeout rule (a tournament round's deadline);
        ``why`` is the result's sentence, a text marked with ``N_`` holding ``{player}`` (written here, in the
        server's language): "{player} was to move when the round's time ran out."."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.RUNNING:
                return None
            return await self._timeout_locked(m, why=why)

    async def _timeout_locked(self, m: Match, *, why: str | None = None) -> Result:
        now = self.clock()
        expected = m.version
        to_act = sorted(m.to_act())
        clock_out = [s for s in to_act if self._clock_ran_out(m, s)]
        if not clock_out:
            moves_due = m.rules.timeout_moves(m.state)
            if moves_due:
                before = m.state
                events: list[Event] = []
                moves: list[MoveRecord] = []
                ply = int(m.rec.ui.get("plies", 0))
                for seat, move in moves_due:
                    state_before = m.state
                    m.state, evs = self._engine_apply(m, seat, move)
                    events.extend(evs)
                    moves.append(
                        MoveRecord(ply + len(moves), seat, None, m.rules.format(move, state_before), now)
                    )
                events += self._settle(m, moves, now)
                m.rec.version += 1
                self._arm(m, now)
                ratings = await self._save(
                    m, expected, moves=moves, rate=self._finish_if_over(m), counters=self._counters(m, events)
                )
                with public(m.rec.guild_id):
                    said = _("The turn limit passed.")
                return Result(
                    m,
                    events=events,
                    moves=moves,
                    before=before,
                    finished=m.status == Status.FINISHED,
                    ratings=ratings,
                    message=said,
                )
        losers = clock_out or to_act
        if not losers:
            m.rec.deadline = None
            m.rec.version += 1
            await self._save(m, expected)
            return Result(m)
        loser = losers[0]
        with public(m.rec.guild_id):
            if why is not None:
                detail = _(why, player=m.seats[loser].name)
            elif clock_out:
                detail = _("{player} ran out of time on the clock.", player=m.seats[loser].name)
            else:
                detail = _("{player} did not move within the turn limit.", player=m.seats[loser].name)
        outcome = Outcome.forfeit(loser, len(m.seats), Reason.TIMEOUT)
        outcome = Outcome(outcome.ranks, outcome.reason, outcome.scores, detail)
        if m.rec.clocks and clock_out:
            m.rec.clocks["remaining"][loser] = 0
        m.rec.version += 1
        ratings = await self._save(m, expected, rate=self._finish_if_over(m, outcome))
        return Result(m, actor=loser, finished=True, ratings=ratings, message=outcome.detail)

    async def remind(self, match_id: int) -> Match | None:
        """Claim the turn's reminder if it is due (once: it is cleared in the same write); ``None`` if not."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.rec.remind_at is None or m.rec.remind_at > self.clock() or m.status != Status.RUNNING:
                return None
            due, m.rec.remind_at = m.rec.remind_at, None
            # a conditional write (not an action: the board's buttons stay valid): of two processes that
            # find the same reminder due, only one claims it
            return m if await self.store.claim_reminder(match_id, due) else None

    async def archived(self, match_id: int) -> None:
        """The match thread was archived (or could not be): forget the timer."""
        await self.store.clear_archive(match_id)
