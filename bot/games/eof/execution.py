"""EOF: the round on a mutable working copy (deal, execution, record locking, scoring at the end of
a round) and the dry run the program builder shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.games.base import JSON, Event, Seat
from bot.games.eof.notation import Program
from bot.games.eof.pieces import (
    BLUE,
    COLOUR_NAMES,
    DOWN,
    EMPTY,
    FULL,
    GREEN,
    LEFT,
    ORIENT_NAMES,
    RIGHT,
    STANDING,
    UP,
    YELLOW,
    Instruction,
    Piece,
)
from bot.games.eof.scoring import Configuration, score
from bot.games.eof.state import (
    HAND,
    PROGRAM_LENGTH,
    ROUNDS,
    EofState,
    Phase,
    RoundResult,
    Step,
    result_sentence,
)


class Work:
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
            said = result_sentence(self.scores, [self.name(t) for t in range(self.n)])
            self.event("over", f"The game is over after {ROUNDS} rounds. {said}.", scores=list(self.scores))
            return
        self.start_round(self.round + 1)




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
    work = Work(s)
    for k, earlier in enumerate(after):
        work.deleted, work.asked, work.allowed = [], (), ()
        done = work.execute(seat, k, earlier)
        if done is None:
            return DryRun(f"unknown: your instruction {k + 1} ({earlier}) would first ask for permission",
                          asks=True)
        if done.crash:
            return DryRun(f"your instruction {k + 1} ({earlier}) would crash first", done.crash)
    work.deleted, work.asked, work.allowed = [], (), ()
    step = work.execute(seat, len(after), ins)
    if step is None:
        asked: tuple[Seat, ...] = work.asked
        names = " and ".join(work.name(t) for t in asked)
        return DryRun(f"would ask {names} for permission to delete the record their pointer is on", asks=True)
    return DryRun(step.text, step.crash)
