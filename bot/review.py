"""Where it turned (issue #29): the strongest computer level run over a finished game, marking the moves
where the evaluation swung most, each with the move it would have played.

Pure: positions in, marks out (no discord, no clock in the verdicts: every budget counts search work, so a
game's review is the same every time). The bot runs :func:`review` in a worker process
(:func:`review_off_loop`), so a review never holds the event loop or its GIL against anyone's moves.

Which games have it: only those whose strongest level is measured strong against an outside yardstick.

* **Fire and Ice** (the hard level's search, measured strong): every move. Each position is searched with
  :data:`FIRE_NODES` nodes (what the hard level searches in its 0.6 s on the project's machine); the move
  played is scored at the same depth in the same search, so the two scores are on one scale. Scores turn
  into an expected result for the mover, ``1 / (1 + exp(-score / 500))`` (500 fitted on self-play games:
  the likelihood of the results peaks between 300 and 800), a forced win 1 and a forced loss 0. Marks, by
  what the move cost in expected result: **inaccuracy** ≥ 0.10, **mistake** ≥ 0.20, **blunder** ≥ 0.30;
  and always a blunder: a move that gives up a forced win the search had found (unless the next position
  still shows the win), or walks into a forced loss that another move avoided.
* **The Egg Carton Game**, only where its exact endgame solver reaches (16 marbles or fewer on the board
  with 100,000 positions, up to 22 with 40,000: the expert's budgets): a pick that turns a won endgame
  into a lost one is a **blunder** (exact, so there are no lesser marks); positions beyond the solver are
  not judged, and the review says how many were.
* **Not Pylon**: its strongest level is not measured strong (yet), so its marks would not be worth much.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import CHANCE, Seat
from bot.i18n import N_, _, format_number, language, speaking
from bot.matches.workers import Worker

log = logging.getLogger(__name__)

REVIEWED = {"fireandice": N_("every move"), "eggcarton": N_("endgames its exact solver reaches")}
"""The games with a review, and what of them it judges."""

HOW = {
    "fireandice": N_("The hard level's search ({nodes} nodes a position) over every move. Marks, by what the "
                     "move cost in expected result: inaccuracy ≥ 10 points, mistake ≥ 20, blunder ≥ 30 or a "
                     "forced win given up."),
    "eggcarton": N_("The exact endgame solver, where it reaches (16 marbles or fewer on the board, sometimes "
                    "up to 22): {judged} of {moves} picks judged. A blunder turns a won endgame into a lost "
                    "one; "
                    "earlier picks are not judged (the expert is exact only in endgames)."),
}
"""How each game's review judges (shown with its marks; looked up in the reader's language by :func:`how`)."""
KINDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""A mark's kind in words (:func:`kind_text`); :attr:`Mark.kind` itself stays the identifier."""

FIRE_NODES = 12_000
FIRE_SCALE = 500.0
INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30
"""Fire and Ice: the expected result a move may cost before it is marked so (see the module docstring)."""


@dataclass(frozen=True)
class Turn:
    """One player's move to judge: the position before it, who moved, what they played (its notation)."""

    step: int
    """The replay's step after this move (move ``step`` of the game)."""
    seat: Seat
    state: Any
    played: str


@dataclass(frozen=True)
class ReviewJob:
    """What a review reads: plain data, so it can go to another process."""

    game: str
    turns: tuple[Turn, ...]
    after: Any
    """The position after the last move."""
    lang: str = field(default_factory=language)
    """The language the marks' words are written in (where the job is made: its reader's); the worker
    process does not share the bot's context, so it is passed."""


@dataclass(frozen=True)
class Mark:
    step: int
    seat: Seat
    played: str
    kind: str
    """``inaccuracy``, ``mistake`` or ``blunder``."""
    better: str
    """The move the engine would have played (its notation)."""
    why: str
    """After the better move: ``keeps the win``, ``avoids the forced loss`` or ``was better (expected
    result 62% → 31%)``."""


@dataclass(frozen=True)
class Review:
    game: str
    marks: tuple[Mark, ...]
    judged: int
    """Moves the engine could judge (all of them but where an exact solver's reach ends)."""
    moves: int

    def at(self, step: int) -> Mark | None:
        return next((m for m in self.marks if m.step == step), None)


def how(rv: Review) -> str:
    return _(HOW[rv.game], nodes=format_number(FIRE_NODES), judged=rv.judged, moves=rv.moves)


def kind_text(kind: str) -> str:
    """``inaccuracy``, ``mistake`` or ``blunder`` in the current language."""
    return _(KINDS[kind]) if kind in KINDS else kind


def job_of(game: str, steps: Sequence[Any]) -> ReviewJob:
    """The job of a replay's ``steps`` (:class:`bot.matches.replay.Step`: the state after each step, who
    moved and what): each move is judged from the position of the step before it."""
    turns = tuple(Turn(n, step.seat, steps[n - 1].state, step.notation)
                  for n, step in enumerate(steps) if n > 0 and step.seat is not None and step.seat != CHANCE)
    return ReviewJob(game, turns, steps[-1].state if steps else None)


def review(job: ReviewJob) -> Review:
    """The marks of ``job``'s game (see the module docstring), their words in ``job.lang``."""
    with speaking(job.lang):
        if job.game == "fireandice":
            return _fire_and_ice(job)
        if job.game == "eggcarton":
            return _egg_carton(job)
    raise ValueError(f"No review for {job.game}: its strongest level is not measured strong.")


def expected(score: float, won: float) -> float:
    """A Fire and Ice score as the mover's expected result (0..1)."""
    if score >= won:
        return 1.0
    if score <= -won:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / FIRE_SCALE))


def classify(best: float, played: float, after: float | None, won: float) -> tuple[str, str] | None:
    """The mark of a Fire and Ice move (kind, why) from its scores for the mover: the best move's, the
    move played's (same search, same depth) and the next position's search (negated), if any."""
    if after is not None and after >= won:  # the deeper look from the next position: it still wins
        played = max(played, after)
    if best >= won and played < won:
        return "blunder", _("keeps the win")
    if played <= -won < best and (after is None or after <= -won):
        return "blunder", _("avoids the forced loss")  # (never a win given up: that is the line above)
    drop = expected(best, won) - expected(played, won)
    kind = ("blunder" if drop >= BLUNDER else "mistake" if drop >= MISTAKE
            else "inaccuracy" if drop >= INACCURACY else None)
    if kind is None:
        return None
    was, now = f"{expected(best, won):.0%}", f"{expected(played, won):.0%}"
    return kind, _("was better (expected result {best} → {played})", best=was, played=now)


def _fire_and_ice(job: ReviewJob) -> Review:
    from bot.games.fire_and_ice import RULES
    from bot.games.fire_and_ice.ai import WIN, WON, evaluate

    evals = []
    for t in job.turns:
        played = RULES.parse(t.played, t.state, t.seat)
        evals.append(evaluate(t.state, t.seat, FIRE_NODES, played=played))
    marks = []
    for i, (t, e) in enumerate(zip(job.turns, evals, strict=True)):
        if e.played is None:
            continue
        after: float | None = None
        if i + 1 < len(job.turns) and job.turns[i + 1].seat != t.seat:
            after = -evals[i + 1].score
        elif i + 1 == len(job.turns):
            out = RULES.outcome(job.after)
            if out is not None:
                after = 0.0 if out.is_draw else (WIN if t.seat in out.winners else -WIN)
        mark = classify(e.score, e.played, after, WON)
        if mark is not None:
            marks.append(Mark(t.step, t.seat, t.played, mark[0], RULES.format(e.best, t.state), mark[1]))
    return Review(job.game, tuple(marks), len(job.turns), len(job.turns))


def _egg_carton(job: ReviewJob) -> Review:
    from bot.games.egg_carton import RULES
    from bot.games.egg_carton.ai import SOLVE_BUDGETS, to_board, to_pick
    from bot.games.egg_carton.solver import OutOfBudget, Solver, children, sow

    solver = Solver()  # one table for the game: it keeps proven values only, so sharing changes no answer
    marks = []
    judged = 0
    for t in job.turns:
        board = bytes(to_board(t.state))
        budget = next((b for most, b in SOLVE_BUDGETS if sum(board) <= most), 0)
        if not budget or t.seat != t.state.to_move:
            continue
        cell = RULES.parse(t.played, t.state, t.seat).slot % 6
        solver.node_budget = solver.nodes + budget
        try:
            better = None
            if solver.wins(board) and children(board)[0] != cell:  # (a pick that wins at once keeps it)
                b = bytearray(board)
                again = sow(b, cell)
                nxt = bytes(b) if again else bytes(b[7:] + b[:7])
                if solver.wins(nxt) != again:
                    better = solver.winning_pick(board)
        except OutOfBudget:
            continue
        finally:
            solver.node_budget = None
        judged += 1
        if better is not None:
            marks.append(Mark(t.step, t.seat, t.played, "blunder",
                              RULES.format(to_pick(better, t.seat), t.state), _("keeps the win")))
    return Review(job.game, tuple(marks), judged, len(job.turns))


# -- in a worker process -------------------------------------------------------------------------------

_REVIEWS = Worker("review")


async def review_off_loop(job: ReviewJob) -> Review:
    """:func:`review` in a worker process of its own (one, started on first use; not the GIF process, so a
    GIF is never queued behind a review's seconds of search). A thread of this process would hold the GIL
    against every match's moves for those seconds (bench/review.py measures both); if the process cannot
    be used, a thread does it all the same."""
    return await _REVIEWS.run(review, job)


def stop_review_process() -> None:
    """Stop the review worker process (the bot is closing)."""
    _REVIEWS.stop()


# -- kept per match (memory: a review is a few hundred bytes, and a finished match never changes) ----------

KEPT = 256
_kept: OrderedDict[tuple[int, int, str], Review] = OrderedDict()
_running: dict[tuple[int, int, str], asyncio.Future[Review]] = {}


def kept_review(key: tuple[int, int]) -> Review | None:
    """The review of match version ``key`` = (match id, version), if made since the bot started, in the
    current language (its marks' words are written in one)."""
    found = _kept.get((*key, language()))
    if found is not None:
        _kept.move_to_end((*key, language()))
    return found


async def review_once(key: tuple[int, int], job: Callable[[], ReviewJob]) -> Review:
    """The review of ``key``: kept, under way (a second click waits for the same one), or started now (in
    the current language: kept per language)."""
    found = kept_review(key)
    if found is not None:
        return found
    full = (*key, language())
    running = _running.get(full)
    if running is None:
        running = asyncio.ensure_future(review_off_loop(job()))
        _running[full] = running
        running.add_done_callback(lambda _f: _running.pop(full, None))
    done = await asyncio.shield(running)  # (a click's wait cancelled leaves the review running)
    _kept[full] = done
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return done
