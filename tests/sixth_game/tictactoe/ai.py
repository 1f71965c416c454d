"""The computer player: ``random`` picks any empty square, ``perfect`` never loses (minimax)."""

from __future__ import annotations

import random
from functools import cache

from bot.games.base import Seat

from .rules import RULES, TicTacToeState, winning_line


@cache
def _value(cells: tuple[Seat | None, ...], to_move: Seat) -> int:
    """+1 if the side to move wins with best play, 0 for a draw, -1 if it loses."""
    if winning_line(cells) is not None:
        return -1  # the previous mover made a line
    empty = [i for i, c in enumerate(cells) if c is None]
    if not empty:
        return 0
    return max(-_value((*cells[:i], to_move, *cells[i + 1:]), 1 - to_move) for i in empty)


def choose(state: TicTacToeState, seat: Seat, rng: random.Random, level: str) -> int:
    moves = list(RULES.legal_moves(state, seat))
    if level == "random":
        return rng.choice(moves)
    scores = {m: -_value((*state.cells[:m], seat, *state.cells[m + 1:]), 1 - seat) for m in moves}
    best = max(scores.values())
    return rng.choice([m for m in moves if scores[m] == best])
