"""Organiser controls and withdrawals: withdraw, pause, resume, cancel, and remembering what was posted."""

from __future__ import annotations

import contextlib

from bot.errors import ParlorError
from bot.i18n import N_, _, public
from bot.storage import Status
from bot.storage.tournaments import TournamentChange, TournamentRecord
from bot.tournaments.core import (
    TournamentError,
    Transition,
)
from bot.tournaments.model import Result as GameResult
from bot.tournaments.results import Results


class Organiser(Results):
    """The tournament service's withdrawal and organiser actions."""

    async def withdraw(
        self, tid: int, user_id: int, *, by: int | None = None, is_admin: bool = False
    ) -> Transition:
        """A player leaves (``by`` the organiser: removed). An unstarted game of theirs is a forfeit."""
        async with self.lock(tid):
            t = await self.get(tid)
            if by is not None:
                self._check_organiser(t, by, is_admin)
            if t.status == "signup":
                if not any(e.user_id == user_id for e in await self.store.entrants(tid)):
                    raise TournamentError(_("That player has not joined this tournament."))
                await self._save(t, TournamentChange(remove_entrants=[user_id]))
                return Transition(t, notes=[_("removed from the sign-up list")])
            if t.status not in ("running", "paused"):
                raise TournamentError(_("This tournament is over."))
            me = next((e for e in await self.store.entrants(tid) if e.user_id == user_id), None)
            if me is None:
                raise TournamentError(_("That player is not in this tournament.") if by
                                      else _("You are not in this tournament."))
            if me.withdrawn_round is not None:
                raise TournamentError(_("Already withdrawn from this tournament."))
            notes = []
            results = []
            to_abort = []
            for p in await self.store.pairings(tid, t.current_round):
                if p.result is not None or user_id not in (p.white_id, p.black_id):
                    continue
                if p.black_id is None:
                    continue
                started = False
                if p.match_id is not None:
                    m = await self.matches.get(p.match_id)
                    seat = m.seat_of(user_id)
                    started = any(mv.seat == seat for mv in await self.store.moves(p.match_id))
                    if not started and m.status == Status.RUNNING:
                        to_abort.append(p.match_id)
                if not started:
                    win = (
                        GameResult.BLACK_FORFEIT_WIN
                        if p.white_id == user_id
                        else GameResult.WHITE_FORFEIT_WIN
                    )
                    results.append((p.round, p.board, win.value))
                    notes.append(_("the unstarted game of this round counts as a forfeit"))
                else:
                    notes.append(_("the game already under way continues (resign it to end it)"))
            await self._save(t, TournamentChange(withdraw=[(user_id, t.current_round)], results=results))
            for mid in to_abort:
                with contextlib.suppress(ParlorError):
                    await self.matches.abort(mid, N_("Withdrawn from the tournament: a forfeit."))
            tr = await self._advance_locked(t) or Transition(t)
            tr.notes = notes
        await self._after(tr)
        return tr

    async def pause(self, tid: int, user_id: int, *, is_admin: bool = False) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            self._check_organiser(t, user_id, is_admin)
            if t.status != "running":
                raise TournamentError(_("Only a running tournament can be paused."))
            t.status = "paused"
            t.data["round_time_left"] = max(0.0, (t.deadline or self.clock()) - self.clock())
            t.deadline = None
            await self._save(t)
            return t

    async def resume(self, tid: int, user_id: int, *, is_admin: bool = False) -> Transition:
        async with self.lock(tid):
            t = await self.get(tid)
            self._check_organiser(t, user_id, is_admin)
            if t.status != "paused":
                raise TournamentError(_("This tournament is not paused."))
            t.status = "running"
            t.deadline = self.clock() + float(t.data.pop("round_time_left", t.round_time))
            await self._save(t)
            tr = await self._retry(lambda: self._reconcile_locked(tid)) or Transition(t)
        await self._after(tr)
        return tr

    async def cancel(self, tid: int, user_id: int, *, is_admin: bool = False) -> Transition:
        async with self.lock(tid):
            t = await self.get(tid)
            self._check_organiser(t, user_id, is_admin)
            if t.status not in ("signup", "running", "paused"):
                raise TournamentError(_("This tournament is already over."))
            with public(t.guild_id):
                reason = _("Cancelled by the organiser.")
            tr = await self._cancel_locked(t, reason)
        await self._after(tr)
        return tr

    async def set_message(self, tid: int, message_id: int) -> None:
        """Remember the sign-up message (versioned like every change, so no concurrent save drops it)."""
        async with self.lock(tid):
            async def store() -> None:
                t = await self.get(tid)
                t.message_id = message_id
                await self._save(t)
            await self._retry(store)

    async def mark_announced(self, tid: int, round_no: int) -> None:
        """Remember that a round's pairings were posted (so a restart does not post them again)."""
        async with self.lock(tid):
            async def mark() -> None:
                t = await self.get(tid)
                if int(t.data.get("announced", 0)) < round_no:
                    t.data["announced"] = round_no
                    await self._save(t)
            await self._retry(mark)
