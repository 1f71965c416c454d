"""Results and standings: the match service's end-of-match hook, recording a pairing's result, the table."""

from __future__ import annotations

import asyncio

from bot.games.base import Reason
from bot.matches.service import Match
from bot.storage import Status
from bot.storage.tournaments import TournamentChange
from bot.tournaments.core import (
    Standing,
    Transition,
    log,
    to_pairing,
)
from bot.tournaments.model import Format
from bot.tournaments.model import Result as GameResult
from bot.tournaments.rounds import Rounds
from bot.tournaments.standings import standings


class Results(Rounds):
    """The tournament service's result recording and standings."""

    def match_ended(self, match: Match) -> None:
        """The match service's hook: record the result soon (never blocks the move's reply)."""
        if "tournament" not in match.rec.ui:
            return
        task = asyncio.get_running_loop().create_task(self._record_soon(match.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record_soon(self, match_id: int) -> None:
        try:
            await self.record_match(match_id)
        except Exception:
            log.exception("recording the tournament result of match %s failed", match_id)

    async def wait_idle(self) -> None:
        """Wait for result recordings scheduled by the hook (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def record_match(self, match_id: int) -> Transition | None:
        """Record a finished pairing match's result; start the next round when this one is complete."""
        found = await self.store.pairing_of_match(match_id)
        if found is None:
            return None
        tid, _ = found
        async with self.lock(tid):
            tr = await self._retry(lambda: self._reconcile_locked(tid))
        if tr is not None:
            await self._after(tr)
        return tr

    async def _result_of(self, match_id: int) -> str | None:
        m = await self.matches.get(match_id)
        if m.status == Status.ABORTED:
            return None  # decided by the tournament itself (withdrawal, cancel)
        if m.status != Status.FINISHED or m.outcome is None:
            return None
        out = m.outcome
        if out.is_draw:
            return GameResult.DRAW.value
        winner = min(out.winners)
        loser = 1 - winner
        if out.reason == Reason.TIMEOUT:
            moved = {mv.seat for mv in await self.store.moves(match_id)}
            if loser not in moved:  # the loser never played a move: absent, a forfeit
                return (GameResult.WHITE_FORFEIT_WIN if winner == 0 else GameResult.BLACK_FORFEIT_WIN).value
        return (GameResult.WHITE_WINS if winner == 0 else GameResult.BLACK_WINS).value

    async def _reconcile_locked(self, tid: int) -> Transition | None:
        """Pick up every finished match of the current round; advance if the round is complete."""
        t = await self.get(tid)
        if t.status not in ("running", "paused"):
            return None
        results = []
        for p in await self.store.pairings(tid, t.current_round):
            if p.result is None and p.match_id is not None:
                r = await self._result_of(p.match_id)
                if r is not None:
                    results.append((p.round, p.board, r))
        if results:
            await self._save(t, TournamentChange(results=results))
        return await self._advance_locked(t)

    async def standing(self, tid: int) -> Standing:
        t = await self.get(tid)
        entrants = await self.store.entrants(tid)
        names = {e.user_id: e.name for e in entrants}
        order = list(t.data.get("order") or [e.user_id for e in entrants])
        order += [e.user_id for e in entrants if e.user_id not in order]
        fmt = Format(t.format)
        pairs = [to_pairing(p) for p in await self.store.pairings(tid)]
        rows = standings(
            order, pairs, fmt, withdrawn=[e.user_id for e in entrants if e.withdrawn_round is not None]
        )
        return Standing(t, rows, names, fmt)
