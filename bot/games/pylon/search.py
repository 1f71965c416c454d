"""Pylon's deterministic game-tree search (the ``hard`` level).

One negamax alpha-beta covers the stacking phase and the last placements (when few squares are left
empty the placements are searched too, across the start of stacking). It is iterative deepening with
a transposition table, principal-variation search (every move after the first is first tried with a
null window, about 15% fewer nodes to the same depth), move ordering (the table's move, captures
biggest first, killer moves, a history table) and a capture quiescence search. It stops on a **node
budget**, so a given position and budget always give the same move whatever the machine's load; a
wall-clock cap is only a safety net (``cap`` seconds, checked every 256 nodes). Once every line of an
iteration reaches the end of the game the value is exact and the search stops (the endgame solver is
the same search run to the end; the evaluation then never applies).

Evaluation (side to move's view, in half-pyramids): a **learned** one, ``2 × weights · features``
(:data:`FEATURES`): the margin; the margin in *locked* stacks (no neighbour has a bottom pyramid small
enough to go onto its top: bottoms never change, tops only shrink and vacated squares stay empty, so a
locked stack stays its owner's unless it moves itself); the pyramids each side could capture next
(its stack onto an opponent's), in all and the biggest single capture; stacks per side; the margin
by the size of the top pyramid; each side's legal stackings (mobility); and stacks with a small bottom
(the only ones that can climb onto a small top). The weights are a ridge regression of the exact final
margin on these features over positions at 17-21 stacks that the search solved exactly
(``bench/pylon_fit.py``): their sign agrees with the exact result in 81% of positions, against 75% for
the older ``2 × margin + locked margin`` after quiescence (kept behind :data:`LEARNED` for
comparison). In self-play at a fifth of the work the learned evaluation scored 73% against the older
one at equal nodes and 58-66% at equal time. Finished games score ``±WIN + 2 × margin`` so that any
win beats any non-win.

A refit for the start of stacking is kept behind :data:`STAGED` (off): the weights move linearly from
:data:`WEIGHTS` at 18 stacks to :data:`WEIGHTS_EARLY` at 30 (and in the placements the search sees).
:data:`WEIGHTS_EARLY` is a ridge regression, with the weights at 18 stacks held at :data:`WEIGHTS`, of the
final margin of games played on by ``hard`` at a tenth of its work from 10,440 positions at 16-30 stacks
(696 games; ``bench/pylon_fit.py --early``). At 26-30 stacks its correlation with the outcome is 0.42
(cross-validated by game) against 0.36 for :data:`WEIGHTS`, and a 5,000-node search's value at the start
of stacking correlates 0.39 against 0.34. In play it is not proven: against MCTS-2,000 at a fifth of the
work it scored 78% and 81% of the points in two 40-game runs (seeds 5 and 6) against 69% and 70%
without, but against MCTS-10,000 at full work it scored no more than without: 14 won, 3 drawn, 9 lost
in 26 games (60%), against 60% in 40 games without. Paired on the same positions (``vs_mcts.py --fork 28``,
20 games of seed 3 each played on from the 29th placement with and without it) it scored 60% against 55%:
+5% of the points (95% interval -5% to +15%), +0.4 pyramids a game. Since the placement playouts end judged
by this evaluation (``ai.PLAYOUT_QDEPTH``), it also judges every playout's full board: measured so (stop 51,
``vs_mcts.py --seed 9 --set search.STAGED=true``, 40 games) it scored 61% of the points against MCTS-10,000
(W 22 D 5 L 13, 95% interval 46-75%; 38% as the first placer, 85% as the second), where the same 40 games
without it scored 72% (W 26 D 6 L 8): -11% of the points game by game (95% interval -28% to +5%). So it stays
off.

A position met again through another move order reuses its board scan (keyed by the zobrist key
and the side; about a fifth of the leaves at the start of stacking). Once the board is full a stack's
bottom never changes, so the scan walks per square and top size only the neighbours whose bottom fits
(:func:`reach_lists`, built once), and a leaf learns from that scan whether the game is over instead of
listing its moves; with the zobrist update written out in :meth:`Search.make` (and undone from the saved
difference) the same search runs about 1.2 times as fast as at stop 41, with the same moves, values and
nodes (``bench/pylon_search_rate.py --compare``). Where the package was built with a C compiler, the
board scan, the capture quiescence (:data:`QUIESCE`, with the leaf's game-over test), the move list, the
move order and, once the board is full, the whole negamax (:data:`NEGAMAX`: its table, killers and history
in C, one context per search) run compiled (``_scan.c``), with the same values, node counts and moves
(``tests/games/pylon/test_boardscan_compiled.py``): about 2.7 million nodes a second at the start of stacking
against 70,000 in pure Python (``bench/pylon_search_rate.py --python``; 500,000 when only the scan and the
quiescence were compiled).

Tried and left out: late-move reductions (quiet stackings after the third searched a ply shallower first)
with a quiescence that tries only the two biggest captures. At 140,000 nodes that reached a ply deeper at
the start of stacking in 4 of 6 positions, but against MCTS-10,000 it lost points: paired on the same 20
positions (``vs_mcts.py --seed 3 --fork 28``) it scored 50% where this search scored 57%, -8% of the points
a game (95% interval -18% to +3%), -1.3 pyramids a game; in self-play 52% over 40 games. Depth bought by
pruning is not the depth that five times the nodes buys (``ai.LEVEL_WORK``).

Positions are four flat lists per square (height, owner of the top, top size, bottom size) plus the
two stashes, mutated and restored in place; moves are small ints (stacking ``x * 32 + y``,
placement ``PLACE + size * 32 + square``).
"""

from __future__ import annotations

import random
import time
from typing import Final

from bot.games.pylon.boardscan import Folded, reach_lists, scan, scan_full, stacking_search
from bot.games.pylon.boardscan import order as compiled_order
from bot.games.pylon.boardscan import quiesce as compiled_quiesce
from bot.games.pylon.boardscan import stackings as compiled_stackings
from bot.games.pylon.notation import NEIGHBOURS, SQUARES
from bot.games.pylon.rules import PIECES, PylonState

WIN: Final = 1000
INF: Final = 100_000
PLACE: Final = 4096
_QDEPTH: Final = 4
LOCK_WEIGHT = 1
"""Half-pyramids the older evaluation adds per pyramid in a locked stack (0: the plain margin)."""
FEATURES: Final = ("margin", "locked", "cap_me", "cap_them", "maxcap_me", "maxcap_them", "nst", "top3",
                   "top2", "top1", "mob", "bot1")
"""The learned evaluation's features, from the side to move's view (``me``: that side, ``them``: the other):
margin, margin in locked stacks, pyramids each could capture next (all, and the biggest stack), stacks,
margin under large / medium / small tops, legal stackings, small-bottomed stacks."""
WEIGHTS: list[float] = [0.670, 0.262, 0.541, -0.729, 1.058, 0.363, -0.471, 0.193, 0.335, 0.141, 0.367, 0.565]
"""The learned evaluation's weights, one per feature, in pyramids of final margin (fitted: see the module
docstring)."""
LEARNED = True
"""Whether :meth:`Search.evaluate` is the learned evaluation (``False``: the locked-stack evaluation)."""
PVS = True
"""Whether the search tries moves after the first with a null window (same values, fewer nodes)."""
QUIESCE = compiled_quiesce
"""The compiled capture quiescence on a full board (the same values and nodes as :meth:`Search.quiesce`'s own
Python), where the package was built with it; ``None``: the Python one."""
STACKINGS = compiled_stackings
"""The compiled :meth:`Search.stackings` (the same list), or ``None``."""
ORDER = compiled_order
NEGAMAX = stacking_search
"""The compiled :meth:`Search.negamax` once the board is full (the same moves, values and nodes), or
``None``."""
"""The compiled sort of :meth:`Search._order` (the same order), or ``None``."""


STAGED = False
"""Whether the weights blend from :data:`WEIGHTS` to :data:`WEIGHTS_EARLY` across :data:`EARLY_SPAN`
(measured, not proven: see the module docstring; a bench switches it on with ``--set search.STAGED=true``)."""
WEIGHTS_EARLY: list[float] = [
    0.161, 0.329, 0.153, 0.023, 0.358, -0.505, 0.690, -0.479, 0.100, 0.539, 0.082, 1.102]
"""The learned evaluation's weights at the start of stacking (30 stacks), also used in the placements the
search sees, when :data:`STAGED`; fitted on the outcomes of games played on from positions at 16-30 stacks
(see the module docstring)."""
EARLY_SPAN: tuple[int, int] = (18, 30)
"""Stack counts from which the weights start to move away from :data:`WEIGHTS`, and at which they are
:data:`WEIGHTS_EARLY`."""

def weights_at(stacks: int) -> list[float]:
    """The learned evaluation's weights (one per feature, in pyramids) on a full board of ``stacks`` stacks
    (``PIECES`` for a position still in placement)."""
    if not STAGED:
        return list(WEIGHTS)
    lo, hi = EARLY_SPAN
    t = min(1.0, max(0.0, (stacks - lo) / (hi - lo)))
    return [(1 - t) * a + t * b for a, b in zip(WEIGHTS, WEIGHTS_EARLY, strict=True)]


_TABLES: dict[tuple[object, ...], list[Folded]] = {}


def _table() -> list[Folded]:
    """Per stack count 0..PIECES, the weights doubled (half-pyramids) with the margin folded into the size
    terms, as :func:`scan` reads them; rebuilt when the weights above change (benches set them)."""
    k = (tuple(WEIGHTS), STAGED and tuple(WEIGHTS_EARLY), tuple(EARLY_SPAN))
    table = _TABLES.get(k)
    if table is None:
        table = []
        for n in range(PIECES + 1):
            w2 = [2 * x for x in weights_at(n)]
            table.append((w2, (0.0, w2[0] + w2[9], w2[0] + w2[8], w2[0] + w2[7])))
        _TABLES.clear()
        _TABLES[k] = table
    return table


def weight_table() -> list[Folded]:
    """Per stack count 0..PIECES, the folded weights (:func:`folded_weights`), as the compiled code reads
    them."""
    return _table()


def folded_weights(stacks: int) -> Folded:
    """The evaluation's weights on a full board of ``stacks`` stacks, as :func:`scan` reads them."""
    return _table()[stacks]


_NB: Final = NEIGHBOURS  # ascending, as the move order below expects
_PAIRS: Final = tuple((x, y) for x in range(SQUARES) for y in _NB[x])

_ZR = random.Random(20251126)
_Z: Final = [[_ZR.getrandbits(64) for _ in range(64 * 2 * 4 * 4)] for _ in range(SQUARES)]


def _code(h: int, top: int, ts: int, bs: int) -> int:
    return ((h * 2 + top) * 4 + ts) * 4 + bs  # (Search.make writes it out inline)


class OutOfBudget(Exception):
    """The node budget or the time cap ran out."""


class Search:
    """Alpha-beta over a Pylon position (see the module docstring)."""

    def __init__(self, s: PylonState, nodes: int, cap: float) -> None:
        self.h = [len(st) for st in s.board]
        self.top = [st[-1][0] if st else -1 for st in s.board]
        self.ts = [st[-1][1] if st else 0 for st in s.board]
        self.placed = s.placed
        # an empty square's bottom reads 0 during placement (any pyramid may still arrive there) and 9
        # once the board is full (a vacated square stays empty): the lock test needs no height check
        self.bs = [st[0][1] if st else (0 if s.is_placement else 9) for st in s.board]
        self.stash = [list(s.stash[0]), list(s.stash[1])]
        self.margin0 = 0
        key = 0
        for i in range(SQUARES):
            if self.h[i]:
                self.margin0 += self.h[i] if self.top[i] == 0 else -self.h[i]
                key ^= _Z[i][_code(self.h[i], self.top[i], self.ts[i], self.bs[i])]
        self.key = key
        self.stacks = sum(1 for x in self.h if x)
        self.budget = nodes
        self.deadline = time.perf_counter() + cap
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int, bool]] = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        self.scans: dict[int, tuple[int, bool, list[int]]] = {}
        self.exact = True
        self.table = _table()
        self.reach = reach_lists(self.bs) if self.placed == PIECES else None
        self.ctx: object | None = None  # the compiled stacking search's context, made at its first node

    # --- moves ---------------------------------------------------------------------------------------

    def stackings(self) -> list[int]:
        h, ts, bs = self.h, self.ts, self.bs
        if STACKINGS is not None:
            return STACKINGS(h, ts, bs, _NB)
        out = []
        for x in range(SQUARES):
            if h[x]:
                b = bs[x]
                for y in _NB[x]:
                    if h[y] and b <= ts[y]:
                        out.append(x * 32 + y)
        return out

    def placements(self, side: int) -> list[int]:
        st = self.stash[side]
        empty = [i for i in range(SQUARES) if not self.h[i]]
        return [PLACE + z * 32 + sq for z in (3, 2, 1) if st[z - 1] for sq in empty]

    def moves(self, side: int) -> list[int]:
        return self.placements(side) if self.placed < PIECES else self.stackings()

    def make(self, m: int, side: int) -> tuple[int, ...]:
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        if m >= PLACE:
            z, sq = divmod(m - PLACE, 32)
            h[sq], top[sq], ts[sq], bs[sq] = 1, side, z, z
            self.stash[side][z - 1] -= 1
            self.placed += 1
            if self.placed == PIECES:
                for i in range(SQUARES):
                    if not h[i]:
                        bs[i] = 9
                self.reach = reach_lists(bs)
            self.stacks += 1
            self.margin0 += 1 if side == 0 else -1
            self.key ^= _Z[sq][_code(1, side, z, z)]
            return ()
        x, y = m >> 5, m & 31
        hx, tx, tsx, hy, ty, tsy = h[x], top[x], ts[x], h[y], top[y], ts[y]
        zy, by = _Z[y], bs[y]  # the codes of _code, inline: h * 32 + top * 16 + ts * 4 + bs
        delta = (_Z[x][hx * 32 + tx * 16 + tsx * 4 + bs[x]] ^ zy[hy * 32 + ty * 16 + tsy * 4 + by]
                 ^ zy[(hx + hy) * 32 + tx * 16 + tsx * 4 + by])
        self.key ^= delta
        if tx != ty:
            self.margin0 += 2 * hy if tx == 0 else -2 * hy
        h[y] = hx + hy
        top[y] = tx
        ts[y] = tsx
        h[x] = 0
        top[x] = -1
        ts[x] = 0
        bx = bs[x]
        bs[x] = 9
        self.stacks -= 1
        return hx, tx, tsx, hy, ty, tsy, bx, delta

    def unmake(self, m: int, side: int, saved: tuple[int, ...]) -> None:
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        if m >= PLACE:
            z, sq = divmod(m - PLACE, 32)
            self.key ^= _Z[sq][_code(1, side, z, z)]
            h[sq], top[sq], ts[sq], bs[sq] = 0, -1, 0, 0
            if self.placed == PIECES:
                for i in range(SQUARES):
                    if not h[i]:
                        bs[i] = 0
                self.reach = None
            self.stash[side][z - 1] += 1
            self.placed -= 1
            self.stacks -= 1
            self.margin0 -= 1 if side == 0 else -1
            return
        x, y = m >> 5, m & 31
        hx, tx, tsx, hy, ty, tsy, bs[x], delta = saved
        self.key ^= delta
        if tx != ty:
            self.margin0 -= 2 * hy if tx == 0 else -2 * hy
        h[x], top[x], ts[x] = hx, tx, tsx
        h[y], top[y], ts[y] = hy, ty, tsy
        self.stacks += 1

    # --- values --------------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.budget or (not self.nodes & 255 and time.perf_counter() > self.deadline):
            raise OutOfBudget

    def final(self, side: int) -> int:
        m = self.margin0 if side == 0 else -self.margin0
        return 2 * m + (WIN if m > 0 else (-WIN if m < 0 else 0))

    def evaluate(self, side: int) -> int:
        """``2 × margin + locked margin`` for ``side`` (a heuristic: the game goes on)."""
        if LEARNED:
            return self.evaluate_learned(side)
        self.exact = False
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        locked = 0
        for y in range(SQUARES):
            hy = h[y]
            if hy:
                t = ts[y]
                for n in _NB[y]:
                    if bs[n] <= t:
                        break
                else:
                    locked += hy if top[y] == 0 else -hy
        v = 2 * self.margin0 + LOCK_WEIGHT * locked
        return v if side == 0 else -v

    def features(self, side: int) -> list[int]:
        """The learned evaluation's features, from ``side``'s view (see :data:`FEATURES`)."""
        h, top, ts, bs = self.h, self.top, self.ts, self.bs
        margin = locked = cap_me = cap_them = maxcap_me = maxcap_them = nst = 0
        t3 = t2 = t1 = mob = bot1 = 0
        for y in range(SQUARES):
            hy = h[y]
            if not hy:
                continue
            o = top[y]
            sg = 1 if o == side else -1
            t = ts[y]
            margin += sg * hy
            nst += sg
            if t == 3:
                t3 += sg * hy
            elif t == 2:
                t2 += sg * hy
            else:
                t1 += sg * hy
            if bs[y] == 1:
                bot1 += sg
            b = bs[y]
            reach = cap = False
            moves = 0
            for n in _NB[y]:
                if bs[n] <= t:
                    reach = True
                    if h[n] and top[n] != o:
                        cap = True
                if h[n] and b <= ts[n]:
                    moves += 1
            mob += sg * moves
            if not reach:
                locked += sg * hy
            if cap:
                if o == side:
                    cap_them += hy
                    if hy > maxcap_them:
                        maxcap_them = hy
                else:
                    cap_me += hy
                    if hy > maxcap_me:
                        maxcap_me = hy
        return [margin, locked, cap_me, cap_them, maxcap_me, maxcap_them, nst, t3, t2, t1, mob, bot1]

    def evaluate_learned(self, side: int) -> int:
        """``2 × weights_at(stacks) · features(side)``, rounded: the same sum as :meth:`features`, folded for
        speed."""
        return self.scan(side, None)[0]

    def scan(self, side: int, caps: list[int] | None) -> tuple[int, bool]:
        """One pass over the board: the learned evaluation for ``side`` and whether any stacking is left;
        ``side``'s captures (its stack onto an opponent's) are appended to ``caps`` if it is given."""
        self.exact = False
        k = self.key ^ side  # the zobrist key holds every square's code, all that scan reads
        hit = self.scans.get(k)
        if hit is None:
            found: list[int] = []
            if self.reach is not None:
                value, anymove = scan_full(self.h, self.top, self.ts, self.bs, side, found, self.weights(),
                                           self.reach)
            else:
                value, anymove = scan(self.h, self.top, self.ts, self.bs, side, found, self.weights())
            hit = self.scans[k] = (value, anymove, found)
        if caps is not None:
            caps.extend(hit[2])
        return hit[0], hit[1]

    def weights(self) -> Folded:
        """The folded weights for the current position (its stack count; in placement, the earliest)."""
        return self.table[self.stacks if self.placed == PIECES else PIECES]

    # --- search --------------------------------------------------------------------------------------

    def _order(self, moves: list[int], side: int, first: int, ply: int) -> list[int]:
        top, h = self.top, self.h
        killers = self.killers.get(ply, ())
        hist = self.history
        if self.ctx is not None and NEGAMAX is not None and self._compiled_stacking():
            hist = NEGAMAX.history(self.ctx)  # the stacking nodes' counts are kept in C
        if ORDER is not None:
            return ORDER(moves, top, h, side, first, killers, hist, PLACE)

        def key(m: int) -> int:
            if m == first:
                return -1_000_000
            if m >= PLACE:
                return -hist.get(m, 0)
            x, y = m >> 5, m & 31
            tx, ty = top[x], top[y]
            if tx == side and ty != side:
                return -100_000 - h[y]           # a capture, biggest first
            if m in killers:
                return -50_000
            if tx != side and ty == side:
                return 50_000 + h[y]             # handing over one's own stack: last
            return -hist.get(m, 0)
        return sorted(moves, key=key)

    def _compiled_quiesce(self, side: int, alpha: int, beta: int, q: int, leaf: bool) -> int | None:
        """:meth:`quiesce` compiled (``leaf``: with the leaf's game-over test first), or ``None`` where it
        does not apply (not compiled, in placement, or the older evaluation)."""
        if QUIESCE is None or self.placed != PIECES or not LEARNED or self.reach is None:
            return None
        v, self.nodes, status = QUIESCE(self.h, self.top, self.ts, self.bs, side, alpha, beta, q, self.stacks,
                                        self.table, self.reach, self.nodes, self.budget, self.deadline,
                                        time.perf_counter, WIN, leaf)
        if status == 2:
            raise OutOfBudget
        if status == 0:  # as the scan in quiesce: a heuristic value unless this position is over
            self.exact = False
        return v

    def quiesce(self, side: int, alpha: int, beta: int, q: int) -> int:
        compiled = self._compiled_quiesce(side, alpha, beta, q, False)
        if compiled is not None:
            return compiled
        self._tick()
        if self.placed < PIECES:
            return self.evaluate(side)
        caps: list[int] = []
        exact = self.exact
        stand, anymove = self.scan(side, caps)
        if not anymove:
            self.exact = exact
            return self.final(side)
        if not LEARNED:
            stand = self.evaluate(side)
        if stand >= beta or q == 0 or not caps:
            return stand
        alpha = max(alpha, stand)
        h = self.h
        caps.sort(key=lambda m: -h[m & 31])
        for m in caps:
            saved = self.make(m, side)
            v = -self.quiesce(1 - side, -beta, -alpha, q - 1)
            self.unmake(m, side, saved)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha

    def _compiled_stacking(self) -> bool:
        """Whether this position's subtree is searched by the compiled :data:`NEGAMAX` (a full board)."""
        return NEGAMAX is not None and self.placed == PIECES and LEARNED

    def negamax(self, depth: int, side: int, alpha: int, beta: int, ply: int) -> int:
        if NEGAMAX is not None and self.reach is not None and self._compiled_stacking():
            if self.ctx is None:
                self.ctx = NEGAMAX.new_context()
            v, self.nodes, status, self.exact = NEGAMAX.negamax(
                self.h, self.top, self.ts, self.bs, side, alpha, beta, depth, ply, self.stacks, self.key,
                self.table, self.reach, _Z, self.nodes, self.budget, self.deadline, time.perf_counter, WIN,
                _QDEPTH, PVS, INF, self.ctx, self.exact, _NB)
            if status == 2:
                raise OutOfBudget
            return v
        self._tick()
        entry = self.tt.get(self.key)
        first = -1
        if entry is not None:
            d, v, flag, first, ex = entry
            if d >= depth and (flag == 0 or (flag == 1 and v >= beta) or (flag == -1 and v <= alpha)):
                if not ex:
                    self.exact = False
                return v
        if depth <= 0:  # a leaf: the (cached) scan says whether the game is over, without listing moves
            compiled = self._compiled_quiesce(side, alpha, beta, _QDEPTH, True)
            if compiled is not None:
                return compiled
            if self.placed == PIECES:
                exact = self.exact
                over = not self.scan(side, None)[1]
                self.exact = exact
                if over:
                    return self.final(side)
            return self.quiesce(side, alpha, beta, _QDEPTH)
        moves = self.moves(side)
        if not moves:
            return self.final(side)
        outer, self.exact = self.exact, True
        alpha0 = alpha
        best, best_move = -INF, -1
        pvs = PVS
        for i, m in enumerate(self._order(moves, side, first, ply)):
            saved = self.make(m, side)
            if i and pvs:  # a null window first: most moves only need to be shown no better
                v = -self.negamax(depth - 1, 1 - side, -alpha - 1, -alpha, ply + 1)
                if alpha < v < beta:
                    v = -self.negamax(depth - 1, 1 - side, -beta, -alpha, ply + 1)
            else:
                v = -self.negamax(depth - 1, 1 - side, -beta, -alpha, ply + 1)
            self.unmake(m, side, saved)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if m >= PLACE or not (self.top[m >> 5] == side and self.top[m & 31] != side):
                            ks = self.killers.setdefault(ply, [])
                            if m not in ks:
                                ks.insert(0, m)
                                del ks[2:]
                        self.history[m] = self.history.get(m, 0) + depth * depth
                        break
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        self.tt[self.key] = (depth, best, flag, best_move, self.exact)
        self.exact = outer and self.exact
        return best

    def remaining(self) -> int:
        """An upper bound on the plies left in the game."""
        return (PIECES - self.placed) + max(0, (PIECES if self.placed < PIECES else self.stacks) - 1)

    def root(self, side: int, rng: random.Random) -> tuple[int, int, int, bool]:
        """Iterative deepening: (best move, its value, depth completed, whether the value is exact)."""
        moves = self.moves(side)
        rng.shuffle(moves)  # ties between equal moves fall by the match's seed
        best, best_v, done, exact = self._order(moves, side, -1, 0)[0], -INF, 0, False
        depth = 1
        while depth <= 60:
            self.exact = True
            try:
                alpha, cur, cur_v = -INF, best, -INF
                for m in self._order(moves, side, best, 0):
                    saved = self.make(m, side)
                    try:
                        v = -self.negamax(depth - 1, 1 - side, -INF, -alpha, 1)
                    finally:
                        self.unmake(m, side, saved)
                    if v > cur_v:
                        cur, cur_v = m, v
                        alpha = max(alpha, v)
            except OutOfBudget:
                if cur_v > -INF and depth > 1:
                    best, best_v = cur, cur_v  # a move that beat the previous best in a full window
                break
            best, best_v, done, exact = cur, cur_v, depth, self.exact
            if exact or depth >= self.remaining():
                break  # every line reached the end of the game: the value is exact
            depth += 1
        return best, best_v, done, exact


def search(s: PylonState, side: int, rng: random.Random, nodes: int,
           cap: float) -> tuple[int, int, int, bool]:
    """Best move (as an int) for ``side`` in ``s``, its value, depth reached and exactness."""
    return Search(s, nodes, cap).root(side, rng)
