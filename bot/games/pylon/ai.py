"""Computer opponents for Pylon: ``easy``, ``medium`` and ``hard``.

* ``easy`` plays a uniformly random legal move.
* ``medium`` is greedy one ply on the score: in the stacking phase it takes the
  stacking that improves its score the most; among equal gains it prefers
  one that does not leave its new stack where an opponent stack can cover
  it, then picks at random. Every placement scores the same, so it places
  at random.
* ``hard`` searches a fixed amount of work per move (:data:`LEVEL_WORK`), so its
  move depends only on the position and the match's seed. Stacking, and the
  last :data:`SEARCH_EMPTIES` placements: the deterministic alpha-beta of
  :mod:`bot.games.pylon.search` (iterative deepening, transposition table,
  principal-variation search, move ordering, capture quiescence, an
  evaluation learned from exactly solved positions; endgames are solved
  exactly). Earlier placements: a
  Monte Carlo judge, every legal placement scored by the mean result of
  quick playouts: the rest of the placement at random, then the full board
  judged as the search judges a leaf (its learned evaluation after a short
  capture quiescence, :data:`PLAYOUT_QDEPTH`); successive halving spends a
  fixed number of playouts on the placements that keep looking best. The
  playouts are compiled (``_scan.c``, about 40 µs each) and draw their random
  numbers from SplitMix64, the same generator in C and in Python, so both
  builds play the same games. Without a compiler the playouts are stacked to
  the end instead, both sides like ``medium`` (about 0.4 ms each; the
  judged ending in Python takes about 2 ms). A tree search over the
  placements (UCT, :data:`PLACEMENT`, its leaves judged the same way where
  compiled) is there to measure, not on.

The AI reads the clock (``time.perf_counter``) only for its safety cap
(:data:`TIME_CAP`); the rules never do.

Measured (``bench/vs_mcts.py``, whole games, seats alternating): ``hard`` against MCTS-1,000 won 38, drew 2
and lost none of 40 games (98% of the points, 95% interval 87-100%; seed 5, stop 46; 0.27 s a move on
average, 1.28 s at most); against MCTS-10,000 it won 26, drew 6 and lost 8 of 40 (72%, 95% interval 57-84%;
62% as the first placer, 82% as the second; seed 7, stop 47, on a machine where it took 0.15 s a move on
average, 0.64 s at most), and on seed 8 (stop 50) it won 23, drew 9 and lost 8 (69%, 95% interval 53-81%;
55% as the first placer, 82% as the second; 0.14 s a move on average, 0.60 s at most). Pylon favours the
second placer, who places the last pyramid and stacks first: between two equal ``hard`` players
(``bench/pylon_selfplay.py``, 80 games, seed 16) the second placer won 48, drew 26 and lost 6, 76% of the
points, so a level's points as the first placer say more about the seat than about the level.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from bot.games.base import Seat
from bot.games.pylon.boardscan import Folded, Playouts, Uct
from bot.games.pylon.boardscan import playouts as compiled_playouts
from bot.games.pylon.boardscan import uct as compiled_uct
from bot.games.pylon.notation import AGREE, NEIGHBOURS, SQUARES, Agree, Move, Placement, Stacking
from bot.games.pylon.rules import PIECES, RULES, PylonState, can_agree, is_over, scores
from bot.games.pylon.search import INF, PLACE, WIN, Search, search, weight_table

LEVELS: Final = ("easy", "medium", "hard")
SEARCH_LEVELS: Final = ("hard",)
LEVEL_WORK: Final = {"hard": (3_000_000, 6_500)}
"""Search nodes and placement playouts per move for each searching level.

The nodes are what the search is short of: against MCTS-10,000, five times the 140,000 hard searched until
stop 43 (700,000, then about 7 s a move) from the 29th placement on scored 72% of the points where 140,000
scored 52% on the same positions (``bench/vs_mcts.py --seed 3 --fork 28``, 20 paired games: +20%, 95%
interval +5% to +35%; +2.0 pyramids a game). With the compiled search (``_scan.c``) hard searches 600,000:
on the same 20 positions they scored 60% where 140,000 scored 42%, +18% (95% interval +3% to +32%; +1.6
pyramids a game; stop 43), but about 1.8 s a few stackings later, where the 1.75 s cap often decided.
Since stop 44 the whole stacking search is compiled (about 3 million nodes a second) and hard searches
3,000,000 nodes: about 1.1-1.2 s at the start of stacking and 0.8 s after 6 stackings on one free core
(``bench/pylon_search_rate.py --nodes 3000000 [--after 6]``), so the nodes, not the cap, decide. Measured
(stop 44): in self-play 3,000,000 scored 59% of the points against 600,000 (``bench/pylon_selfplay.py``, 40
games, 95% interval 43-73%, +0.75 pyramids a game); against MCTS-10,000 from the 29th placement on it
scored 58% where 600,000 scored 62% on the same 12 positions (``vs_mcts.py --seed 3 --fork 28``: -4%, 95%
interval -19% to +10%; 3 games with another result). Past 600,000 more nodes gain little against that
yardstick: its games are decided in the placement. Without a compiler (about 70,000 nodes a second) the
cap cuts every stacking move short.

Twice the work (``vs_mcts.py --budget 2 --cap 2``: 6,000,000 nodes, 13,000 playouts; stop 49, seed 7) against
MCTS-10,000 scored the same 72% of the points over 40 games (W 25 D 8 L 7, 95% interval 57-84%; 0.34 s a
move on average, 1.56 s at most): 50% as the first placer (W 7 D 6 L 7, every loss 14-16) and 95% as the
second (W 18 D 2 L 0). The time a move allows is not what hard is short of."""

PLACEMENT = "flat"
"""Hard's placement judge before the searched last placements: ``flat`` (:func:`_mc_placement`) or ``uct``
(:func:`_uct_placement`), with :data:`LEVEL_WORK`'s playouts.

Measured in self-play (``bench/pylon_selfplay.py``, 40 games each, both sides' stacking at 600,000 nodes,
stop 44): the flat judge with 60,000 playouts instead of 6,500 scored 48% of the points (95% interval
33-63%); UCT with 40,000 playouts 57% (42-71%) at c = 1 and 50% at c = 0.5. More playouts of the same
quick games do not judge better: their greedy stacking is not how the game is played. So ``flat`` at
6,500 stays (about 0.1 s a move, compiled).

With the judged playouts (:data:`PLAYOUT_QDEPTH`, stop 46, both sides' stacking at 3,000,000 nodes, 80 games
each): UCT with 20,000 judged playouts (c = 1, :data:`UCT_SCALE` 6; about 0.5 s a placement) scored 51% of
the points against the shipped flat 6,500 (W 32 D 18 L 30, 95% interval 40-62%, seed 15), with
:data:`UCT_SCALE` 2 54% (W 32 D 22 L 26, 43-64%, seed 18), and the flat judge with 13,000 scored 54% (W 39
D 8 L 33, 43-64%, seed 14). The flat judge scoring each judged playout ``tanh(v / 2)`` instead of its value
``v`` (closer to the chance of winning than the mean margin; stop 47, an experiment not kept) scored 51% (W 31
D 19 L 30, 40-61%, seed 19). None is a measured gain."""

PLAYOUT_QDEPTH: int | None = 2
"""How a compiled placement playout ends: ``None``, both sides stacking like ``medium`` to the end of the
game; a number, as soon as the board is full, judged by the search's learned evaluation after a capture
quiescence of that depth (see :func:`_playouts_python`).

Measured (stop 45) in self-play (``bench/pylon_selfplay.py``, both sides searching 3,000,000 nodes in the
stacking): the judged ending (2 captures, 6,500 playouts, about 0.2 s a move) against the stacked one
scored 59% of the points over 80 games (W 38 D 19 L 23, 95% interval 48-69%, +0.72 pyramids a game;
seed 13); a first pure-Python version of it with 3,000 playouts scored 60% over 40 (seed 11) and 61% over
80 (seed 12, 95% interval 50-71%). Stacking to the end with ``medium``'s greed is not how a searched game
goes on; the search's own judgement of the full board is closer. Its quiescence costs: 4 µs a playout
with none, 15 µs with 1 capture, 40 µs with 2, 230 µs with 4 (compiled, from the 10th placement). Against
MCTS-10,000 (``bench/vs_mcts.py --seed 3``, 16 whole games) it scored 53% of the points (W 7 D 3 L 6,
95% interval 31-74%; 38% as the first placer, 69% as the second); over 40 games, see the module's
docstring. A deeper quiescence (3 captures, about 80 µs a playout, 0.45 s a move) scored 51% against 2 in
self-play (80 games, W 33 D 15 L 32, 95% interval 40-61%, seed 17; stop 46): not taken."""

UCT_C = 1.0
"""UCB1's exploration constant in the placement tree (results within -1..+1)."""

UCT_SCALE = 6.0
"""With judged playouts (:data:`PLAYOUT_QDEPTH`) the placement tree scores a leaf valued ``v`` half-pyramids
as ``tanh(v / UCT_SCALE)``."""

PURE_PYTHON_PLAYOUTS: Final = 3_000
"""At most this many placement playouts where they are not compiled (about 0.4 ms each in Python: about
1.2 s a move, under :data:`TIME_CAP`)."""

HARD_BUDGET: Final = 1.0
"""About the seconds ``hard``'s work takes on one free core (``budget`` scales from it)."""
TIME_CAP: Final = 1.75
"""The wall-clock safety net per move: a level stops there even if its work is not done."""
SEARCH_EMPTIES: Final = 2
"""From this many empty squares on, placement is searched (across the start of stacking) too.

Measured in self-play at a fifth of the work: searching the last 2 placements beat the playout
judge alone 7-1-2 in 10 games, while searching the last 6 lost to it 0-2-6 in 8 (the search's
horizon then ends about when stacking begins, where the playouts see the whole game). With the compiled
search at full work (stop 44), searching the last 4 scored 48% against the last 2 in 80 games of
self-play (95% interval 37-58%)."""

_NB: Final = NEIGHBOURS  # ascending, as the move order below expects
_PAIRS: Final = tuple((src, dst) for src in range(SQUARES) for dst in _NB[src])
_STACKING: Final = {(a, b): Stacking(a, b) for a, b in _PAIRS}
_INF: Final = 10_000
_M64: Final = (1 << 64) - 1
_T = TypeVar("_T")
_PLACEMENT: Final = {(size, sq): Placement(size, sq) for size in (1, 2, 3) for sq in range(SQUARES)}

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
                     rng: random.Random | _SplitMix) -> tuple[int, int] | None:
    """The stacking that gains ``me`` the most pyramids now (``None`` if there is none).

    Among equal gains it prefers a move that does not leave its own new stack
    next to an opponent stack able to cover it; remaining ties are random.
    """
    best_gain, best_risk = -_INF, 0
    choices: list[tuple[int, int]] = []
    for x in range(SQUARES):  # the pairs in _PAIRS's order, skipping empty squares early
        if not h[x]:
            continue
        bx, tx = bs[x], top[x]
        mine = tx == me
        for y in _NB[x]:
            if h[y] and bx <= ts[y]:
                ty = top[y]
                gain = 0 if tx == ty else (h[y] if mine else -h[y])
                if gain < best_gain:
                    continue
                risk = 0
                if mine:
                    tsx = ts[x]
                    for n in _NB[y]:
                        if n != x and h[n] and top[n] != me and bs[n] <= tsx:
                            risk = -1
                            break
                if gain > best_gain or risk > best_risk:
                    best_gain, best_risk, choices = gain, risk, [(x, y)]
                elif risk == best_risk:
                    choices.append((x, y))
    return rng.choice(choices) if choices else None


def _medium(s: PylonState, seat: Seat, rng: random.Random) -> Move:
    if s.is_placement:
        return rng.choice(_non_agree(s, seat))
    h, top, ts, bs = _arrays(s)
    pick = _greedy_stacking(h, top, ts, bs, seat, rng)
    assert pick is not None
    return _STACKING[pick]


# --- hard: placement ------------------------------------------------------------------------------------

def _judged(s: PylonState) -> tuple[list[int], list[int], list[int]]:
    """A placement position as the playouts read it: owners (-1 empty), sizes, both stashes by size."""
    return ([st[-1][0] if st else -1 for st in s.board], [st[-1][1] if st else 0 for st in s.board],
            [*s.stash[0], *s.stash[1]])


class _SplitMix:
    """SplitMix64 (Steele, Lea and Flood 2014), the placement playouts' random numbers: the same generator as
    ``_scan.c``'s, so the compiled and the pure-Python playouts draw the same numbers and play the same
    games."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _M64

    def below(self, n: int) -> int:
        """A number in ``range(n)``."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return (((z ^ (z >> 31)) >> 32) * n) >> 32

    def choice(self, seq: Sequence[_T]) -> _T:
        return seq[self.below(len(seq))]


def _playouts_python(top: list[int], ts: list[int], stash: list[int], turn: int, seat: int, n: int,
                     state: int, neighbours: tuple[tuple[int, ...], ...] = _NB,
                     table: list[Folded] | None = None, qdepth: int = 0, win: int = 0) -> tuple[int, int]:
    """``n`` quick games from a placement position and the sum of ``seat``'s final margins, with the
    SplitMix64 ``state`` advanced: each game places the rest at random (the empty squares shuffled, each
    placer's size drawn from the sizes it has left), then both sides stack like ``medium``, the second
    placer first. ``top``: per square its owner or -1 (empty); ``ts``: its size; ``stash``: seat 0's pieces
    left by size, then seat 1's; ``turn``: the next placer.

    With a weight ``table`` (:func:`search.weight_table`) a game ends instead as soon as the board is full,
    judged by the search's capture quiescence of depth ``qdepth`` (:func:`_judged_ending`, seat 1, the
    second placer, to move): the sum is then of ``seat``'s values in half-pyramids, a finished game's
    ``win`` taken off. ``_scan.playouts`` is the same, compiled."""
    assert neighbours is _NB
    rng = _SplitMix(state)
    empty0 = [i for i in range(SQUARES) if top[i] < 0]
    total = 0
    for _ in range(n):
        owner, size, left, empty = list(top), list(ts), list(stash), list(empty0)
        for i in range(len(empty) - 1, 0, -1):
            j = rng.below(i + 1)
            empty[i], empty[j] = empty[j], empty[i]
        placer = turn
        while empty:
            sizes = [z for z in (1, 2, 3) if left[3 * placer + z - 1]]
            if not sizes:
                raise ValueError("Pylon playouts: a placer has no piece left for an empty square")
            z = sizes[rng.below(len(sizes))]
            sq = empty.pop()
            owner[sq], size[sq] = placer, z
            left[3 * placer + z - 1] -= 1
            placer = 1 - placer
        if table is not None:
            v = _judged_ending(owner, size, table, qdepth, win)
            total += v if seat == 1 else -v
            continue
        h = [1] * SQUARES
        bs = list(size)
        side = 1
        while (pick := _greedy_stacking(h, owner, size, bs, side, rng)) is not None:
            x, y = pick
            h[y] += h[x]
            owner[y] = owner[x]
            size[y] = size[x]
            h[x] = 0
            side = 1 - side
        total += sum(h[i] if owner[i] == seat else -h[i] for i in range(SQUARES) if h[i])
    return total, rng.state


def _judged_ending(owner: list[int], size: list[int], table: list[Folded], qdepth: int, win: int) -> int:
    """A full board of single pyramids as the search judges it: :meth:`Search.quiesce` of depth ``qdepth``
    for seat 1 (the second placer, who stacks first) with the weight ``table``, a finished game's ``win``
    (the search's :data:`~bot.games.pylon.search.WIN`) taken off."""
    assert win == WIN
    board = tuple(((o, z),) for o, z in zip(owner, size, strict=True))
    e = Search(PylonState(board, ((0, 0, 0), (0, 0, 0))), 1 << 62, 1e18)
    e.table = table
    v = e.quiesce(1, -INF, INF, qdepth)
    return v - win if v > win // 2 else v + win if v < -(win // 2) else v


def _ending(compiled: bool) -> tuple[()] | tuple[list[Folded], int, int]:
    """The playouts' ending arguments after ``neighbours`` (weight table, quiescence depth, win bonus) where
    they are ``compiled`` and :data:`PLAYOUT_QDEPTH` is set; none (stacked to the end) otherwise: judged in
    pure Python they would be about 50 times slower than compiled, too slow for the cap."""
    if not compiled or PLAYOUT_QDEPTH is None:
        return ()
    return weight_table(), PLAYOUT_QDEPTH, WIN


PLAYOUTS: Playouts = compiled_playouts or _playouts_python
"""The placement judge's playouts: compiled where ``_scan.c`` was built (benches set it)."""


class _Node:
    """A node of :func:`_uct_python`'s tree: the placement that led here and who made it, its visits, the sum
    of its results from that placer's view, its children (oldest first), the moves already tried here
    (bit ``3 * square + size - 1``) and how many moves there are here (0: the board is full)."""

    __slots__ = ("done", "kids", "move", "mover", "n", "nlegal", "w")

    def __init__(self, move: int, mover: int, nlegal: int) -> None:
        self.move, self.mover, self.nlegal = move, mover, nlegal
        self.n, self.w, self.done = 0, 0.0, 0
        self.kids: list[_Node] = []


def _legal_count(top: list[int], stash: list[int], turn: int) -> int:
    empty = sum(t < 0 for t in top)
    return empty * sum(stash[3 * turn + z] > 0 for z in range(3)) if empty else 0


def _uct_python(top: list[int], ts: list[int], stash: list[int], turn: int, sims: int, state: int, c: float,
                deadline: float, clock: Callable[[], float],
                neighbours: tuple[tuple[int, ...], ...] = _NB, table: list[Folded] | None = None,
                qdepth: int = 0, win: int = 0, scale: float = 1.0,
                ) -> tuple[list[tuple[int, int, float]], int, int]:
    """UCT over the rest of the placement from a placement position (``top``, ``ts``, ``stash``, ``turn`` as
    for :func:`_playouts_python`): ``sims`` simulations, each walking the tree by UCB1 (exploration ``c``),
    trying the moves a node has not tried yet first (at random), adding one node and scoring it by one
    playout (+1 won, 0 drawn, -1 lost for the placer who moved there). With a weight ``table`` the playout
    is judged instead (``qdepth`` and ``win`` as for :func:`_playouts_python`) and its value ``v`` scores
    ``tanh(v / scale)``. The clock is read every 256 simulations and stops them after ``deadline``. Returns
    the root's children as (4 * square + size, visits, sum of results), newest first, the SplitMix64 state
    and the simulations done. ``_scan.uct`` is the same, compiled."""
    assert neighbours is _NB
    rng = _SplitMix(state)
    root = _Node(-1, 1 - turn, _legal_count(top, stash, turn))
    done = 0
    while done < sims:
        if done and not done & 255 and clock() > deadline:
            break
        owner, size, left, placer = list(top), list(ts), list(stash), turn
        node, path = root, [root]
        while node.nlegal:
            if len(node.kids) < node.nlegal:  # a move not tried here yet, at random
                k, move = rng.below(node.nlegal - len(node.kids)), -1
                for sq in range(SQUARES):
                    if owner[sq] >= 0:
                        continue
                    for z in (1, 2, 3):
                        if not left[3 * placer + z - 1] or node.done >> (3 * sq + z - 1) & 1:
                            continue
                        if not k:
                            move = 4 * sq + z
                            break
                        k -= 1
                    if move >= 0:
                        break
                node.done |= 1 << (3 * (move // 4) + move % 4 - 1)
                pick = _Node(move, placer, 0)
                node.kids.append(pick)
            else:  # UCB1; ties go to the newest child
                logn, best = math.log(node.n), -1e300
                for ch in reversed(node.kids):
                    v = ch.w / ch.n + c * math.sqrt(logn / ch.n)
                    if v > best:
                        best, pick = v, ch
            sq, z = divmod(pick.move, 4)
            owner[sq], size[sq] = placer, z
            left[3 * placer + z - 1] -= 1
            placer = 1 - placer
            path.append(pick)
            node = pick
            if not pick.n:
                pick.nlegal = _legal_count(owner, left, placer)
                break
        m, rng.state = _playouts_python(owner, size, left, placer, 0, 1, rng.state, _NB, table, qdepth, win)
        r = math.tanh(m / scale) if table is not None else 1.0 if m > 0 else -1.0 if m < 0 else 0.0
        for p in path:
            p.n += 1
            p.w += r if p.mover == 0 else -r
        done += 1
    return [(ch.move, ch.n, ch.w) for ch in reversed(root.kids)], rng.state, done


UCT: Uct = compiled_uct or _uct_python
"""The placement tree search: compiled where ``_scan.c`` was built (benches set it)."""


def _uct_placement(s: PylonState, seat: Seat, rng: random.Random, sims: int, deadline: float) -> Move:
    """The placement :func:`_uct_python` visited most (then the best sum of results)."""
    top, ts, stash = _judged(s)
    ending = _ending(UCT is not _uct_python)
    scale = (UCT_SCALE,) if ending else ()
    kids, _, _ = UCT(top, ts, stash, seat, sims, rng.getrandbits(64), UCT_C, deadline, time.perf_counter, _NB,
                     *ending, *scale)
    move = max(kids, key=lambda k: (k[1], k[2]))[0]
    return _PLACEMENT[move % 4, move // 4]


def _judge(pos: tuple[list[int], list[int], list[int]], turn: int, seat: int, n: int, state: int,
           deadline: float) -> tuple[int, int, int, bool]:
    """(sum of results, playouts played, state, late) for up to ``n`` playouts from ``pos``: the compiled
    ones in one call, the pure-Python ones 16 at a time, checking the clock in between; ended as
    :func:`_ending` says."""
    top, ts, stash = pos
    compiled = PLAYOUTS is not _playouts_python
    step = n if compiled else 16
    ending = _ending(compiled)
    total = done = 0
    while done < n:
        if time.perf_counter() > deadline:
            return total, done, state, True
        k = min(step, n - done)
        got, state = PLAYOUTS(top, ts, stash, turn, seat, k, state, _NB, *ending)
        total += got
        done += k
    return total, done, state, False


def _mc_placement(s: PylonState, seat: Seat, rng: random.Random, playouts: int, deadline: float) -> Move:
    """Successive halving over every placement, judged by the mean margin of quick playouts.

    The work is a count of playouts (deterministic for a seed); ``deadline`` only cuts a round short
    on a machine far slower than this one.
    """
    cands: list[Placement] = [m for m in _non_agree(s, seat) if isinstance(m, Placement)]
    rng.shuffle(cands)
    state = rng.getrandbits(64)
    top, ts, stash = _judged(s)
    after: dict[Placement, tuple[list[int], list[int], list[int]]] = {}
    for m in cands:
        t, z, left = list(top), list(ts), list(stash)
        t[m.square], z[m.square] = seat, m.size
        left[3 * seat + m.size - 1] -= 1
        after[m] = t, z, left
    totals = dict.fromkeys(cands, 0)
    counts = dict.fromkeys(cands, 0)
    rounds = max(1, (len(cands) - 1).bit_length())
    per_round = max(len(cands), playouts // rounds)
    while len(cands) > 1:
        each = max(1, per_round // len(cands))
        late = False
        for m in cands:
            got, done, state, late = _judge(after[m], 1 - seat, seat, each, state, deadline)
            totals[m] += got
            counts[m] += done
            if late:
                break
        cands.sort(key=lambda m: -totals[m] / max(1, counts[m]))
        if late:
            break
        cands = cands[:max(1, len(cands) // 2)]
    return max(cands, key=lambda m: totals[m] / max(1, counts[m]))


def _decode(m: int) -> Move:
    if m >= PLACE:
        size, square = divmod(m - PLACE, 32)
        return _PLACEMENT[size, square]
    return _STACKING[divmod(m, 32)]


# --- entry points ---------------------------------------------------------------------------------------

def _limits(level: str, budget: float | None, cap: float | None) -> tuple[int, int, float]:
    """(search nodes, placement playouts, wall-clock cap in seconds) for a search level."""
    nodes, playouts = LEVEL_WORK[level]
    if PLAYOUTS is _playouts_python:  # no compiled playouts: about 25 times slower
        playouts = min(playouts, PURE_PYTHON_PLAYOUTS)
    if budget is None:
        return nodes, playouts, TIME_CAP if cap is None else cap
    scale = budget / HARD_BUDGET
    return max(200, int(nodes * scale)), max(30, int(playouts * scale)), budget if cap is None else cap


def _search_move(state: PylonState, seat: Seat, rng: random.Random, level: str,
                 budget: float | None, cap: float | None) -> tuple[Move, int]:
    nodes, playouts, cap = _limits(level, budget, cap)
    if state.is_placement and state.placed < PIECES - SEARCH_EMPTIES:
        judge = _uct_placement if PLACEMENT == "uct" else _mc_placement
        return judge(state, seat, rng, playouts, time.perf_counter() + cap), 0
    m, value, _, _ = search(state, seat, rng, nodes, cap)
    return _decode(m), value


def choose(state: PylonState, seat: Seat, rng: random.Random, level: str, *,
           budget: float | None = None, cap: float | None = None) -> Move:
    """The computer's move for ``seat`` at ``level`` (``easy``, ``medium`` or ``hard``).

    ``hard`` does a fixed amount of work per move (:data:`LEVEL_WORK`), so the move
    depends only on the position and ``rng``; :data:`TIME_CAP` is a safety net. ``budget`` (seconds,
    for tests and benches) scales that work from the level's nominal :data:`HARD_BUDGET` and caps
    the time at ``budget``; ``cap`` (seconds) overrides the cap. When the opponent has agreed to
    end, the computer agrees too if ending now is at least as good for it as playing on (it never
    offers first).

    Raises:
        ValueError: unknown level, or ``seat`` has no move (not its turn, or the game is over).
    """
    if level not in LEVELS:
        raise ValueError(f"Pylon AI level must be one of {', '.join(LEVELS)}, not {level!r}.")
    if is_over(state) or seat != state.to_move:
        raise ValueError(f"Pylon AI: seat {seat} has no move to make now.")
    if not state.is_placement and state.agreed[1 - seat] and wants_to_agree(
            state, seat, rng, level, budget=None if budget is None else budget / 2, cap=cap):
        return AGREE
    if level == "easy":
        return _easy(state, seat, rng)
    if level == "medium":
        return _medium(state, seat, rng)
    only = _non_agree(state, seat)
    if len(only) == 1:
        return only[0]  # nothing to think about
    move, _ = _search_move(state, seat, rng, level, budget, cap)
    return move


def wants_to_agree(state: PylonState, seat: Seat, rng: random.Random, level: str, *,
                   budget: float | None = None, cap: float | None = None) -> bool:
    """Whether the computer playing ``seat`` accepts ending the game now.

    ``easy`` and ``medium`` accept when they are not behind; ``hard`` accepts when its
    search does not expect to do better by playing on. The platform asks this when a human
    agrees while the computer is not to move.
    """
    if not can_agree(state, seat):
        return False
    sc = scores(state)
    lead = sc[seat] - sc[1 - seat]
    if level not in SEARCH_LEVELS:
        return lead >= 0
    now = 2 * lead + (WIN if lead > 0 else (-WIN if lead < 0 else 0))
    mover = state.to_move
    nodes, _, limit = _limits(level, budget, cap)
    _, value, _, _ = search(state, mover, rng, max(200, nodes // 2), limit / 2)
    expected = value if mover == seat else -value
    return now >= expected
