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
  Monte Carlo judge, every legal placement scored by the mean of quick
  playouts (the rest of the placement at random, then both sides stacking
  like ``medium``), each scored by its final margin plus :data:`JUDGE_EVAL`
  times the search's learned evaluation of the full board the random
  placements gave; successive halving spends a fixed number of playouts on
  the placements that keep looking best.

The AI reads the clock (``time.perf_counter``) only for its safety cap
(:data:`TIME_CAP`); the rules never do.
"""

from __future__ import annotations

import random
import time
from typing import Final

from bot.games.base import Seat
from bot.games.pylon.boardscan import scan
from bot.games.pylon.notation import AGREE, NEIGHBOURS, SQUARES, Agree, Move, Placement, Stacking
from bot.games.pylon.rules import PIECES, RULES, PylonState, can_agree, is_over, scores
from bot.games.pylon.search import PLACE, WIN, folded_weights, search

LEVELS: Final = ("easy", "medium", "hard")
SEARCH_LEVELS: Final = ("hard",)
LEVEL_WORK: Final = {"hard": (600_000, 6_500)}
"""Search nodes and placement playouts per move for each searching level.

The nodes are what the search is short of: against MCTS-10,000, five times the 140,000 hard searched until
stop 43 (700,000, then about 7 s a move) from the 29th placement on scored 72% of the points where 140,000
scored 52% on the same positions (``bench/vs_mcts.py --seed 3 --fork 28``, 20 paired games: +20%, 95%
interval +5% to +35%; +2.0 pyramids a game). With the compiled search (``_scan.c``) hard searches 600,000:
on the same 20 positions they scored 60% where 140,000 scored 42%, +18% (95% interval +3% to +32%; +1.6
pyramids a game; stop 43). They take about 1.1-1.3 s at the start of stacking (``bench/pylon_search_rate.py
--positions 12``) but about 1.8 s a few stackings later (``--after 6``), where the node count is deeper and
slower, so there the 1.75 s cap often decides (about one stacking move in five in that run): those moves
are not reproducible under load. Without a compiler (about 80,000 nodes a second) the cap cuts most
stacking moves short."""

HARD_BUDGET: Final = 1.0
"""About the seconds ``hard``'s work takes on one free core (``budget`` scales from it)."""
TIME_CAP: Final = 1.75
"""The wall-clock safety net per move: a level stops there even if its work is not done."""
SEARCH_EMPTIES: Final = 2
"""From this many empty squares on, placement is searched (across the start of stacking) too.

Measured in self-play at a fifth of the work: searching the last 2 placements beat the playout
judge alone 7-1-2 in 10 games, while searching the last 6 lost to it 0-2-6 in 8 (the search's
horizon then ends about when stacking begins, where the playouts see the whole game)."""

JUDGE_EVAL = 0.0
"""Pyramids of margin the placement judge adds per pyramid of the search's learned evaluation of the full
board its playout's random placements gave (as the search weighs a board of 30 stacks), before that
playout's greedy stacking: 0 (as shipped) judges by the stacking's final margin alone.

Measured, not proven, so off: at the start of stacking (400 games of ``bench/pylon_fit.py --early --seed 2``)
the evaluation correlates 0.18 with the outcome and the greedy stacking's mean margin only 0.08; margin + 5 ×
evaluation 0.19. Against MCTS-10,000 at full work (``vs_mcts.py --seed 1 --set JUDGE_EVAL=5``) it scored
60% of the points in 29 games (first placer 53%, second 68%), the same 60% as without (40 games, the same
seeds). The evaluation adds about a tenth to a playout's cost."""

_NB: Final = NEIGHBOURS  # ascending, as the move order below expects
_PAIRS: Final = tuple((src, dst) for src in range(SQUARES) for dst in _NB[src])
_STACKING: Final = {(a, b): Stacking(a, b) for a, b in _PAIRS}
_INF: Final = 10_000
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
                     rng: random.Random) -> tuple[int, int] | None:
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

def _playout(s: PylonState, first: Placement, seat: Seat, rng: random.Random,
             judge: tuple[list[float], tuple[float, ...]] | None = None) -> float:
    """Seat's final margin after ``first`` and a quick game: random placements, then greedy stacking (and,
    with ``judge``, an entry of the search's weight table, :data:`JUDGE_EVAL` times the learned evaluation
    of the full board those placements gave)."""
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
    judged = 0.0
    if judge is not None:  # the second placer stacks first: the evaluation is from its side
        e, _ = scan(h, top, ts, bs, 1, None, judge)
        judged = JUDGE_EVAL * (e if seat == 1 else -e) / 2
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
    return sc[seat] - sc[1 - seat] + judged


def _mc_placement(s: PylonState, seat: Seat, rng: random.Random, playouts: int, deadline: float) -> Move:
    """Successive halving over every placement, judged by the mean margin of quick playouts.

    The work is a count of playouts (deterministic for a seed); ``deadline`` only cuts a round short
    on a machine far slower than this one.
    """
    cands: list[Placement] = [m for m in _non_agree(s, seat) if isinstance(m, Placement)]
    judge = folded_weights(PIECES) if JUDGE_EVAL else None
    rng.shuffle(cands)
    totals = dict.fromkeys(cands, 0.0)
    counts = dict.fromkeys(cands, 0)
    rounds = max(1, (len(cands) - 1).bit_length())
    per_round = max(len(cands), playouts // rounds)
    while len(cands) > 1:
        each = max(1, per_round // len(cands))
        late = False
        for m in cands:
            for i in range(each):
                if not i & 15 and time.perf_counter() > deadline:
                    late = True
                    break
                totals[m] += _playout(s, m, seat, rng, judge)
                counts[m] += 1
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
    if budget is None:
        return nodes, playouts, TIME_CAP if cap is None else cap
    scale = budget / HARD_BUDGET
    return max(200, int(nodes * scale)), max(30, int(playouts * scale)), budget if cap is None else cap


def _search_move(state: PylonState, seat: Seat, rng: random.Random, level: str,
                 budget: float | None, cap: float | None) -> tuple[Move, int]:
    nodes, playouts, cap = _limits(level, budget, cap)
    if state.is_placement and state.placed < PIECES - SEARCH_EMPTIES:
        return _mc_placement(state, seat, rng, playouts, time.perf_counter() + cap), 0
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
