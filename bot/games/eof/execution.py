"""EOF: the round on a mutable working copy (deal, execution, record locking, scoring at the end of
a round) and the dry run the program builder shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import bot.games.eof.words as words
from bot.games.base import JSON, Event, Seat
from bot.games.eof.notation import Program
from bot.games.eof.pieces import (
    BLUE,
    DOWN,
    EMPTY,
    FULL,
    GREEN,
    LEFT,
    ORIENT_WORDS,
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
    round_summary,
)
from bot.games.eof.words import Arg, ColourWord, Join, Player, Said, and_list, said, tr
from bot.i18n import N_, _

DELETED = N_("deleted {pieces}")
"""What a delete that crashed after deleting some records did (the step's result)."""


REACHED = (N_("reached BOF after deleting {pieces}"), N_("reached EOF after deleting {pieces}"))
"""Why a delete crashed at the file's end (the reason names what it deleted)."""


def done_before_crash(result: str, crash: str) -> str:
    """What a crashed instruction did before it crashed (``deleted Y1``), in the current language, when its
    crash reason does not already say so; "" otherwise."""
    if isinstance(result, Said):
        if result.template != DELETED or (isinstance(crash, Said) and crash.template in REACHED):
            return ""
        return tr(result)
    gone = result.removeprefix("deleted ")  # an older stored step: English
    return "" if result in ("", "crashed") or gone in crash else result


def where(p: int, n: int) -> Arg:
    """Position ``p`` of a file of ``n`` records in words: ``BOF``, ``EOF``, ``record 3``."""
    if n == 0:
        return said(N_("BOF/EOF (empty file)"))
    if p == 0:
        return "BOF"  # not translated: the file's markers are the game's names
    if p == n + 1:
        return "EOF"  # not translated: the file's markers are the game's names
    return said(N_("record {record}"), record=p)


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
    def name(self, seat: Seat) -> Player:
        """The seat in a text: called by its colour (``Red``), or by its player's name where shown."""
        return Player(self.colours[seat])

    def event(self, kind: str, text: Said, visible_to: Seat | None = None, **data: JSON) -> None:
        self.events.append(Event(kind, text, data, visible_to))

    def where(self, p: int) -> Arg:
        return where(p, len(self.file))

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
        text = words.ngettext("Round {round} of {rounds} begins: every piece outside the file and the "
                              "pointers goes back into the bag ({n} piece).",
                              "Round {round} of {rounds} begins: every piece outside the file and the "
                              "pointers goes back into the bag ({n} pieces).", sum(bag), round=number,
                              rounds=ROUNDS)
        self.event("round", text, round=number)
        if any(self.bag[Piece(c, s).index] for c in self.colours for s in (1, 2, 3)):
            self.phase = Phase.FIRST
            return
        # No piece of a player's colour left in the bag: drawing could never decide. The lead
        # passes clockwise instead (impossible in round 1).
        self.first = (self.first + 1) % self.n
        text = said(N_("No piece of a player's colour is in the bag: {player} plays first (the lead passes "
                       "clockwise)."), player=self.name(self.first))
        self.event("first", text, seat=self.first)
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
        if short:
            text = words.ngettext("The deal is over; the {n} piece left forms the data pool. The bag ran "
                                  "out: {players} drew fewer than {hand}. Write your programs.",
                                  "The deal is over; the {n} pieces left form the data pool. The bag ran "
                                  "out: {players} drew fewer than {hand}. Write your programs.",
                                  left, players=Join(tuple(short), last=False), hand=HAND)
        else:
            text = words.ngettext("The deal is over; the {n} piece left forms the data pool. Write your "
                                  "programs.",
                                  "The deal is over; the {n} pieces left form the data pool. Write your "
                                  "programs.", left)
        self.event("pool", text, pool=list(self.pool))
        for t in range(self.n):
            if not self.draws[t]:
                self.programs[t] = Program(())
        if all(p is not None for p in self.programs):
            self.start_execution()

    # execution ---------------------------------------------------------------------------------------
    def start_execution(self) -> None:
        order = Join(tuple(self.name((self.first + i) % self.n) for i in range(self.n)), last=False)
        self.event("execute", said(N_("All programs are in. Execution, one instruction per turn: {order}."),
                                   order=order))
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
                who, ins = self.name(seat), str(step.instruction)
                text = (said(N_("{player} {instruction}: CRASH — {reason}."), player=who, instruction=ins,
                             reason=step.crash) if step.crash
                        else said(N_("{player} {instruction}: {result}."), player=who, instruction=ins,
                                  result=step.text))
                self.event("step", text, seat=seat, index=i, instruction=str(step.instruction),
                           result=step.text, crash=step.crash, touched=list(step.touched),
                           file=[str(p) for p in self.file], pointers=list(self.pointers),
                           pool=list(self.pool))
            self.turn += 1
            self.deleted = []
            self.asked = self.allowed = ()
        self.end_round()

    def crash(self, seat: Seat, index: int, ins: Instruction, reason: Said, done: Said | None = None) -> Step:
        self.crashed[seat] = index
        self.pointers[seat] = 0
        return Step(seat, index, ins, done or said(N_("crashed")), reason)

    def execute(self, seat: Seat, index: int, ins: Instruction) -> Step | None:
        """Carry out one instruction; ``None`` when it waits for permission."""
        if not ins.is_valid:
            reason = said(N_("{colour} has no {orientation} instruction"), colour=ColourWord(ins.colour),
                          orientation=said(ORIENT_WORDS[ins.orient]))
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
                    return self.crash(seat, index, ins, said(N_("moving left {n} from {where} passes BOF"),
                                                             n=size, where=self.where(p)))
                if target > self.eof():
                    return self.crash(seat, index, ins, said(N_("moving right {n} from {where} passes EOF"),
                                                             n=size, where=self.where(p)))
                self.pointers[seat] = target
            q = self.pointers[seat]
            return Step(seat, index, ins, said(N_("pointer now on {where}"), where=self.where(q)), "",
                        (q - 1,) if 1 <= q <= n else ())
        if ins.colour == YELLOW:
            own = Piece(self.colours[seat], size)
            if n and ins.orient == LEFT and p == 0:
                return self.crash(seat, index, ins, said(N_("cannot insert before BOF")))
            if n and ins.orient == RIGHT and p == n + 1:
                return self.crash(seat, index, ins, said(N_("cannot insert after EOF")))
            if not self.pool[own.index]:
                return self.crash(seat, index, ins, said(N_("no {piece} in the data pool"), piece=str(own)))
            q = 1 if not n else (p if ins.orient == LEFT else p + 1)
            self.insert(q, own, seat)
            return Step(seat, index, ins, said(N_("inserted {piece} as record {record}; pointer on it"),
                                               piece=str(own), record=q), "", (q - 1,))
        if ins.colour == BLUE:
            if not 1 <= p <= n:
                reason = (said(N_("no current record to replace at {where}"), where=self.where(p))
                          if ins.orient == STANDING
                          else said(N_("no current record to swap at {where}"), where=self.where(p)))
                return self.crash(seat, index, ins, reason)
            if ins.orient == STANDING:
                old = self.file[p - 1]
                own = Piece(self.colours[seat], size)
                if self.pool[own.index] + (old == own) == 0:
                    return self.crash(seat, index, ins, said(N_("no {piece} in the data pool"),
                                                             piece=str(own)))
                self.pool[old.index] += 1
                self.pool[own.index] -= 1
                self.file[p - 1] = own
                text = said(N_("replaced {old} at record {record} by {new}"), old=str(old), record=p,
                            new=str(own))
                return Step(seat, index, ins, text, "", (p - 1,))
            q = p - size if ins.orient == LEFT else p + size
            if not 1 <= q <= n:
                reason = (said(N_("no record {n} to the left of record {record}"), n=size, record=p)
                          if ins.orient == LEFT
                          else said(N_("no record {n} to the right of record {record}"), n=size, record=p))
                return self.crash(seat, index, ins, reason)
            a, b = self.file[p - 1], self.file[q - 1]
            self.file[p - 1], self.file[q - 1] = b, a
            text = said(N_("swapped records {record} ({piece}) and {other} ({other_piece})"), record=p,
                        piece=str(a), other=q, other_piece=str(b))
            return Step(seat, index, ins, text, "", (p - 1, q - 1))
        return self.delete(seat, index, ins)

    def delete(self, seat: Seat, index: int, ins: Instruction) -> Step | None:
        left = ins.orient == LEFT
        while len(self.deleted) < ins.size:
            p = self.pointers[seat]
            n = len(self.file)
            gone = " ".join(map(str, self.deleted))
            if not 1 <= p <= n:
                if self.deleted:
                    reason = said(REACHED[0] if left else REACHED[1], pieces=gone)
                    return self.crash(seat, index, ins, reason, said(DELETED, pieces=gone))
                return self.crash(seat, index, ins, said(N_("no record to delete at {where}"),
                                                         where=self.where(p)))
            holders = tuple(t for t in range(self.n) if t != seat and self.pointers[t] == p)
            if holders and self.locking != "none":
                names = and_list([self.name(t) for t in holders])
                piece = str(self.file[p - 1])
                if self.locking.startswith("locks"):
                    blocked = True
                    reason = said(N_("record {record} ({piece}) is locked by {players}"), record=p,
                                  piece=piece, players=names)
                else:
                    if self.verdict == 0:
                        self.asked, self.allowed = holders, ()
                        ask = said(N_("{player} {instruction} wants to delete record {record} ({piece}), "
                                      "which holds {players}'s pointer: {players}, allow or deny?"),
                                   player=self.name(seat), instruction=str(ins), record=p, piece=piece,
                                   players=names)
                        self.event("permission", ask, seat=seat, instruction=str(ins), record=p - 1,
                                   asked=list(holders))
                        return None
                    blocked = self.verdict < 0
                    reason = said(N_("record {record} ({piece}) was refused by {players}"), record=p,
                                  piece=piece, players=names)
                    self.verdict = 0
                if blocked:
                    if self.locking.endswith("-crash"):
                        done = said(DELETED, pieces=gone) if gone else None
                        return self.crash(seat, index, ins, reason, done)
                    text = (said(N_("deleted {pieces}; stopped, {reason}; pointer on record {record}"),
                                 pieces=gone, reason=reason, record=p) if gone
                            else said(N_("deleted nothing: stopped, {reason}; pointer on record {record}"),
                                      reason=reason, record=p))
                    return Step(seat, index, ins, text, "", (p - 1,))
            self.deleted.append(self.remove(p, seat))
            self.pointers[seat] = p - 1 if left else p
            self.normalise()
        gone = " ".join(map(str, self.deleted))
        q = self.pointers[seat]
        return Step(seat, index, ins, said(N_("deleted {pieces}; pointer now on {where}"), pieces=gone,
                                           where=self.where(q)), "",
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
            how = round_summary(skipped[t], self.crashed[t] >= 0, self.s0.crash_penalty and points[t] != 0,
                                configs[t])
            lines.append(said(N_("{player} {points} ({how}) → {total}"), player=self.name(t),
                              points=f"{points[t]:+d}", how=how, total=self.scores[t]))
        self.event("score", said(N_("Round {round} scores: {lines}."), round=self.round,
                                 lines=Join(tuple(lines), last=False, sep="; ")), round=self.round,
                   points=points, totals=list(self.scores),
                   configurations=[[c.dump() for c in cs] for cs in configs])
        self.asked = self.allowed = ()
        self.deleted = []
        if self.round >= ROUNDS:
            self.phase = Phase.OVER
            result = result_sentence(self.scores, [self.name(t) for t in range(self.n)])
            self.event("over", said(N_("The game is over after {rounds} rounds. {result}."), rounds=ROUNDS,
                                    result=result), scores=list(self.scores))
            return
        self.start_round(self.round + 1)




@dataclass(frozen=True)
class DryRun:
    """What one instruction would do to the file as it stands (see :func:`dry_run`), in the current
    language (the builder's reader)."""

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
            return DryRun(_("unknown: your instruction {number} ({instruction}) would first ask for "
                            "permission", number=k + 1, instruction=str(earlier)), asks=True)
        if done.crash:
            return DryRun(_("your instruction {number} ({instruction}) would crash first", number=k + 1,
                            instruction=str(earlier)), tr(done.crash))
    work.deleted, work.asked, work.allowed = [], (), ()
    step = work.execute(seat, len(after), ins)
    if step is None:
        asked: tuple[Seat, ...] = work.asked
        names = and_list([work.name(t) for t in asked])
        return DryRun(said(N_("would ask {players} for permission to delete the record their pointer is on"),
                           players=names), asks=True)
    return DryRun(step.text, step.crash)
