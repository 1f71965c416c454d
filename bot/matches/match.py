"""A match with its engine state loaded, and what an action returns: the platform's records.

Also the platform's constants (turn limits, clocks, reminders, archiving, leases) shared by the parts
of :class:`bot.matches.service.MatchService`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import StaleBoard
from bot.games import GAMES, Game
from bot.games.base import Event, Outcome, Seat
from bot.i18n import language
from bot.names import named
from bot.storage import MatchRecord, MoveRecord, RatingChange, SeatRecord, Status

MIN_TURN_LIMIT = 30
TURN_RUN = 12
MAX_TURN_LIMIT = 14 * 86400
CLOCKS = {"1m": 60_000, "3m": 180_000, "5m": 300_000, "10m": 600_000}
PLATFORM_OPTIONS = frozenset({"first", "clock", "speed"})
"""Match options the platform handles itself (seating, tournament clock, animation).

The rest go to the engine.
"""
CHALLENGE_EXPIRY = 15 * 60
"""How long a challenge or lobby waits for players by default (``expires`` option of ``new``).

Whatever the turn limit is.
"""
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


def ended_view(view: Any, outcome: Outcome) -> Any:
    """A game's view as if its engine had ended the game with ``outcome`` (resignation, timeout, abort):
    nobody to move, the winner set, where the view has such fields (Pylon, Fire and Ice, the Egg Carton
    Game); other views are returned unchanged."""
    if not dataclasses.is_dataclass(view) or isinstance(view, type):
        return view
    names = {f.name for f in dataclasses.fields(view)}
    winners = sorted(outcome.winners)
    changes: dict[str, Any] = {}
    if "to_move" in names:
        changes["to_move"] = None
    if "winner" in names:
        changes["winner"] = winners[0] if len(winners) == 1 else None
    if "is_over" in names:
        changes["is_over"] = True
    if "is_draw" in names:
        changes["is_draw"] = outcome.is_draw
    if "again" in names:
        changes["again"] = False
    if "detail" in names and isinstance(getattr(view, "detail", None), str):
        changes["detail"] = (outcome.detail or "").rstrip(".")
    if "phase" in names and "outcome" in names:
        changes["phase"], changes["outcome"] = "over", outcome
    return dataclasses.replace(view, **changes)


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
        self._views: dict[tuple[Seat | None, str], tuple[Any, Any]] = {}
        """(seat, language) -> (the state it was made of, view): a view may hold words (whose turn it is)."""

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
        return [named(s.name) for s in self.rec.seats]  # (a computer's level in the current language)

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
        """The engine's view of the current state for ``seat`` (None: the public one).

        Kept while the state is the same object (engine states are immutable values; an action puts a new
        one in ``state``): a move's reply reads the view in several places -- buttons, picture, embed
        lines -- and some engines take a while to build it (Fire and Ice ~0.3 ms). Kept per language: an
        engine may word parts of it (whose turn it is), in the language current when it is made."""
        key = (seat, language())
        kept = self._views.get(key)
        if kept is not None and kept[0] is self.state:
            return kept[1]
        view = self.rules.view(self.state, seat)
        self._views[key] = (self.state, view)
        return view

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


@dataclass(frozen=True)
class Ply:
    """One action of an answer that shows several (a player's move and the computer's replies)."""

    actor: Seat | None
    before: Any  # engine state before it (None: not a move, e.g. the start)
    events: list[Event]


@dataclass
class Result:
    """What an action did, for the cogs to present.

    ``events``, ``actor`` and ``before`` are those of the last action (whose turn began, what a still
    board highlights); an answer that shows several actions (:meth:`then`) keeps every one in ``plies``,
    in order, for pictures that play them all (:meth:`steps`)."""

    match: Match
    events: list[Event] = field(default_factory=list)
    moves: list[MoveRecord] = field(default_factory=list)
    actor: Seat | None = None
    before: Any = None  # engine state before the action (for animations)
    started: bool = False
    finished: bool = False
    ratings: list[RatingChange] = field(default_factory=list)
    message: str = ""  # a one-line summary ("alice resigned")
    notified: set[int] = field(default_factory=set)  # seats already told it is their turn (by the cogs)
    plies: list[Ply] = field(default_factory=list)  # every action shown, when several (see steps)

    @property
    def ai_next(self) -> bool:
        return self.match.ai_to_act() is not None

    def steps(self) -> list[Ply]:
        """Every action this result shows, in order: the ones combined by :meth:`then`, else this one."""
        return list(self.plies) or [Ply(self.actor, self.before, list(self.events))]

    def then(self, reply: Result) -> Result:
        """This result and ``reply`` (the next action, e.g. the computer's answer) as one answer: the
        match, last action and outcome of ``reply``; the moves and :meth:`steps` of both, in order; the
        start and the seats already told of this one."""
        return Result(reply.match, events=reply.events, moves=self.moves + reply.moves, actor=reply.actor,
                      before=reply.before, started=self.started, finished=reply.finished,
                      ratings=reply.ratings, message=reply.message, notified=set(self.notified),
                      plies=self.steps() + reply.steps())
