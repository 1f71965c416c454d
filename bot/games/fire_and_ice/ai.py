"""Computer opponents for Fire and Ice.

* ``easy``: a uniformly random legal move.
* ``medium``: one-ply tactics: wins at once when it can, never hands the
  opponent the win when another move exists, and prefers a move after which
  the opponent has no winning reply (blocking an immediate loss); otherwise
  random.
* ``hard``: iterative-deepening alpha-beta (negamax with a transposition table)
  on 49-bit masks, within a time budget measured here (:data:`HARD_BUDGET`
  seconds, never above 2 s). The evaluation multiplies, over each line of
  islands still open to a side, how close that side is to controlling each of
  the three islands.

The search never calls the checked engine; it mirrors ``board.play_unchecked`` on
masks (tested against the engine).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import Seat
from bot.games.fire_and_ice.geometry import (
    FULL_MASK,
    HAS_LINE,
    ISLAND_LINES,
    LINE_MASKS7,
    N_POINTS,
    NEIGHBOUR_MASK,
)
from bot.games.fire_and_ice.rules import RULES, FireIceMove, Move, Pass, State, masks

LEVELS = ("easy", "medium", "hard")
HARD_BUDGET = 0.6
"""Seconds the hard level may think per move (the platform's budget is 2 s)."""
MAX_BUDGET = 2.0

WIN = 1_000_000
_WIN_THRESHOLD = WIN - 1000

_HL = tuple(1 if h else 0 for h in HAS_LINE)
_ISLAND_OF = tuple(p // 7 for p in range(N_POINTS))


def _ctrl(m: int) -> int:
    """7-bit mask of islands where the 49-bit mask ``m`` holds a line."""
    hl = _HL
    return (hl[m & 127] | hl[(m >> 7) & 127] << 1 | hl[(m >> 14) & 127] << 2 | hl[(m >> 21) & 127] << 3
            | hl[(m >> 28) & 127] << 4 | hl[(m >> 35) & 127] << 5 | hl[(m >> 42) & 127] << 6)


def _island_value(mine: int, theirs: int) -> float:
    """How close the owner of ``mine`` is to controlling one island (0..1; 1 = controls it)."""
    if HAS_LINE[mine]:
        return 1.0
    if HAS_LINE[theirs]:
        return 0.0
    best = 0
    doubles = 0
    for lm in LINE_MASKS7:
        if lm & theirs:
            continue
        n = (lm & mine).bit_count()
        best = max(best, n)
        if n == 2:
            doubles += 1
    if doubles:
        return min(0.85, 0.5 + 0.1 * (doubles - 1))
    return (0.04, 0.12, 0.22)[best]


# VAL[(mine << 7) | theirs]: island value for the owner of ``mine``.
_VAL: tuple[float, ...] = tuple(_island_value(i >> 7, i & 127) for i in range(1 << 14))


def _evaluate(me: int, op: int) -> float:
    """Static value for the side owning ``me`` (to move); positive is good for it."""
    val = _VAL
    vm = []
    vo = []
    for k in range(7):
        a = (me >> (7 * k)) & 127
        b = (op >> (7 * k)) & 127
        vm.append(val[(a << 7) | b])
        vo.append(val[(b << 7) | a])
    sm = so = 0.0
    for x, y, z in ISLAND_LINES:
        sm += vm[x] * vm[y] * vm[z]
        so += vo[x] * vo[y] * vo[z]
    return 1000.0 * (sm - so) + 30.0 * (sum(vm) - sum(vo))


def _gen(me: int, op: int) -> list[tuple[int, int]]:
    """All moves (src, dst) of the owner of ``me``."""
    empty = ~(me | op) & FULL_MASK
    out: list[tuple[int, int]] = []
    nb = NEIGHBOUR_MASK
    m = me
    while m:
        low = m & -m
        src = low.bit_length() - 1
        d = nb[src] & empty
        while d:
            lb = d & -d
            out.append((src, lb.bit_length() - 1))
            d ^= lb
        m ^= low
    return out


def _result(me: int, op: int, sop: int, src: int, dst: int) -> tuple[int, int, int]:
    """(new me, new op, new opponent supply) after the owner of ``me`` plays src->dst."""
    nme = me ^ (1 << src) ^ (1 << dst)
    if sop > 0:
        return nme, op | (1 << src), sop - 1
    return nme, op, sop


def _position(s: State, seat: Seat) -> tuple[int, int, int, int]:
    fire, ice = masks(s.board)
    me, op = (fire, ice) if seat == 0 else (ice, fire)
    return me, op, s.supply[seat], s.supply[1 - seat]


# --------------------------------------------------------------------------- levels


def _easy(moves: Sequence[tuple[int, int]], rng: random.Random) -> tuple[int, int]:
    return rng.choice(list(moves))


def _has_win(me: int, op: int, sop: int) -> bool:
    """Whether the owner of ``me`` (to move) has a move that wins at once."""
    for src, dst in _gen(me, op):
        nme = me ^ (1 << src) ^ (1 << dst)
        if HAS_LINE[_ctrl(nme)]:
            return True
    return False


def _medium(me: int, op: int, sme: int, sop: int, moves: Sequence[tuple[int, int]],
            rng: random.Random) -> tuple[int, int]:
    wins: list[tuple[int, int]] = []
    safe: list[tuple[int, int]] = []
    for mv in moves:
        nme, nop, _nsop = _result(me, op, sop, *mv)
        if HAS_LINE[_ctrl(nme)]:
            wins.append(mv)
        elif not HAS_LINE[_ctrl(nop)]:
            safe.append(mv)
    if wins:
        return rng.choice(wins)
    if not safe:
        return rng.choice(list(moves))
    blocking = []
    for mv in safe:
        nme, nop, _nsop = _result(me, op, sop, *mv)
        if not _has_win(nop, nme, sme):
            blocking.append(mv)
    return rng.choice(blocking or safe)


class _Timeout(Exception):
    pass


class _Search:
    """Negamax alpha-beta with a transposition table and a deadline."""

    def __init__(self, deadline: float, max_nodes: float = float("inf")) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.tt: dict[tuple[int, int, int, int], tuple[int, float, int, tuple[int, int] | None]] = {}

    def order(self, me: int, op: int, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Cheap move ordering: what the move gains at dst minus what it gives away at src."""
        val = _VAL
        scored = []
        for src, dst in moves:
            ks, kd = _ISLAND_OF[src], _ISLAND_OF[dst]
            nme = me ^ (1 << src) ^ (1 << dst)
            nop = op | (1 << src)
            a0 = (me >> (7 * kd)) & 127
            b0 = (op >> (7 * kd)) & 127
            a1 = (nme >> (7 * kd)) & 127
            b1 = (nop >> (7 * kd)) & 127
            gain = val[(a1 << 7) | b1] - val[(a0 << 7) | b0]
            if ks != kd:
                a0 = (me >> (7 * ks)) & 127
                b0 = (op >> (7 * ks)) & 127
                a1 = (nme >> (7 * ks)) & 127
                b1 = (nop >> (7 * ks)) & 127
                gain += val[(a1 << 7) | b1] - val[(a0 << 7) | b0]
            gain += val[(b0 << 7) | a0] - val[(b1 << 7) | a1]
            scored.append((gain, src, dst))
        scored.sort(reverse=True)
        return [(s, d) for _, s, d in scored]

    def negamax(self, me: int, op: int, sme: int, sop: int, depth: int, alpha: float, beta: float,
                ply: int) -> float:
        self.nodes += 1
        if not self.nodes & 127 and (time.perf_counter() > self.deadline or self.nodes > self.max_nodes):
            raise _Timeout
        if depth <= 0:
            return _evaluate(me, op)
        key = (me, op, sme, sop)
        entry = self.tt.get(key)
        tt_move = None
        alpha0 = alpha
        if entry is not None:
            edepth, escore, eflag, tt_move = entry
            if edepth >= depth:
                if eflag == 0:
                    return escore
                if eflag == 1 and escore >= beta:
                    return escore
                if eflag == -1 and escore <= alpha:
                    return escore
        moves = _gen(me, op)
        if not moves:
            # A pass (never in real play): the opponent moves with no piece added; two passes draw.
            if not _gen(op, me):
                return 0.0
            return -self.negamax(op, me, sop, sme, depth - 1, -beta, -alpha, ply + 1)
        if depth >= 2:
            moves = self.order(me, op, moves)
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        best = -float("inf")
        best_move = None
        for src, dst in moves:
            nme = me ^ (1 << src) ^ (1 << dst)
            if sop > 0:
                nop = op | (1 << src)
                nsop = sop - 1
            else:
                nop, nsop = op, sop
            if HAS_LINE[_ctrl(nme)]:
                score: float = WIN - ply
            elif HAS_LINE[_ctrl(nop)]:
                score = -WIN + ply
            elif depth == 1:
                score = -_evaluate(nop, nme)
            else:
                score = -self.negamax(nop, nme, nsop, sme, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_move = (src, dst)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = 0 if alpha0 < best < beta else (1 if best >= beta else -1)
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def root(self, me: int, op: int, sme: int, sop: int, moves: list[tuple[int, int]],
             max_depth: int) -> tuple[tuple[int, int], int, float]:
        """Iterative deepening; returns (best move, depth completed, score)."""
        order = self.order(me, op, moves)
        best_move, best_score, done = order[0], -float("inf"), 0
        for depth in range(1, max_depth + 1):
            scores: dict[tuple[int, int], float] = {}
            alpha = -float("inf")
            try:
                for mv in order:
                    src, dst = mv
                    nme, nop, nsop = _result(me, op, sop, src, dst)
                    if HAS_LINE[_ctrl(nme)]:
                        score: float = WIN
                    elif HAS_LINE[_ctrl(nop)]:
                        score = -WIN + 1
                    elif depth == 1:
                        score = -_evaluate(nop, nme)
                    else:
                        score = -self.negamax(nop, nme, nsop, sme, depth - 1, -float("inf"), -alpha, 1)
                    scores[mv] = score
                    alpha = max(alpha, score)
            except _Timeout:
                # Keep the completed depth's choice, unless at this depth another move
                # already beat it (the previous best is searched first).
                if order[0] in scores:
                    mv, sc = max(scores.items(), key=lambda kv: kv[1])
                    if sc > scores[order[0]]:
                        best_move, best_score = mv, sc
                break
            order = sorted(order, key=lambda m: -scores[m])
            best_move, best_score, done = order[0], scores[order[0]], depth
            if abs(best_score) >= _WIN_THRESHOLD:
                break
        return best_move, done, best_score


def _hard(me: int, op: int, sme: int, sop: int, moves: list[tuple[int, int]], rng: random.Random,
          budget: float) -> tuple[int, int]:
    start = time.perf_counter()
    if len(moves) == 1:
        return moves[0]
    shuffled = list(moves)
    rng.shuffle(shuffled)
    empties = N_POINTS - (me | op).bit_count()
    search = _Search(start + budget)
    move, _depth, _score = search.root(me, op, sme, sop, shuffled, empties + 2)
    return move


def choose(state: State, seat: Seat, rng: random.Random, level: str = "medium", *,
           budget: float | None = None) -> FireIceMove:
    """Pick a move for ``seat`` (the side to move) at ``level`` (easy, medium or hard).

    ``budget`` overrides the hard level's thinking time in seconds (capped at 2).

    Raises:
        ValueError: unknown level, or ``seat`` is not the side to move.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown Fire and Ice level '{level}': choose easy, medium or hard.")
    legal = RULES.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"{'Fire' if seat == 0 else 'Ice'} is not to move.")
    if isinstance(legal[0], Pass):
        return legal[0]
    me, op, sme, sop = _position(state, seat)
    moves = [(m.src, m.dst) for m in legal if isinstance(m, Move)]
    if level == "easy":
        mv = _easy(moves, rng)
    elif level == "medium":
        mv = _medium(me, op, sme, sop, moves, rng)
    else:
        limit = HARD_BUDGET if budget is None else budget
        mv = _hard(me, op, sme, sop, moves, rng, min(max(limit, 0.01), MAX_BUDGET))
    return Move(*mv)


# --------------------------------------------------------------------------- evaluation (the review)

REVIEW_NODES = 30_000
"""Nodes the review's search may visit per position (about as deep as the hard level's time budget on the
project's machine; a node budget, not the clock, so a review is the same every time)."""


@dataclass(frozen=True)
class Evaluation:
    """The hard search's verdict on a position, from the view of the side to move."""

    best: FireIceMove
    score: float
    """Of ``best``: above :data:`WON` a forced win, below ``-WON`` a forced loss, else the heuristic."""
    depth: int
    played: float | None = None
    """The score of the move asked about (same depth and scale), when one was."""


WON = _WIN_THRESHOLD


def _exact(search: _Search, me: int, op: int, sme: int, sop: int, mv: tuple[int, int], depth: int) -> float:
    """The score of ``mv`` searched ``depth`` plies deep (full window: exact, not a bound)."""
    nme, nop, nsop = _result(me, op, sop, *mv)
    if HAS_LINE[_ctrl(nme)]:
        return WIN
    if HAS_LINE[_ctrl(nop)]:
        return -WIN + 1
    if depth <= 1:
        return -_evaluate(nop, nme)
    return -search.negamax(nop, nme, nsop, sme, depth - 1, -float("inf"), float("inf"), 1)


def evaluate(state: State, seat: Seat, nodes: int = REVIEW_NODES,
             played: FireIceMove | None = None) -> Evaluation:
    """The hard level's search of ``state`` for ``seat`` (to move) within ``nodes`` search nodes
    (deterministic: no randomness, no clock), and the score of ``played`` at the same depth.

    Raises:
        ValueError: ``seat`` is not to move.
    """
    legal = RULES.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"{'Fire' if seat == 0 else 'Ice'} is not to move.")
    if isinstance(legal[0], Pass):
        return Evaluation(legal[0], 0.0, 0, 0.0 if played is not None else None)
    me, op, sme, sop = _position(state, seat)
    moves = [(m.src, m.dst) for m in legal if isinstance(m, Move)]
    search = _Search(float("inf"), max_nodes=nodes)
    best, depth, score = search.root(me, op, sme, sop, moves, N_POINTS - (me | op).bit_count() + 2)
    search.max_nodes = float("inf")  # the budget was for the choice; a subtree at a known depth is cheap
    if depth >= 1 and abs(score) < WON:  # (a choice changed by an unfinished deeper pass: score it at depth)
        score = _exact(search, me, op, sme, sop, best, depth)
    mine: float | None = None
    if isinstance(played, Move):
        mine = score if (played.src, played.dst) == best else _exact(search, me, op, sme, sop,
                                                                      (played.src, played.dst), depth)
    return Evaluation(Move(*best), score, depth, mine)


__all__ = ["HARD_BUDGET", "LEVELS", "MAX_BUDGET", "REVIEW_NODES", "WON", "Evaluation", "choose", "evaluate"]
