"""The base of the tournament service: the records it hands out, its errors, and loading, locking,
the versioned save and the bookkeeping every part shares (organiser check, retries, presenting, cancelling).

See :mod:`bot.tournaments.service` for the life of an event and the transaction rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bot.errors import ParlorError
from bot.i18n import N_, _, public
from bot.locks import KeyedLocks
from bot.matches.service import Match, MatchService, Result
from bot.storage import VersionConflict
from bot.storage.tournaments import PairingRecord, TournamentChange, TournamentRecord
from bot.tournaments.model import Format, Pairing
from bot.tournaments.model import Result as GameResult
from bot.tournaments.standings import Row

log = logging.getLogger("bot.tournaments.service")
T = TypeVar("T")

MIN_PLAYERS = 3
MAX_PLAYERS = 1024
MIN_ROUND_TIME = 60
MAX_ROUND_TIME = 14 * 86400
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


class TournamentCore:
    """State and helpers shared by the sign-up, rounds, results, organiser and deadline parts."""

    def __init__(self, matches: MatchService, presenter: Presenter | None = None) -> None:
        self.matches = matches
        self.store = matches.store
        self.clock = matches.clock
        self.presenter: Presenter = presenter or _Quiet()
        self._locks = KeyedLocks()
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_deadline_change: Callable[[], None] = lambda: None
        self.token = secrets.token_hex(6)
        """This process, in posting claims."""
        self._last_sweep = self.clock()
        self._posting: set[int] = set()

    def lock(self, tid: int) -> asyncio.Lock:
        return self._locks(tid)

    async def get(self, tid: int) -> TournamentRecord:
        t = await self.store.load_tournament(tid)
        if t is None:
            raise TournamentError(_("That tournament does not exist."))
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
                _("Someone changed this tournament at the same moment; please try again.")
            ) from exc
        self.on_deadline_change()

    def _check_organiser(self, t: TournamentRecord, user_id: int, is_admin: bool) -> None:
        if user_id != t.organiser_id and not is_admin:
            raise TournamentError(_("Only the organiser (or someone with Manage Server) can do that."))

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

    async def _after(self, tr: Transition) -> None:
        """Tell the presenter (outside the lock: posting to Discord takes time); its posts are the server's,
        in its language."""
        try:
            with public(tr.tournament.guild_id):
                if tr.cancelled:
                    await self.presenter.event_cancelled(tr.tournament, tr.cancelled)
                elif tr.started_round is not None:
                    await self.presenter.round_started(tr.tournament, tr.started_round)
                elif tr.finished:
                    await self.presenter.event_finished(tr.tournament)
        except Exception:
            log.exception("presenting tournament %s failed", tr.tournament.id)

    async def _cancel_locked(self, t: TournamentRecord, reason: str) -> Transition:
        """Cancel the event; ``reason`` is written for its channel (the caller writes it inside
        ``public(t.guild_id)``)."""
        t.status = "cancelled"
        t.deadline = None
        t.finished_at = self.clock()
        await self._save(t)
        for p in await self.store.pairings(t.id, t.current_round) if t.current_round else []:
            if p.result is None and p.match_id is not None:
                with contextlib.suppress(ParlorError):
                    await self.matches.abort(p.match_id, N_("The tournament was cancelled."))
        return Transition(t, cancelled=reason)


def to_pairing(p: PairingRecord) -> Pairing:
    return Pairing(p.round, p.board, p.white_id, p.black_id, GameResult(p.result) if p.result else None)
