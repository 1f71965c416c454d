"""Fire and Ice computer opponents: legality, tactics, time budget."""

from __future__ import annotations

import random
import time

import pytest

from bot.games.fire_and_ice import ai, choose
from bot.games.fire_and_ice.rules import RULES, Pass, State, gives_opponent_win, wins_now
from tests.games.fire_and_ice.util import position

pytestmark = pytest.mark.unit

# Fire to move can win at once with G7-E7 (A and B held, E needs its 7).
WIN_IN_ONE = {"A": "FF--F--", "B": "FF--F--", "E": "----FF-", "G": "------F", "D": "---I---"}
# Fire to move must not move G7: the Ice piece appearing there would complete Ice's A, C, G.
DONT_MOVE_G7 = {"A": "II--I--", "C": "II--I--", "G": "----IIF", "D": "F------"}
# Ice threatens B7-G7 (A, C held; G has 5 and 6); Fire's only defence is D7-G7.
MUST_BLOCK = {"A": "II--I--", "C": "II--I--", "G": "----II-", "B": "------I", "D": "------F", "E": "F------"}


def midgame(seed: int = 3, plies: int = 16) -> State:
    rng = random.Random(seed)
    s = RULES.initial({}, 2)
    for _ in range(plies):
        s, _ = RULES.apply(s, s.to_move, ai.choose(s, s.to_move, rng, "medium"))
        assert RULES.outcome(s) is None
    return s


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_legal_moves(level: str) -> None:
    rng = random.Random(1)
    for s in (RULES.initial({}, 2), midgame()):
        move = choose(s, s.to_move, rng, level, budget=0.1)
        assert move in RULES.legal_moves(s, s.to_move)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_takes_a_win_in_one(level: str) -> None:
    s = position(WIN_IN_ONE)
    for seed in range(3):
        assert wins_now(s, choose(s, 0, random.Random(seed), level, budget=0.2))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_never_hands_the_opponent_the_win(level: str) -> None:
    s = position(DONT_MOVE_G7)
    for seed in range(5):
        move = choose(s, 0, random.Random(seed), level, budget=0.2)
        assert not gives_opponent_win(s, move)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_blocks_an_immediate_loss(level: str) -> None:
    s = position(MUST_BLOCK)
    for seed in range(3):
        assert str(choose(s, 0, random.Random(seed), level, budget=0.2)) == "D7-G7"


def test_easy_is_random() -> None:
    s = RULES.initial({}, 2)
    seen = {str(choose(s, 0, random.Random(seed), "easy")) for seed in range(40)}
    assert len(seen) > 5


def test_hard_stays_within_its_budget() -> None:
    s = midgame(5, 12)
    start = time.perf_counter()
    choose(s, s.to_move, random.Random(0), "hard", budget=0.25)
    assert time.perf_counter() - start < 0.25 + 0.3
    assert ai.HARD_BUDGET <= 1.0 and ai.MAX_BUDGET == 2.0


def test_a_stuck_side_passes() -> None:
    s = position({"A": "FIIIIII", "B": "I------", "C": "I------", "D": "I------", "E": "I------",
                  "F": "I------", "G": "I------"})
    assert choose(s, 0, random.Random(0), "hard") == Pass()


def test_bad_requests_are_rejected() -> None:
    s = RULES.initial({}, 2)
    with pytest.raises(ValueError, match="Unknown Fire and Ice level"):
        choose(s, 0, random.Random(0), "grandmaster")
    with pytest.raises(ValueError, match="not to move"):
        choose(s, 1, random.Random(0), "easy")


def test_evaluation_is_antisymmetric() -> None:
    s = midgame(7, 10)
    me, op, _, _ = ai._position(s, 0)
    assert ai._evaluate(me, op) == pytest.approx(-ai._evaluate(op, me))
