"""Where it turned (issue #29): the review marks a planted blunder, in Fire and Ice (the hard level's
search) and in an Egg Carton endgame (the exact solver); thresholds; no review for Pylon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.egg_carton import RULES as EGG
from bot.games.fire_and_ice import RULES as FIRE
from bot.games.fire_and_ice.ai import WON, evaluate
from bot.review import BLUNDER, INACCURACY, MISTAKE, ReviewJob, Turn, classify, expected, review

PLANTED = ["D4-D7", "D4-D1", "D7-D5", "D7-G7", "D7-D3", "D1-D6", "D1-G1", "D6-F6", "D6-G6", "G7-E7", "G7-G4",
           "G7-G2", "G7-B7", "G2-D2", "G2-B2", "D1-F1", "B2-A2", "F6-C6", "D1-B1", "C6-A6", "C6-B6", "G7-F7",
           "B7-B4"]
"""A Fire and Ice game (Fire: the search's best move; Ice: the medium level) where Fire, with a forced win
found before move 17, plays ``B2-A2`` instead: the planted blunder. Fire still wins later (Ice is weak)."""
BLUNDER_STEP = 17


def fire_job(moves: list[str]) -> tuple[ReviewJob, object]:
    s = FIRE.initial({"handicap": "0"}, 2)
    turns = []
    for i, n in enumerate(moves):
        seat = s.to_move
        turns.append(Turn(i + 1, seat, s, n))
        s, _ = FIRE.apply(s, seat, FIRE.parse(n, s, seat))
    return ReviewJob("fireandice", tuple(turns), s), turns[BLUNDER_STEP - 1].state


def test_a_planted_fire_and_ice_blunder_is_marked_with_the_win_it_gave_up():
    job, before = fire_job(PLANTED)
    assert evaluate(before, 0).score >= WON  # the position was won for Fire
    rv = review(job)
    assert rv.judged == rv.moves == len(PLANTED)
    mark = rv.at(BLUNDER_STEP)
    assert mark is not None and mark.seat == 0 and mark.played == "B2-A2"
    assert mark.kind == "blunder" and mark.why == "keeps the win"
    better = FIRE.parse(mark.better, before, 0)
    after, _ = FIRE.apply(before, 0, better)
    assert evaluate(after, 1).score <= -WON  # the suggested move keeps it won
    # the winning moves of the same game are not marked (moves 19 on: Fire converts)
    assert all(m.step < 19 or m.seat == 1 for m in rv.marks)
    assert evaluate(before, 0) == evaluate(before, 0)  # node budgets, not the clock: the same every time


def test_fire_and_ice_thresholds():
    assert expected(0, WON) == 0.5 and expected(WON, WON) == 1.0 and expected(-WON, WON) == 0.0
    assert classify(100.0, 90.0, None, WON) is None
    kinds = [classify(0.0, -x, None, WON) for x in (210.0, 450.0, 800.0)]
    assert [k[0] for k in kinds if k] == ["inaccuracy", "mistake", "blunder"]
    assert INACCURACY < MISTAKE < BLUNDER
    assert classify(WON + 5, 300.0, None, WON) == ("blunder", "keeps the win")
    assert classify(WON + 5, 300.0, WON + 1, WON) is None  # the next position still shows the win: slower
    assert classify(-300.0, -WON - 1, -WON - 1, WON) == ("blunder", "avoids the forced loss")


def egg_puzzle(pid: str):
    data = json.loads((Path(__file__).parent.parent / "bot/puzzles/puzzles.json").read_text())
    p = next(x for x in data["puzzles"] if x["id"] == pid)
    return EGG.load(p["state"]), p["seat"]


def test_a_planted_egg_carton_endgame_blunder_is_marked_and_earlier_picks_are_not_judged():
    s, seat = egg_puzzle("eggcarton-1")  # won for seat 0 by E
    start = EGG.initial({}, 2)
    first = EGG.legal_moves(start, start.to_move)[0]
    after_first, _ = EGG.apply(start, start.to_move, first)
    bad = EGG.parse("F", s, seat)
    after, _ = EGG.apply(s, seat, bad)
    job = ReviewJob("eggcarton", (Turn(1, start.to_move, start, EGG.format(first, start)),
                                  Turn(40, seat, s, "F")), after)
    rv = review(job)
    assert rv.moves == 2 and rv.judged == 1  # the opening pick is beyond the solver
    (mark,) = rv.marks
    assert (mark.step, mark.kind, mark.better, mark.why) == (40, "blunder", "E", "keeps the win")
    good, _ = EGG.apply(s, seat, EGG.parse("E", s, seat))
    assert review(ReviewJob("eggcarton", (Turn(40, seat, s, "E"),), good)).marks == ()
    assert after_first is not None


def test_no_review_for_pylon():
    with pytest.raises(ValueError, match="not measured strong"):
        review(ReviewJob("pylon", (), None))
