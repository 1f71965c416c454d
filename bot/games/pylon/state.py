"""Pylon: the position (board, stashes, agreements, the last move) and the queries on it that the engine,
the AI and the Discord UI share. The rules themselves (legality, what a move does and says, the view, the
rules object) are in :mod:`.rules`, which re-exports these names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.base import Seat
from bot.games.pylon.notation import DIRECTIONS, NEIGHBOURS, SQUARES, Move, Placement, Stacking, step

Piece: TypeAlias = tuple[int, int]
"""``(owner seat, size)`` with size 1 (small), 2 (medium) or 3 (large)."""
Stack: TypeAlias = tuple[Piece, ...]
"""The pyramids on one square, bottom first; ``()`` for an empty square."""
Stash: TypeAlias = tuple[int, int, int]
"""How many small, medium and large pyramids a player has left to place."""

PER_SIZE: Final = 5
PIECES: Final = 30

PLACEMENT: Final = "placement"
STACKING: Final = "stacking"
OVER: Final = "over"

# Every stacking exists once: stackings() only filters these.
_PAIRS: Final = tuple((src, dst, Stacking(src, dst))
                      for src in range(SQUARES) for dst in NEIGHBOURS[src])


@dataclass(frozen=True)
class PylonState:
    """A Pylon position: the board, both stashes, agreements and the last move.

    Whose turn it is and the phase follow from the board (see :attr:`to_move`),
    so they are not stored.
    """

    board: tuple[Stack, ...]
    stash: tuple[Stash, Stash]
    agreed: tuple[bool, bool] = (False, False)
    last: Move | None = None

    @property
    def placed(self) -> int:
        """Pyramids on the board."""
        return PIECES - sum(self.stash[0]) - sum(self.stash[1])

    @property
    def is_placement(self) -> bool:
        return self.placed < PIECES

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is (also meaningful once the game is over).

        Placement alternates from seat 0; stacking starts with seat 1 (who
        placed the 30th pyramid) and every stacking removes one stack.
        """
        if self.is_placement:
            return self.placed % 2
        stacks = sum(1 for st in self.board if st)
        return (1 + PIECES - stacks) % 2


def initial_state() -> PylonState:
    """The empty board with two full stashes."""
    return PylonState(board=((),) * SQUARES, stash=((PER_SIZE,) * 3, (PER_SIZE,) * 3))


# --- queries the engine, the AI and the Discord UI share ---------------------------------------------

def scores(s: PylonState) -> tuple[int, int]:
    """Pyramids under each player's tops (a placed but unstacked pyramid counts for its owner)."""
    sc = [0, 0]
    for st in s.board:
        if st:
            sc[st[-1][0]] += len(st)
    return sc[0], sc[1]


def can_stack(board: Sequence[Stack], source: int, target: int) -> bool:
    """Whether the stack on ``source`` may move onto ``target`` (adjacency assumed)."""
    a, b = board[source], board[target]
    return bool(a) and bool(b) and a[0][1] <= b[-1][1]


def stackings(s: PylonState) -> list[Stacking]:
    """All legal stackings on the board, sorted (the same for both players)."""
    b = s.board
    return [m for src, dst, m in _PAIRS if b[src] and b[dst] and b[src][0][1] <= b[dst][-1][1]]


def _has_stacking(board: tuple[Stack, ...]) -> bool:
    return any(board[src] and board[dst] and board[src][0][1] <= board[dst][-1][1]
               for src, dst, _move in _PAIRS)


def is_over(s: PylonState) -> bool:
    """Whether the game has ended (both agreed, or no stacking left after placement)."""
    if s.is_placement:
        return False
    return all(s.agreed) or not _has_stacking(s.board)


def phase(s: PylonState) -> str:
    """``"placement"``, ``"stacking"`` or ``"over"``."""
    if s.is_placement:
        return PLACEMENT
    return OVER if is_over(s) else STACKING


def legal_directions(s: PylonState, square: int) -> tuple[str, ...]:
    """The directions (``N``/``E``/``S``/``W``) the stack on ``square`` may move in now."""
    if s.is_placement or is_over(s):
        return ()
    out = []
    for d in DIRECTIONS:
        target = step(square, d)
        if target is not None and can_stack(s.board, square, target):
            out.append(d)
    return tuple(out)


def movable_squares(s: PylonState) -> tuple[int, ...]:
    """Squares whose stack has at least one legal stacking now (sorted)."""
    if s.is_placement or is_over(s):
        return ()
    return tuple(sorted({m.source for m in stackings(s)}))


def empty_squares(s: PylonState) -> tuple[int, ...]:
    """Empty squares (during placement: where a pyramid may go)."""
    return tuple(i for i, st in enumerate(s.board) if not st)


def sizes_left(s: PylonState, seat: Seat) -> tuple[int, ...]:
    """Sizes (1, 2, 3) the seat still has in its stash."""
    return tuple(size for size in (1, 2, 3) if s.stash[seat][size - 1] > 0)


def successor(s: PylonState, seat: Seat, move: Placement | Stacking) -> PylonState:
    """The position after ``seat``'s placement or stacking ``move``, known to be legal (no checks and no
    events: the engine's :func:`play` builds on it; searches and the OpenSpiel adapter use it alone)."""
    board = list(s.board)
    if isinstance(move, Placement):
        board[move.square] = ((seat, move.size),)
        stash = list(s.stash)
        counts = list(stash[seat])
        counts[move.size - 1] -= 1
        stash[seat] = (counts[0], counts[1], counts[2])
        return PylonState(tuple(board), (stash[0], stash[1]), (False, False), move)
    a = board[move.source]
    board[move.source] = ()
    board[move.target] = board[move.target] + a
    return PylonState(tuple(board), s.stash, (False, False), move)


def can_agree(s: PylonState, seat: Seat) -> bool:
    """Whether ``seat`` may play ``agree`` now (stacking phase, not yet agreed since the last stacking)."""
    return not s.is_placement and not is_over(s) and not s.agreed[seat]
