"""The first player's immediate wins (rulings.md): exhaustive search of the first turn."""

from __future__ import annotations

import pytest

from bot.games.egg_carton import RULES
from bot.games.egg_carton.rules import EggCartonState

from .helpers import play

pytestmark = pytest.mark.unit

WINS_WITH_3 = {"D E A B F C F D E", "D E D B A B D E F", "D E D B A B D F E F"}


def first_turns(s: EggCartonState, seq: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], bool]]:
    """Every complete first turn from ``s``: (picks, won), exploring every rule-A repeat."""
    out = []
    for move in RULES.legal_moves(s, s.to_move):
        t, _ = RULES.apply(s, s.to_move, move)
        picks = (*seq, str(move))
        if t.winner is not None:
            out.append((picks, t.winner == 0))
        elif t.again:
            out += first_turns(t, picks)
        else:
            out.append((picks, False))
    return out


@pytest.mark.parametrize("sequence", sorted(WINS_WITH_3))
def test_each_known_sequence_wins_on_the_first_turn(sequence):
    s, events = play(RULES.initial({"marbles": "3"}, 2), sequence)
    assert s.winner == 0 and s.turn == 1
    assert [e.kind for e in events].count("again") == len(sequence.split()) - 1
    assert events[-1].kind == "win"


def test_no_other_first_turn_with_3_marbles_wins():
    turns = first_turns(RULES.initial({"marbles": "3"}, 2))
    assert len(turns) == 239          # every distinct pick sequence of the first turn
    assert {" ".join(p) for p, won in turns if won} == WINS_WITH_3


@pytest.mark.parametrize(("marbles", "wins"), [(1, 0), (2, 1), (6, 0)])
def test_first_turn_wins_with_other_counts(marbles, wins):
    turns = first_turns(RULES.initial({"marbles": str(marbles)}, 2))
    assert sum(won for _, won in turns) == wins
