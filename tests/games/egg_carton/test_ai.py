"""Computer opponents: legal picks, the expert's first-turn win, lower levels not playing perfectly."""

from __future__ import annotations

import random

import pytest

from bot.games.egg_carton import RULES, choose
from bot.games.egg_carton.ai import LEVEL_SETTINGS, Level, Searcher, sow_ring, to_board, to_pick
from bot.games.egg_carton.rules import LEVELS, EggCartonState

from .helpers import position

pytestmark = pytest.mark.unit


def play_turn(s: EggCartonState, level: str, rng: random.Random) -> tuple[EggCartonState, list[str]]:
    """Let ``level`` play one whole turn (all its picks); return the state and its picks."""
    seat, picks = s.to_move, []
    while True:
        move = choose(s, seat, rng, level)
        assert move in RULES.legal_moves(s, seat)
        picks.append(str(move))
        s, _ = RULES.apply(s, seat, move)
        if s.winner is not None or s.to_move != seat:
            return s, picks


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_picks_to_the_end_of_a_game(level):
    rng = random.Random(7)
    s = RULES.initial({"marbles": "2"}, 2)
    for _ in range(300):
        if s.winner is not None:
            break
        s, _ = play_turn(s, level if s.to_move == 0 else "novice", rng)
    assert s.winner is not None


@pytest.mark.parametrize("marbles", [2, 3, 4, 5])
def test_expert_moving_first_wins_on_the_first_turn(marbles):
    s, picks = play_turn(RULES.initial({"marbles": str(marbles)}, 2), "expert", random.Random(marbles))
    assert s.winner == 0 and s.turn == 1, picks


@pytest.mark.parametrize("level", ["novice", "beginner", "intermediate"])
@pytest.mark.parametrize("marbles", [2, 3, 4, 5])
def test_lower_levels_do_not_win_at_once(level, marbles):
    for seed in range(4):
        s, picks = play_turn(RULES.initial({"marbles": str(marbles)}, 2), level, random.Random(seed))
        assert s.winner is None, f"{level} won at once with {marbles}: {picks}"


def test_expert_as_player_2_uses_its_own_side():
    s, _ = play_turn(RULES.initial({"marbles": "3"}, 2), "novice", random.Random(1))
    assert s.to_move == 1
    move = choose(s, 1, random.Random(0), "expert")
    assert move.slot >= 6 and move in RULES.legal_moves(s, 1)


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_takes_a_short_win(level):
    # E (1) -> F (1 -> 2): relay: right zone, I (empty): the turn stops with A-F empty, a win.
    # F first would go off the board and leave E behind.
    s = position("- - - - 1 1", "1 1 1 1 1 -")
    s, picks = play_turn(s, level, random.Random(0))
    assert s.winner == 0 and picks == ["E"]


def test_intermediate_and_expert_avoid_handing_over_an_immediate_win():
    # Every pick ends the turn at once; after B, C or D Player 2 has a win within a few picks,
    # after A (relay B -> C, D) they have none at all.
    s = position("1 1 1 1 - -", "3 1 1 - - -", marbles=2, off=(8, 7))
    searcher = Searcher(LEVEL_SETTINGS["expert"])
    for move in RULES.legal_moves(s, 0):
        t, _ = RULES.apply(s, 0, move)
        assert t.to_move == 1
        assert (searcher.options(to_board(t), None).win is None) == (str(move) == "A")
    for level in ("intermediate", "expert"):
        for seed in range(3):
            assert str(choose(s, 0, random.Random(seed), level)) == "A"


def test_follow_up_picks_of_a_planned_turn_are_remembered():
    s = RULES.initial({"marbles": "3"}, 2)
    rng = random.Random(3)
    first = choose(s, 0, rng, "expert")
    s1, _ = RULES.apply(s, 0, first)
    assert s1.again
    # the plan continues from the state after the first pick, whatever the rng says now
    assert choose(s1, 0, random.Random(99), "expert") == choose(s1, 0, random.Random(5), "expert")


def test_choose_rejects_bad_calls():
    s = RULES.initial({}, 2)
    with pytest.raises(ValueError, match="Unknown level"):
        choose(s, 0, random.Random(0), "grandmaster")
    with pytest.raises(ValueError, match="no pick"):
        choose(s, 1, random.Random(0), "expert")


def test_ring_sowing_agrees_with_the_engine():
    rng = random.Random(11)
    s = RULES.initial({"marbles": "4"}, 2)
    for _ in range(200):
        if s.winner is not None:
            break
        move = rng.choice(RULES.legal_moves(s, s.to_move))
        b = list(to_board(s))
        cell = move.slot if s.to_move == 0 else move.slot - 6
        assert to_pick(cell, s.to_move) == move
        again = sow_ring(b, cell)
        t, _events = RULES.apply(s, s.to_move, move)
        if t.winner is None:
            assert again == t.again
            seen_from_mover = b if t.to_move == s.to_move else b[7:] + b[:7]
            assert tuple(seen_from_mover) == to_board(t)
        s = t


def test_levels_are_configured_in_order():
    assert set(LEVEL_SETTINGS) == {"beginner", "intermediate", "expert"}
    assert all(isinstance(lv, Level) for lv in LEVEL_SETTINGS.values())
    assert LEVEL_SETTINGS["expert"].root_cap is None     # sees every win in its own turn
    assert LEVEL_SETTINGS["beginner"].root_cap and LEVEL_SETTINGS["intermediate"].root_cap
