"""Rounds: pairing and storing a round, creating and starting its matches, claiming their posting,
and moving on (next round or the end) when a round is complete."""

from __future__ import annotations

from bot.errors import LobbyError, StaleBoard
from bot.matches.service import Match, Result
from bot.storage import MatchRecord, SeatRecord, Status, VersionConflict
from bot.storage.tournaments import PairingRecord, TournamentChange, TournamentRecord
from bot.tournaments import pairing as pairing_math
from bot.tournaments.core import (
    POST_CLAIM_TTL,
    Started,
    TournamentCore,
    Transition,
    to_pairing,
)
from bot.tournaments.model import Format, Pairing
from bot.tournaments.model import Result as GameResult


class Rounds(TournamentCore):
    """The tournament service's pairing and round actions."""

    def _pair(
        self, t: TournamentRecord, round_no: int, active: list[int], history: list[Pairing]
    ) -> list[Pairing]:
        fmt = Format(t.format)
        if fmt.is_round_robin:
            return pairing_math.round_robin_round(t.data["order"], round_no,
                                                  double=fmt is Format.DOUBLE_ROUND_ROBIN)
        return pairing_math.swiss_round(active, history, round_no, t.seed, last_round=t.rounds)

    async def _start_round(self, t: TournamentRecord, round_no: int) -> Transition:
        """Pair and store round ``round_no`` (one transaction with its unique round row). Lock held."""
        entrants = await self.store.entrants(t.id)
        gone = {e.user_id for e in entrants if e.withdrawn_round is not None}
        order = [u for u in t.data["order"] if u not in gone]
        history = [to_pairing(p) for p in await self.store.pairings(t.id)]
        if len(order) < 2 and not Format(t.format).is_round_robin:
            return await self._finish_locked(t)
        pairs = self._pair(t, round_no, order, history)
        records = []
        for p in pairs:
            result = p.result.value if p.result else None
            if p.black is not None and result is None:  # a withdrawn player's game (round robin): a forfeit
                if p.white in gone and p.black in gone:
                    result = GameResult.DOUBLE_FORFEIT.value
                elif p.black in gone:
                    result = GameResult.WHITE_FORFEIT_WIN.value
                elif p.white in gone:
                    result = GameResult.BLACK_FORFEIT_WIN.value
            elif p.black is None and p.white in gone:
                result = GameResult.DOUBLE_FORFEIT.value  # no bye point for someone who left
            records.append(PairingRecord(p.round, p.board, p.white, p.black, result, None))
        now = self.clock()
        t.current_round = round_no
        t.deadline = now + t.round_time
        await self._save(t, TournamentChange(new_round=(round_no, now, t.deadline), pairings=records))
        return Transition(t, started_round=round_no)

    async def materialise(self, tid: int) -> list[Started]:
        """Create and start the matches of the current round that have none yet (idempotent).

        Returns every undecided pairing of the round whose match is not yet posted on Discord
        (no board message), so a restart posts what a crash left unposted.
        """
        t = await self.get(tid)
        if t.status not in ("running", "paused") or t.current_round == 0:
            return []
        names = {e.user_id: e.name for e in await self.store.entrants(tid)}
        out = []
        for p in await self.store.pairings(tid, t.current_round):
            if p.black_id is None or p.result is not None:
                continue
            if p.match_id is None:
                rec = self._match_record(t, p, names)
                p.match_id = await self.store.create_pairing_match(t.id, p.round, p.board, rec)
            if (await self.matches.get(p.match_id)).status not in (Status.LOBBY, Status.RUNNING):
                continue  # over already (its result is being recorded)
            try:
                result = await self.matches.begin(p.match_id)
            except (StaleBoard, LobbyError):  # another process started (or ended) it at the same moment
                result = Result(await self.matches.get(p.match_id))
            m = result.match
            if m.id in self._posting:  # already handed out for posting by this process
                continue
            if m.status == Status.RUNNING and m.rec.message_id is None and await self.claim_posting(m):
                self._posting.add(m.id)
                out.append(Started(p, m, result if result.started else Result(m, started=True)))
        return out

    def done_posting(self, match_id: int) -> None:
        """The presenter posted the match (or gave up): a later sweep may hand it out again if unposted."""
        self._posting.discard(match_id)

    async def claim_posting(self, m: Match) -> bool:
        """Claim the posting of a match's thread and board for this process (compare-and-set on the
        match's version), so that two processes never both post it. A claim older than
        ``POST_CLAIM_TTL`` (a process that died while posting) can be taken over."""
        async with self.matches.lock(m.id):
            fresh = await self.matches.get(m.id)
            if fresh.rec.message_id is not None:
                return False
            claim = fresh.rec.ui.get("posting")
            now = self.clock()
            if claim and claim[0] != self.token and now - float(claim[1]) < POST_CLAIM_TTL:
                return False
            expected = fresh.version
            fresh.rec.ui["posting"] = [self.token, now]
            fresh.rec.version += 1   # the board is not posted yet: no button carries the old version
            try:
                await self.store.save_match(fresh.rec, expected)
            except VersionConflict:
                return False
            m.rec = fresh.rec
            m.state = fresh.state
            return True

    async def unposted(self) -> list[Started]:
        """Matches of running events nobody posted (a process died while posting); at most every 2 minutes."""
        now = self.clock()
        if now - self._last_sweep < POST_CLAIM_TTL:
            return []
        self._last_sweep = now
        out: list[Started] = []
        for tid in await self.store.running_tournaments():
            out.extend(await self.materialise(tid))
        return out

    def _match_record(self, t: TournamentRecord, p: PairingRecord, names: dict[int, str]) -> MatchRecord:
        now = self.clock()
        assert p.black_id is not None
        seats = [SeatRecord(0, p.white_id, names.get(p.white_id, "?")),
                 SeatRecord(1, p.black_id, names.get(p.black_id, "?"))]
        return MatchRecord(
            id=0, game=t.game, guild_id=t.guild_id, channel_id=t.channel_id, thread_id=None, message_id=None,
            status=Status.LOBBY, options={"first": "challenger"}, state=None, version=0,
            seed=f"{t.seed}:{p.round}:{p.board}", host_id=p.white_id, rated=t.rated, turn_limit=t.turn_limit,
            deadline=None, clocks=None, outcome=None,
            ui={"tournament": t.id, "round": p.round, "board": p.board}, created_at=now, updated_at=now,
            finished_at=None, seats=seats,
        )

    async def _advance_locked(self, t: TournamentRecord) -> Transition | None:
        if t.status != "running":
            return None
        pend = [p for p in await self.store.pairings(t.id, t.current_round) if p.result is None]
        if pend:
            return None
        now = self.clock()
        if t.current_round >= (t.rounds or 0):
            return await self._finish_locked(t, finish_round=(t.current_round, now))
        nxt = t.current_round + 1
        await self._save(t, TournamentChange(finish_round=(t.current_round, now)))
        return await self._start_round(t, nxt)

    async def _finish_locked(
        self, t: TournamentRecord, finish_round: tuple[int, float] | None = None
    ) -> Transition:
        t.status = "finished"
        t.deadline = None
        t.finished_at = self.clock()
        await self._save(t, TournamentChange(finish_round=finish_round))
        return Transition(t, finished=True)
