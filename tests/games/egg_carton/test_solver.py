"""The exact endgame solver: against brute force, and the expert keeping won endgames."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.games.egg_carton import RULES, choose
from bot.games.egg_carton import solver as solver_module
from bot.games.egg_carton.ai import LEVEL_SETTINGS, to_board, to_pick
from bot.games.egg_carton.rules import LEVELS, EggCartonState
from bot.games.egg_carton.solver import OutOfBudget, Solver, children, sow, winning_turn

from .helpers import position

pytestmark = pytest.mark.unit


def brute_force(s: EggCartonState) -> bool:
    """Won for the player to pick? Plain minimax through the engine, pick by pick, no table."""
    for move in RULES.legal_moves(s, s.to_move):
        t, _ = RULES.apply(s, s.to_move, move)
        if t.winner is not None:
            if t.winner == s.to_move:
                return True
        elif t.to_move == s.to_move:
            if brute_force(t):
                return True
        elif not brute_force(t):
            return True
    return False


def random_position(rng: random.Random, marbles: int) -> EggCartonState:
    """``marbles`` marbles dropped at random, both sides holding some, player to move at random."""
    while True:
        slots = [0] * 12
        for _ in range(marbles):
            slots[rng.randrange(12)] += 1
        if any(slots[:6]) and any(slots[6:]):
            return EggCartonState(slots=tuple(slots), to_move=rng.randrange(2), marbles=1)


def endgame(rng: random.Random, max_marbles: int) -> EggCartonState:
    """A turn-start position with at most ``max_marbles`` on the board, from a random game."""
    while True:
        s = RULES.initial({"marbles": str(rng.randint(2, 4))}, 2)
        starts = []
        while s.winner is None:
            if not s.again and sum(s.slots) <= max_marbles:
                starts.append(s)
            s, _ = RULES.apply(s, s.to_move, rng.choice(RULES.legal_moves(s, s.to_move)))
        if starts:
            return rng.choice(starts)


def play_turn(s: EggCartonState, level: str, rng: random.Random) -> tuple[EggCartonState, list[str]]:
    seat, picks = s.to_move, []
    while True:
        move = choose(s, seat, rng, level)
        picks.append(str(move))
        s, _ = RULES.apply(s, seat, move)
        if s.winner is not None or s.to_move != seat:
            return s, picks


def ring(s: EggCartonState) -> bytes:
    return bytes(to_board(s))


def test_solver_agrees_with_brute_force_on_small_positions():
    rng = random.Random(32)
    solver = Solver()
    won = 0
    for _ in range(250):
        s = random_position(rng, rng.randint(2, 7))
        expected = brute_force(s)
        assert solver.wins(ring(s)) == expected, s.slots
        assert Solver().wins(ring(s)) == expected          # a cold table agrees with a warm one
        won += expected
    assert 50 < won < 200                                   # both answers are exercised


def test_winning_turn_keeps_the_win_and_lost_positions_have_none():
    rng = random.Random(5)
    for _ in range(80):
        s = random_position(rng, rng.randint(3, 8))
        plan = winning_turn(ring(s))
        assert (plan is not None) == brute_force(s)
        if plan is None:
            continue
        seat = s.to_move
        for cell in plan:
            assert s.winner is None and s.to_move == seat
            s, _ = RULES.apply(s, seat, to_pick(cell, seat))
        assert s.winner == seat or (s.to_move != seat and not brute_force(s))


def test_ring_sowing_and_children_agree_with_the_engine():
    rng = random.Random(8)
    for _ in range(200):
        s = random_position(rng, rng.randint(2, 30))
        win, picks = children(ring(s))
        by_cell = {c: (again, nxt) for c, again, nxt in picks}
        for move in RULES.legal_moves(s, s.to_move):
            cell = move.slot % 6
            t, _ = RULES.apply(s, s.to_move, move)
            if t.winner is None:
                assert sow(bytearray(ring(s)), cell) == t.again
            if t.winner == s.to_move:
                assert win is not None
            elif win is None:
                again, nxt = by_cell[cell]
                assert again == t.again and nxt == ring(t)


def test_small_table_and_node_budget():
    rng = random.Random(3)
    states = [endgame(rng, 11) for _ in range(8)]
    big = Solver()
    small = Solver(max_entries=300)                         # cleared many times over, still exact
    for s in states:
        assert small.wins(ring(s)) == big.wins(ring(s))
        assert len(small.table) <= 300
    hard = max(states, key=lambda s: _nodes(ring(s)))
    tight = Solver()
    tight.node_budget = 3
    with pytest.raises(OutOfBudget):
        tight.wins(ring(hard))
    # a budget too small gives no plan rather than a guess, the same every time
    assert winning_turn(ring(hard), node_budget=3) is None
    assert winning_turn(ring(hard), node_budget=3) is None


def _nodes(b: bytes) -> int:
    sv = Solver()
    sv.wins(b)
    return sv.nodes


def test_win_in_one_turn_is_taken():
    # E (1) -> F (1 -> 2): relay: right zone, I (empty): the turn stops with A-F empty.
    s = position("- - - - 1 1", "1 1 1 1 1 -")
    assert winning_turn(ring(s)) == (4,)
    # with 3 marbles a win takes 9 picks on the very first turn: the expert plays one
    s, picks = play_turn(RULES.initial({"marbles": "3"}, 2), "expert", random.Random(1))
    assert s.winner == 0 and s.turn == 1 and len(picks) == 9


# Won positions where the expert before the solver ended its turn lost
# (bench/eggcarton_exact.py --compare, every seed tried): slots A–F, I–N and the seat to move.
THROWN_BEFORE = [
    ((2, 0, 0, 0, 1, 0, 1, 2, 0, 1, 5, 0), 1),
    ((1, 1, 1, 6, 2, 0, 0, 1, 0, 2, 1, 0), 1),
    ((1, 2, 0, 4, 0, 1, 1, 1, 0, 0, 1, 2), 0),
    ((1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 2), 1),
    ((1, 2, 3, 0, 3, 0, 0, 3, 1, 2, 0, 1), 0),
]


@pytest.mark.parametrize(("slots", "seat"), THROWN_BEFORE)
def test_expert_keeps_wins_the_old_search_threw(slots, seat):
    s = EggCartonState(slots=slots, to_move=seat, marbles=1)
    assert Solver().wins(ring(s))
    for k in range(3):
        t, picks = play_turn(s, "expert", random.Random(k))
        assert t.winner == seat or not Solver().wins(ring(t)), picks


def test_expert_plays_the_solvers_turn_on_won_endgames():
    rng = random.Random(2024)
    solver = Solver()
    checked = 0
    while checked < 25:
        s = endgame(rng, 16)
        if not solver.wins(ring(s)):
            continue
        plan = winning_turn(ring(s))
        assert plan is not None
        t, picks = play_turn(s, "expert", random.Random(checked))
        # a win within the turn comes first (the expert's own-turn search); otherwise the solver's turn
        if t.winner is None:
            assert picks == [str(to_pick(c, s.to_move)) for c in plan]
            assert not solver.wins(ring(t))
        else:
            assert t.winner == s.to_move
        checked += 1


def test_expert_is_deterministic_for_a_seed():
    rng = random.Random(9)
    states = [endgame(rng, 24) for _ in range(4)]
    for s in states:
        a = play_turn(s, "expert", random.Random(77))[1]
        b = play_turn(s, "expert", random.Random(77))[1]
        assert a == b
    assert LEVEL_SETTINGS["expert"].solve_budgets[0] == (16, 100_000)
    assert LEVEL_SETTINGS["beginner"].solve_budgets == LEVEL_SETTINGS["intermediate"].solve_budgets == ()


def test_rules_text_states_each_levels_time_per_move():
    text = (Path(solver_module.__file__).parent / "rules_text.md").read_text()
    line = next(x for x in text.splitlines() if x.startswith("• `level`"))
    times = line.split("Time per move:")[1]
    for level in LEVELS:
        assert re.search(rf"{level}[a-z ]*(instant|under [\d.]+ s)", times), level
    assert "16 marbles" in line                        # the expert's exact range
