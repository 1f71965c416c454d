"""The run of plies one side played in a row (what the board's "Last:" line names)."""

import pytest

from bot.games.base import CHANCE
from bot.matches.service import TURN_RUN, MatchService
from bot.storage import MoveRecord

pytestmark = pytest.mark.unit


def mv(seat: int, text: str) -> MoveRecord:
    return MoveRecord(0, seat, None, text, 0.0)


def test_a_run_grows_while_the_same_side_moves_and_restarts_with_the_other() -> None:
    run = MatchService._turn_run(None, [mv(0, "L a1")])
    assert run == [[0, "L a1"]]
    run = MatchService._turn_run(run, [mv(0, "a1-a2")])      # the same side again: both are kept
    assert run == [[0, "L a1"], [0, "a1-a2"]]
    run = MatchService._turn_run(run, [mv(1, "b1-b2")])      # the other side: a new run
    assert run == [[1, "b1-b2"]]


def test_chance_does_not_break_a_run_and_the_run_is_capped() -> None:
    run = MatchService._turn_run([[0, "roll"]], [mv(CHANCE, "4"), mv(0, "N")])
    assert run == [[0, "roll"], [CHANCE, "4"], [0, "N"]]
    for i in range(TURN_RUN + 5):
        run = MatchService._turn_run(run, [mv(0, f"m{i}")])
    assert len(run) == TURN_RUN and run[-1] == [0, f"m{TURN_RUN + 4}"]
