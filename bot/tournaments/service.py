"""TournamentService: sign-up, rounds, results and standings — everything kept in the store.

Life of an event: ``signup`` (Join/Leave) → ``running`` (rounds; ``paused`` on request) →
``finished`` or ``cancelled``. Each transition is one versioned transaction
(:meth:`Store.save_tournament`), so double clicks, restarts, ``kill -9`` and other shard
processes can never apply one twice; starting round *r* also inserts the unique
``(tournament, r)`` row together with the round's pairings, so no round is started or paired twice.

Each pairing is an ordinary match: created with its two seats (first mover first) and linked to
its pairing in one transaction (:meth:`Store.create_pairing_match`), then started through
:meth:`MatchService.begin`. Results come back through :attr:`MatchService.on_match_end`; a
restart re-reads finished matches (:meth:`resume`), so a result noticed by nobody is recorded
anyway. Discord is not known here: a :class:`Presenter` (the cog) is told what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bot.errors import LobbyError, ParlorError, StaleBoard
from bot.games import GAMES
from bot.games.base import Reason
from bot.matches.service import Match, MatchService, Player, Result
from bot.storage import MatchRecord, SeatRecord, Status, VersionConflict
from bot.storage.tournaments import EntrantRecord, PairingRecord, TournamentChange, TournamentRecord
from bot.tournaments import pairing as pairing_math
from bot.tournaments.model import Format, Pairing
from bot.tournaments.model import Result as GameResult
from bot.tournaments.standings import Row, standings

log = logging.getLogger(__name__)
T = TypeVar("T")

MIN_PLAYERS = 3
MAX_PLAYERS = 1024
MIN_ROUND_TIME = 60
MAX_ROUND_TIME = 14 * 86400
TWO_PLAYER_GAMES = ("pylon", "fireandice", "eggcarton")
POST_CLAIM_TTL = 120.0


class TournamentError(ParlorError):
    """A tournament action that does not fit (shown to the user privately)."""


class TournamentConflict(TournamentError, VersionConflict):
    """Another click or process changed the tournament first (retried inside; shown if it reaches a user)."""


@dataclass
class Standing:
    tournament: TournamentRecord
    rows: list[Row]
    names: dict[int, str]
    format: Format


class Presenter(Protocol):
    """What the Discord side does when the event moves on by itself."""

    async def round_started(self, t: TournamentRecord, round_no: int) -> None: ...
    async def event_finished(self, t: TournamentRecord) -> None: ...
    async def event_cancelled(self, t: TournamentRecord, reason: str) -> None: ...
    async def signup_changed(self, t: TournamentRecord) -> None: ...
    async def match_decided(self, result: Result) -> None: ...
    async def post_started(self, started: list[Started]) -> None: ...


class _Quiet:
    async def round_started(self, t: TournamentRecord, round_no: int) -> None:
        pass

    async def event_finished(self, t: TournamentRecord) -> None:
        pass

    async def event_cancelled(self, t: TournamentRecord, reason: str) -> None:
        pass

    async def signup_changed(self, t: TournamentRecord) -> None:
        pass

    async def match_decided(self, result: Result) -> None:
        pass

    async def post_started(self, started: list[Started]) -> None:
        pass


@dataclass
class Started:
    """A pairing's match, started and ready to be posted."""

    pairing: PairingRecord
    match: Match
    result: Result


@dataclass
class Transition:
    """What one call changed (for the caller to present)."""

    tournament: TournamentRecord
    started_round: int | None = None
    finished: bool = False
    cancelled: str | None = None
    notes: list[str] = field(default_factory=list)


class TournamentService:
    def __init__(self, matches: MatchService, presenter: Presenter | None = None) -> None:
        self.matches = matches
        self.store = matches.store
        self.clock = matches.clock
        self.presenter: Presenter = presenter or _Quiet()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_deadline_change: Callable[[], None] = lambda: None
        self.token = secrets.token_hex(6)
        """This process, in posting claims."""
        self._last_sweep = self.clock()
        self._posting: set[int] = set()

    def lock(self, tid: int) -> asyncio.Lock:
        lock = self._locks.get(tid)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[tid] = lock
        return lock

    async def get(self, tid: int) -> TournamentRecord:
        t = await self.store.load_tournament(tid)
        if t is None:
            raise TournamentError("That tournament does not exist.")
        return t

    async def _save(self, t: TournamentRecord, change: TournamentChange | None = None) -> None:
        expected = t.version
        t.version += 1
        t.updated_at = self.clock()
        try:
            await self.store.save_tournament(t, expected, change)
        except VersionConflict as exc:
            t.version = expected
            raise TournamentConflict(
                "Someone changed this tournament at the same moment; please try again."
            ) from exc
        self.on_deadline_change()

    # -- creation and sign-up ---------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, organiser: Player, game: str, fmt: Format,
                     rounds: int | None, round_time: int, turn_limit: int | None, rated: bool,
                     starts_in: int) -> TournamentRecord:
        if game not in TWO_PLAYER_GAMES:
            title = GAMES[game].spec.title if game in GAMES else game
            raise TournamentError(
                f"{title} is not a 2-player game: tournaments are for Pylon, Fire and Ice and "
                "the Egg Carton Game (events for more players come later)."
            )
        if not MIN_ROUND_TIME <= round_time <= MAX_ROUND_TIME:
            raise TournamentError("The round time must be between 1 minute and 14 days.")
        if rounds is not None and not 1 <= rounds <= 50:
            raise TournamentError("The number of rounds must be between 1 and 50.")
        if fmt.is_round_robin and rounds is not None:
            raise TournamentError("A round robin has as many rounds as it needs; leave `rounds` empty.")
        if not 0 <= starts_in <= 30 * 86400:
            raise TournamentError("The start must be within 30 days.")
        settings = await self.matches.settings(guild_id)
        limit = self.matches.check_turn_limit(turn_limit if turn_limit is not None else settings.turn_limit)
        limit = min(limit, round_time)
        now = self.clock()
        t = TournamentRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, message_id=None, organiser_id=organiser.user_id,
            game=game, format=fmt.value, rounds=rounds, round_time=round_time, turn_limit=limit, rated=rated,
            status="signup", current_round=0, starts_at=now + starts_in, deadline=now + starts_in,
            seed=secrets.token_hex(8), version=0, data={"organiser_name": organiser.name}, created_at=now,
            updated_at=now,
        )
        await self.store.create_tournament(t)
        self.on_deadline_change()
        return t

    async def join(self, tid: int, player: Player) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != "signup":
                raise TournamentError("Sign-up is closed: this tournament has already started or ended.")
            entrants = await self.store.entrants(tid)
            if any(e.user_id == player.user_id for e in entrants):
                raise TournamentError("You have already joined this tournament.")
            if len(entrants) >= MAX_PLAYERS:
                raise TournamentError(f"This tournament is full ({MAX_PLAYERS} players).")
            _, most = await self.store.tournament_settings(t.guild_id)
            mine = await self.store.active_tournaments_of_user(t.guild_id, player.user_id)
            if len(mine) >= most:
                raise TournamentError(
                    f"You are already in {len(mine)} events on this server (the most is {most}); "
                    "withdraw from one first."
                )
            seed = max((e.seed for e in entrants), default=0) + 1
            entrant = EntrantRecord(player.user_id, player.name, seed, None, self.clock())
            await self._save(t, TournamentChange(add_entrants=[entrant]))
            return t

    async def leave(self, tid: int, user_id: int) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != "signup":
                raise TournamentError("The tournament has started: use `/tournament withdraw` instead.")
            if not any(e.user_id == user_id for e in await self.store.entrants(tid)):
                raise TournamentError("You have not joined this tournament.")
            await self._save(t, TournamentChange(remove_entrants=[user_id]))
            return t

    # -- starting and rounds ---------------------------------------------------------------

    def _check_organiser(self, t: TournamentRecord, user_id: int, is_admin: bool) -> None:
        if user_id != t.organiser_id and not is_admin:
            raise TournamentError("Only the organiser (or someone with Manage Server) can do that.")

    async def start(self, tid: int, user_id: int | None, *, is_admin: bool = False) -> Transition:
        """Start now: by the organiser (``user_id``), or by the start time (``None``).

        At the start time with fewer than 3 players the event is cancelled; the organiser's Start
        with fewer than 3 is refused and changes nothing.
        """
        async with self.lock(tid):
            t = await self.get(tid)
            if user_id is not None:
                self._check_organiser(t, user_id, is_admin)
            if t.status != "signup":
                raise TournamentError("This tournament has already started or ended.")
            entrants = await self.store.entrants(tid)
            if len(entrants) < MIN_PLAYERS:
                if user_id is not None:
                    raise TournamentError(f"A tournament needs at least {MIN_PLAYERS} players to start "
                                          f"({len(entrants)} signed up).")
                reason = (
                    f"Cancelled: only {len(entrants)} player{'s' if len(entrants) != 1 else ''} signed up "
                    f"by the start time (at least {MIN_PLAYERS} are needed)."
                )
                tr = await self._cancel_locked(t, reason)
            else:
                tr = await self._start_event_locked(t, entrants)
        await self._after(tr)
        return tr

    async def _start_event_locked(self, t: TournamentRecord, entrants: list[EntrantRecord]) -> Transition:
        if True:
            fmt = Format(t.format)
            order = await self._seeding(t, entrants)
            n = len(order)
            if fmt.is_round_robin:
                t.rounds = pairing_math.round_robin_rounds(n, fmt is Format.DOUBLE_ROUND_ROBIN)
            else:
                t.rounds = min(
                    t.rounds or pairing_math.default_swiss_rounds(n), pairing_math.max_swiss_rounds(n)
                )
            t.data["order"] = order
            t.status = "running"
            return await self._start_round(t, 1)

    async def _seeding(self, t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> list[int]:
        """Best rated first (conservative rating); the unrated after them in a seeded random order."""
        ids = pairing_math.seed_order([e.user_id for e in entrants], t.seed)
        ratings = await self.store.ratings(t.guild_id, t.game, ids)
        rank = {uid: i for i, uid in enumerate(ids)}
        return sorted(
            ids, key=lambda u: (-(ratings[u].ordinal if u in ratings and ratings[u].games else -1e9), rank[u])
        )

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

    # -- results ---------------------------------------------------------------------------

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

    async def _retry(self, action: Callable[[], Awaitable[T]]) -> T | None:
        """Run ``action`` again (fresh reads) when another process changed the tournament meanwhile."""
        for attempt in range(5):
            try:
                return await action()
            except VersionConflict:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.01 * (attempt + 1))
        return None

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

    async def _after(self, tr: Transition) -> None:
        """Tell the presenter (outside the lock: posting to Discord takes time)."""
        try:
            if tr.cancelled:
                await self.presenter.event_cancelled(tr.tournament, tr.cancelled)
            elif tr.started_round is not None:
                await self.presenter.round_started(tr.tournament, tr.started_round)
            elif tr.finished:
                await self.presenter.event_finished(tr.tournament)
        except Exception:
            log.exception("presenting tournament %s failed", tr.tournament.id)

    # -- deadlines --------------------------------------------------------------------------

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
            if left:
                await self.presenter.post_started(left)
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
                    p.match_id, "was to move when the round's time ran out"
                )
                if result is not None:
                    try:
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

    # -- withdrawals and organiser controls -------------------------------------------------

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
                    raise TournamentError("That player has not joined this tournament.")
                await self._save(t, TournamentChange(remove_entrants=[user_id]))
                return Transition(t, notes=["removed from the sign-up list"])
            if t.status not in ("running", "paused"):
                raise TournamentError("This tournament is over.")
            me = next((e for e in await self.store.entrants(tid) if e.user_id == user_id), None)
            if me is None:
                raise TournamentError(
                    "That player is not in this tournament." if by else "You are not in this tournament."
                )
            if me.withdrawn_round is not None:
                raise TournamentError("Already withdrawn from this tournament.")
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
                    notes.append("the unstarted game of this round counts as a forfeit")
                else:
                    notes.append("the game already under way continues (resign it to end it)")
            await self._save(t, TournamentChange(withdraw=[(user_id, t.current_round)], results=results))
            for mid in to_abort:
                with contextlib.suppress(ParlorError):
                    await self.matches.abort(mid, "Withdrawn from the tournament: a forfeit.")
            tr = await self._advance_locked(t) or Transition(t)
            tr.notes = notes
        await self._after(tr)
        return tr

    async def pause(self, tid: int, user_id: int, *, is_admin: bool = False) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            self._check_organiser(t, user_id, is_admin)
            if t.status != "running":
                raise TournamentError("Only a running tournament can be paused.")
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
                raise TournamentError("This tournament is not paused.")
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
                raise TournamentError("This tournament is already over.")
            tr = await self._cancel_locked(t, "Cancelled by the organiser.")
        await self._after(tr)
        return tr

    async def _cancel_locked(self, t: TournamentRecord, reason: str) -> Transition:
        t.status = "cancelled"
        t.deadline = None
        t.finished_at = self.clock()
        await self._save(t)
        for p in await self.store.pairings(t.id, t.current_round) if t.current_round else []:
            if p.result is None and p.match_id is not None:
                with contextlib.suppress(ParlorError):
                    await self.matches.abort(p.match_id, "The tournament was cancelled.")
        return Transition(t, cancelled=reason)

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

    # -- reading ----------------------------------------------------------------------------

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


def to_pairing(p: PairingRecord) -> Pairing:
    return Pairing(p.round, p.board, p.white_id, p.black_id, GameResult(p.result) if p.result else None)
