"""Deadlines: start times and round time limits, and picking up after a restart."""

from __future__ import annotations

import functools

from bot.i18n import N_, public
from bot.storage import VersionConflict
from bot.storage.tournaments import TournamentChange
from bot.tournaments.core import (
    Started,
    TournamentError,
    Transition,
    log,
)
from bot.tournaments.model import Result as GameResult
from bot.tournaments.results import Results
from bot.tournaments.signup import Signup


class Deadlines(Signup, Results):
    """The tournament service's deadline and restart actions."""

    async def next_deadline(self) -> float | None:
        return await self.store.next_tournament_deadline()

    async def run_due(self, now: float | None = None) -> list[Transition]:
        """Start events whose start time came; end rounds whose time ran out."""
        out = []
        for tid in await self.store.due_tournaments(self.clock() if now is None else now):
            try:
                tr = await self.expire(tid)
            except Exception:
                log.exception("tournament %s deadline failed", tid)
                continue
            if tr is not None:
                out.append(tr)
        try:
            left = await self.unposted()
            guilds = sorted({s.match.rec.guild_id or 0 for s in left})
            for guild in guilds:  # each server's matches posted in its language
                with public(guild or None):
                    await self.presenter.post_started(
                        [s for s in left if (s.match.rec.guild_id or 0) == guild])
        except Exception:
            log.exception("posting left-over tournament matches failed")
        return out

    async def expire(self, tid: int) -> Transition | None:
        t = await self.get(tid)
        if t.deadline is None or t.deadline > self.clock():
            return None
        if t.status == "signup":
            try:
                return await self.start(tid, None)
            except (TournamentError, VersionConflict):
                return None
        if t.status != "running":
            return None
        # the round's time ran out: running games are decided by the game's timeout rule
        for p in await self.store.pairings(tid, t.current_round):
            if p.result is None and p.match_id is not None:
                result = await self.matches.force_timeout(
                    p.match_id, N_("{player} was to move when the round's time ran out.")
                )
                if result is not None:
                    try:
                        with public(result.match.rec.guild_id):
                            await self.presenter.match_decided(result)
                    except Exception:
                        log.exception("presenting the round-deadline result of match %s failed", p.match_id)
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != "running" or t.deadline is None or t.deadline > self.clock():
                return None
            tr = await self._retry(lambda: self._reconcile_locked(tid))
            if tr is None:  # something is still undecided (a match never created): forfeits for both
                t = await self.get(tid)
                left = [(p.round, p.board, GameResult.DOUBLE_FORFEIT.value)
                        for p in await self.store.pairings(tid, t.current_round) if p.result is None]
                if left:
                    await self._save(t, TournamentChange(results=left))
                tr = await self._advance_locked(t)
        if tr is not None:
            await self._after(tr)
        return tr

    async def resume_all(self) -> list[Started]:
        """After a restart: record what finished meanwhile, advance, and return unposted matches."""
        out: list[Started] = []
        for tid in await self.store.running_tournaments():
            try:
                async with self.lock(tid):
                    tr = await self._retry(functools.partial(self._reconcile_locked, tid))
                if tr is not None:
                    await self._after(tr)
                out.extend(await self.materialise(tid))
            except Exception:
                log.exception("resuming tournament %s failed", tid)
        return out
