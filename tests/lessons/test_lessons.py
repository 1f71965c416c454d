"""Every lesson step: its position is a real one, the move it asks for is legal there and does what the
caption teaches, and the wrong try is refused with the hint (the checker is pure: no discord)."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.lessons import LESSONS, check, position
from bot.lessons.core import Verdict

STEPS = [(game, i) for game, lesson in LESSONS.items() for i in range(len(lesson))]


def test_every_lesson_has_five_to_eight_steps_and_ends_with_a_real_game():
    assert set(LESSONS) == {"pylon", "fireandice", "eggcarton", "eof", "nomic"}
    for lesson in LESSONS.values():
        assert 5 <= len(lesson) <= 8
        if GAMES[lesson.game].spec.ai_levels:
            assert lesson.finish == "Play the computer now"
        else:  # EOF and Nomic World have no computer player: a lobby
            assert lesson.finish == "Start a lobby"


def legal_notations(game, state, seat):
    """The legal moves' notation; EOF's programs and Nomic's proposals are too many to list, so those
    games check a move by playing it in the engine (``parse`` checks legality, ``apply`` plays it)."""
    rules = GAMES[game].rules
    if game in ("eof", "nomic"):
        return None
    return {rules.format(m, state) for m in rules.legal_moves(state, seat)}


def assert_legal(game, state, seat, text):
    rules = GAMES[game].rules
    move = rules.parse(text, state, seat)
    legal = legal_notations(game, state, seat)
    if legal is None:
        rules.apply(state, seat, move)  # raises if illegal
    else:
        assert rules.format(move, state) in legal


@pytest.mark.parametrize(("game", "index"), STEPS)
def test_the_asked_move_is_legal_in_the_position_and_the_taught_rule_applies(game, index):
    lesson = LESSONS[game]
    step = lesson.steps[index]
    rules = GAMES[game].rules
    state = position(lesson, index)
    assert rules.to_act(state) == frozenset({step.seat})  # the learner is the one to move
    verdict = check(lesson, index, step.solution)
    assert verdict.ok, verdict.message
    assert_legal(game, state, step.seat, verdict.notation)
    assert step.accepts(state, verdict.after, verdict.notation)
    assert verdict.message == step.after


@pytest.mark.parametrize(("game", "index"), STEPS)
def test_a_wrong_try_is_legal_but_refused_with_the_hint(game, index):
    lesson = LESSONS[game]
    step = lesson.steps[index]
    rules = GAMES[game].rules
    state = position(lesson, index)
    verdict = check(lesson, index, step.wrong)
    assert not verdict.ok and step.hint in verdict.message
    assert_legal(game, state, step.seat, step.wrong)  # a click can make it
    assert rules.to_act(state) == frozenset({step.seat})


def test_an_illegal_or_unreadable_try_gets_the_engines_reason_and_the_hint():
    lesson = LESSONS["pylon"]
    verdict: Verdict = check(lesson, 1, "b2-b1")  # b1 is empty: stacks only move onto stacks
    assert not verdict.ok and verdict.message.startswith("Not quite:")
    assert lesson.steps[1].hint in verdict.message
    assert not check(lesson, 0, "xyzzy").ok


def test_set_ups_are_pure_each_call_builds_the_same_position():
    for game, lesson in LESSONS.items():
        for i in range(len(lesson)):
            assert lesson.steps[i].setup() == lesson.steps[i].setup() == position(lesson, i), (game, i)
            assert position(lesson, i) is position(lesson, i)  # built once, then reused


def test_eof_positions_are_consistent_and_programs_have_two_instructions():
    rules, lesson = GAMES["eof"].rules, LESSONS["eof"]
    for i in range(len(lesson)):
        s = position(lesson, i)
        assert rules.load(rules.dump(s)) == s  # the pieces add up to the set; a real programming phase
        assert s.required_length(0) == 2 and s.phase.value == "program"


def test_what_the_eof_and_nomic_steps_teach_really_happens():
    eof, nomic = LESSONS["eof"], LESSONS["nomic"]
    ran = check(eof, 0, "Y1R Y2R")
    assert [e.kind for e in ran.events].count("step") == 2  # both instructions ran in the engine
    assert " ".join(map(str, ran.after.file)) == "R1 R2"
    assert ran.after.last_round.points[0] == 4  # a file of only your records: twice its length
    # green moves the pointer; a sorted three in a row scores 5, an unsorted one 3
    assert check(eof, 1, "G2R Y3R").after.last_round.points[0] == 5
    rules = GAMES["eof"].rules

    def played(i, text):
        s = position(eof, i)
        return rules.apply(s, 0, rules.parse(text, s, 0))[0]

    assert played(1, "Y3R G2R").last_round.points[0] == 3
    # a wrong orientation crashes: no points
    crashed = played(3, "B3R G1U")
    assert crashed.last_round.crashed[0] and crashed.last_round.points[0] == 0
    assert check(eof, 4, "Y1R G1U").after.last_round.points[0] == 8  # the hill
    assert rules.outcome(check(eof, 5, "Y3R G1U").after).winners == frozenset({0})
    # Nomic World: landing reveals, a proposal gets the next number, all ✅ adopts, the end rule ends it
    moved = check(nomic, 0, "EEN").after
    assert moved.revealed == (((2, 1), "Wood"),) and moved.phase == "propose"
    assert check(nomic, 1, nomic.steps[1].solution).after.records[-1].number == 201
    assert GAMES["nomic"].rules.outcome(check(nomic, 5, "vote yes").after) is not None


def test_what_the_steps_teach_really_happens():
    pylon, fire, egg = LESSONS["pylon"], LESSONS["fireandice"], LESSONS["eggcarton"]
    # Fire and Ice: the vacated point gets an opponent piece; step 4's wrong move would hand Ice the win
    after = check(fire, 0, "D4-D1").after
    assert after.board[3 * 7 + 3] == 1 and after.board[3 * 7] == 0
    fire_rules = GAMES["fireandice"].rules
    s = position(fire, 3)
    lost, _ = fire_rules.apply(s, 0, fire_rules.parse("G7-E7", s, 0))
    assert fire_rules.outcome(lost).winners == frozenset({1})
    # the Egg Carton Game: a relay picks up the landing slot, an end-zone finish picks again
    assert any(e.kind == "relay" for e in check(egg, 1, "A").events)
    assert any(e.kind == "relay" for e in check(egg, 2, "F").events)
    assert check(egg, 3, "F").after.again and check(egg, 4, "E").after.winner == 0
    # Pylon: the capture takes the whole Blue stack; the last step's move ends the game
    assert GAMES["pylon"].rules.outcome(check(pylon, 4, "a1-a2").after) is not None
