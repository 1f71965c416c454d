"""EOF: the pure state machine (deal, secret programs, execution, scoring).

Two to four players (seats in join order, which is clockwise) each own a
colour; their file pointer is a small pyramid of it. The file is a row of
records (pyramids) between the BOF and EOF markers; it starts empty.

*A round.* Every pyramid that is neither a pointer nor in the file goes into
the bag. A piece is drawn to decide the first player (only pieces of the
players' colours count: drawing again until one comes out has the same
odds), then put back. Starting with the first player and going clockwise,
each player draws nine pieces (fewer if the bag runs out); with the ``feel``
option the player picks the size of each draw and a random piece of that
size comes out, with ``blind`` the size is random too. Every draw is public.
What is left in the bag becomes the public data pool.

*Programming* is simultaneous and secret: each player orders min(5, hand)
pieces of the hand, each with an orientation (Up, Down, Left, Right,
Standing); the unused pieces go back into the bag (not the pool).

*Execution* runs one instruction per turn, from the first player clockwise,
skipping crashed programs. Green moves the pointer (Up/Down: first/last
record; Left/Right n: n positions, landing on BOF/EOF is fine, beyond
crashes). Red Left/Right n deletes the current record and steps toward
BOF/EOF, n times (meeting BOF/EOF first crashes; deletions made stand). Blue
Standing n returns the current record to the pool and replaces it by the
player's own piece of size n from the pool; Blue Left/Right n swaps the
current record with the one n records away. Yellow Left/Right n takes the
player's own piece of size n from the pool and inserts it before/after the
current record; the pointer moves onto it. Other colour/orientation pairs
crash; so does a needed piece missing from the pool, and an update or swap
without a current record. A crashed player's pointer goes to BOF and the
program stops. Pointers stay on their records when others are inserted or
deleted; a pointer whose record is deleted goes to BOF; swaps move records,
not pointers.

*Record locking* (option): with ``locks-*`` a record holding another
player's pointer cannot be deleted; with ``permission-*`` each such player is
asked (moves ``allow``/``deny``; one denial blocks). A blocked delete crashes
the program (``-crash``) or ends the instruction with the pointer on the
blocked record (``-nocrash``).

*Scoring* (:mod:`bot.games.eof.scoring`) after each round; a crashed program
scores 0 (or −1 per instruction not executed, with ``crash_penalty``); a
player who submitted no program (``skip``, the turn-limit default) scores 0.
The file and the pointers carry over; after four rounds the highest total
wins, equal totals share the place.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar, Final, overload

from bot.games.base import (
    CHANCE,
    JSON,
    Chance,
    Event,
    GameSpec,
    IllegalMove,
    InvalidNotation,
    OptionSpec,
    Outcome,
    RulesBase,
    Seat,
)
from bot.games.eof.notation import (
    ALLOW,
    DENY,
    SKIP,
    Answer,
    ChooseSize,
    Draw,
    Move,
    Program,
    read_answer,
    read_draw,
    read_instruction,
    read_program,
    read_size,
)
from bot.games.eof.pieces import (
    ALL_KINDS,
    BLUE,
    COLOUR_NAMES,
    DOWN,
    EMPTY,
    FULL,
    GREEN,
    KINDS,
    LEFT,
    LETTERS,
    ORIENT_LETTERS,
    ORIENT_NAMES,
    PIECES,
    RIGHT,
    STANDING,
    UP,
    YELLOW,
    Counts,
    Instruction,
    Piece,
    counts_of,
    parse_colour,
    pieces_of,
    size_totals,
)
from bot.games.eof.scoring import Configuration, score

ROUNDS: Final = 4
HAND: Final = 9
"""Pieces each player draws per round."""
PROGRAM_LENGTH: Final = 5

LOCKING: Final = ("none", "locks-crash", "locks-nocrash", "permission-crash", "permission-nocrash")
DEFAULT_COLOURS: Final = (0, 1, 2, 3)


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
    records to highlight afterwards.
    """

    seat: Seat
    index: int
    instruction: Instruction
    text: str
    crash: str = ""
    touched: tuple[int, ...] = ()

    def dump(self) -> dict[str, JSON]:
        return {"seat": self.seat, "index": self.index, "instruction": str(self.instruction),
                "text": self.text, "crash": self.crash, "touched": list(self.touched)}

    @staticmethod
    def load(d: Mapping[str, JSON]) -> Step:
        return Step(int(d["seat"]), int(d["index"]), read_instruction(str(d["instruction"])), str(d["text"]),
                    str(d.get("crash", "")), tuple(int(t) for t in d.get("touched", ())))


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
        """The seat's colour name, capitalised ("Red")."""
        return COLOUR_NAMES[self.colours[seat]].capitalize()

    @property
    def drawer(self) -> Seat | None:
        """The seat drawing now (deal phase), else ``None``."""
        if self.phase is not Phase.DEAL or self.first < 0:
            return None
        return (self.first + self.dealer) % self.seats

    def required_length(self, seat: Seat) -> int:
        """Instructions in ``seat``'s program: min(5, hand) at programming time."""
        return min(PROGRAM_LENGTH, len(self.draws[seat]))

    def order(self) -> tuple[Seat, ...]:
        """Seats in playing order this round (first player, then clockwise)."""
        f = max(self.first, 0)
        return tuple((f + i) % self.seats for i in range(self.seats))


# --- views -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pending:
    """A delete waiting for permission: who deletes, with what, which record, who is asked."""

    seat: Seat
    instruction: Instruction
    record: int
    """0-based index of the record to delete."""
    piece: Piece
    asked: tuple[Seat, ...]
    allowed: tuple[Seat, ...]


@dataclass(frozen=True)
class PlayerView:
    """What everybody may know about one seat."""

    seat: Seat
    colour: int
    name: str
    pointer: int
    score: int
    round_scores: tuple[int, ...]
    hand_size: int
    draws: tuple[Piece, ...]
    """This round's draws (public as they happen)."""
    submitted: bool
    program_length: int
    """Instructions the seat's program has this round (min(5, draws))."""
    revealed: tuple[Instruction, ...]
    """The seat's instructions executed so far this round."""
    crashed: bool
    crash_reason: str
    skipped: bool
    """Submitted no program (known once execution starts)."""


@dataclass(frozen=True)
class EofView:
    """What one seat (or the channel, ``seat=None``) may see of an EOF match.

    ``hand``/``program`` are the viewer's own (``None`` for the channel);
    nothing of another seat's hand or program appears except its size, its
    public draws and the instructions already executed.
    """

    seat: Seat | None
    seats: int
    phase: str
    round: int
    rounds: int
    first: Seat | None
    order: tuple[Seat, ...]
    to_act: tuple[Seat, ...]
    file: tuple[Piece, ...]
    pool: Counts
    players: tuple[PlayerView, ...]
    drawing: Seat | None = None
    """The seat drawing now (deal)."""
    size_choice: int | None = None
    """The size the drawing seat chose (0 = any), ``None`` until chosen."""
    bag_sizes: tuple[int, int, int] | None = None
    """Small/medium/large pieces in the bag, during the deal (for the S/M/L buttons)."""
    bag_total: int = 0
    hand: tuple[Piece, ...] | None = None
    program: Program | None = None
    program_length: int = 0
    """How many instructions the viewer's program must have."""
    steps: tuple[Step, ...] = ()
    """This round's executed instructions (the step log)."""
    current: Step | None = None
    """The instruction just executed (highlighted by the renderer)."""
    pending: Pending | None = None
    last_round: RoundResult | None = None
    locking: str = "none"
    crash_penalty: bool = False
    draw_mode: str = "feel"
    finished: bool = False
    scores: tuple[int, ...] = ()
    pointers: tuple[int, ...] = ()

    def player(self, seat: Seat) -> PlayerView:
        return self.players[seat]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


# --- legal programs as a lazy sequence ----------------------------------------------------------------

class ProgramSpace(Sequence[Program]):
    """Every program a hand allows, in sorted order, built on demand.

    A hand of nine distinct pieces allows 15,120 orderings × 3,125
    orientations, so the list is never materialised: ``len`` counts and
    ``[i]`` unranks. Index 0 is ``skip`` (no program).
    """

    def __init__(self, hand: Counts, length: int) -> None:
        self.hand = tuple(hand)
        self.length = length
        self._kinds = tuple(k for k in range(KINDS) if hand[k])

    @staticmethod
    @lru_cache(maxsize=4096)
    def _count(hand: Counts, length: int) -> int:
        if length == 0:
            return 1
        total = 0
        for k in range(KINDS):
            if hand[k]:
                rest = hand[:k] + (hand[k] - 1,) + hand[k + 1:]
                total += 5 * ProgramSpace._count(rest, length - 1)
        return total

    def __len__(self) -> int:
        return 1 + self._count(self.hand, self.length)

    @overload
    def __getitem__(self, index: int) -> Program: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Program]: ...

    def __getitem__(self, index: int | slice) -> Program | Sequence[Program]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("program index out of range")
        if index == 0:
            return SKIP
        r = index - 1
        hand = self.hand
        out = []
        for left in range(self.length, 0, -1):
            for k in range(KINDS):
                if not hand[k]:
                    continue
                rest = hand[:k] + (hand[k] - 1,) + hand[k + 1:]
                block = self._count(rest, left - 1)
                if r < 5 * block:
                    piece = ALL_KINDS[k]
                    out.append(Instruction(piece.colour, piece.size, r // block))
                    r %= block
                    hand = rest
                    break
                r -= 5 * block
        return Program(tuple(out))

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Program):
            return False
        if item.skip:
            return item == SKIP
        need = counts_of(i.piece for i in item.instructions)
        fits = all(a <= b for a, b in zip(need, self.hand, strict=True))
        return len(item.instructions) == self.length and fits

    def __iter__(self) -> Iterator[Program]:
        for i in range(len(self)):
            yield self[i]


def program_warnings(program: Program) -> tuple[str, ...]:
    """Sentences warning about instructions that will crash whatever the file (bad orientations)."""
    out = []
    for n, ins in enumerate(program.instructions, 1):
        if not ins.is_valid:
            valid = "/".join(ORIENT_LETTERS[o] for o in (UP, DOWN, LEFT, RIGHT, STANDING)
                             if Instruction(ins.colour, ins.size, o).is_valid)
            out.append(f"Instruction {n} ({ins}) will crash: {COLOUR_NAMES[ins.colour]} pieces only "
                       f"work {valid}.")
    return tuple(out)


# --- the execution engine on a mutable working copy ---------------------------------------------------

class _Work:
    """A mutable copy of a state used inside :meth:`EofRules.apply`."""

    def __init__(self, s: EofState) -> None:
        self.s0 = s
        self.colours = s.colours
        self.n = s.seats
        self.locking = s.locking
        self.phase = s.phase
        self.round = s.round
        self.first = s.first
        self.file = list(s.file)
        self.pointers = list(s.pointers)
        self.bag = list(s.bag)
        self.pool = list(s.pool)
        self.hands = list(s.hands)
        self.draws = list(s.draws)
        self.dealer = s.dealer
        self.size_choice = s.size_choice
        self.programs = list(s.programs)
        self.turn = s.turn
        self.crashed = list(s.crashed)
        self.deleted = list(s.deleted)
        self.asked = s.asked
        self.allowed = s.allowed
        self.steps = list(s.steps)
        self.scores = list(s.scores)
        self.history = list(s.history)
        self.last_round = s.last_round
        self.verdict = 0  # permission verdict for the waiting delete: 1 allow, -1 deny
        self.events: list[Event] = []

    def freeze(self) -> EofState:
        return replace(
            self.s0, phase=self.phase, round=self.round, first=self.first, file=tuple(self.file),
            pointers=tuple(self.pointers), bag=tuple(self.bag), pool=tuple(self.pool),
            hands=tuple(self.hands),
            draws=tuple(self.draws), dealer=self.dealer, size_choice=self.size_choice,
            programs=tuple(self.programs), turn=self.turn, crashed=tuple(self.crashed),
            deleted=tuple(self.deleted), asked=self.asked, allowed=self.allowed, steps=tuple(self.steps),
            scores=tuple(self.scores), history=tuple(self.history), last_round=self.last_round)

    # helpers ---------------------------------------------------------------------------------------
    def name(self, seat: Seat) -> str:
        return COLOUR_NAMES[self.colours[seat]].capitalize()

    def event(self, kind: str, text: str, visible_to: Seat | None = None, **data: JSON) -> None:
        self.events.append(Event(kind, text, data, visible_to))

    def where(self, p: int) -> str:
        n = len(self.file)
        if n == 0:
            return "BOF/EOF (empty file)"
        if p == 0:
            return "BOF"
        if p == n + 1:
            return "EOF"
        return f"record {p}"

    def eof(self) -> int:
        return len(self.file) + 1 if self.file else 0

    def normalise(self) -> None:
        if not self.file:
            self.pointers = [0] * self.n

    def remove(self, p: int, actor: Seat) -> Piece:
        """Delete the record at position ``p``; other pointers on it go to BOF, later ones shift."""
        piece = self.file.pop(p - 1)
        self.pool[piece.index] += 1
        for t in range(self.n):
            if t == actor:
                continue
            if self.pointers[t] == p:
                self.pointers[t] = 0
            elif self.pointers[t] > p:
                self.pointers[t] -= 1
        return piece

    def insert(self, q: int, piece: Piece, actor: Seat) -> None:
        """Insert ``piece`` so that it becomes position ``q``; the actor's pointer moves onto it."""
        self.file.insert(q - 1, piece)
        self.pool[piece.index] -= 1
        for t in range(self.n):
            if t != actor and self.pointers[t] >= q:
                self.pointers[t] += 1
        self.pointers[actor] = q

    # the deal ----------------------------------------------------------------------------------------
    def start_round(self, number: int) -> None:
        """Gather every piece that is neither a pointer nor in the file into the bag; draw for first."""
        self.round = number
        bag = list(FULL)
        for piece in self.file:
            bag[piece.index] -= 1
        for c in self.colours:
            bag[Piece(c, 1).index] -= 1
        self.bag = bag
        self.pool = list(EMPTY)
        self.hands = [EMPTY] * self.n
        self.draws = [()] * self.n
        self.programs = [None] * self.n
        self.crashed = [-1] * self.n
        self.turn = 0
        self.steps = []
        self.deleted = []
        self.asked = self.allowed = ()
        self.dealer = 0
        self.size_choice = -1
        self.event("round", f"Round {number} of {ROUNDS} begins: every piece outside the file and the "
                            f"pointers goes back into the bag ({sum(bag)} pieces).", round=number)
        if any(self.bag[Piece(c, s).index] for c in self.colours for s in (1, 2, 3)):
            self.phase = Phase.FIRST
            return
        # No piece of a player's colour left in the bag: drawing could never decide. The lead
        # passes clockwise instead (impossible in round 1).
        self.first = (self.first + 1) % self.n
        self.event("first", f"No piece of a player's colour is in the bag: {self.name(self.first)} plays "
                            "first (the lead passes clockwise).", seat=self.first)
        self.start_deal()

    def start_deal(self) -> None:
        self.phase = Phase.DEAL
        self.dealer = 0
        self.size_choice = -1
        self.advance_deal()

    def advance_deal(self) -> None:
        while True:
            if sum(self.bag) == 0 or self.dealer >= self.n:
                self.end_deal()
                return
            seat = (self.first + self.dealer) % self.n
            if len(self.draws[seat]) >= HAND:
                self.dealer += 1
                self.size_choice = -1
                continue
            return

    def end_deal(self) -> None:
        left = sum(self.bag)
        self.pool = self.bag
        self.bag = list(EMPTY)
        self.phase = Phase.PROGRAM
        self.dealer = 0
        self.size_choice = -1
        short = [self.name(t) for t in range(self.n) if len(self.draws[t]) < HAND]
        note = f" The bag ran out: {', '.join(short)} drew fewer than {HAND}." if short else ""
        self.event("pool", f"The deal is over; the {left} pieces left form the data pool.{note} "
                           "Write your programs.", pool=list(self.pool))
        for t in range(self.n):
            if not self.draws[t]:
                self.programs[t] = Program(())
        if all(p is not None for p in self.programs):
            self.start_execution()

    # execution ---------------------------------------------------------------------------------------
    def start_execution(self) -> None:
        order = ", ".join(self.name((self.first + i) % self.n) for i in range(self.n))
        self.event("execute", f"All programs are in. Execution, one instruction per turn: {order}.")
        self.run()

    def run(self) -> None:
        """Execute instructions until the round ends or a permission request is pending."""
        n = self.n
        while self.turn < PROGRAM_LENGTH * n:
            i, j = divmod(self.turn, n)
            seat = (self.first + j) % n
            prog = self.programs[seat]
            assert prog is not None
            if self.crashed[seat] < 0 and i < len(prog.instructions):
                step = self.execute(seat, i, prog.instructions[i])
                if step is None:
                    self.phase = Phase.PERMISSION
                    return
                self.steps.append(step)
                label = f"{self.name(seat)} {step.instruction}"
                text = f"{label}: CRASH — {step.crash}." if step.crash else f"{label}: {step.text}."
                self.event("step", text, seat=seat, index=i, instruction=str(step.instruction),
                           result=step.text, crash=step.crash, touched=list(step.touched),
                           file=[str(p) for p in self.file], pointers=list(self.pointers),
                           pool=list(self.pool))
            self.turn += 1
            self.deleted = []
            self.asked = self.allowed = ()
        self.end_round()

    def crash(self, seat: Seat, index: int, ins: Instruction, reason: str, done: str = "") -> Step:
        self.crashed[seat] = index
        self.pointers[seat] = 0
        return Step(seat, index, ins, done or "crashed", reason)

    def execute(self, seat: Seat, index: int, ins: Instruction) -> Step | None:
        """Carry out one instruction; ``None`` when it waits for permission."""
        if not ins.is_valid:
            reason = f"{COLOUR_NAMES[ins.colour]} has no {ORIENT_NAMES[ins.orient]} instruction"
            return self.crash(seat, index, ins, reason)
        p = self.pointers[seat]
        n = len(self.file)
        size = ins.size
        if ins.colour == GREEN:
            if ins.orient in (UP, DOWN):
                self.pointers[seat] = (1 if ins.orient == UP else n) if n else 0
            else:
                target = p - size if ins.orient == LEFT else p + size
                if target < 0:
                    return self.crash(seat, index, ins, f"moving left {size} from {self.where(p)} passes BOF")
                if target > self.eof():
                    return self.crash(seat, index, ins,
                                      f"moving right {size} from {self.where(p)} passes EOF")
                self.pointers[seat] = target
            q = self.pointers[seat]
            return Step(seat, index, ins, f"pointer now on {self.where(q)}", "",
                        (q - 1,) if 1 <= q <= n else ())
        if ins.colour == YELLOW:
            own = Piece(self.colours[seat], size)
            if n and ins.orient == LEFT and p == 0:
                return self.crash(seat, index, ins, "cannot insert before BOF")
            if n and ins.orient == RIGHT and p == n + 1:
                return self.crash(seat, index, ins, "cannot insert after EOF")
            if not self.pool[own.index]:
                return self.crash(seat, index, ins, f"no {own} in the data pool")
            q = 1 if not n else (p if ins.orient == LEFT else p + 1)
            self.insert(q, own, seat)
            return Step(seat, index, ins, f"inserted {own} as record {q}; pointer on it", "", (q - 1,))
        if ins.colour == BLUE:
            if not 1 <= p <= n:
                what = "replace" if ins.orient == STANDING else "swap"
                return self.crash(seat, index, ins, f"no current record to {what} at {self.where(p)}")
            if ins.orient == STANDING:
                old = self.file[p - 1]
                own = Piece(self.colours[seat], size)
                if self.pool[own.index] + (old == own) == 0:
                    return self.crash(seat, index, ins, f"no {own} in the data pool")
                self.pool[old.index] += 1
                self.pool[own.index] -= 1
                self.file[p - 1] = own
                return Step(seat, index, ins, f"replaced {old} at record {p} by {own}", "", (p - 1,))
            q = p - size if ins.orient == LEFT else p + size
            if not 1 <= q <= n:
                side = "left" if ins.orient == LEFT else "right"
                return self.crash(seat, index, ins, f"no record {size} to the {side} of record {p}")
            a, b = self.file[p - 1], self.file[q - 1]
            self.file[p - 1], self.file[q - 1] = b, a
            return Step(seat, index, ins, f"swapped records {p} ({a}) and {q} ({b})", "", (p - 1, q - 1))
        return self.delete(seat, index, ins)

    def delete(self, seat: Seat, index: int, ins: Instruction) -> Step | None:
        left = ins.orient == LEFT
        toward = "BOF" if left else "EOF"
        while len(self.deleted) < ins.size:
            p = self.pointers[seat]
            n = len(self.file)
            gone = " ".join(map(str, self.deleted))
            if not 1 <= p <= n:
                if self.deleted:
                    return self.crash(seat, index, ins, f"reached {toward} after deleting {gone}",
                                      f"deleted {gone}")
                return self.crash(seat, index, ins, f"no record to delete at {self.where(p)}")
            holders = tuple(t for t in range(self.n) if t != seat and self.pointers[t] == p)
            if holders and self.locking != "none":
                if self.locking.startswith("locks"):
                    blocked, how = True, "is locked by"
                else:
                    if self.verdict == 0:
                        self.asked, self.allowed = holders, ()
                        names = " and ".join(self.name(t) for t in holders)
                        self.event("permission", f"{self.name(seat)} {ins} wants to delete record {p} "
                                                 f"({self.file[p - 1]}), which holds {names}'s pointer: "
                                                 f"{names}, allow or deny?",
                                   seat=seat, instruction=str(ins), record=p - 1, asked=list(holders))
                        return None
                    blocked, how = self.verdict < 0, "was refused by"
                    self.verdict = 0
                if blocked:
                    names = " and ".join(self.name(t) for t in holders)
                    reason = f"record {p} ({self.file[p - 1]}) {how} {names}"
                    if self.locking.endswith("-crash"):
                        return self.crash(seat, index, ins, reason, f"deleted {gone}" if gone else "")
                    done = f"deleted {gone}; " if gone else "deleted nothing: "
                    text = f"{done}stopped, {reason}; pointer on record {p}"
                    return Step(seat, index, ins, text, "", (p - 1,))
            self.deleted.append(self.remove(p, seat))
            self.pointers[seat] = p - 1 if left else p
            self.normalise()
        gone = " ".join(map(str, self.deleted))
        q = self.pointers[seat]
        return Step(seat, index, ins, f"deleted {gone}; pointer now on {self.where(q)}", "",
                    (q - 1,) if 1 <= q <= len(self.file) else ())

    def end_round(self) -> None:
        points: list[int] = []
        configs: list[tuple[Configuration, ...]] = []
        skipped: list[bool] = []
        for t in range(self.n):
            prog = self.programs[t]
            assert prog is not None
            skipped.append(prog.skip)
            if prog.skip:
                points.append(0)
                configs.append(())
            elif self.crashed[t] >= 0:
                lost = len(prog.instructions) - self.crashed[t]
                points.append(-lost if self.s0.crash_penalty else 0)
                configs.append(())
            else:
                pts, cfg = score(self.file, self.colours[t])
                points.append(pts)
                configs.append(cfg)
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        self.history.append(tuple(points))
        self.last_round = RoundResult(self.round, tuple(points), tuple(configs),
                                      tuple(c >= 0 for c in self.crashed), tuple(skipped), tuple(self.steps))
        lines = []
        for t in range(self.n):
            if skipped[t]:
                how = "no program"
            elif self.crashed[t] >= 0:
                how = "crashed" + (" (penalty)" if self.s0.crash_penalty and points[t] else "")
            else:
                how = ", ".join(c.describe() for c in configs[t]) or "no configuration"
            lines.append(f"{self.name(t)} {points[t]:+d} ({how}) → {self.scores[t]}")
        self.event("score", f"Round {self.round} scores: " + "; ".join(lines) + ".", round=self.round,
                   points=points, totals=list(self.scores),
                   configurations=[[c.dump() for c in cs] for cs in configs])
        self.asked = self.allowed = ()
        self.deleted = []
        if self.round >= ROUNDS:
            self.phase = Phase.OVER
            best = max(self.scores)
            winners = [self.name(t) for t in range(self.n) if self.scores[t] == best]
            self.event("over", f"The game is over after {ROUNDS} rounds: "
                               f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best}.",
                       scores=list(self.scores))
            return
        self.start_round(self.round + 1)


# --- the rules object ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class DryRun:
    """What one instruction would do to the file as it stands (see :func:`dry_run`)."""

    text: str
    crash: str = ""
    asks: bool = False
    """The delete would need another player's permission first."""


def dry_run(s: EofState, seat: Seat, ins: Instruction, after: Sequence[Instruction] = ()) -> DryRun:
    """Run ``ins`` for ``seat`` against the current file and pointers, as if it ran first this round
    (or right after the seat's own instructions ``after``, the others' left out).

    For the program builder: nothing is changed, and a delete that would need permission says so
    (the answer is not known) instead of waiting.
    """
    work = _Work(s)
    for k, earlier in enumerate(after):
        work.deleted, work.asked, work.allowed = [], (), ()
        done = work.execute(seat, k, earlier)
        if done is None:
            return DryRun(f"unknown: your instruction {k + 1} ({earlier}) would first ask for permission", asks=True)
        if done.crash:
            return DryRun(f"your instruction {k + 1} ({earlier}) would crash first", done.crash)
    work.deleted, work.asked, work.allowed = [], (), ()
    step = work.execute(seat, len(after), ins)
    if step is None:
        asked: tuple[Seat, ...] = work.asked
        names = " and ".join(work.name(t) for t in asked)
        return DryRun(f"would ask {names} for permission to delete the record their pointer is on", asks=True)
    return DryRun(step.text, step.crash)


def parse_colours(value: str, seats: int) -> tuple[int, ...]:
    """The ``colours`` option: a comma list in seat order ("red,blue"), or "" for the default.

    Raises:
        ValueError: unknown or repeated colours, or not one per seat.
    """
    if not value.strip() or value.strip().lower() in ("default", "auto"):
        return DEFAULT_COLOURS[:seats]
    parts = [p for p in value.replace(";", ",").replace(" ", ",").split(",") if p]
    cols = tuple(parse_colour(p) for p in parts)
    if len(cols) != seats:
        raise ValueError(f"colours: give one colour per player ({seats}), not {len(cols)}.")
    if len(set(cols)) != len(cols):
        raise ValueError("colours: each player needs a different colour.")
    return cols


class EofRules(RulesBase):
    """The EOF engine (see the module docstring for the rules)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="eof",
        title="EOF",
        min_seats=2,
        max_seats=4,
        ai_levels=(),
        hidden_information=True,
        options=(
            OptionSpec("locking", "Deleting a record that holds another player's pointer", LOCKING, "none"),
            OptionSpec("crash_penalty", "A crashed program loses 1 point per instruction not executed",
                       ("off", "on"), "off"),
            OptionSpec("draw", "feel: pick the size of each draw; blind: sizes are random", ("feel", "blind"),
                       "feel"),
        ),
    )

    # --- set-up ---------------------------------------------------------------------------------------
    def initial(self, options: Mapping[str, str], seats: int) -> EofState:
        """The empty file, all pointers at BOF, everything else in the bag; round 1 starts.

        Options: ``locking``, ``crash_penalty``, ``draw`` (see :attr:`spec`) and
        ``colours`` (comma list in seat order, default red, yellow, green,
        blue), missing ones take their defaults; unknown keys are ignored.

        Raises:
            ValueError: a bad seat count or option value.
        """
        if not 2 <= seats <= 4:
            raise ValueError(f"EOF is for 2 to 4 players, not {seats}.")
        values: dict[str, str] = {}
        for opt in self.spec.options:
            v = str(options.get(opt.name, opt.default)).strip().lower()
            if v not in opt.choices:
                raise ValueError(f"{opt.name} must be one of {', '.join(opt.choices)} (not {v!r}).")
            values[opt.name] = v
        colours = parse_colours(str(options.get("colours", "")), seats)
        s = EofState(colours=colours, locking=values["locking"],
                     crash_penalty=values["crash_penalty"] == "on", feel=values["draw"] == "feel",
                     pointers=(0,) * seats, scores=(0,) * seats)
        w = _Work(s)
        w.start_round(1)
        return w.freeze()

    # --- who acts -------------------------------------------------------------------------------------
    def to_act(self, s: EofState) -> frozenset[Seat] | Chance | None:
        """A chance node (first-player draw, bag draws), the seats to act, or ``None`` when over."""
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.FIRST:
            kinds = [(Draw(k), s.bag[k.index]) for k in ALL_KINDS if k.colour in s.colours and s.bag[k.index]]
            return Chance(tuple(d for d, _ in kinds), tuple(float(n) for _, n in kinds), "first player")
        if s.phase is Phase.DEAL:
            drawer = s.drawer
            assert drawer is not None
            if s.feel and s.size_choice < 0:
                return frozenset({drawer})
            kinds = [(Draw(k), s.bag[k.index]) for k in ALL_KINDS
                     if s.bag[k.index] and (s.size_choice <= 0 or k.size == s.size_choice)]
            return Chance(tuple(d for d, _ in kinds), tuple(float(n) for _, n in kinds), "draw")
        if s.phase is Phase.PROGRAM:
            return frozenset(t for t in range(s.seats) if s.programs[t] is None)
        return frozenset(t for t in s.asked if t not in s.allowed)

    def legal_moves(self, s: EofState, seat: Seat) -> Sequence[Move]:
        """Sorted legal moves; for programming a lazy :class:`ProgramSpace` (``skip`` first)."""
        who = self.to_act(s)
        if who is None:
            return []
        if isinstance(who, Chance):
            return list(who.outcomes) if seat == CHANCE else []
        if seat not in who:
            return []
        if s.phase is Phase.DEAL:
            sizes = size_totals(s.bag)
            return [ChooseSize(0)] + [ChooseSize(z) for z in (1, 2, 3) if sizes[z - 1]]
        if s.phase is Phase.PROGRAM:
            return ProgramSpace(s.hands[seat], s.required_length(seat))
        return [DENY, ALLOW]

    # --- legality -------------------------------------------------------------------------------------
    def check(self, s: EofState, seat: Seat, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``seat`` may play ``move`` now.

        Raises:
            IllegalMove: with a sentence naming the move and the rule.
        """
        if s.phase is Phase.OVER:
            raise IllegalMove("The game is over.")
        who = self.to_act(s)
        if isinstance(move, Draw):
            if not isinstance(who, Chance) or seat != CHANCE:
                raise IllegalMove(f"{move} is a draw from the bag: only the platform plays those.")
            if move not in who.outcomes:
                raise IllegalMove(f"{move} cannot come out of the bag now.",
                                  legal=[str(d) for d in who.outcomes])
            return
        if seat == CHANCE or not 0 <= seat < s.seats:
            raise IllegalMove(f"Seat {seat} does not play in this match.")
        if isinstance(move, ChooseSize):
            if s.phase is not Phase.DEAL:
                raise IllegalMove(f"'{move}': the deal is over; {self._phase_hint(s, seat)}")
            if not s.feel:
                raise IllegalMove(f"'{move}': this match draws blind, sizes are random.")
            drawer = s.drawer
            if seat != drawer:
                raise IllegalMove(f"'{move}': it is {s.name(drawer or 0)}'s draw, not yours.")
            if not isinstance(who, frozenset):
                raise IllegalMove(f"'{move}': you have already chosen; your piece is being drawn.")
            sizes = size_totals(s.bag)
            if move.size and not sizes[move.size - 1]:
                legal = [str(m) for m in self.legal_moves(s, seat)]
                raise IllegalMove(f"'{move}': the bag has no {('small', 'medium', 'large')[move.size - 1]} "
                                  "pieces left.", legal=legal)
            return
        if isinstance(move, Answer):
            if s.phase is not Phase.PERMISSION or seat not in s.asked:
                raise IllegalMove(f"'{move}': no permission request is waiting for you.")
            if seat in s.allowed:
                raise IllegalMove(f"'{move}': you have already allowed this deletion.")
            return
        # Program
        if s.phase in (Phase.FIRST, Phase.DEAL):
            raise IllegalMove(f"'{move}': programs are written after the deal; {self._phase_hint(s, seat)}")
        if s.phase is not Phase.PROGRAM:
            raise IllegalMove(f"'{move}': your program for round {s.round} is already running; "
                              f"{self._phase_hint(s, seat)}")
        if s.programs[seat] is not None:
            raise IllegalMove(f"You have already submitted your program for round {s.round}.")
        if move.skip:
            return
        need = s.required_length(seat)
        got = len(move.instructions)
        if got != need:
            plural = "s" if need != 1 else ""
            raise IllegalMove(f"'{move}': your program must have {need} instruction{plural} "
                              f"(you gave {got}).")
        hand = s.hands[seat]
        use = counts_of(i.piece for i in move.instructions)
        for k, (a, b) in enumerate(zip(use, hand, strict=True)):
            if a > b:
                piece = ALL_KINDS[k]
                have = f"only {b}" if b else "none"
                raise IllegalMove(f"'{move}' uses {piece} {a} times but your hand has {have}. "
                                  f"Your hand: {' '.join(map(str, pieces_of(hand)))}.")

    def _phase_hint(self, s: EofState, seat: Seat) -> str:
        if s.phase is Phase.FIRST:
            return "the first player is being drawn."
        if s.phase is Phase.DEAL:
            return f"{s.name(s.drawer or 0)} is drawing."
        if s.phase is Phase.PROGRAM:
            if s.programs[seat] is None:
                return "write your program now."
            return "waiting for the others' programs."
        if s.phase is Phase.PERMISSION:
            return "execution is waiting for a permission answer."
        return "the game is over."

    # --- moves ----------------------------------------------------------------------------------------
    def apply(self, s: EofState, seat: Seat, move: Move) -> tuple[EofState, list[Event]]:
        """Play ``move`` for ``seat`` (``CHANCE`` for draws); returns the new state and the events.

        The last program in starts the execution, which runs to the end of the
        round (scoring, the next round's set-up) unless a permission request
        stops it; events then carry the step log.

        Raises:
            IllegalMove: the move is not legal now (see :meth:`check`).
        """
        self.check(s, seat, move)
        w = _Work(s)
        if isinstance(move, Draw):
            piece = move.piece
            if s.phase is Phase.FIRST:
                w.first = s.colours.index(piece.colour)
                w.event("first", f"Drawn for the lead: {piece}. {w.name(w.first)} plays first this round "
                                 "(the piece goes back into the bag).", seat=w.first, piece=str(piece))
                w.start_deal()
            else:
                t = s.drawer
                assert t is not None
                w.bag[piece.index] -= 1
                hand = list(w.hands[t])
                hand[piece.index] += 1
                w.hands[t] = tuple(hand)
                w.draws[t] = w.draws[t] + (piece,)
                w.size_choice = -1
                w.event("draw", f"{w.name(t)} draws {piece} ({len(w.draws[t])}/{HAND}).", seat=t,
                        piece=str(piece))
                w.advance_deal()
        elif isinstance(move, ChooseSize):
            w.size_choice = move.size
            what = "any piece" if move.size == 0 else f"a {('small', 'medium', 'large')[move.size - 1]} piece"
            w.event("choose", f"{w.name(seat)} feels for {what}.", seat=seat, size=move.size)
        elif isinstance(move, Answer):
            if move.allow:
                w.allowed = tuple(sorted(set(s.allowed) | {seat}))
                w.event("answer", f"{w.name(seat)} allows the deletion.", seat=seat, allow=True)
                if set(w.allowed) >= set(s.asked):
                    w.verdict = 1
            else:
                w.event("answer", f"{w.name(seat)} denies the deletion.", seat=seat, allow=False)
                w.verdict = -1
            if w.verdict:
                w.phase = Phase.PROGRAM
                w.run()
        else:
            hand = s.hands[seat]
            used = counts_of(i.piece for i in move.instructions)
            w.bag = [b + h - u for b, h, u in zip(w.bag, hand, used, strict=True)]
            w.hands[seat] = EMPTY
            w.programs[seat] = move
            done = sum(p is not None for p in w.programs)
            w.event("program", f"{w.name(seat)} has submitted a program ({done}/{s.seats} in).", seat=seat)
            w.event("program", f"Your program for round {s.round}: {move}.", visible_to=seat, seat=seat,
                    program=str(move))
            if all(p is not None for p in w.programs):
                w.start_execution()
        return w.freeze(), w.events

    def outcome(self, s: EofState) -> Outcome | None:
        """After four rounds: ranked by total score, equal totals share the place."""
        if s.phase is not Phase.OVER:
            return None
        detail = ", ".join(f"{s.name(t)} {s.scores[t]}" for t in range(s.seats))
        return Outcome.from_scores(s.scores, detail=detail)

    def timeout_moves(self, s: EofState) -> list[tuple[Seat, Move]] | None:
        """Turn limit: a missing program becomes ``skip`` (round score 0, no penalty); an unanswered
        permission request is denied; a pending size choice becomes ``draw any`` (a blind draw)."""
        if s.phase is Phase.PROGRAM:
            return [(t, SKIP) for t in range(s.seats) if s.programs[t] is None]
        if s.phase is Phase.PERMISSION:
            waiting = [t for t in s.asked if t not in s.allowed]
            return [(waiting[0], DENY)] if waiting else []
        if s.phase is Phase.DEAL and s.feel and s.size_choice < 0 and s.drawer is not None:
            return [(s.drawer, ChooseSize(0))]
        return []

    # --- notation -------------------------------------------------------------------------------------
    def parse(self, text: str, s: EofState, seat: Seat) -> Move:
        """Read ``text`` as a move of ``seat`` and check it (see :mod:`bot.games.eof.notation`).

        Raises:
            InvalidNotation: unreadable text.
            IllegalMove: readable but not legal now.
        """
        if seat == CHANCE:
            move: Move = read_draw(text)
        else:
            size = read_size(text)
            answer = read_answer(text)
            if s.phase is Phase.DEAL and size is not None:
                move = size
            elif s.phase is Phase.PERMISSION and answer is not None:
                move = answer
            elif s.phase is Phase.DEAL:
                raise InvalidNotation(f"{text.strip()!r}: during the deal, choose the size of your next "
                                      "draw: draw S, draw M, draw L or draw any.")
            elif s.phase is Phase.PERMISSION:
                if answer is None and seat in s.asked:
                    raise InvalidNotation(f"{text.strip()!r}: answer the permission request with allow "
                                          "or deny.")
                move = answer if answer is not None else read_program(text)
            elif answer is not None:
                move = answer
            else:
                move = read_program(text)
        self.check(s, seat, move)
        return move

    def format(self, move: Move, s: EofState) -> str:
        """The canonical notation (``Y1R G2L B3S R1R G1U``, ``skip``, ``draw S``, ``allow``, ``G2``)."""
        return str(move)

    # --- views ----------------------------------------------------------------------------------------
    def view(self, s: EofState, seat: Seat | None) -> EofView:
        """What ``seat`` may see (``None``: the public channel): own hand and program only."""
        if seat is not None and not 0 <= seat < s.seats:
            seat = None
        executing = s.phase in (Phase.PERMISSION,) or (s.phase is Phase.PROGRAM and s.turn > 0)
        revealed: list[list[Instruction]] = [[] for _ in range(s.seats)]
        for st in s.steps:
            revealed[st.seat].append(st.instruction)
        players = []
        for t in range(s.seats):
            prog = s.programs[t] if s.programs else None
            crash_reason = next((st.crash for st in s.steps if st.seat == t and st.crash), "")
            players.append(PlayerView(
                seat=t, colour=s.colours[t], name=s.name(t), pointer=s.pointers[t], score=s.scores[t],
                round_scores=tuple(h[t] for h in s.history), hand_size=sum(s.hands[t]) if s.hands else 0,
                draws=s.draws[t] if s.draws else (), submitted=prog is not None,
                program_length=s.required_length(t) if s.draws else 0, revealed=tuple(revealed[t]),
                crashed=bool(s.crashed) and s.crashed[t] >= 0, crash_reason=crash_reason,
                skipped=executing and prog is not None and prog.skip))
        pending = None
        if s.phase is Phase.PERMISSION:
            j = s.turn % s.seats
            actor = (s.first + j) % s.seats
            prog = s.programs[actor]
            assert prog is not None
            p = s.pointers[actor]
            pending = Pending(actor, prog.instructions[s.turn // s.seats], p - 1, s.file[p - 1], s.asked,
                              s.allowed)
        who = self.to_act(s)
        return EofView(
            seat=seat, seats=s.seats, phase=s.phase.value, round=s.round, rounds=ROUNDS,
            first=s.first if s.first >= 0 and s.phase is not Phase.FIRST else None,
            order=s.order() if s.first >= 0 and s.phase is not Phase.FIRST else (),
            to_act=tuple(sorted(who)) if isinstance(who, frozenset) else (),
            file=s.file, pool=s.pool, players=tuple(players),
            drawing=s.drawer,
            size_choice=s.size_choice if s.phase is Phase.DEAL and s.size_choice >= 0 else None,
            bag_sizes=size_totals(s.bag) if s.phase in (Phase.DEAL, Phase.FIRST) else None,
            bag_total=sum(s.bag),
            hand=pieces_of(s.hands[seat]) if seat is not None else None,
            program=s.programs[seat] if seat is not None else None,
            program_length=s.required_length(seat) if seat is not None else 0,
            steps=s.steps, current=s.steps[-1] if s.steps else None, pending=pending,
            last_round=s.last_round, locking=s.locking, crash_penalty=s.crash_penalty,
            draw_mode="feel" if s.feel else "blind", finished=s.phase is Phase.OVER,
            scores=s.scores, pointers=s.pointers)

    # --- serialisation --------------------------------------------------------------------------------
    def dump(self, s: EofState) -> dict[str, JSON]:
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

    def load(self, d: Mapping[str, JSON]) -> EofState:
        """Rebuild a state from :meth:`dump`, checking that it is consistent.

        Raises:
            ValueError: wrong version, missing or malformed fields, or pieces that do not add up.
        """
        try:
            s = self._load(d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"not an EOF state: {e!r}") from e
        self._validate(s)
        return s

    def _load(self, d: Mapping[str, JSON]) -> EofState:
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

    def _validate(self, s: EofState) -> None:
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


RULES: Final = EofRules()
