"""The records storage hands out and takes (plain dataclasses and enums; JSON, not games), and its errors.

Re-exported by :mod:`bot.storage`; the backends import them from here, so the package's ``__init__``
(which picks a backend) and the backends never import each other.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = Any


class Status(enum.StrEnum):
    """Where a match is in its life."""

    CHALLENGE = "challenge"   # waiting for the named opponent to accept
    LOBBY = "lobby"           # open for players to join
    RUNNING = "running"
    FINISHED = "finished"
    DECLINED = "declined"     # the opponent declined the challenge
    CANCELLED = "cancelled"   # the host withdrew before it started
    EXPIRED = "expired"       # a challenge or lobby nobody took up in time
    ABORTED = "aborted"       # stopped by an admin; unrated

    @property
    def is_open(self) -> bool:
        return self in (Status.CHALLENGE, Status.LOBBY)

    @property
    def is_active(self) -> bool:
        return self in (Status.CHALLENGE, Status.LOBBY, Status.RUNNING)


ACTIVE = (Status.CHALLENGE.value, Status.LOBBY.value, Status.RUNNING.value)


@dataclass
class SeatRecord:
    seat: int
    user_id: int          # the bot's own user id for a computer seat
    name: str
    ai_level: str | None = None
    data: dict[str, JSON] = field(default_factory=dict)
    notify: NotifyMode | None = field(default=None, compare=False, repr=False)
    """How the member hears of their turn in the match's server (``/notify``), read with the seats so that
    a move's turn notice needs no trip of its own to the store; ``None``: not read with them (ask the
    store)."""

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class MoveRecord:
    ply: int
    seat: int
    user_id: int | None
    notation: str
    created_at: float


@dataclass
class MatchRecord:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    message_id: int | None
    status: Status
    options: dict[str, str]
    state: dict[str, JSON] | None
    version: int
    seed: str
    host_id: int
    rated: bool
    turn_limit: int
    deadline: float | None
    clocks: dict[str, JSON] | None
    outcome: dict[str, JSON] | None
    ui: dict[str, JSON]
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: list[SeatRecord] = field(default_factory=list)
    remind_at: float | None = None     # when the player(s) to move get their one reminder (migration 003)
    archive_at: float | None = None    # when the match thread is archived, an hour after the end
    rev: int = 0                       # bumped by every write of the row: the saves' check (migration 005)

    @property
    def place_id(self) -> int:
        """The channel where the match is played (its thread if it has one)."""
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai:
                return s.seat
        return None


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    use_threads: bool = True
    turn_limit: int = 86400


class NotifyMode(enum.StrEnum):
    """How a member hears that it is their turn (``/notify``, per server)."""

    THREAD = "thread"   # a new message in the match thread that mentions only them (the default)
    DM = "dm"           # a direct message linking to the thread (closed DMs: the thread ping)
    OFF = "off"         # nothing


@dataclass(frozen=True)
class RatingRow:
    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    wins: int = 0
    losses: int = 0
    draws: int = 0
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating shown on leaderboards (mu − 3σ)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    rank: int
    before: RatingRow
    after: RatingRow


@dataclass(frozen=True)
class RatingUpdate:
    """Rate a finished match inside its saving transaction: ``compute`` gets the players' current rows
    (as the transaction sees them, locked) and returns the changes to store."""

    guild_id: int
    game: str
    user_ids: tuple[int, ...]
    compute: Callable[[Mapping[int, RatingRow]], Sequence[RatingChange]]


@dataclass(frozen=True)
class ComputerResult:
    """One finished match a member played against the computer (unrated): for ``/stats``."""

    game: str
    level: str
    seat: int                        # the member's seat
    outcome: dict[str, JSON] | None  # the match's stored outcome (``Outcome.dump()``)


class VersionConflict(Exception):
    """Someone else changed the match first (a double click or another shard)."""


class StorageError(Exception):
    """The database cannot be used; ``str()`` is one line for the operator (what, which file, what to do)."""


class SchemaTooNew(StorageError):
    # (operator messages: the start-up's error, like the logs)
    def __init__(self, found: int, known: int,
                 where: str = "the database") -> None:  # not translated: operator
        self.found, self.known = found, known
        super().__init__(f"{where} has schema version {found}, newer than this Parlor's {known}: "
                         "run the newer Parlor that wrote it, or restore a backup made for this "
                         "version.")  # not translated: operator
