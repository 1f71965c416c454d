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
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import socket
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import metrics
from bot import ratings as rating_math
from bot.errors import LobbyError, MatchOver, NotAPlayer, NotYourTurn, StaleBoard
from bot.games import GAMES, Game
from bot.games.base import CHANCE, Chance, Event, GameError, Outcome, Reason, Seat
from bot.matches.changes import note as note_changed
from bot.names import shown
from bot.storage import (
    GuildSettings,
    MatchRecord,
    MoveRecord,
    RatingChange,
    RatingRow,
    RatingUpdate,
    SeatRecord,
    Status,
    Store,
    VersionConflict,
)

MIN_TURN_LIMIT = 30
TURN_RUN = 12
MAX_TURN_LIMIT = 14 * 86400
CLOCKS = {"1m": 60_000, "3m": 180_000, "5m": 300_000, "10m": 600_000}
PLATFORM_OPTIONS = frozenset({"first", "clock", "speed"})
"""Match options the platform handles itself (seating, tournament clock, animation); the rest go to the engine."""
CHALLENGE_EXPIRY = 15 * 60
"""How long a challenge or lobby waits for players by default (``expires`` option of ``new``), whatever the turn limit."""
REMIND_FROM = 3600
"""Turn limits of an hour or more get one reminder, when 20% of the limit is left (at most 24 h before)."""
ARCHIVE_AFTER = 3600
"""A match thread is archived (not deleted) this long after the end."""


def reminder_time(start: float, turn_limit: int) -> float | None:
    """When the player to move is reminded: 20% of the limit before its end, at most 24 h before."""
    if turn_limit < REMIND_FROM:
        return None
    return start + turn_limit - min(0.2 * turn_limit, 86400.0)


AI_LEASE = 10.0
"""Seconds a process owns a pending computer move; if it dies, another process takes it over after that."""
ATTEMPTS = 4
"""How often a typed action is tried when another process changed the match in between."""


class _Conflict(StaleBoard):
    """The version check failed: another process (or a test) wrote the match first."""


def engine_options(options: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in options.items() if k not in PLATFORM_OPTIONS}


@dataclass(frozen=True)
class Player:
    """Someone taking a seat: a Discord user, or the bot at an AI level."""

    user_id: int
    name: str
    ai_level: str | None = None


class Match:
    """A match record with its engine state loaded."""

    def __init__(self, rec: MatchRecord) -> None:
        self.rec = rec
        self.game: Game = GAMES[rec.game]
        self.rules = self.game.rules
        self.state: Any = self.rules.load(rec.state) if rec.state is not None else None

    # convenient read-only views of the record
    id = property(lambda self: self.rec.id)
    version = property(lambda self: self.rec.version)
    status = property(lambda self: self.rec.status)
    seats = property(lambda self: self.rec.seats)
    options = property(lambda self: self.rec.options)

    @property
    def spec(self) -> Any:
        return self.rules.spec

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.load(self.rec.outcome) if self.rec.outcome else None

    def seat_of(self, user_id: int) -> Seat | None:
        return self.rec.seat_of(user_id)

    def seat(self, seat: Seat) -> SeatRecord:
        return self.rec.seats[seat]

    def names(self) -> list[str]:
        return [s.name for s in self.rec.seats]

    def to_act(self) -> frozenset[Seat]:
        """Seats that may move now (empty when finished or at a chance node)."""
        if self.rec.status != Status.RUNNING or self.state is None:
            return frozenset()
        who = self.rules.to_act(self.state)
        return who if isinstance(who, frozenset) else frozenset()

    def ai_to_act(self) -> Seat | None:
        for seat in sorted(self.to_act()):
            if self.rec.seats[seat].is_ai:
                return seat
        return None

    def view(self, seat: Seat | None = None) -> Any:
        return self.rules.view(self.state, seat)

    def clocks_ms(self, now: float) -> list[int] | None:
        """Remaining tournament-clock time per seat, the running clock counted down to ``now``."""
        c = self.rec.clocks
        if not c:
            return None
        remaining = list(c["remaining"])
        running = c.get("running")
        if running is not None and c.get("since") is not None and self.rec.status == Status.RUNNING:
            remaining[running] = max(0, int(remaining[running] - (now - c["since"]) * 1000))
        return remaining


@dataclass
class Result:
    """What an action did, for the cogs to present."""

    match: Match
    events: list[Event] = field(default_factory=list)
    moves: list[MoveRecord] = field(default_factory=list)
    actor: Seat | None = None
    before: Any = None                 # engine state before the action (for animations)
    started: bool = False
    finished: bool = False
    ratings: list[RatingChange] = field(default_factory=list)
    message: str = ""                  # a one-line summary ("alice resigned")
    notified: set[int] = field(default_factory=set)   # seats already told it is their turn (by the cogs)

    @property
    def ai_next(self) -> bool:
        return self.match.ai_to_act() is not None


class MatchService:
    """All match actions. ``clock`` is injectable so tests control time."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 on_deadline_change: Callable[[], None] | None = None) -> None:
        self.store = store
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.on_deadline_change = on_deadline_change or (lambda: None)
        self.counter_hooks: dict[str, Callable[[Match, list[Event]], list[tuple[int, str, int]]]] = {}
        self.on_match_end: Callable[[Match], None] = lambda m: None
        """Called (synchronously; schedule work, do not block) after a match is stored finished or aborted."""
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name in database claims (computer moves, deadlines)."""

    # -- helpers ------------------------------------------------------------------

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    async def get(self, match_id: int) -> Match:
        rec = await self.store.load_match(match_id)
        if rec is None:
            raise LobbyError("That match no longer exists.")
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

    @staticmethod
    def check_turn_limit(seconds: int) -> int:
        if not MIN_TURN_LIMIT <= seconds <= MAX_TURN_LIMIT:
            raise LobbyError(f"The turn limit must be between {MIN_TURN_LIMIT} seconds and 14 days.")
        return seconds

    @staticmethod
    def check_expiry(seconds: int | None) -> int:
        if seconds is None:
            return CHALLENGE_EXPIRY
        if not 60 <= seconds <= MAX_TURN_LIMIT:
            raise LobbyError("An invitation must stay open between 1 minute and 14 days.")
        return seconds

    async def _save(self, m: Match, expected: int, *, moves: Sequence[MoveRecord] = (),
                    rate: RatingUpdate | None = None,
                    counters: Sequence[tuple[int, str, int]] = ()) -> list[RatingChange]:
        """Commit the action in one store transaction; returns the rating changes it made."""
        m.rec.updated_at = self.clock()
        ai_claim = (self.owner, time.time() + AI_LEASE) if m.ai_to_act() is not None else None  # leases: wall time
        try:
            changes = await self.store.save_match(m.rec, expected, new_moves=moves, rate=rate, counters=counters,
                                                  ai_claim=ai_claim)
        except VersionConflict:
            raise _Conflict("Someone else acted on this match at the same moment; look at the board again.") from None
        note_changed(m.id)
        self.on_deadline_change()
        if m.rec.status in (Status.FINISHED, Status.ABORTED):
            self.on_match_end(m)
        return changes

    # -- creation and lobby -------------------------------------------------------

    async def create(self, game: str, *, guild_id: int | None, channel_id: int, host: Player,
                     opponent: Player | None, options: Mapping[str, str], turn_limit: int | None,
                     expires: int | None = None) -> Match:
        """A direct challenge (``opponent`` given) or an open lobby (no opponent).

        Against the bot (``opponent.ai_level`` set) the match starts at once. The invitation waits
        ``expires`` seconds (default 15 minutes), independent of the turn limit.
        """
        g = GAMES[game]
        spec = g.rules.spec
        settings = await self.settings(guild_id)
        limit = self.check_turn_limit(turn_limit if turn_limit is not None else settings.turn_limit)
        if opponent is not None:
            if opponent.user_id == host.user_id and opponent.ai_level is None:
                raise LobbyError("You cannot challenge yourself; leave `opponent` empty to open a lobby.")
            if opponent.ai_level is not None and opponent.ai_level not in spec.ai_levels:
                if not spec.ai_levels:
                    raise LobbyError(f"{spec.title} has no computer opponent.")
                raise LobbyError(f"Unknown level {opponent.ai_level!r}; choose {', '.join(spec.ai_levels)}.")
            if spec.min_seats > 2:
                raise LobbyError(f"{spec.title} needs at least {spec.min_seats} players: open a lobby instead.")
        # validate the engine options now, so a bad option never creates a match
        engine_opts = engine_options(options)
        try:
            g.rules.initial(engine_opts, max(spec.min_seats, 2))
        except ValueError as exc:
            raise LobbyError(str(exc)) from None
        now = self.clock()
        seats = [SeatRecord(0, host.user_id, host.name)]
        if opponent is not None:
            seats.append(SeatRecord(1, opponent.user_id, opponent.name, opponent.ai_level))
        vs_bot = opponent is not None and opponent.ai_level is not None
        rec = MatchRecord(
            id=0, game=game, guild_id=guild_id, channel_id=channel_id, thread_id=None, message_id=None,
            status=Status.CHALLENGE if opponent is not None else Status.LOBBY, options=dict(options), state=None,
            version=0, seed=secrets.token_hex(8), host_id=host.user_id, rated=not vs_bot and g.key != "nomic",
            turn_limit=limit, deadline=now + self.check_expiry(expires), clocks=None, outcome=None, ui={},
            created_at=now, updated_at=now, finished_at=None, seats=seats,
        )
        await self.store.create_match(rec)
        note_changed(rec.id)
        await self.store.set_board_version(rec.id, rec.version)
        m = Match(rec)
        self.on_deadline_change()
        if vs_bot:
            result = await self.start(m.id, host.user_id)
            return result.match
        return m

    async def accept(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.CHALLENGE:
                raise LobbyError("This challenge is no longer open.")
            if len(m.seats) < 2 or m.seats[1].user_id != user_id:
                raise NotAPlayer("Only the challenged player can accept.")
            return await self._start(m)

    async def decline(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.CHALLENGE:
                raise LobbyError("This challenge is no longer open.")
            if m.seats[1].user_id != user_id:
                raise NotAPlayer("Only the challenged player can decline.")
            return await self._close(m, Status.DECLINED, f"{m.seats[1].name} declined.")

    async def cancel(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if not m.status.is_open:
                raise LobbyError("This match has already started or ended.")
            if m.rec.host_id != user_id:
                raise NotAPlayer("Only the player who opened it can cancel.")
            return await self._close(m, Status.CANCELLED, f"{m.seats[0].name} cancelled.")

    async def _close(self, m: Match, status: Status, message: str) -> Result:
        expected = m.version
        m.rec.status = status
        m.rec.version += 1
        m.rec.deadline = None
        m.rec.finished_at = self.clock()
        self._ended(m)
        await self._save(m, expected)
        return Result(m, message=message, finished=True)

    async def join(self, match_id: int, player: Player) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            spec = m.spec
            if m.status == Status.RUNNING and spec.max_seats is None:
                return await self._join_running(m, player)
            if m.status != Status.LOBBY:
                raise LobbyError("This lobby is closed.")
            if m.seat_of(player.user_id) is not None:
                raise LobbyError("You are already in this lobby.")
            if spec.max_seats is not None and len(m.seats) >= spec.max_seats:
                raise LobbyError(f"This lobby is full ({spec.max_seats} players).")
            expected = m.version
            m.rec.seats.append(SeatRecord(len(m.seats), player.user_id, player.name, None))
            m.rec.version += 1
            await self._save(m, expected)
            return Result(m, message=f"{player.name} joined.")

    async def _join_running(self, m: Match, player: Player) -> Result:
        """Open-ended games (Nomic World) take new players while running, through a join move."""
        if m.seat_of(player.user_id) is not None:
            raise LobbyError("You are already playing in this match.")
        expected = m.version
        seat = len(m.seats)
        m.rec.seats.append(SeatRecord(seat, player.user_id, player.name, None))
        join = getattr(m.game.module, "join_move", None)
        if join is None:
            raise LobbyError("This game does not take players once it has started.")
        return await self._apply(m, seat, join(m.state, seat, player.user_id, player.name), expected,
                                 user_id=player.user_id)

    async def leave(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.LOBBY:
                raise LobbyError("The match has started: use resign instead.")
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You are not in this lobby.")
            if user_id == m.rec.host_id:
                return await self._close(m, Status.CANCELLED, f"{m.seats[seat].name} (the host) left; lobby closed.")
            expected = m.version
            name = m.seats[seat].name
            del m.rec.seats[seat]
            for i, s in enumerate(m.rec.seats):
                s.seat = i
            m.rec.version += 1
            await self._save(m, expected)
            return Result(m, message=f"{name} left.")

    async def update_seat_data(self, match_id: int, user_id: int, data: Mapping[str, Any]) -> Match:
        """Store per-seat lobby choices (e.g. an EOF colour)."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.LOBBY:
                raise LobbyError("The lobby is closed.")
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("Join the lobby first.")
            expected = m.version
            m.seats[seat].data.update(data)
            m.rec.version += 1
            await self._save(m, expected)
            return m

    async def start(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status == Status.RUNNING:
                raise LobbyError("This match has already started.")
            if not m.status.is_open:
                raise LobbyError("This lobby is closed.")
            if user_id != m.rec.host_id:
                raise NotAPlayer("Only the host can start the match.")
            if len(m.seats) < m.spec.min_seats:
                raise LobbyError(f"{m.spec.title} needs at least {m.spec.min_seats} players to start.")
            return await self._start(m)

    async def begin(self, match_id: int) -> Result:
        """Start a match whose seats were filled by the platform (a tournament pairing), in seat order.

        Idempotent: an already running match is returned as it is (``started`` False).
        """
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status == Status.RUNNING:
                return Result(m)
            if m.status != Status.LOBBY:
                raise LobbyError("This match can no longer start.")
            return await self._start(m)

    async def _start(self, m: Match) -> Result:
        expected = m.version
        rng = random.Random(f"{m.rec.seed}:seating")
        first = m.options.get("first", "challenger")
        seats = list(m.rec.seats)
        if len(seats) == 2 and (first == "opponent" or (first == "random" and rng.random() < 0.5)):
            seats.reverse()
        for i, s in enumerate(seats):
            s.seat = i
        m.rec.seats = seats
        engine_opts = engine_options(m.options)
        setup = getattr(m.game.module, "setup_options", None)
        if setup is not None:  # games that need the seats in their options (EOF colours, Nomic names)
            engine_opts = setup(engine_opts, m.rec.seats)
        try:
            m.state = m.rules.initial(engine_opts, len(seats))
        except ValueError as exc:
            raise LobbyError(str(exc)) from None
        m.rec.status = Status.RUNNING
        m.rec.ui["start_seats"] = len(seats)
        m.rec.version += 1
        now = self.clock()
        clock = m.options.get("clock")
        if clock in CLOCKS:
            m.rec.clocks = {"remaining": [CLOCKS[clock]] * len(seats), "running": None, "since": None}
        moves: list[MoveRecord] = []
        events: list[Event] = []
        opening = getattr(m.game.module, "opening_moves", None)
        if opening is not None:  # games whose engine learns its players by moves (Nomic World's joins)
            for seat, text in opening(m.rec.seats):
                move = m.rules.parse(text, m.state, seat)
                before = m.state
                m.state, evs = m.rules.apply(m.state, seat, move)
                events.extend(evs)
                moves.append(MoveRecord(len(moves), seat, m.rec.seats[seat].user_id if seat >= 0 else None,
                                        m.rules.format(move, before), now))
        events += self._settle(m, moves, now)
        self._arm(m, now)
        rate = self._finish_if_over(m)
        await self._save(m, expected, moves=moves, rate=rate)
        return Result(m, events=events, moves=moves, started=True, finished=m.status == Status.FINISHED)

    # -- playing ------------------------------------------------------------------

    async def play(self, match_id: int, user_id: int, text: str, *, expected_version: int | None = None,
                   seat: Seat | None = None) -> Result:
        """Play ``text`` (the game's notation) for ``user_id`` (or the AI ``seat``).

        Raises:
            StaleBoard: ``expected_version`` is not the match's version.
            NotAPlayer / NotYourTurn / MatchOver: the platform's turn checks.
            InvalidNotation / IllegalMove: the engine's.
        """
        started = time.perf_counter()
        async with self.lock(match_id):
            for attempt in range(ATTEMPTS):
                try:
                    result = await self._play(match_id, user_id, text, expected_version, seat)
                except _Conflict:
                    if expected_version is not None or attempt == ATTEMPTS - 1:
                        raise
                else:
                    metrics.move_played(result.match.game.key, time.perf_counter() - started)
                    return result
            raise AssertionError("unreachable")

    async def _play(self, match_id: int, user_id: int, text: str, expected_version: int | None,
                    seat: Seat | None) -> Result:
        m = await self.get(match_id)
        if expected_version is not None and expected_version != m.version:
            raise StaleBoard("This board is out of date: the position has changed. Use the newest board.")
        if m.status != Status.RUNNING:
            raise MatchOver("This match is over." if not m.status.is_open else "This match has not started yet.")
        if seat is None:
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You are not playing in this match.")
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
        return await self._apply(m, seat, move, m.version, user_id=user_id)

    @staticmethod
    def _whose_turn(m: Match) -> str:
        names = [shown(m.seats[s].name) for s in sorted(m.to_act())]
        if not names:
            return "It is not your turn."
        return f"It is not your turn: waiting for {', '.join(names)}."

    def _clock_ran_out(self, m: Match, seat: Seat) -> bool:
        remaining = m.clocks_ms(self.clock())
        return bool(remaining is not None and m.rec.clocks and m.rec.clocks.get("running") == seat
                    and remaining[seat] <= 0)

    async def _apply(self, m: Match, seat: Seat, move: Any, expected: int, *, user_id: int | None) -> Result:
        now = self.clock()
        before = m.state
        ply = int(m.rec.ui.get("plies", 0))
        m.state, events = m.rules.apply(m.state, seat, move)
        moves = [MoveRecord(ply, seat, user_id, m.rules.format(move, before), now)]
        self._charge_clock(m, now)
        events = list(events) + self._settle(m, moves, now)
        m.rec.version += 1
        self._arm(m, now)
        counters = self._counters(m, events)
        ratings = await self._save(m, expected, moves=moves, rate=self._finish_if_over(m), counters=counters)
        return Result(m, events=events, moves=moves, actor=seat, before=before,
                      finished=m.status == Status.FINISHED, ratings=ratings)

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
        for _ in range(10_000):
            who = m.rules.to_act(m.state)
            if not isinstance(who, Chance):
                break
            rng = random.Random(f"{m.rec.seed}:{plies}")
            outcome = rng.choices(who.outcomes, weights=who.weights)[0] if who.weights else rng.choice(who.outcomes)
            before = m.state
            m.state, evs = m.rules.apply(m.state, CHANCE, outcome)
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
            mover = next((s for s, _ in reversed(out) if s != CHANCE), None)
            if mv.seat != CHANCE and mover is not None and mover != mv.seat:
                out = []
            out.append([mv.seat, mv.notation])
        return out[-TURN_RUN:]

    def _charge_clock(self, m: Match, now: float) -> None:
        c = m.rec.clocks
        if not c or c.get("running") is None or c.get("since") is None:
            return
        c["remaining"][c["running"]] = max(0, int(c["remaining"][c["running"]] - (now - c["since"]) * 1000))
        c["since"] = now  # charged up to now; if the same seat moves again (rule A) its clock runs on from here

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
        """Mark the match finished if it is over; the rating update to make in the saving transaction."""
        outcome = outcome or m.rules.outcome(m.state)
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

        return RatingUpdate(guild_id, game, tuple(uid for uid, _ in players), compute)

    async def resign(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.RUNNING:
                raise MatchOver("This match is not running.")
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You are not playing in this match.")
            expected = m.version
            m.rec.version += 1
            outcome = Outcome.forfeit(seat, len(m.seats), Reason.RESIGNATION)
            outcome = Outcome(outcome.ranks, outcome.reason, outcome.scores, f"{m.seats[seat].name} resigned.")
            ratings = await self._save(m, expected, rate=self._finish_if_over(m, outcome))
            return Result(m, actor=seat, finished=True, ratings=ratings, message=outcome.detail)

    async def abort(self, match_id: int, reason: str = "Stopped by an admin.") -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if not m.status.is_active:
                raise MatchOver("This match is not active.")
            m.rec.outcome = Outcome.draw(max(1, len(m.seats)), Reason.ABORTED, detail=reason).dump()
            return await self._close(m, Status.ABORTED, reason)

    # -- time -------------------------------------------------------------------

    async def expire(self, match_id: int) -> Result | None:
        """Handle a passed deadline; ``None`` if nothing was due (already handled elsewhere)."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.rec.deadline is None or m.rec.deadline > self.clock() or not m.status.is_active:
                return None
            if m.status.is_open:
                what = "challenge" if m.status == Status.CHALLENGE else "lobby"
                return await self._close(m, Status.EXPIRED, f"The {what} expired: nobody took it up in time.")
            return await self._timeout_locked(m)

    async def force_timeout(self, match_id: int, why: str | None = None) -> Result | None:
        """Decide a running match now by the game's own timeout rule (a tournament round's deadline);
        ``why`` completes "<player> …" in the result."""
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
                    m.state, evs = m.rules.apply(m.state, seat, move)
                    events.extend(evs)
                    moves.append(MoveRecord(ply + len(moves), seat, None, m.rules.format(move, state_before), now))
                events += self._settle(m, moves, now)
                m.rec.version += 1
                self._arm(m, now)
                ratings = await self._save(m, expected, moves=moves, rate=self._finish_if_over(m),
                                           counters=self._counters(m, events))
                return Result(m, events=events, moves=moves, before=before, finished=m.status == Status.FINISHED,
                              ratings=ratings, message="The turn limit passed.")
        losers = clock_out or to_act
        if not losers:
            m.rec.deadline = None
            m.rec.version += 1
            await self._save(m, expected)
            return Result(m)
        loser = losers[0]
        why = why or ("ran out of time on the clock" if clock_out else "did not move within the turn limit")
        outcome = Outcome.forfeit(loser, len(m.seats), Reason.TIMEOUT)
        outcome = Outcome(outcome.ranks, outcome.reason, outcome.scores, f"{m.seats[loser].name} {why}.")
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

    async def latest_finished(self, place_id: int, game: str | None = None) -> Match | None:
        rec = await self.store.latest_finished_in_place(place_id)
        return Match(rec) if rec is not None and (game is None or rec.game == game) else None

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
        move = await asyncio.to_thread(m.game.choose, m.state, seat, rng, level)
        text = m.rules.format(move, m.state)
        try:
            return await self.play(match_id, m.seats[seat].user_id, text, expected_version=version, seat=seat)
        except (StaleBoard, MatchOver):
            return None

    # -- places and lookups -----------------------------------------------------

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
