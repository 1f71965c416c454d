"""Pylon hard's compiled board scan and quiescence (``bot/games/pylon/_scan.c``) against the pure-Python
ones they replace.

The compiled scan must give the same integer value, the same "any stacking left" and the same captures in
the same order, and the compiled quiescence the same value, node count and exactness, stopping on the same
node when the budget runs out, so that hard makes the same moves whichever the package was built with.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pylon import ai, boardscan, search
from bot.games.pylon.rules import PIECES, RULES, PylonState
from bot.games.pylon.search import Search

pytestmark = pytest.mark.unit

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _need_compiled() -> None:
    if not boardscan.COMPILED:
        assert not IN_CI, ("CI builds with a C compiler, so the compiled Pylon scan must be there: "
                           "pip install -e . did not build bot/games/pylon/_scan.c")
        pytest.skip("the compiled Pylon scan was not built here (no C compiler): the pure-Python one runs")


def test_ci_runs_the_compiled_scan() -> None:
    _need_compiled()
    assert boardscan.scan_full is not boardscan.scan_full_python
    assert search.scan_full is boardscan.scan_full  # what the search calls
    assert search.QUIESCE is boardscan.quiesce is not None
    assert search.STACKINGS is boardscan.stackings is not None
    assert search.ORDER is boardscan.order is not None
    assert search.NEGAMAX is boardscan.stacking_search is not None
    assert ai.PLAYOUTS is boardscan.playouts is not None
    assert ai.UCT is boardscan.uct is not None


def game(seed: int, plies: int) -> PylonState:
    rng = random.Random(seed)
    s = RULES.initial({}, 2)
    for _ in range(plies):
        if RULES.to_act(s) is None:
            break
        moves = [m for m in RULES.legal_moves(s, s.to_move) if str(m) != "agree"]
        s, _ = RULES.apply(s, s.to_move, rng.choice(moves))
    return s


def both(e: Search, side: int, weights: boardscan.Folded, *, kept: bool) -> None:
    """The two scans of ``e``'s position agree: fresh lists in placement (an empty square reaches), or the
    lists the search keeps once the board is full (``kept``)."""
    reach = e.reach if kept and e.reach is not None else boardscan.reach_lists(e.bs)
    empty = not (kept and e.reach is not None)
    caps_py: list[int] = []
    caps_c: list[int] = []
    want = boardscan.scan_full_python(e.h, e.top, e.ts, e.bs, side, caps_py, weights, reach, empty)
    got = boardscan.scan_full(e.h, e.top, e.ts, e.bs, side, caps_c, weights, reach, empty)
    assert got == want and caps_c == caps_py
    assert boardscan.scan_full(e.h, e.top, e.ts, e.bs, side, None, weights, reach, empty) == want


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 90), side=st.integers(0, 1),
       stacks=st.integers(0, PIECES), kept=st.booleans(),
       odd=st.lists(st.floats(-50, 50, allow_nan=False, allow_subnormal=False), min_size=12, max_size=12))
def test_the_compiled_scan_is_the_python_scan(seed: int, plies: int, side: int, stacks: int, kept: bool,
                                              odd: list[float]) -> None:
    # Random positions of every phase, the search's own weights at any stack count, and arbitrary
    # weights (the rounding of a sum near a half is where a different order of additions would show).
    _need_compiled()
    e = Search(game(seed, plies), 10, 10)
    both(e, side, search.folded_weights(stacks), kept=kept)
    w2 = [2 * x for x in odd]
    both(e, side, (w2, (0.0, w2[0] + w2[9], w2[0] + w2[8], w2[0] + w2[7])), kept=kept)


def test_a_sum_at_a_half_rounds_as_python_rounds() -> None:
    # round() in Python goes half to even: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2. One stack of height 1 under a
    # small top with no neighbour: its value is w_size[1] + w_stack (the rest zero).
    _need_compiled()
    e = Search(game(0, 0), 10, 10)
    h, top, ts, bs = list(e.h), list(e.top), list(e.ts), list(e.bs)
    h[0], top[0], ts[0], bs[0] = 1, 0, 1, 1
    for half in (2.5, 3.5, -2.5, -3.5, 0.5, -0.5, 1e15 + 0.5):
        w = [0.0] * 12
        weights = (w, (0.0, half, 0.0, 0.0))
        reach = [((), (), (), ())] * len(h)
        want = boardscan.scan_full_python(h, top, ts, bs, 0, None, weights, reach, True)
        assert boardscan.scan_full(h, top, ts, bs, 0, None, weights, reach, True) == want
        assert want[0] == round(half)


def pure_python(m: pytest.MonkeyPatch) -> None:
    m.setattr(search, "scan_full", boardscan.scan_full_python)
    for name in ("QUIESCE", "STACKINGS", "ORDER", "NEGAMAX"):
        m.setattr(search, name, None)


@pytest.mark.parametrize("nodes", [6_000, 4_321, 30_000])
def test_the_search_makes_the_same_moves_either_way(monkeypatch: pytest.MonkeyPatch, nodes: int) -> None:
    # Whole searches, from the last placements (placement, then stacking) and in stacking: the same move,
    # value, depth, exactness and node count (4,321: the budget runs out inside a quiescence).
    _need_compiled()
    positions = [game(seed, plies) for seed, plies in ((1, 26), (2, 30), (3, 29), (4, 36), (5, 42), (6, 44))]
    for s in positions:
        assert RULES.to_act(s) is not None, RULES.dump(s)
        compiled = Search(s, nodes, 60)
        with monkeypatch.context() as m:
            pure_python(m)
            python = Search(s, nodes, 60)
            want = python.root(s.to_move, random.Random(3))
        assert compiled.root(s.to_move, random.Random(3)) == want, RULES.dump(s)
        assert compiled.nodes == python.nodes


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(30, 70), side=st.integers(0, 1),
       alpha=st.integers(-1200, 1200), width=st.sampled_from([1, 2, 5, 40, 2400, 200_000]),
       depth=st.integers(0, 5), budget=st.sampled_from([1, 2, 3, 7, 20, 10**6]), exact=st.booleans())
def test_the_compiled_quiescence_is_the_python_one(seed: int, plies: int, side: int, alpha: int, width: int,
                                                   depth: int, budget: int, exact: bool) -> None:
    # Any full board, any window (null windows included), any depth: the same value, nodes and exactness,
    # and a budget that runs out inside stops both on the same node with the board as it was; and the
    # same for the search's leaf (depth 0: the game-over test, then the quiescence).
    _need_compiled()
    s = game(seed, plies)
    if s.is_placement:
        return
    found = []
    for q in (boardscan.quiesce, None):
        e = Search(s, budget, 60)
        e.nodes, e.exact = 0, exact
        board = (list(e.h), list(e.top), list(e.ts), list(e.bs), e.stacks, e.key)
        was = search.QUIESCE
        search.QUIESCE = q
        try:
            v: int | str = (e.quiesce(side, alpha, alpha + width, depth) if depth
                            else e.negamax(0, side, alpha, alpha + width, 1))
        except search.OutOfBudget:
            v = "out of budget"
        finally:
            search.QUIESCE = was
        if v == "out of budget":  # the search throws the iteration away (its exactness too)
            found.append((v, e.nodes, None))
        else:
            assert (list(e.h), list(e.top), list(e.ts), list(e.bs), e.stacks, e.key) == board
            found.append((v, e.nodes, e.exact))
    assert found[0] == found[1], RULES.dump(s)


def test_bad_arguments_raise_instead_of_reading_past_the_board() -> None:
    _need_compiled()
    e = Search(game(7, 40), 10, 10)
    w = search.folded_weights(30)
    reach = boardscan.reach_lists(e.bs)
    bad_calls = [
        (e.h[:-1], e.top, e.ts, e.bs, 0, None, w, reach),                         # a short list
        (e.h, e.top, e.ts, e.bs, 0, (), w, reach),                                 # caps not a list
        (e.h, e.top, e.ts, e.bs, 0, None, (w[0],), reach),                         # weights not a pair
        (e.h, e.top, e.ts, e.bs, 0, None, w, reach[:-1]),                          # reach too short
        (e.h, e.top, [9] * len(e.ts), e.bs, 0, None, w, reach),                    # a top size off 0..3
        (e.h, e.top, e.ts, e.bs, 0, None, w, [((99,),) * 4] * len(e.h)),           # a neighbour off the board
        (e.h, e.top, e.ts, e.bs, 0, None, w),                                      # too few arguments
    ]
    for args in bad_calls:
        with pytest.raises((TypeError, ValueError)):
            boardscan.scan_full(*args)  # type: ignore[call-arg]


def test_the_environment_can_keep_the_pure_python_scan() -> None:
    # PARLOR_PURE_PYTHON_SCAN=1: the operator's switch (and how the scans are compared by hand).
    code = ("from bot.games.pylon import boardscan, search; "
            "print(boardscan.COMPILED, search.scan_full.__name__)")
    env = {**os.environ, "PARLOR_PURE_PYTHON_SCAN": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "scan_full_python"]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 90), side=st.integers(0, 1),
       history=st.dictionaries(st.integers(0, 36 * 32), st.integers(0, 10**6), max_size=40),
       picks=st.lists(st.integers(0, 10**6), max_size=4), first_pick=st.integers(-1, 10**6))
def test_the_compiled_move_list_and_order_are_the_python_ones(seed: int, plies: int, side: int,
                                                               history: dict[int, int], picks: list[int],
                                                               first_pick: int) -> None:
    # Every stacking in the same order, and the same order of moves for any table move, killers and
    # history (ties kept in their order, as sorted() keeps them), placements included.
    _need_compiled()
    s = game(seed, plies)
    e = Search(s, 10, 10)
    with pytest.MonkeyPatch.context() as m:
        pure_python(m)
        want_stackings = e.stackings()
        moves = e.moves(side)
    assert e.stackings() == want_stackings
    if not moves:
        return
    killers = [moves[p % len(moves)] for p in picks[:2]]
    first = -1 if first_pick < 0 else moves[first_pick % len(moves)]
    e.killers[3] = killers
    e.history = {**history, **{moves[p % len(moves)]: p for p in picks}}
    with pytest.MonkeyPatch.context() as m:
        pure_python(m)
        want = e._order(list(moves), side, first, 3)
        want_no_killers = e._order(list(moves), side, first, 5)
    with pytest.MonkeyPatch.context() as m:  # the compiled sort with these history counts (the compiled
        m.setattr(search, "NEGAMAX", None)    # stacking search keeps its own, see the test below)
        assert e._order(list(moves), side, first, 3) == want
        assert e._order(list(moves), side, first, 5) == want_no_killers


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 30), seat=st.integers(0, 1),
       n=st.integers(0, 12), state=st.integers(0, 2**64 - 1))
def test_the_compiled_placement_playouts_are_the_python_ones(seed: int, plies: int, seat: int, n: int,
                                                             state: int) -> None:
    # From any placement position (or the full board), the same games: the same sum of margins and the
    # random state advanced by the same draws.
    _need_compiled()
    s = game(seed, plies)
    top, ts, stash = ai._judged(s)
    turn = s.to_move if s.is_placement else 1 - s.to_move
    want = ai._playouts_python(top, ts, stash, turn, seat, n, state)
    assert boardscan.playouts is not None
    assert boardscan.playouts(top, ts, stash, turn, seat, n, state, ai._NB) == want
    assert (top, ts, stash) == ai._judged(s)  # the caller's lists are left as they were


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 30), seat=st.integers(0, 1),
       n=st.integers(0, 8), state=st.integers(0, 2**64 - 1), qdepth=st.integers(0, 4))
def test_the_compiled_judged_playouts_are_the_python_ones(seed: int, plies: int, seat: int, n: int,
                                                         state: int, qdepth: int) -> None:
    # Ended by the search's quiescence as soon as the board is full: the same boards, the same values.
    _need_compiled()
    s = game(seed, plies)
    top, ts, stash = ai._judged(s)
    turn = s.to_move if s.is_placement else 1 - s.to_move
    table = search.weight_table()
    want = ai._playouts_python(top, ts, stash, turn, seat, n, state, ai._NB, table, qdepth, search.WIN)
    assert boardscan.playouts is not None
    assert boardscan.playouts(top, ts, stash, turn, seat, n, state, ai._NB, table, qdepth, search.WIN) == want
    assert (top, ts, stash) == ai._judged(s)


def test_a_judged_playout_is_the_searchs_quiescence_of_the_filled_board() -> None:
    # From a full board there is nothing left to place: one playout is the search's own quiescence value
    # for the second placer (seat 1), WIN taken off, seen from the asked seat.
    s = game(7, 30)
    assert not s.is_placement
    top, ts, stash = ai._judged(s)
    for q in (0, 2):
        e = search.Search(s, 10**9, 1e9)
        want = e.quiesce(1, -search.INF, search.INF, q)
        if abs(want) > search.WIN // 2:
            want -= search.WIN if want > 0 else -search.WIN
        for seat, sign in ((1, 1), (0, -1)):
            got, _ = ai._playouts_python(top, ts, stash, 0, seat, 3, 5, ai._NB, search.weight_table(), q,
                                         search.WIN)
            assert got == 3 * sign * want


def test_bad_playout_arguments_raise() -> None:
    _need_compiled()
    s = game(3, 10)
    top, ts, stash = ai._judged(s)
    turn = s.to_move
    bad = [
        (top[:-1], ts, stash, turn, 0, 5, 1, ai._NB),                   # a short list
        (top, ts, stash[:5], turn, 0, 5, 1, ai._NB),                    # a short stash
        (top, ts, stash, 2, 0, 5, 1, ai._NB),                           # no such placer
        (top, ts, stash, turn, 0, -1, 1, ai._NB),                       # a negative count
        (top, [9] * len(ts), stash, turn, 0, 5, 1, ai._NB),             # a size off 1..3
        (top, ts, [0] * 6, turn, 0, 5, 1, ai._NB),                      # nothing left to place
        (top, ts, stash, turn, 0, 5, 1, ((99,),) * len(top)),           # a neighbour off the board
        (top, ts, stash, turn, 0, 5, 1),                                # too few arguments
        (top, ts, stash, turn, 0, 5, 1, ai._NB, search.weight_table()[:5], 2, 1000),  # a short weight table
        (top, ts, stash, turn, 0, 5, 1, ai._NB, search.weight_table(), -1, 1000),     # a negative depth
        (top, ts, stash, turn, 0, 5, 1, ai._NB, "table", 2, 1000),                    # no table
        (top, ts, stash, turn, 0, 5, 1, ai._NB, search.weight_table(), 2),             # 10 arguments
    ]
    assert boardscan.playouts is not None
    for args in bad:
        with pytest.raises((TypeError, ValueError)):
            boardscan.playouts(*args)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 30), sims=st.integers(0, 400),
       state=st.integers(0, 2**64 - 1), c=st.sampled_from([0.0, 0.3, 1.0, 2.5]),
       judged=st.sampled_from([None, (0, 1.0), (2, 6.0), (3, 2.5)]))
def test_the_compiled_placement_tree_is_the_python_one(seed: int, plies: int, sims: int, state: int,
                                                      c: float, judged: tuple[int, float] | None) -> None:
    # The same tree: every root child's visits and sum of results, in the same order, and the same random
    # state (so the same playouts at the same nodes), from any placement position or the full board, with
    # stacked or judged playouts at the leaves.
    _need_compiled()
    s = game(seed, plies)
    top, ts, stash = ai._judged(s)
    turn = s.to_move if s.is_placement else 1 - s.to_move
    extra: tuple[Any, ...] = ()
    if judged is not None:
        extra = (search.weight_table(), judged[0], search.WIN, judged[1])
    want = ai._uct_python(top, ts, stash, turn, sims, state, c, 1e18, time.perf_counter, ai._NB, *extra)
    assert boardscan.uct is not None
    got = boardscan.uct(top, ts, stash, turn, sims, state, c, 1e18, time.perf_counter, ai._NB, *extra)
    assert got == want
    kids, _, done = want
    assert done == sims and (not s.is_placement or sum(n for _, n, _ in kids) == sims)


def test_the_placement_tree_stops_at_its_deadline_and_on_bad_arguments() -> None:
    _need_compiled()
    s = game(5, 8)
    top, ts, stash = ai._judged(s)
    assert boardscan.uct is not None
    ticks = iter(range(10**6))
    kids, _, done = boardscan.uct(top, ts, stash, s.to_move, 10**5, 1, 1.0, 2.5, lambda: float(next(ticks)),
                                  ai._NB)
    assert done == 4 * 256 and sum(n for _, n, _ in kids) == done  # readings 0, 1, 2, then 3 > 2.5
    good = (top, ts, stash, s.to_move, 5, 1, 1.0, 1e18, time.perf_counter, ai._NB)
    bad = [
        (top[:-1], ts, stash, s.to_move, 5, 1, 1.0, 1e18, time.perf_counter, ai._NB),   # a short list
        (top, ts, stash, 3, 5, 1, 1.0, 1e18, time.perf_counter, ai._NB),                # no such placer
        (top, ts, stash, s.to_move, -5, 1, 1.0, 1e18, time.perf_counter, ai._NB),       # negative sims
        (top, ts, stash, s.to_move, 5, 1, "c", 1e18, time.perf_counter, ai._NB),        # not a number
        (top, ts, stash, s.to_move, 300, 1, 1.0, 0.0, None, ai._NB),                    # no clock to call
        (top, ts, stash, s.to_move, 5, 1, 1.0, 1e18, time.perf_counter),                # too few arguments
        (*good, search.weight_table()[:5], 2, search.WIN, 6.0),                         # a short weight table
        (*good, search.weight_table(), -1, search.WIN, 6.0),                            # a negative depth
        (*good, search.weight_table(), 2, search.WIN, 0.0),                             # no scale
        (*good, search.weight_table(), 2, search.WIN),                                  # 13 arguments
    ]
    for args in bad:
        with pytest.raises((TypeError, ValueError)):
            boardscan.uct(*args)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(26, 80),
       budget=st.sampled_from([1, 2, 17, 300, 2_500, 20_000]), rng_seed=st.integers(0, 99), pvs=st.booleans())
def test_the_compiled_stacking_search_is_the_python_one(seed: int, plies: int, budget: int, rng_seed: int,
                                                        pvs: bool) -> None:
    # Whole searches from any late placement or stacking position, with any budget (those that run out
    # inside a node included): the same move, value, depth, exactness and node count, so the same table,
    # killers and history along the way (they decide the order, hence the nodes).
    _need_compiled()
    s = game(seed, plies)
    if RULES.to_act(s) is None:
        return
    found = []
    for compiled in (True, False):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(search, "PVS", pvs)
            if not compiled:
                pure_python(m)
            e = Search(s, budget, 60)
            found.append((e.root(s.to_move, random.Random(rng_seed)), e.nodes))
    assert found[0] == found[1], RULES.dump(s)


def test_the_compiled_stacking_search_keeps_its_history_for_the_root() -> None:
    # The root orders its moves by the history the stacking search credited: in C, read back as a dict
    # equal to the one the pure-Python search keeps.
    _need_compiled()
    s = game(5, 42)
    compiled = Search(s, 20_000, 60)
    compiled.root(s.to_move, random.Random(1))
    with pytest.MonkeyPatch.context() as m:
        pure_python(m)
        python = Search(s, 20_000, 60)
        python.root(s.to_move, random.Random(1))
    assert search.NEGAMAX is not None and compiled.ctx is not None
    assert search.NEGAMAX.history(compiled.ctx) == python.history != {}
    assert compiled.history == {} and compiled.tt == {}  # the Python ones hold only placement nodes


def test_the_compiled_stacking_search_refuses_bad_arguments() -> None:
    _need_compiled()
    e = Search(game(7, 40), 10, 10)
    assert search.NEGAMAX is not None
    good = [e.h, e.top, e.ts, e.bs, 0, -10, 10, 1, 1, e.stacks, e.key, e.table, e.reach, search._Z, 0, 10**6,
            1e18, time.perf_counter, search.WIN, 4, True, search.INF, search.NEGAMAX.new_context(), True,
            search._NB]
    assert search.NEGAMAX.negamax(*good)[2] == 0
    for i, bad in ((0, e.h[:-1]), (4, 2), (7, 500), (9, 99), (13, search._Z[:-1]), (22, object()),
                   (24, ((99,),) * len(e.h))):
        args = list(good)
        args[i] = bad
        with pytest.raises((TypeError, ValueError)):
            search.NEGAMAX.negamax(*args)
    with pytest.raises(TypeError):
        search.NEGAMAX.negamax(*good[:-1])
