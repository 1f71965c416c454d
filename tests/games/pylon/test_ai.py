"""Pylon computer opponents: legal answers, greed, exact endgames, time budget, agreement."""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import pytest

from bot.games.pylon.ai import choose, wants_to_agree
from bot.games.pylon.notation import AGREE, Agree, Placement, Stacking, parse_square
from bot.games.pylon.rules import RULES, PylonState, scores, stackings, successor
from tests.games.pylon.helpers import full_board, position

pytestmark = pytest.mark.unit

RED, BLUE = 0, 1


def sq(name: str) -> int:
    return parse_square(name)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_answers_legally_in_both_phases(level: str) -> None:
    rng = random.Random(1)
    s = RULES.initial({}, 2)
    m = choose(s, RED, rng, level, budget=0.05)
    assert isinstance(m, Placement) and m in RULES.legal_moves(s, RED)
    s = full_board()
    m = choose(s, BLUE, rng, level, budget=0.05)
    assert isinstance(m, Stacking) and m in RULES.legal_moves(s, BLUE)


def test_easy_and_medium_are_reproducible_from_the_rng() -> None:
    s = full_board()
    for level in ("easy", "medium"):
        assert choose(s, BLUE, random.Random(5), level) == choose(s, BLUE, random.Random(5), level)


def test_medium_takes_the_biggest_capture() -> None:
    # Red to move (even stack count after placement parity): captures of 1 (b1) or 3 (d2) are on offer
    s = position({"a1": "R1", "b1": "B2", "d1": "R1", "d2": "B3 B2 B2", "f5": "B3"})
    assert s.to_move == RED
    assert choose(s, RED, random.Random(0), "medium") == Stacking(sq("d1"), sq("d2"))


def test_medium_never_gives_a_stack_away_when_it_need_not() -> None:
    # Red to move: a1-b1 would hand Red's pair to Blue; the other moves change nothing
    s = position({"a1": "B1", "b1": "R3 R3", "e5": "B1", "f5": "B3", "c3": "R3", "c4": "R3", "a5": "R2"})
    assert s.to_move == RED
    for seed in range(20):
        m = choose(s, s.to_move, random.Random(seed), "medium")
        assert m != Stacking(sq("a1"), sq("b1"))


@cache
def _exact_board(board: tuple) -> int:  # type: ignore[type-arg]
    s = PylonState(board, ((0, 0, 0), (0, 0, 0)))
    moves = stackings(s)
    if not moves:
        a, b = scores(s)
        m = a - b if s.to_move == 0 else b - a
        return m + 100 if m > 0 else (m - 100 if m < 0 else 0)
    best = -1000
    for mv in moves:
        nb = list(board)
        nb[mv.target] = board[mv.target] + board[mv.source]
        nb[mv.source] = ()
        best = max(best, -_exact_board(tuple(nb)))
    return best


def exact(s: PylonState) -> int:
    """Brute-force negamax value for the side to move (win first, then margin), as the AI scores it."""
    return _exact_board(s.board)


def small_endgames(n: int) -> list[PylonState]:
    rng = random.Random(11)
    out = []
    while len(out) < n:
        s = RULES.initial({}, 2)
        while RULES.to_act(s) is not None:
            moves = [m for m in RULES.legal_moves(s, s.to_move) if not isinstance(m, Agree)]
            if not s.is_placement and sum(1 for x in s.board if x) <= 16 and len(moves) >= 8:
                out.append(s)
                break
            s, _ = RULES.apply(s, s.to_move, rng.choice(moves))
    return out


def test_hard_plays_small_endgames_perfectly() -> None:
    for s in small_endgames(8):
        best = exact(s)
        m = choose(s, s.to_move, random.Random(0), "hard", budget=3.0)
        assert isinstance(m, Stacking)
        after = RULES.apply(s, s.to_move, m)[0]
        assert -exact(after) == best, f"{RULES.dump(s)}: {m} scores {-exact(after)}, best {best}"


def test_hard_sees_the_recapture_medium_walks_into() -> None:
    # Red to move. Greedy takes the Blue pair on c3 with the Red small from c2 (gain 2), but Blue's small on
    # c4 then climbs onto the new stack of 3 and wins. Covering c4 first (c3 cannot be taken back) wins.
    s = position({"c2": "R1", "c3": "B2 B2", "c4": "B1", "a5": "R3", "f1": "R2", "b3": "R3 R3 R2",
                  "e5": "R3"})
    assert s.to_move == RED
    greedy = choose(s, RED, random.Random(0), "medium")
    assert greedy == Stacking(sq("c2"), sq("c3"))
    assert -exact(RULES.apply(s, RED, greedy)[0]) < exact(s)
    m = choose(s, RED, random.Random(0), "hard", budget=1.0)
    assert -exact(RULES.apply(s, RED, m)[0]) == exact(s)


def test_hard_keeps_to_its_time_budget() -> None:
    s = full_board()
    t = time.perf_counter()
    choose(s, BLUE, random.Random(0), "hard", budget=0.3)
    assert time.perf_counter() - t < 0.6
    s = RULES.initial({}, 2)
    t = time.perf_counter()
    choose(s, RED, random.Random(0), "hard", budget=0.3)
    assert time.perf_counter() - t < 0.6


def test_bad_calls_raise() -> None:
    with pytest.raises(ValueError, match="level must be one of"):
        choose(RULES.initial({}, 2), RED, random.Random(0), "brutal")
    with pytest.raises(ValueError, match="no move to make"):
        choose(RULES.initial({}, 2), BLUE, random.Random(0), "easy")


def test_computer_accepts_agreement_only_when_it_does_not_lose_by_it() -> None:
    # Red leads 4-1; the only moves left merge Red's own stacks, so nothing can change
    s = position({"a1": "R1", "a2": "R3", "c3": "R2", "f5": "B1", "f1": "R1"}, agreed=(False, True))
    mover = s.to_move
    assert mover == RED
    for level in ("easy", "medium", "hard"):
        assert choose(s, RED, random.Random(0), level, budget=0.2) == AGREE
    # Red, behind 1-5 but able to draw by taking c3 with c4, does not agree (medium: it is behind)
    t = position({"a1": "B1", "a2": "B3", "c3": "B3 B2", "c4": "R1", "f1": "B1"}, agreed=(False, True))
    assert t.to_move == RED
    assert not isinstance(choose(t, RED, random.Random(0), "medium"), Agree)
    assert not wants_to_agree(t, RED, random.Random(0), "hard", budget=0.2)
    # nobody agrees during placement
    assert not wants_to_agree(RULES.initial({}, 2), BLUE, random.Random(0), "hard")


def test_hard_takes_the_winning_last_move() -> None:
    # Red to move, behind 3-4. c2-c3 puts Red's small on Blue's stack of 3 and ends the game 6-1;
    # c2-c1 ends it 4-3; c1-c2 hands c2 to Blue, who then wins. Even the smallest search takes c2-c3.
    s = position({"c3": "B3 B3 B3", "c2": "R1", "c1": "B1", "f5": "R3", "a1": "R3"})
    assert s.to_move == RED and scores(s) == (3, 4)
    for budget in (0.01, 0.2):
        m = choose(s, RED, random.Random(0), "hard", budget=budget, cap=30.0)
        assert m == Stacking(sq("c2"), sq("c3"))
        after = RULES.apply(s, RED, m)[0]
        assert RULES.outcome(after) is not None and scores(after) == (6, 1)


def _late_placement() -> PylonState:
    rng = random.Random(4)
    s = RULES.initial({}, 2)
    for _ in range(28):  # 2 squares left: placement is searched across the start of stacking
        s = RULES.apply(s, s.to_move, rng.choice(RULES.legal_moves(s, s.to_move)))[0]
    return s


@pytest.mark.parametrize("which", ["opening", "late placement", "stacking"])
def test_hard_is_deterministic_for_a_seed(which: str) -> None:
    s = {"opening": RULES.initial({}, 2), "late placement": _late_placement(),
         "stacking": full_board()}[which]
    # a fixed amount of work (scaled down by budget), with a cap far away: the clock plays no part
    moves = {choose(s, s.to_move, random.Random("match:ai:7"), "hard", budget=0.05, cap=60.0)
             for _ in range(3)}
    assert len(moves) == 1
    assert next(iter(moves)) in RULES.legal_moves(s, s.to_move)



def test_the_playouts_draw_splitmix64() -> None:
    # The reference outputs of SplitMix64 from state 0 (Vigna's splitmix64.c), read through below(2**32).
    from bot.games.pylon.ai import _SplitMix

    g = _SplitMix(0)
    assert [g.below(2**32) for _ in range(3)] == [0xE220A839, 0x6E789E6A, 0x06C45D18]
    g = _SplitMix(12345)
    assert all(0 <= g.below(n) < n for n in (1, 2, 3, 7, 30) for _ in range(200))


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_keeps_the_pieces_and_scores_a_real_game(seed: int) -> None:
    """The placement judge's playouts: from the seat's and the other seat's view the margins are opposite,
    each game's margin is within the 30 pyramids, and one playout from a board with nothing left to place
    is the greedy stacking ``medium`` plays from there."""
    from bot.games.pylon import ai

    s = RULES.initial({}, 2)
    rng = random.Random(seed)
    while s.placed < 12 + 3 * seed:
        s = successor(s, s.to_move, choose(s, s.to_move, rng, "easy"))
    top = [st[-1][0] if st else -1 for st in s.board]
    ts = [st[-1][1] if st else 0 for st in s.board]
    stash = [*s.stash[0], *s.stash[1]]
    for state in range(20):
        mine, after = ai._playouts_python(top, ts, stash, s.to_move, 0, 1, state)
        theirs, after2 = ai._playouts_python(top, ts, stash, s.to_move, 1, 1, state)
        assert mine == -theirs and after == after2 and abs(mine) <= 30 and mine % 2 == 0
    while s.is_placement:
        s = successor(s, s.to_move, choose(s, s.to_move, rng, "easy"))
    full = ([st[-1][0] for st in s.board], [st[-1][1] for st in s.board], [0] * 6)
    margin, _ = ai._playouts_python(*full, 0, 0, 1, 7)
    g = ai._SplitMix(7)  # medium's stacking with the same random ties
    while RULES.to_act(s) is not None:
        h, top2, ts2, bs2 = ai._arrays(s)
        pick = ai._greedy_stacking(h, top2, ts2, bs2, s.to_move, g)
        assert pick is not None
        s = successor(s, s.to_move, Stacking(*pick))
    sc = scores(s)
    assert margin == sc[0] - sc[1]


def test_the_placement_judge_ends_compiled_playouts_by_the_search_and_python_ones_by_stacking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Compiled, each quick game is judged when the board is full (the search's weight table, PLAYOUT_QDEPTH
    # captures); in pure Python it is stacked to the end (the judged ending would not fit the time cap).
    from bot.games.pylon import ai, search

    s = _late_placement()
    pos = ai._judged(s)
    seen: list[tuple[object, ...]] = []
    python = ai._playouts_python

    def spy(*args: Any) -> tuple[int, int]:
        seen.append(args[8:])
        return python(*args)

    monkeypatch.setattr(ai, "PLAYOUTS", spy)  # stands for a compiled one
    total, done, _, late = ai._judge(pos, s.to_move, 0, 5, 9, 1e18)
    assert done == 5 and not late
    assert seen == [(search.weight_table(), ai.PLAYOUT_QDEPTH, search.WIN)]
    assert total == python(*pos, s.to_move, 0, 5, 9, ai._NB, search.weight_table(), 2, search.WIN)[0]
    seen.clear()
    monkeypatch.setattr(ai, "_playouts_python", spy)  # PLAYOUTS is now the pure-Python function
    total, done, _, _ = ai._judge(pos, s.to_move, 0, 20, 9, 1e18)
    assert done == 20 and seen == [(), ()]  # 16 at a time, checking the clock in between
    assert total == python(*pos, s.to_move, 0, 16, 9)[0] + python(*pos, s.to_move, 0, 4,
                                                                  python(*pos, s.to_move, 0, 16, 9)[1])[0]
