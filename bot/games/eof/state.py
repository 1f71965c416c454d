"""EOF: the match state (phases, the step log, finished rounds), its JSON and the game's constants."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import bot.games.eof.words as words
from bot.games.base import JSON, Seat
from bot.games.eof.notation import Program, read_instruction, read_program
from bot.games.eof.pieces import EMPTY, FULL, KINDS, LETTERS, PIECES, Counts, Instruction, Piece
from bot.games.eof.scoring import Configuration
from bot.games.eof.words import Arg, Join, Said, and_list, colour_name, english, said
from bot.i18n import N_

ROUNDS: Final = 4
HAND: Final = 9
"""Pieces each player draws per round."""
PROGRAM_LENGTH: Final = 5

LOCKING: Final = ("none", "locks-crash", "locks-nocrash", "permission-crash", "permission-nocrash")
DEFAULT_COLOURS: Final = (0, 1, 2, 3)


def result_sentence(scores: Sequence[int], names: Sequence[Arg]) -> Said:
    """How a finished game ended, in the one wording every place uses (no final full stop), in the
    current language (a :class:`~bot.games.eof.words.Said`: it can be written again in another one).

    The highest total wins; equal totals share the place (rulings). Everybody equal is a draw,
    some equal at the top tie for first:

    >>> result_sentence([16, 14], ["Red", "Blue"])
    'Red wins with 16'
    >>> result_sentence([12, 5, 12], ["Red", "Yellow", "Blue"])
    'Red and Blue tie for first with 12'
    >>> result_sentence([0, 0, 0, 0], ["Red", "Yellow", "Green", "Blue"])
    'Draw: Red, Yellow, Green and Blue tie with 0'
    """
    if not scores:
        return said(N_("Draw"))
    best = max(scores)
    top = [names[t] for t, sc in enumerate(scores) if sc == best]
    if len(top) == 1:
        return said(N_("{player} wins with {score}"), player=top[0], score=best)
    if len(top) == len(scores):
        return said(N_("Draw: {players} tie with {score}"), players=and_list(top), score=best)
    return said(N_("{players} tie for first with {score}"), players=and_list(top), score=best)


def round_summary(skipped: bool, crashed: bool, penalty: bool,
                  configurations: Sequence[Configuration]) -> Arg:
    """What a seat's round came to, in words: ``no program``, ``crashed`` (``crashed (penalty)`` when it
    cost points), or the configurations it scored (``hill at 3-7: 8, run of 3 at 9-11: 3``)."""
    if skipped:
        return said(N_("no program"))
    if crashed:
        return said(N_("crashed (penalty)")) if penalty else said(N_("crashed"))
    if not configurations:
        return said(N_("no configuration"))
    return Join(tuple(c.describe() for c in configurations), last=False)


class Phase(enum.Enum):
    """Where the round stands."""

    FIRST = "first"
    """Chance draws the piece that decides who plays first this round."""
    DEAL = "deal"
    """Players draw their nine pieces in turn (a size choice, then chance)."""
    PROGRAM = "program"
    """Players write their programs, secretly and simultaneously."""
    PERMISSION = "permission"
    """Execution waits for players asked to allow the deletion of their record."""
    OVER = "over"
    """Four rounds have been played."""


@dataclass(frozen=True)
class Step:
    """One executed instruction of the round's step log.

    ``text`` says what happened ("moves right 2: now on record 5"), ``crash``
    why the program crashed ("" if it did not), ``touched`` the 0-based
    records to highlight afterwards. The texts are :class:`~bot.games.eof.words.Said` (write them for a
    reader with :func:`~bot.games.eof.words.tr`); an older stored state's are plain English.
    """

    seat: Seat
    index: int
    instruction: Instruction
    text: str
    crash: str = ""
    touched: tuple[int, ...] = ()

    def dump(self) -> dict[str, JSON]:
        """The step with its texts in English, and their parts (``said``) to write them in any language."""
        out: dict[str, JSON] = {"seat": self.seat, "index": self.index, "instruction": str(self.instruction),
                                "text": english(self.text), "crash": english(self.crash),
                                "touched": list(self.touched)}
        parts = {k: words.dump(v) for k, v in (("text", self.text), ("crash", self.crash))
                 if isinstance(v, Said)}
        if parts:
            out["said"] = parts
        return out

    @staticmethod
    def load(d: Mapping[str, JSON]) -> Step:
        parts = d.get("said") or {}
        if not isinstance(parts, dict):
            raise ValueError("a step's texts must be an object")
        text = words.load_text(parts.get("text"), str(d["text"]))
        crash = words.load_text(parts.get("crash"), str(d.get("crash", "")))
        return Step(int(d["seat"]), int(d["index"]), read_instruction(str(d["instruction"])), text, crash,
                    tuple(int(t) for t in d.get("touched", ())))


@dataclass(frozen=True)
class RoundResult:
    """A finished round: each seat's points and chosen configurations, and its step log."""

    round: int
    points: tuple[int, ...]
    configurations: tuple[tuple[Configuration, ...], ...]
    crashed: tuple[bool, ...]
    skipped: tuple[bool, ...]
    steps: tuple[Step, ...]

    def dump(self) -> dict[str, JSON]:
        return {"round": self.round, "points": list(self.points),
                "configurations": [[c.dump() for c in cs] for cs in self.configurations],
                "crashed": list(self.crashed), "skipped": list(self.skipped),
                "steps": [st.dump() for st in self.steps]}

    @staticmethod
    def load(d: Mapping[str, JSON]) -> RoundResult:
        return RoundResult(int(d["round"]), tuple(int(p) for p in d["points"]),
                           tuple(tuple(Configuration.load(c) for c in cs) for cs in d["configurations"]),
                           tuple(bool(x) for x in d["crashed"]), tuple(bool(x) for x in d["skipped"]),
                           tuple(Step.load(st) for st in d["steps"]))


@dataclass(frozen=True)
class EofState:
    """Everything about an EOF match, secrets included (only :meth:`EofRules.view` leaves the engine).

    Positions in the file: 0 is BOF, 1..n the records, n+1 EOF; an empty file
    has the single position 0. Collections of pieces are :data:`Counts`.
    """

    colours: tuple[int, ...]
    locking: str = "none"
    crash_penalty: bool = False
    feel: bool = True
    phase: Phase = Phase.FIRST
    round: int = 1
    first: Seat = -1
    file: tuple[Piece, ...] = ()
    pointers: tuple[int, ...] = ()
    bag: Counts = EMPTY
    pool: Counts = EMPTY
    hands: tuple[Counts, ...] = ()
    draws: tuple[tuple[Piece, ...], ...] = ()
    dealer: int = 0
    """Offset from the first player of the seat drawing now."""
    size_choice: int = -1
    """The size chosen for the next draw: -1 none yet, 0 any, 1-3."""
    programs: tuple[Program | None, ...] = ()
    turn: int = 0
    """Execution turn counter: instruction ``turn // seats`` of seat ``first + turn % seats``."""
    crashed: tuple[int, ...] = ()
    """Per seat, the index of the instruction that crashed, or -1."""
    deleted: tuple[Piece, ...] = ()
    """Records deleted so far by the instruction waiting for permission."""
    asked: tuple[Seat, ...] = ()
    allowed: tuple[Seat, ...] = ()
    steps: tuple[Step, ...] = ()
    scores: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    last_round: RoundResult | None = None

    @property
    def seats(self) -> int:
        return len(self.colours)

    def name(self, seat: Seat) -> str:
        """The seat's colour as its name, in the current language ("Red", "Rojo")."""
        return colour_name(self.colours[seat])

    @property
    def drawer(self) -> Seat | None:
        """The seat drawing now (deal phase), else ``None``."""
        if self.phase is not Phase.DEAL or self.first < 0:
            return None
        return (self.first + self.dealer) % self.seats

    def programs_played(self) -> int:
        """The moves of the game as players count them: one program per player per round ("no
        program" included), those of the rounds scored and those submitted this round. Draws from the
        bag are not moves (the size chosen for a draw is part of the draw), nor are permission answers."""
        done = len(self.history) * self.seats
        if self.phase in (Phase.PROGRAM, Phase.PERMISSION):
            done += sum(p is not None for p in self.programs)
        return done

    def required_length(self, seat: Seat) -> int:
        """Instructions in ``seat``'s program: min(5, hand) at programming time."""
        return min(PROGRAM_LENGTH, len(self.draws[seat]))

    def order(self) -> tuple[Seat, ...]:
        """Seats in playing order this round (first player, then clockwise)."""
        f = max(self.first, 0)
        return tuple((f + i) % self.seats for i in range(self.seats))


# --- JSON ----------------------------------------------------------------------------------------------

def dump_state(s: EofState) -> dict[str, JSON]:
    """Plain JSON with ``"v": 1``."""
    return {
        "v": 1, "colours": "".join(LETTERS[c] for c in s.colours), "locking": s.locking,
        "crash_penalty": s.crash_penalty, "draw": "feel" if s.feel else "blind", "phase": s.phase.value,
        "round": s.round, "first": s.first, "file": " ".join(map(str, s.file)),
        "pointers": list(s.pointers),
        "bag": list(s.bag), "pool": list(s.pool), "hands": [list(h) for h in s.hands],
        "draws": [" ".join(map(str, d)) for d in s.draws], "dealer": s.dealer,
        "size_choice": s.size_choice,
        "programs": [None if p is None else str(p) for p in s.programs], "turn": s.turn,
        "crashed": list(s.crashed), "deleted": " ".join(map(str, s.deleted)), "asked": list(s.asked),
        "allowed": list(s.allowed), "steps": [st.dump() for st in s.steps], "scores": list(s.scores),
        "history": [list(h) for h in s.history],
        "last_round": s.last_round.dump() if s.last_round else None,
    }


def load_state(d: Mapping[str, JSON]) -> EofState:
    """Rebuild a state from :func:`dump_state`, checking that it is consistent.

    Raises:
        ValueError: wrong version, missing or malformed fields, or pieces that do not add up.
    """
    try:
        s = _load(d)
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise ValueError(f"not an EOF state: {e!r}") from e
    _validate(s)
    return s


def _load(d: Mapping[str, JSON]) -> EofState:
    if d.get("v") != 1:
        raise ValueError(f"unsupported EOF state version {d.get('v')!r}")

    def pieces(text: JSON) -> tuple[Piece, ...]:
        return tuple(Piece.parse(p) for p in str(text).split())

    def counts(v: JSON) -> Counts:
        c = tuple(int(x) for x in v)
        if len(c) != KINDS:
            raise ValueError("piece counts must have 12 entries")
        return c

    def program(v: JSON) -> Program | None:
        if v is None:
            return None
        if v == "":
            return Program(())
        return read_program(str(v))

    colours = tuple(LETTERS.index(ch) for ch in str(d["colours"]))
    return EofState(
        colours=colours, locking=str(d["locking"]), crash_penalty=bool(d["crash_penalty"]),
        feel=d["draw"] == "feel", phase=Phase(d["phase"]), round=int(d["round"]), first=int(d["first"]),
        file=pieces(d["file"]), pointers=tuple(int(p) for p in d["pointers"]), bag=counts(d["bag"]),
        pool=counts(d["pool"]), hands=tuple(counts(h) for h in d["hands"]),
        draws=tuple(pieces(x) for x in d["draws"]), dealer=int(d["dealer"]),
        size_choice=int(d["size_choice"]), programs=tuple(program(p) for p in d["programs"]),
        turn=int(d["turn"]), crashed=tuple(int(c) for c in d["crashed"]), deleted=pieces(d["deleted"]),
        asked=tuple(int(a) for a in d["asked"]), allowed=tuple(int(a) for a in d["allowed"]),
        steps=tuple(Step.load(st) for st in d["steps"]), scores=tuple(int(x) for x in d["scores"]),
        history=tuple(tuple(int(x) for x in h) for h in d["history"]),
        last_round=RoundResult.load(d["last_round"]) if d.get("last_round") else None,
    )


def _validate(s: EofState) -> None:
    n = s.seats
    if not 2 <= n <= 4 or len(set(s.colours)) != n:
        raise ValueError("EOF needs 2-4 seats with distinct colours")
    if s.locking not in LOCKING:
        raise ValueError(f"unknown locking option {s.locking!r}")
    if not 1 <= s.round <= ROUNDS:
        raise ValueError(f"round {s.round} out of range")
    per_seat = (s.pointers, s.hands, s.draws, s.programs, s.crashed, s.scores)
    if any(len(x) != n for x in per_seat):
        raise ValueError("per-seat fields must have one entry per seat")
    if any(len(h) != n for h in s.history) or len(s.history) > ROUNDS:
        raise ValueError("bad score history")
    last = len(s.file) + 1 if s.file else 0
    if any(not 0 <= p <= last for p in s.pointers):
        raise ValueError("a pointer is outside the file")
    if not -1 <= s.first < n or (s.phase is not Phase.FIRST and s.first < 0):
        raise ValueError("bad first player")
    if any(x < 0 for c in (s.bag, s.pool, *s.hands) for x in c):
        raise ValueError("negative piece count")
    total = list(s.bag)
    for c in (s.pool, *s.hands):
        total = [a + b for a, b in zip(total, c, strict=True)]
    for piece in (*s.file, *(Piece(c, 1) for c in s.colours)):
        total[piece.index] += 1
    for prog in s.programs:
        if prog is not None:
            for ins in prog.instructions:
                total[ins.piece.index] += 1
    if tuple(total) != FULL:
        raise ValueError(f"pieces do not add up to the set of {PIECES}")
    for t, prog in enumerate(s.programs):
        if prog is not None and any(h for h in s.hands[t]):
            raise ValueError("a seat with a program still holds a hand")
        if not s.crashed[t] < (len(prog.instructions) if prog else 5):
            raise ValueError("crash index out of range")
    if s.phase is Phase.PERMISSION:
        if not s.asked or any(not 0 <= a < n for a in s.asked):
            raise ValueError("a permission request needs asked seats")
        if any(p is None for p in s.programs):
            raise ValueError("execution needs every program")
    if s.phase is Phase.PROGRAM and s.turn:
        raise ValueError("execution turn set while programming")
    if not 0 <= s.turn <= PROGRAM_LENGTH * n or not 0 <= s.dealer <= n or not -1 <= s.size_choice <= 3:
        raise ValueError("counter out of range")
