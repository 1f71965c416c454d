"""Computer opponents for the Egg Carton Game: four levels that plan whole turns.

A turn is a chain of picks (rule A makes the player pick again), so every
level but ``novice`` searches *turns*: it enumerates the pick sequences of its
own turn (breadth-first, each position once), and scores the positions where
the turn ends. Search works on a 14-cell ring seen from the player to move
(cells 0–5 their slots, 6 and 13 the end zones, kept at 0, 7–12 the
opponent's slots), so both seats share one transposition table.

Levels (each beats the one below in ≥ 75 % of games, see
``bench/eggcarton_strength.py``):

* ``novice``: a uniformly random legal pick.
* ``beginner``: greedy, one turn of look-ahead: it explores its own turn
  for at most 150 sowings, takes a win it sees, and otherwise ends the turn
  with the most marbles on its own side against the opponent's (measured:
  a full side keeps options open), avoiding end positions where a quick
  glance (10 sowings) finds an opponent win.
* ``intermediate``: minimax over two whole turns, rule-A repeats included:
  its own (up to 150 sowings) and every reply (up to 300 sowings each),
  40,000 sowings in all, so it rarely leaves a short win on the table.
* ``expert``: first the exact endgame solver (``solver.py``): with 16
  marbles or fewer on the board (100,000 positions at most, twice what any
  sampled position needed) and, with a smaller budget (40,000), up to 22.
  When the position is won it plays a winning turn, so it never turns a won
  endgame into a lost one. Otherwise iterative-deepening alpha-beta over
  whole turns (up to 4 turns past its own) with a transposition table,
  scoring positions by :func:`spread` (occupied slots: beyond the solver's
  reach it throws fewer won endgames than with :func:`material`); its
  own turn is searched completely, the rest within 120,000 sowings less
  what the solver spent. It always finds a win in the current turn, so it
  wins at once when it moves first with 2–5 marbles per slot.

Every budget counts work (sowings, solver positions), never the clock, so a
level's choice depends only on the position and the match's random numbers.
CPU time per whole turn on the project's 2-core machine (worst seen, see
``bench/eggcarton_exact.py``): beginner 0.002 s, intermediate 0.035 s,
expert 0.26 s (0.12 s for the first turn at 6 marbles per slot), so 1 s of
wall clock holds with the machine shared about three ways.

The capped levels do not find that first-turn win: it takes 7–14 picks, and
a breadth-first search meets it only after 192 sowings or more (the tests
check that they never win at once), as rulings.md asks of lower levels.

``choose`` returns one pick; the rest of the planned turn is remembered by
state (a small LRU), so the follow-up picks after rule A cost nothing.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from bot.games.base import Seat
from bot.games.egg_carton.notation import SLOTS_PER_SIDE
from bot.games.egg_carton.rules import LEVELS, RULES, EggCartonState, Pick
from bot.games.egg_carton.solver import Solver, winning_turn

Board = tuple[int, ...]
"""14 ring cells from the mover's side: 0–5 theirs, 6 and 13 end zones (0), 7–12 the opponent's."""

Plan = tuple[int, ...]
"""Picks as mover-relative cells 0–5."""

Scored = tuple[int, Plan, Board]
"""A root plan's score, the plan, and the position it leads to."""

WIN = 100_000
"""Score of a won position (for the player to move); decreases by 1 per turn of delay."""

EXPERT_WORK = 120_000
"""The expert's budget for a turn, in sowings (one with 40 or more marbles on the board counts
twice: it costs about twice as long) plus the positions its endgame solver expanded (each costs
about one sowing)."""

EXACT_RANGE = 16
"""With this many marbles on the board or fewer the expert plays exactly: the solver's budget
there (100,000 positions) is twice the most any of 1,612 sampled positions needed."""

SOLVE_BUDGETS: tuple[tuple[int, int], ...] = ((EXACT_RANGE, 100_000), (22, 40_000))
"""(most marbles on the board, positions the solver may expand): beyond 16 marbles the solver
gets a smaller share of the turn's work, and solves most positions up to 20 marbles in it."""


@dataclass(frozen=True)
class Level:
    """How hard one level searches."""

    depth: int                 # whole turns examined after the root turn's end positions
    root_cap: int | None       # sowings spent enumerating its own turn (None: all)
    inner_cap: int | None      # sowings per turn deeper in the tree (None: all)
    node_budget: int | None = None   # total sowings; the unfinished depth is dropped when exceeded
    deepen: bool = False       # iterative deepening up to ``depth``
    solve_budgets: tuple[tuple[int, int], ...] = ()  # (most marbles on the board, solver node budget)
    use_spread: bool = False   # score end positions with :func:`spread` instead of :func:`material`


LEVEL_SETTINGS: dict[str, Level] = {
    "beginner": Level(depth=1, root_cap=150, inner_cap=10),
    "intermediate": Level(depth=1, root_cap=150, inner_cap=300, node_budget=40_000),
    "expert": Level(depth=4, root_cap=None, inner_cap=None, node_budget=EXPERT_WORK, deepen=True,
                    solve_budgets=SOLVE_BUDGETS, use_spread=True),
}


def material(b: Board) -> int:
    """Static score for the player to move: marbles on their side minus the opponent's.

    Counter-intuitive but measured: a full side keeps options open and a thin
    opposing side leaves the opponent few safe picks.
    """
    return b[0] + b[1] + b[2] + b[3] + b[4] + b[5] - b[7] - b[8] - b[9] - b[10] - b[11] - b[12]


def spread(b: Board) -> int:
    """The expert's static score: occupied slots (own minus opponent's) weigh ten marbles, and
    marbles count against their owner.

    Measured on 103 won positions with 23–26 marbles (``bench/eggcarton_exact.py
    --min-marbles 23 --max-marbles 26 --compare``): the expert's turn threw 27 % of them
    with it, the expert before it (:func:`material`) 43 %; with only the score swapped,
    26 % against 50 % on 50 won positions with 27–30 marbles. Many occupied slots leave
    many picks (and relays); few marbles are closer to a cleared side.
    """
    return (10 * ((b[0] > 0) + (b[1] > 0) + (b[2] > 0) + (b[3] > 0) + (b[4] > 0) + (b[5] > 0)
                  - (b[7] > 0) - (b[8] > 0) - (b[9] > 0) - (b[10] > 0) - (b[11] > 0) - (b[12] > 0))
            - material(b))


def sow_ring(b: list[int], c: int) -> bool:
    """Sow cell ``c`` of ring ``b`` in place with relays; True when rule A applies (pick again).

    End-zone cells are reset to 0, so boards stay comparable.
    """
    h = b[c]
    b[c] = 0
    while True:
        for _ in range(h):
            c += 1
            if c == 14:
                c = 0
            b[c] += 1
        if c == 6 or c == 13:
            b[6] = b[13] = 0
            return True
        if b[c] == 1:
            b[6] = b[13] = 0
            return False
        h = b[c]
        b[c] = 0


def to_board(s: EggCartonState) -> Board:
    """The ring seen from ``s.to_move``."""
    a, n = s.slots[:SLOTS_PER_SIDE], s.slots[SLOTS_PER_SIDE:]
    return (*a, 0, *n, 0) if s.to_move == 0 else (*n, 0, *a, 0)


def to_pick(cell: int, seat: Seat) -> Pick:
    """A mover-relative cell 0–5 as the seat's pick."""
    return Pick(cell if seat == 0 else SLOTS_PER_SIDE + cell)


class _OutOfBudget(Exception):
    pass


@dataclass
class TurnOptions:
    """Where a turn can end: a winning plan, end positions (seen by the opponent), mid-turn cut-offs."""

    win: Plan | None
    ends: dict[Board, Plan]
    mids: dict[Board, Plan]


@dataclass
class Searcher:
    """Negamax over whole turns with alpha-beta and a transposition table."""

    level: Level
    evaluate: Callable[[Board], int] = material
    nodes: int = 0
    budget_on: bool = False
    options_cache: dict[tuple[Board, int | None], TurnOptions] = field(default_factory=dict)
    table: dict[tuple[Board, int], tuple[int, int]] = field(default_factory=dict)
    def options(self, board: Board, cap: int | None) -> TurnOptions:
        """Enumerate the turn from ``board`` breadth-first, at most ``cap`` sowings.

        Stops at the first win. Positions still waiting for a pick when the cap
        is reached are returned as ``mids``.
        """
        key = (board, cap)
        hit = self.options_cache.get(key)
        if hit is not None:
            return hit
        ends: dict[Board, Plan] = {}
        mids: dict[Board, Plan] = {}
        seen = {board}
        queue: deque[tuple[Board, Plan]] = deque([(board, ())])
        spent = 0
        weight = 2 if sum(board) >= 40 else 1
        limit = self.level.node_budget if self.budget_on else None
        win: Plan | None = None
        while queue and win is None:
            bd, plan = queue.popleft()
            if cap is not None and spent >= cap:
                mids[bd] = plan
                continue
            if limit is not None and self.nodes + spent * weight > limit:
                raise _OutOfBudget
            for c in range(6):
                if not bd[c]:
                    continue
                b = list(bd)
                again = sow_ring(b, c)
                spent += 1
                p = (*plan, c)
                if not (b[0] or b[1] or b[2] or b[3] or b[4] or b[5]):
                    win = p
                    break
                t = tuple(b)
                if again:
                    if t not in seen:
                        seen.add(t)
                        queue.append((t, p))
                elif not (t[7] or t[8] or t[9] or t[10] or t[11] or t[12]):
                    continue  # would empty the opponent's side: cannot happen (rulings), never chosen
                else:
                    rt = t[7:] + t[:7]
                    if rt not in ends:
                        ends[rt] = p
        self.nodes += spent * weight
        out = TurnOptions(win, ends, {} if win is not None else mids)
        self.options_cache[key] = out
        return out

    def value(self, board: Board, depth: int, alpha: int, beta: int) -> int:
        """Score of ``board`` for the player to move, searching ``depth`` more turns."""
        opts = self.options(board, self.level.inner_cap)
        if opts.win is not None:
            return WIN
        if depth == 0:
            return self.evaluate(board)
        key = (board, depth)
        hit = self.table.get(key)
        if hit is not None:
            flag, v = hit
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
        alpha0, best = alpha, -2 * WIN
        for e in sorted(opts.ends, key=self.evaluate):
            v = _delay(-self.value(e, depth - 1, -beta, -alpha))
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        for m in opts.mids:
            if alpha >= beta:
                break
            v = self.evaluate(m)
            best = max(best, v)
            alpha = max(alpha, v)
        if not opts.ends and not opts.mids:
            best = -WIN  # no way to end the turn safely (never happens in play)
        self.table[key] = (0 if alpha0 < best < beta else (1 if best >= beta else -1), best)
        return best

    def root(self, board: Board, depth: int, order: list[Board] | None = None) -> list[Scored]:
        """Score every plan of the root turn, searching ``depth`` turns past its end.

        ``order`` lists the end positions best first (from a shallower search).
        """
        opts = self.options(board, self.level.root_cap)
        if opts.win is not None:
            return [(WIN, opts.win, board)]
        scored: list[Scored] = []
        for e in order or sorted(opts.ends, key=self.evaluate):
            v = _delay(-self.value(e, depth - 1, -2 * WIN, 2 * WIN)) if depth else -self.evaluate(e)
            scored.append((v, opts.ends[e], e))
        scored.extend((self.evaluate(m), p, m) for m, p in opts.mids.items())
        return scored


def _delay(v: int) -> int:
    """Wins further away are worth a little less, losses further away a little more."""
    if v > WIN // 2:
        return v - 1
    if v < -WIN // 2:
        return v + 1
    return v


def plan_turn(s: EggCartonState, level: str, rng: random.Random) -> Plan:
    """The planned picks (mover-relative cells) of ``level`` for the player to move.

    The root turn is enumerated first (a win there ends the search); then the
    end positions are scored ``depth`` turns deep (every depth up to it when
    the level deepens), keeping the last search that finished within budget.
    """
    lv = LEVEL_SETTINGS[level]
    board = to_board(s)
    searcher = Searcher(lv, evaluate=spread if lv.use_spread else material)
    opts = searcher.options(board, lv.root_cap)
    if opts.win is not None:
        return opts.win
    budget = next((b for most, b in lv.solve_budgets if sum(board) <= most), 0)
    if budget:
        solver = Solver(max_entries=budget + 1)
        won = winning_turn(bytes(board), budget, solver)
        if won is not None:
            return won
        searcher.nodes += solver.nodes  # lost, or out of budget: the search gets what is left
    scored = searcher.root(board, 0)
    searcher.budget_on = True
    for depth in range(1, lv.depth + 1) if lv.deepen else (lv.depth,):
        order = [e for _, _, e in sorted(scored, key=lambda x: -x[0]) if e in opts.ends]
        try:
            scored = searcher.root(board, depth, order)
        except _OutOfBudget:
            break
        if abs(max(v for v, _, _ in scored)) > WIN // 2:
            break  # a forced result: deeper search cannot change it
    return _best(scored, rng)


def _best(scored: list[Scored], rng: random.Random) -> Plan:
    if not scored:
        raise RuntimeError("Egg Carton AI: no way to end the turn (a side would be emptied).")
    top = max(v for v, _, _ in scored)
    return rng.choice(sorted(p for v, p, _ in scored if v == top))


_PLANS: OrderedDict[tuple[str, EggCartonState], Pick] = OrderedDict()
_PLANS_LOCK = threading.Lock()       # choose() runs in worker threads
_PLAN_CACHE_SIZE = 512


def choose(state: EggCartonState, seat: Seat, rng: random.Random, level: str) -> Pick:
    """The computer's next pick for ``seat`` at ``level``.

    The whole turn is planned at once; its later picks (after rule A) are
    remembered by the state they will be played in.

    Raises:
        ValueError: unknown level, game over, or not ``seat``'s pick.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown level '{level}': choose from {', '.join(LEVELS)}.")
    legal = RULES.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"Player {seat + 1} has no pick to make now.")
    if level == "novice":
        return rng.choice(legal)
    with _PLANS_LOCK:
        cached = _PLANS.get((level, state))
        if cached is not None:
            _PLANS.move_to_end((level, state))
            return cached
    picks = [to_pick(c, seat) for c in plan_turn(state, level, rng)]
    _remember(state, seat, picks, level)
    return picks[0]


def _remember(state: EggCartonState, seat: Seat, picks: list[Pick], level: str) -> None:
    """Store each later pick of the plan under the state it will be played in."""
    s = state
    steps = []
    for here, nxt in pairwise(picks):
        s, _ = RULES.apply(s, seat, here)
        steps.append(((level, s), nxt))
    with _PLANS_LOCK:
        for key, pick in steps:
            _PLANS[key] = pick
            _PLANS.move_to_end(key)
        while len(_PLANS) > _PLAN_CACHE_SIZE:
            _PLANS.popitem(last=False)
