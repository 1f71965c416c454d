"""Build Pylon positions for tests from compact text."""

from __future__ import annotations

from bot.games.pylon.notation import SQUARES, parse_square
from bot.games.pylon.rules import RULES, PylonState, Stack

_OWNERS = {"R": 0, "B": 1}


def stack(text: str) -> Stack:
    """``"R3 B1"`` -> a Red large with a Blue small on it (bottom first)."""
    return tuple((_OWNERS[t[0].upper()], int(t[1])) for t in text.split())


def position(
    squares: dict[str, str],
    *,
    stash: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (0, 0, 0)),
    agreed: tuple[bool, bool] = (False, False),
) -> PylonState:
    """A position with the given stacks (other squares empty) and stashes.

    Built directly, not through ``load``, so pyramid counts need not add up:
    legality only looks at the board.
    """
    board: list[Stack] = [()] * SQUARES
    for name, text in squares.items():
        board[parse_square(name)] = stack(text)
    return PylonState(tuple(board), stash, agreed)


def play_all(state: PylonState, *moves: str) -> PylonState:
    """Play notation moves in turn order from ``state``."""
    for text in moves:
        seat = state.to_move
        state, _ = RULES.apply(state, seat, RULES.parse(text, state, seat))
    return state


# A full board after placement, row 1 first (a..f), for stacking-phase tests. Each player has 5 of each
# size, so this is a reachable position: Blue (seat 1) placed last and moves first.
FULL_ROWS = (
    "R1 B2 R3 B1 R2 B3",
    "B3 R2 B1 R3 B2 R1",
    "R1 B2 R3 B1 R2 B3",
    "B3 R2 B1 R3 B2 R1",
    "R1 B2 R3 B1 R2 B3",
)


def full_board() -> PylonState:
    squares = {}
    for r, row in enumerate(FULL_ROWS):
        for c, piece in enumerate(row.split()):
            squares[f"{'abcdef'[c]}{r + 1}"] = piece
    return position(squares)
