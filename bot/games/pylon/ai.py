"""Computer opponents for Pylon: ``easy``, ``medium`` and ``hard``.

* ``easy`` plays a uniformly random legal move.
* ``medium`` is greedy one ply on the score: in the stacking phase it takes the
  stacking that improves its score the most; among equal gains it prefers
  one that does not leave its new stack where an opponent stack can cover
  it, then picks at random. Every placement scores the same, so it places
  at random.
* ``hard`` searches. In the stacking phase: iterative-deepening alpha-beta
  (negamax with a transposition table, capture-first move ordering and a
  capture quiescence search) until a time budget runs out; endgames are
  solved exactly. In the placement phase its placement heuristic is a
  Monte Carlo estimate: every legal placement is judged by the mean final
  margin of quick playouts (the rest of the placement at random, then both
  sides stacking like ``medium``), and successive halving spends the time
  budget on the placements that keep looking best.

Search works on four flat lists per square instead of the state's tuples:
height, owner of the top pyramid, top size and bottom size. That is all a
stacking needs, because stacks are always ordered large-to-small (the
bottom never changes while a square is occupied; the top only shrinks).

The AI may read the clock (``time.perf_counter``) to honour its budget; the
rules never do.
"""

from __future__ import annotations

import random
import time
from typing import Final

from bot.games.base import Seat
from bot.games.pylon.notation import AGREE, NEIGHBOURS, SQUARES, Agree, Move, Placement, Stacking
from bot.games.pylon.rules import RULES, PylonState, can_agree, is_over, scores

LEVELS: Final = ("easy", "medium", "hard")
HARD_BUDGET: Final = 1.0
"""Seconds ``hard`` thinks per move by default (it answers well inside 2 s)."""

_PAIRS: Final = tuple((src, dst) for src in range(SQUARES) for dst in sorted(NEIGHBOURS[src]))
_STACKING: Final = {(a, b): Stacking(a, b) for a, b in _PAIRS}
_WIN: Final = 100
_INF: Final = 10_000
_QDEPTH: Final = 6


class _Timeout(Exception):
    """The search ran out of time."""


def _arrays(s: PylonState) -> tuple[list[int], list[int], list[int], list[int]]:
    h = [len(st) for st in s.board]
    top = [st[-1][0] if st else -1 for st in s.board]
    ts = [st[-1][1] if st else 0 for st in s.board]
    bs = [st[0][1] if st else 9 for st in s.board]
    return h, top, ts, bs


def _non_agree(s: PylonState, seat: Seat) -> list[Move]:
    return [m for m in RULES.legal_moves(s, seat) if not isinstance(m, Agree)]


# --- easy and medium ------------------------------------------------------------------------------------

def _easy(s: PylonState, seat: Seat, rng: random.Random) -> Move:
    return rng.choice(_non_agree(s, seat))


def _greedy_stacking(h: list[int], top: list[int], ts: list[int], bs: list[int], me: int,
                     rng: random.Random) -> tuple[int, int] | None:
    """The stacking that gains ``me`` the most pyramids now (``None`` if there is none).

    Among equal gains it prefers a move that does not leave its own new stack
    next to an opponent stack able to cover it; remaining ties are random.
    """
    best = (-_INF, 0)
    choices: list[tuple[int, int]] = []
    for x, y in _PAIRS:
        if h[x] and h[y] and bs[x] <= ts[y]:
            tx, ty = top[x], top[y]
            gain = 0 if tx == ty else (h[y] if tx == me else -h[y])
            risk = 0
            if tx == me:
                tsx = ts[x]
                for n in NEIGHBOURS[y]:
                    if n != x and h[n] and top[n] != me and bs[n] <= tsx:
                        risk = -1
                        break
            key = (gain, risk)
            if key > best:
                best, choices = key, [(x, y)]
            elif key == best:
                choices.append((x, y))
    return rng.choice(choices) if choices else None


def _medium(s: PylonState, seat: Seat, rng: random.Random) -> Move:
    if s.is_placement:
        return rng.choice(_non_agree(s, seat))
    h, top, ts, bs = _arrays(s)
    pick = _greedy_stacking(h, top, ts, bs, seat, rng)
    assert pick is not None
    return _STACKING[pick]


# --- hard: stacking search ------------------------------------------------------------------------------

_ZR = random.Random(20051125)
_ZOBRIST: Final = [[_ZR.getrandbits(64) for _ in range(31 * 2 * 4 * 4)] for _ in range(SQUARES)]
_ZSIDE: Final = _ZR.getrandbits(64)


def _code(h: int, top: int, ts: int, bs: int) -> int:
    return ((h * 2 + top) * 4 + ts) * 4 + bs if h else 0


class _Search:
    """Negamax alpha-beta over the stacking phase on flat arrays (mutated and restored in place)."""

    def __init__(self, s: PylonState, deadline: float) -> None:
        self.h, self.top, self.ts, self.bs = _arrays(s)
        sc = scores(s)
        self.margin0 = sc[0] - sc[1]           # seat 0's lead
        self.deadline = deadline
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        key = 0
        for i in range(SQUARES):
            if self.h[i]:
                key ^= _ZOBRIST[i][_code(self.h[i], self.top[i], self.ts[i], self.bs[i])]
        self.key = key

    def moves(self) -> list[tuple[int, int]]:
        h, ts, bs = self.h, self.ts, self.bs
        return [(x, y) for x, y in _PAIRS if h[x] and h[y] and bs[x] <= ts[y]]

    def make(self, x: int, y: int) -> tuple[int, int, int, int, int, int]:
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        hx, tx, tsx, hy, ty, tsy = h[x], top[x], ts[x], h[y], top[y], ts[y]
        z = _ZOBRIST
        self.key ^= (z[x][_code(hx, tx, tsx, bs[x])] ^ z[y][_code(hy, ty, tsy, bs[y])]
                     ^ z[y][_code(hx + hy, tx, tsx, bs[y])] ^ _ZSIDE)
        if tx != ty:
            self.margin0 += 2 * hy if tx == 0 else -2 * hy
        h[y] = hx + hy
        top[y] = tx
        ts[y] = tsx
        h[x] = 0
        top[x] = -1
        return hx, tx, tsx, hy, ty, tsy

    def unmake(self, x: int, y: int, saved: tuple[int, int, int, int, int, int]) -> None:
        hx, tx, tsx, hy, ty, tsy = saved
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        z = _ZOBRIST
        self.key ^= (z[x][_code(hx, tx, tsx, bs[x])] ^ z[y][_code(hy, ty, tsy, bs[y])]
                     ^ z[y][_code(hx + hy, tx, tsx, bs[y])] ^ _ZSIDE)
        if tx != ty:
            self.margin0 -= 2 * hy if tx == 0 else -2 * hy
        h[x] = hx
        top[x] = tx
        ts[x] = tsx
        h[y] = hy
        top[y] = ty
        ts[y] = tsy

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise _Timeout

    def _final(self, side: int) -> int:
        m = self.margin0 if side == 0 else -self.margin0
        return m + _WIN if m > 0 else (m - _WIN if m < 0 else 0)

    def _ordered(self, moves: list[tuple[int, int]], side: int,
                 first: tuple[int, int] | None) -> list[tuple[int, int]]:
        top, h = self.top, self.h

        def key(m: tuple[int, int]) -> int:
            if m == first:
                return -1000
            tx, ty = top[m[0]], top[m[1]]
            if tx == ty:
                return 0
            return -h[m[1]] if tx == side else h[m[1]]
        return sorted(moves, key=key)

    def quiesce(self, side: int, alpha: int, beta: int, qdepth: int) -> int:
        self._tick()
        moves = self.moves()
        if not moves:
            return self._final(side)
        stand = self.margin0 if side == 0 else -self.margin0
        if stand >= beta or qdepth == 0:
            return stand
        alpha = max(alpha, stand)
        top, h = self.top, self.h
        caps = [m for m in moves if top[m[0]] == side and top[m[1]] != side]
        caps.sort(key=lambda m: -h[m[1]])
        for x, y in caps:
            saved = self.make(x, y)
            v = -self.quiesce(1 - side, -beta, -alpha, qdepth - 1)
            self.unmake(x, y, saved)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha

    def negamax(self, depth: int, side: int, alpha: int, beta: int) -> int:
        self._tick()
        entry = self.tt.get(self.key)
        first = None
        if entry is not None:
            d, v, flag, first = entry
            if d >= depth:
                if flag == 0:
                    return v
                if flag == 1 and v >= beta:
                    return v
                if flag == -1 and v <= alpha:
                    return v
        moves = self.moves()
        if not moves:
            return self._final(side)
        if depth == 0:
            return self.quiesce(side, alpha, beta, _QDEPTH)
        alpha0 = alpha
        best = -_INF
        best_move = None
        for x, y in self._ordered(moves, side, first):
            saved = self.make(x, y)
            v = -self.negamax(depth - 1, 1 - side, -beta, -alpha)
            self.unmake(x, y, saved)
            if v > best:
                best, best_move = v, (x, y)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        self.tt[self.key] = (depth, best, flag, best_move)
        return best

    def root(self, side: int, rng: random.Random) -> tuple[tuple[int, int], int, int]:
        """Iterative deepening until the deadline: (best move, its value, depth completed)."""
        moves = self.moves()
        rng.shuffle(moves)
        best, best_v, done = self._ordered(moves, side, None)[0], -_INF, 0
        depth = 1
        while depth <= 40:
            try:
                alpha, cur, cur_v = -_INF, best, -_INF
                for x, y in self._ordered(moves, side, best):
                    saved = self.make(x, y)
                    try:
                        v = -self.negamax(depth - 1, 1 - side, -_INF, -alpha)
                    finally:
                        self.unmake(x, y, saved)
                    if v > cur_v:
                        cur, cur_v = (x, y), v
                        alpha = max(alpha, v)
            except _Timeout:
                break
            best, best_v, done = cur, cur_v, depth
            if depth >= self._remaining_bound():
                break  # solved: every line was searched to the end of the game
            depth += 1
        return best, best_v, done

    def _remaining_bound(self) -> int:
        return sum(1 for x in self.h if x) - 1


def _hard_stacking(s: PylonState, seat: Seat, rng: random.Random, budget: float) -> tuple[Move, int]:
    search = _Search(s, time.perf_counter() + budget)
    (x, y), value, _ = search.root(seat, rng)
    return _STACKING[(x, y)], value


# --- hard: placement ------------------------------------------------------------------------------------

def _playout(s: PylonState, first: Placement, seat: Seat, rng: random.Random) -> int:
    """Seat's final margin after ``first`` and a quick game: random placements, then greedy stacking."""
    board = [st[-1] if st else None for st in s.board]
    stash = [list(s.stash[0]), list(s.stash[1])]
    board[first.square] = (seat, first.size)
    stash[seat][first.size - 1] -= 1
    empty = [i for i, p in enumerate(board) if p is None]
    turn = 1 - seat
    rng.shuffle(empty)
    while empty:
        sizes = [z for z in (1, 2, 3) if stash[turn][z - 1]]
        z = rng.choice(sizes)
        sq = empty.pop()
        board[sq] = (turn, z)
        stash[turn][z - 1] -= 1
        turn = 1 - turn
    h = [1] * SQUARES
    full: list[tuple[int, int]] = []
    for p in board:
        assert p is not None  # every square is filled by now
        full.append(p)
    top = [p[0] for p in full]
    ts = [p[1] for p in full]
    bs = list(ts)
    side = 1
    while True:
        pick = _greedy_stacking(h, top, ts, bs, side, rng)
        if pick is None:
            break
        x, y = pick
        h[y] += h[x]
        top[y] = top[x]
        ts[y] = ts[x]
        h[x] = 0
        side = 1 - side
    sc = [0, 0]
    for i in range(SQUARES):
        if h[i]:
            sc[top[i]] += h[i]
    return sc[seat] - sc[1 - seat]


def _hard_placement(s: PylonState, seat: Seat, rng: random.Random, budget: float) -> Move:
    """Successive halving over every placement, judged by the mean margin of quick playouts."""
    deadline = time.perf_counter() + budget
    start = time.perf_counter()
    cands: list[Placement] = [m for m in _non_agree(s, seat) if isinstance(m, Placement)]
    rng.shuffle(cands)
    totals = dict.fromkeys(cands, 0.0)
    counts = dict.fromkeys(cands, 0)
    for m in cands:  # one pass to learn how fast playouts are
        totals[m] += _playout(s, m, seat, rng)
        counts[m] += 1
    per_playout = (time.perf_counter() - start) / len(cands)
    while len(cands) > 1:
        left = deadline - time.perf_counter()
        rounds = max(1, (len(cands) - 1).bit_length())
        each = int(left / per_playout / rounds / len(cands))
        if each < 1:
            break
        late = False
        for m in cands:
            for i in range(each):
                if not i & 7 and time.perf_counter() > deadline:
                    late = True  # the machine got slower than the first pass suggested
                    break
                totals[m] += _playout(s, m, seat, rng)
                counts[m] += 1
            if late:
                break
        cands.sort(key=lambda m: -totals[m] / counts[m])
        if late:
            break
        cands = cands[:max(1, len(cands) // 2)]
    return max(cands, key=lambda m: totals[m] / counts[m])


# --- entry points ---------------------------------------------------------------------------------------

def choose(state: PylonState, seat: Seat, rng: random.Random, level: str, *,
           budget: float | None = None) -> Move:
    """The computer's move for ``seat`` at ``level`` (``easy``, ``medium`` or ``hard``).

    ``budget`` (seconds, ``hard`` only) defaults to :data:`HARD_BUDGET`. When
    the opponent has agreed to end, the computer agrees too if ending now is at
    least as good for it as playing on (it never offers first).

    Raises:
        ValueError: unknown level, or ``seat`` has no move (not its turn, or the game is over).
    """
    if level not in LEVELS:
        raise ValueError(f"Pylon AI level must be one of {', '.join(LEVELS)}, not {level!r}.")
    if is_over(state) or seat != state.to_move:
        raise ValueError(f"Pylon AI: seat {seat} has no move to make now.")
    budget = HARD_BUDGET if budget is None else budget
    if not state.is_placement and state.agreed[1 - seat] and wants_to_agree(state, seat, rng, level,
                                                                            budget=budget / 2):
        return AGREE
    if level == "easy":
        return _easy(state, seat, rng)
    if level == "medium":
        return _medium(state, seat, rng)
    if state.is_placement:
        return _hard_placement(state, seat, rng, budget)
    only = _non_agree(state, seat)
    if len(only) == 1:
        return only[0]  # nothing to think about
    move, _ = _hard_stacking(state, seat, rng, budget)
    return move


def wants_to_agree(state: PylonState, seat: Seat, rng: random.Random, level: str, *,
                   budget: float | None = None) -> bool:
    """Whether the computer playing ``seat`` accepts ending the game now.

    ``easy`` and ``medium`` accept when they are not behind; ``hard`` accepts
    when its search does not expect to do better by playing on. The platform
    asks this when a human agrees while the computer is not to move.
    """
    if not can_agree(state, seat):
        return False
    sc = scores(state)
    lead = sc[seat] - sc[1 - seat]
    if level != "hard":
        return lead >= 0
    now = lead + _WIN if lead > 0 else (lead - _WIN if lead < 0 else 0)
    mover = state.to_move
    _, value = _hard_stacking(state, mover, rng, HARD_BUDGET / 2 if budget is None else budget)
    expected = value if mover == seat else -value
    return now >= expected
