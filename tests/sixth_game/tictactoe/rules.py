"""Tic-tac-toe: the test suite's sixth game, which proves a game needs one engine folder and one cog.

Two players, X (seat 0, first) and O (seat 1), take turns marking an empty square of a 3×3 grid.
Three of your marks in a row, column or diagonal win; a full grid without a line is a draw.
A move is a square index 0–8 (``notation.py``: ``a1``…``c3``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from bot.games.base import JSON, Event, GameSpec, IllegalMove, Outcome, RulesBase, Seat
from bot.i18n import _

from .notation import SQUARE_NAMES, read_square, square_name

LEVELS: tuple[str, ...] = ("random", "perfect")
MARKS = ("X", "O")
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)

Cells = tuple[Seat | None, ...]


@dataclass(frozen=True)
class TicTacToeState:
    cells: Cells = (None,) * 9
    to_move: Seat = 0


@dataclass(frozen=True)
class TicTacToeView:
    """What everybody sees (there is nothing hidden); ``to_move`` is ``None`` once the game is over."""

    cells: Cells
    to_move: Seat | None
    winner: Seat | None
    line: tuple[int, ...]
    is_draw: bool


def winning_line(cells: Cells) -> tuple[int, int, int] | None:
    return next(
        (ln for ln in LINES if cells[ln[0]] is not None and cells[ln[0]] == cells[ln[1]] == cells[ln[2]]),
        None,
    )


class TicTacToeRules(RulesBase):
    spec: ClassVar[GameSpec] = GameSpec(key="tictactoe", title="Tic-tac-toe", min_seats=2, max_seats=2,
                                        ai_levels=LEVELS, seat_names=MARKS)

    def initial(self, options: Mapping[str, str], seats: int) -> TicTacToeState:
        if seats != 2:
            raise ValueError("Tic-tac-toe is for exactly two players.")
        if options:
            raise ValueError(f"Tic-tac-toe has no options (got {', '.join(sorted(options))}).")
        return TicTacToeState()

    def to_act(self, s: TicTacToeState) -> frozenset[Seat] | None:
        return None if self.outcome(s) is not None else frozenset({s.to_move})

    def legal_moves(self, s: TicTacToeState, seat: Seat) -> Sequence[int]:
        if seat != s.to_move or self.outcome(s) is not None:
            return []
        return [i for i, c in enumerate(s.cells) if c is None]

    def apply(self, s: TicTacToeState, seat: Seat, move: int) -> tuple[TicTacToeState, list[Event]]:
        legal = self.legal_moves(s, seat)
        if move not in legal:
            taken = 0 <= move < 9 and s.cells[move] is not None
            why = (_("{square} is taken.", square=square_name(move)) if taken
                   else _("That move is not possible now."))
            raise IllegalMove(why, legal=[square_name(i) for i in legal])
        cells = (*s.cells[:move], seat, *s.cells[move + 1:])
        event = Event("mark", f"{MARKS[seat]} on {square_name(move)}", {"square": move, "seat": seat})
        return TicTacToeState(cells, 1 - seat), [event]

    def outcome(self, s: TicTacToeState) -> Outcome | None:
        line = winning_line(s.cells)
        if line is not None:
            winner = s.cells[line[0]]
            assert winner is not None
            ends = f"{square_name(line[0])}–{square_name(line[2])}"
            return Outcome.win(winner, 2, detail=_("{mark} has three in a row ({ends}).", mark=MARKS[winner],
                                                   ends=ends))
        if all(c is not None for c in s.cells):
            return Outcome.draw(2, detail=_("The grid is full."))
        return None

    def view(self, s: TicTacToeState, seat: Seat | None) -> TicTacToeView:
        out = self.outcome(s)
        line = winning_line(s.cells) or ()
        winner = s.cells[line[0]] if line else None
        return TicTacToeView(s.cells, None if out else s.to_move, winner, line, bool(out and out.is_draw))

    def dump(self, s: TicTacToeState) -> dict[str, JSON]:
        return {"v": 1, "cells": list(s.cells), "to_move": s.to_move}

    def load(self, d: Mapping[str, JSON]) -> TicTacToeState:
        if d.get("v") != 1:
            raise ValueError(f"unknown tic-tac-toe state version {d.get('v')!r}")
        return TicTacToeState(tuple(d["cells"]), int(d["to_move"]))

    def parse(self, text: str, s: TicTacToeState, seat: Seat) -> int:
        square = read_square(text)
        legal = self.legal_moves(s, seat)
        if square not in legal:
            taken = s.cells[square] is not None
            raise IllegalMove(_("{square} is taken.", square=square_name(square)) if taken
                              else _("That move is not possible now."),
                              legal=[SQUARE_NAMES[i] for i in legal])
        return square

    def format(self, move: int, s: TicTacToeState) -> str:
        return square_name(move)


RULES = TicTacToeRules()
