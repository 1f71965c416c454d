"""The plain records the pure tournament code works on (no storage, no Discord).

Points are kept in half points (``int``) so that sums are exact: a win is 2, a draw 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Format(enum.StrEnum):
    """How players are paired."""

    SWISS = "swiss"
    """Players of equal or near score meet; nobody meets the same opponent twice."""
    ROUND_ROBIN = "round-robin"
    """Everyone meets everyone once (circle method)."""
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    """Everyone meets everyone twice, with the first move swapped the second time."""

    @property
    def is_round_robin(self) -> bool:
        return self is not Format.SWISS


class Result(enum.StrEnum):
    """The result of one pairing, from the first mover's ("white's") side."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2"
    WHITE_FORFEIT_WIN = "+-"
    """Black never played (absent, withdrawn before the game started): counts for points only."""
    BLACK_FORFEIT_WIN = "-+"
    DOUBLE_FORFEIT = "--"
    BYE = "bye"

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)

    @property
    def was_played(self) -> bool:
        """A game over the board (counts for tiebreaks and colour history)."""
        return self in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)

    def half_points(self) -> tuple[int, int]:
        """(white, black) in half points."""
        return {
            Result.WHITE_WINS: (2, 0), Result.BLACK_WINS: (0, 2), Result.DRAW: (1, 1),
            Result.WHITE_FORFEIT_WIN: (2, 0), Result.BLACK_FORFEIT_WIN: (0, 2), Result.DOUBLE_FORFEIT: (0, 0),
            Result.BYE: (2, 0),
        }[self]


@dataclass(frozen=True)
class Pairing:
    """One board of one round. ``black`` is ``None`` for a bye; ``result`` ``None`` while undecided."""

    round: int
    board: int
    white: int
    black: int | None
    result: Result | None = None

    @property
    def is_bye(self) -> bool:
        return self.black is None

    def opponent_of(self, player: int) -> int | None:
        return self.black if player == self.white else self.white

    def points_of(self, player: int) -> int:
        """Half points scored by ``player`` in this pairing (0 while undecided)."""
        if self.result is None:
            return 0
        w, b = self.result.half_points()
        return w if player == self.white else b


def format_points(half: int) -> str:
    """Half points as people write them: 3, 2½, ½."""
    whole, half_left = divmod(half, 2)
    if not half_left:
        return str(whole)
    return f"{whole}½" if whole else "½"
