"""The EOF lesson: two-instruction programs that insert, move, delete and replace records, a crash,
the scoring configurations, and winning after four rounds.

Each step is a programming-phase position of a two-player match: you are Red with a hand of two pieces
(so your program has two instructions), Yellow has already submitted no program. Submitting runs the
round in the engine (execution, then scoring), so the step shows what the program did."""

from __future__ import annotations

from typing import Any

from bot.games.eof.notation import SKIP
from bot.games.eof.pieces import EMPTY, FULL, Piece, counts_of, sub
from bot.games.eof.rules import ROUNDS, RULES, EofState, Phase
from bot.i18n import N_
from bot.lessons.core import Lesson, Step

YOU, FRIEND = 0, 1
COLOURS = (0, 1)  # red, yellow


def program(file: str, pointer: int, hand: str, *, round: int = 1,
            history: tuple[tuple[int, int], ...] = ()) -> EofState:
    """Red (you) to program with ``hand`` (``"Y1 Y2"``), the file ``"R1 Y2"`` (first record first), your
    pointer on position ``pointer`` (0 BOF, 1.. records); Yellow's program is in (none this round).

    The deal is over: every other piece is in the data pool. ``history`` gives the earlier rounds."""
    records = tuple(Piece.parse(p) for p in file.split())
    pieces = tuple(Piece.parse(p) for p in hand.split())
    used = counts_of((*records, *pieces, *(Piece(c, 1) for c in COLOURS)))
    scores = tuple(sum(h[t] for h in history) for t in (YOU, FRIEND))
    return EofState(colours=COLOURS, phase=Phase.PROGRAM, round=round, first=YOU, file=records,
                    pointers=(pointer, 0), bag=EMPTY, pool=sub(FULL, used),
                    hands=(counts_of(pieces), EMPTY), draws=(pieces, ()), programs=(None, SKIP),
                    crashed=(-1, -1), scores=scores, history=history)


def _points(after: EofState) -> int:
    assert after.last_round is not None
    return after.last_round.points[YOU] if not after.last_round.crashed[YOU] else -99


def _file_is(text: str) -> Any:
    return lambda before, after, notation: " ".join(map(str, after.file)) == text


def _scores(least: int) -> Any:
    return lambda before, after, notation: _points(after) >= least


def _won(before: Any, after: Any, notation: str) -> bool:
    out = RULES.outcome(after)
    return out is not None and out.winners == frozenset({YOU})


LESSON = Lesson(
    game="eof",
    finish=N_("Start a lobby"),
    names=(N_("You"), N_("Yellow")),
    log_events=("step", "score"),
    steps=(
        Step(
            caption=N_("You are **Red**. Each round you lay your pieces as a secret **program**, one "
                       "instruction a piece. A **yellow** piece inserts a record of *your* colour from the "
                       "pool; **Right** puts it after your pointer. Program **Y1 Right**, then **Y2 "
                       "Right**, and Submit."),
            hint=N_("Choose **Y1**, press **Right**; choose **Y2**, press **Right**; then **Submit**."),
            setup=lambda: program("", 0, "Y1 Y2"),
            accepts=_file_is("R1 R2"), solution="Y1R Y2R", wrong="Y2R Y1R",
            after=N_("Your program ran: R1, then R2 after it (your pointer moves onto each new record). A "
                     "file of only your records scores twice its length: 4 points."),
        ),
        Step(
            caption=N_("Three of your records in a row, sorted by size, score **5**. A **green** piece "
                       "moves your pointer (Left/Right: that many records; Up/Down: the first/last). Move "
                       "onto **R2**, then insert R3 after it."),
            hint=N_("**G2 Right** takes your pointer from BOF to record 2 (R2); then **Y3 Right**."),
            setup=lambda: program("R1 R2 Y3 Y1", 0, "G2 Y3"),
            accepts=_scores(5), solution="G2R Y3R", wrong="Y3R G2R",
            after=N_("R1 R2 R3 is sorted and consecutive: 5 points. (Three unsorted in a row score 3.)"),
        ),
        Step(
            caption=N_("A **red** piece deletes: Left/Right n deletes the record under your pointer and "
                       "steps that way, n times. Yellow's Y2 splits your run: delete it, then jump back to "
                       "the first record."),
            hint=N_("Your pointer is on Y2: **R1 Right** deletes it; then **G1 Up**."),
            setup=lambda: program("Y1 R1 Y2 R2 R3", 3, "R1 G1"),
            accepts=_scores(5), solution="R1R G1U", wrong="G1U R1R",
            after=N_("Y2 is gone and R1 R2 R3 scores 5. Records others point at can be deleted too (unless "
                     "the match locks them)."),
        ),
        Step(
            caption=N_("Blue **Standing** n swaps the record under your pointer for your own piece of size "
                       "n; Standing is blue's only, Up/Down green's. A wrong orientation **crashes**: your "
                       "program stops and scores nothing. Turn Y3 into R3."),
            hint=N_("Lay the blue piece **Standing** (**B3 Standing**), then **G1 Up**."),
            setup=lambda: program("Y1 R1 R2 Y3", 4, "B3 G1"),
            accepts=_scores(5), solution="B3S G1U", wrong="B3R G1U",
            after=N_("Y3 went back to the pool and R3 took its place: 5 points. A crash also sends your "
                     "pointer to BOF."),
        ),
        Step(
            caption=N_("The best configuration: a **hill** 1-2-3-2-1 (or valley 3-2-1-2-3) in a row scores "
                       "**8**; a file holding only your records scores twice its length. Finish the hill."),
            hint=N_("Your pointer is on the last R2: **Y1 Right** puts R1 after it; then **G1 Up**."),
            setup=lambda: program("Y2 R1 R2 R3 R2", 5, "Y1 G1"),
            accepts=_scores(8), solution="Y1R G1U", wrong="Y1L G1U",
            after=N_("R1 R2 R3 R2 R1 is a hill: 8 points. Each record counts in one configuration at most; "
                     "you get the best total."),
        ),
        Step(
            caption=N_("The file carries over; after 4 rounds the **highest total wins**. Last round: you "
                       "have 10, Yellow 14. Score 5 to win."),
            hint=N_("Your pointer is on R2: **Y3 Right** makes R1 R2 R3 (5 points); then **G1 Up**."),
            setup=lambda: program("Y1 R1 R2", 3, "Y3 G1", round=ROUNDS, history=((4, 5), (6, 5), (0, 4))),
            accepts=_won, solution="Y3R G1U", wrong="G1U Y3R",
            after=N_("15 to 14: you win. Programs are written at the same time, so in a real game the "
                     "others' instructions may get in your way."),
        ),
    ),
)
