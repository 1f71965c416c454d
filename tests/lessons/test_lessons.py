"""Every lesson step: its position is a real one, the move it asks for is legal there and does what the
caption teaches, and the wrong try is refused with the hint (the checker is pure: no discord)."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.lessons import LESSONS, check, position
from bot.lessons.core import Verdict

STEPS = [(game, i) for game, lesson in LESSONS.items() for i in range(len(lesson))]


def test_every_lesson_has_five_to_eight_steps_and_ends_with_a_real_game():
    assert set(LESSONS) == {"pylon", "fireandice", "eggcarton"}
    for lesson in LESSONS.values():
        assert 5 <= len(lesson) <= 8
        assert lesson.finish == "Play the computer now" and GAMES[lesson.game].spec.ai_levels


@pytest.mark.parametrize(("game", "index"), STEPS)
def test_the_asked_move_is_legal_in_the_position_and_the_taught_rule_applies(game, index):
    lesson = LESSONS[game]
    step = lesson.steps[index]
    rules = GAMES[game].rules
    state = position(lesson, index)
    assert rules.to_act(state) == frozenset({step.seat})  # the learner is the one to move
    legal = {rules.format(m, state) for m in rules.legal_moves(state, step.seat)}
    verdict = check(lesson, index, step.solution)
    assert verdict.ok and verdict.notation in legal, verdict.message
    assert step.accepts(state, verdict.after, verdict.notation)
    assert verdict.message == step.after


@pytest.mark.parametrize(("game", "index"), STEPS)
def test_a_wrong_try_is_legal_but_refused_with_the_hint(game, index):
    lesson = LESSONS[game]
    step = lesson.steps[index]
    rules = GAMES[game].rules
    state = position(lesson, index)
    legal = {rules.format(m, state) for m in rules.legal_moves(state, step.seat)}
    verdict = check(lesson, index, step.wrong)
    assert not verdict.ok and step.hint in verdict.message
    assert rules.format(rules.parse(step.wrong, state, step.seat), state) in legal  # a click can make it


def test_an_illegal_or_unreadable_try_gets_the_engines_reason_and_the_hint():
    lesson = LESSONS["pylon"]
    verdict: Verdict = check(lesson, 1, "b2-b1")  # b1 is empty: stacks only move onto stacks
    assert not verdict.ok and verdict.message.startswith("Not quite:")
    assert lesson.steps[1].hint in verdict.message
    assert not check(lesson, 0, "xyzzy").ok


def test_set_ups_are_pure_each_call_builds_the_same_position():
    for game, lesson in LESSONS.items():
        for i in range(len(lesson)):
            assert position(lesson, i) == position(lesson, i), (game, i)


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
