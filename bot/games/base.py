"""The engine protocol every Parlor game implements.

An engine is pure and deterministic: no discord, no clocks, no ``random``.
A game module ``bot/games/<key>/__init__.py`` exposes ``RULES`` (an object
following :class:`Rules`), and the platform drives it only through this
protocol:

* ``initial(options, seats)`` builds the start state (options validated).
* ``to_act(s)`` says who acts: a frozenset of seats, a :class:`Chance` node
  (the platform picks an outcome with the match's seeded RNG and logs it like
  a move, seat :data:`CHANCE`), or ``None`` once the game is over.
* ``apply(s, seat, move)`` checks legality and returns ``(new_state, events)``;
  it never mutates ``s``. Illegal moves raise :class:`IllegalMove`.
* ``parse(text, s, seat)`` turns the game's text notation into a legal move
  (:class:`InvalidNotation` for syntax, :class:`IllegalMove` for rules);
  ``format(move, s)`` is the canonical notation (``parse(format(m))`` == m).
  The move log stores ``format`` strings, so replay is ``parse`` + ``apply``.
* ``view(s, seat)`` is what one seat (or, with ``None``, the channel) may see.
* ``dump``/``load`` give plain JSON with a ``"v"`` schema field.

Seat 0 always moves first; the platform decides which player sits where
(``first``/``side`` options), so engines never deal with who is who.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.i18n import N_, _, again

Seat = int
CHANCE: Seat = -1
"""The pseudo-seat that plays chance outcomes (dice, draws, handicap set-up)."""

JSON = Any
S = TypeVar("S")
M = TypeVar("M")


class GameError(ValueError):
    """A problem with a move that the player can fix; ``str()`` is shown to them."""

    def __init__(self, message: str, *, legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.legal = tuple(legal)

    def user_text(self, limit: int = 12) -> str:
        """The message plus a short list of legal moves, if known, in the current language (a message the
        engine wrote in another, e.g. while a move was applied for the channel, is said again)."""
        text = again(self.args[0]) if self.args and isinstance(self.args[0], str) else str(self)
        if self.legal:
            shown = ", ".join(self.legal[:limit])
            if len(self.legal) > limit:
                more = len(self.legal) - limit
                text += "\n" + _("Legal moves: {moves} (+{more} more)", moves=shown, more=more)
            else:
                text += "\n" + _("Legal moves: {moves}", moves=shown)
        return text


class InvalidNotation(GameError):
    """The text could not be read as a move of this game."""


class IllegalMove(GameError):
    """The move is well-formed but the rules forbid it now."""


@dataclass(frozen=True)
class Chance:
    """A chance node: one of ``outcomes`` happens, with the given weights.

    Outcomes are moves (played with seat :data:`CHANCE`); ``weights`` default to
    uniform. ``label`` says what is being decided ("die roll", "draw").
    """

    outcomes: tuple[Any, ...]
    weights: tuple[float, ...] | None = None
    label: str = N_("chance")
    """Marked for translation by the engine (``_("die roll")``); the default is looked up where shown."""


class Reason(enum.Enum):
    """Why a game ended."""

    NORMAL = "normal"
    """The rules ended the game (a line, no moves left, all rounds played...)."""
    AGREEMENT = "agreement"
    """The players agreed to end it (Pylon's agree-to-end)."""
    RESIGNATION = "resignation"
    """A player resigned; they are ranked last."""
    TIMEOUT = "timeout"
    """A player ran out of time (turn limit or tournament clock); ranked last."""
    DRAW = "draw"
    """The rules declare a draw (e.g. two passes in a row)."""
    ABORTED = "aborted"
    """Stopped by an admin or never properly started; unrated."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranks[seat]`` is the placing (0 = best; equal numbers are ties) and is
    what ratings use. ``winners`` are the seats ranked 0, empty when every
    seat shares the same place (a draw). ``scores`` are the game's points, if
    it has any; ``detail`` a short human sentence ("Ice controls A, C, G").
    """

    ranks: tuple[int, ...]
    reason: Reason = Reason.NORMAL
    scores: tuple[int, ...] | None = None
    detail: str = ""

    @property
    def winners(self) -> frozenset[Seat]:
        if len(set(self.ranks)) == 1:
            return frozenset()  # everybody tied: a draw
        return frozenset(i for i, r in enumerate(self.ranks) if r == 0)

    @property
    def is_draw(self) -> bool:
        return len(set(self.ranks)) == 1

    @staticmethod
    def win(winner: Seat, seats: int, reason: Reason = Reason.NORMAL, scores: tuple[int, ...] | None = None,
            detail: str = "") -> Outcome:
        return Outcome(tuple(0 if i == winner else 1 for i in range(seats)), reason, scores, detail)

    @staticmethod
    def draw(seats: int, reason: Reason = Reason.NORMAL, scores: tuple[int, ...] | None = None,
             detail: str = "") -> Outcome:
        return Outcome((0,) * seats, reason, scores, detail)

    @staticmethod
    def from_scores(scores: Sequence[int], reason: Reason = Reason.NORMAL, detail: str = "") -> Outcome:
        """Rank by score, highest first; equal scores share a place."""
        ordered = sorted(set(scores), reverse=True)
        ranks = tuple(ordered.index(x) for x in scores)
        return Outcome(ranks, reason, tuple(scores), detail)

    @staticmethod
    def forfeit(loser: Seat, seats: int, reason: Reason) -> Outcome:
        """``loser`` resigned or timed out: everybody else shares first place."""
        return Outcome(tuple(1 if i == loser else 0 for i in range(seats)), reason)

    def dump(self) -> dict[str, JSON]:
        return {"ranks": list(self.ranks), "reason": self.reason.value,
                "scores": list(self.scores) if self.scores is not None else None, "detail": self.detail}

    @staticmethod
    def load(d: Mapping[str, JSON]) -> Outcome:
        scores = d.get("scores")
        return Outcome(tuple(d["ranks"]), Reason(d["reason"]), tuple(scores) if scores is not None else None,
                       d.get("detail", ""))


@dataclass(frozen=True)
class Event:
    """Something that happened while applying a move.

    ``kind`` is a short word ("place", "sow", "draw", "crash", ...), ``data``
    plain JSON, ``text`` a one-line human description for the channel.
    ``visible_to`` is ``None`` for public events or the only seat allowed to
    see it (the platform redacts per recipient).
    """

    kind: str
    text: str = ""
    data: Mapping[str, JSON] = field(default_factory=dict)
    visible_to: Seat | None = None


@dataclass(frozen=True)
class OptionSpec:
    """One match option: its name, allowed values (strings) and default."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str


@dataclass(frozen=True)
class GameSpec:
    """Fixed facts about a game."""

    key: str                      # "pylon", also the slash command group
    title: str                    # "Pylon"
    min_seats: int
    max_seats: int | None         # None = open-ended (Nomic World)
    ai_levels: tuple[str, ...] = ()   # empty = no computer opponent
    hidden_information: bool = False
    options: tuple[OptionSpec, ...] = ()
    seat_names: tuple[str, ...] = ()  # e.g. ("Fire", "Ice"); empty = "Player 1"...
    rated: bool = True            # counted on the leaderboards
    order: int = 100              # where the game sits in lists (/help, choices); ties by title


class Rules(Protocol, Generic[S, M]):
    """The pure state machine of one game (see the module docstring)."""

    spec: ClassVar[GameSpec]

    def initial(self, options: Mapping[str, str], seats: int) -> S: ...
    def to_act(self, s: S) -> frozenset[Seat] | Chance | None: ...
    def legal_moves(self, s: S, seat: Seat) -> Sequence[M]: ...
    def apply(self, s: S, seat: Seat, move: M) -> tuple[S, list[Event]]: ...
    def outcome(self, s: S) -> Outcome | None: ...
    def view(self, s: S, seat: Seat | None) -> Any: ...
    def dump(self, s: S) -> dict[str, JSON]: ...
    def load(self, d: Mapping[str, JSON]) -> S: ...
    def parse(self, text: str, s: S, seat: Seat) -> M: ...
    def format(self, move: M, s: S) -> str: ...
    def timeout_moves(self, s: S) -> list[tuple[Seat, M]] | None:
        """Moves the rules play when the turn limit passes, or ``None`` to
        forfeit the seat(s) to act (the 2-player default)."""
        ...

    def out_of_turn(self, s: S, seat: Seat, move: M) -> bool:
        """Whether ``seat`` may play ``move`` although it is not in ``to_act``
        (Pylon's agree-to-end, Nomic judgments and joins). Default: never."""
        ...


class RulesBase:
    """Defaults for the optional parts of :class:`Rules`; engines may inherit it."""

    def timeout_moves(self, s: Any) -> list[tuple[Seat, Any]] | None:
        return None

    def out_of_turn(self, s: Any, seat: Seat, move: Any) -> bool:
        return False
