"""Fire and Ice: moves, the position, and what the board says (controlled islands, the winner,
the legal moves and what a move leaves).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import Seat
from bot.games.fire_and_ice.geometry import (
    EMPTY,
    FIRE,
    ICE,
    ISLAND_LINES,
    LINE_TABLE,
    N_ISLANDS,
    N_POINTS,
    NEIGHBOURS,
    PIECES,
    SIDE_NAMES,
    START_POINT,
    control_mask,
    island_line_name,
    island_of,
)
from bot.games.fire_and_ice.notation import point_name
from bot.i18n import _

# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, order=True)
class Move:
    """Move the piece on point ``src`` to the empty point ``dst`` (0–48); ``str()`` is ``F6-C6``."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{point_name(self.src)}-{point_name(self.dst)}"


@dataclass(frozen=True, order=True)
class Pass:
    """The move of a player who has no legal move (no piece is added); ``str()`` is ``pass``."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, order=True)
class Place:
    """A chance outcome: a Fire handicap piece appears on ``point``; ``str()`` is ``+B3``."""

    point: int

    def __str__(self) -> str:
        return f"+{point_name(self.point)}"


FireIceMove = Move | Pass | Place


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State:
    """A Fire and Ice position.

    ``board[p]`` is FIRE (0), ICE (1) or EMPTY (-1) for each point 0–48;
    ``supply`` the pieces each side has not yet put on the board; ``setup`` the
    handicap pieces still to be placed (chance nodes before the first move);
    ``ply`` the turns played (moves and passes); ``passes`` the passes in a row
    just played; ``last`` the last turn's move (for highlighting).
    """

    board: tuple[int, ...]
    to_move: Seat = FIRE
    supply: tuple[int, int] = (PIECES - 1, PIECES)
    handicap: int = 0
    setup: int = 0
    ply: int = 0
    passes: int = 0
    last: Move | Pass | None = None


def start_board() -> tuple[int, ...]:
    """The empty board with Fire's piece on D4."""
    return tuple(FIRE if p == START_POINT else EMPTY for p in range(N_POINTS))


def masks(board: Sequence[int]) -> tuple[int, int]:
    """The 49-bit masks of Fire's and Ice's pieces."""
    fire = ice = 0
    for p, v in enumerate(board):
        if v == FIRE:
            fire |= 1 << p
        elif v == ICE:
            ice |= 1 << p
    return fire, ice


def _island_bits(mask: int, island: int) -> int:
    return (mask >> (7 * island)) & 0x7F


def control_lines(board: Sequence[int]) -> tuple[tuple[Seat, int] | None, ...]:
    """For each island, ``(controller, index into LINES)`` or ``None`` if nobody controls it."""
    fire, ice = masks(board)
    out: list[tuple[Seat, int] | None] = []
    for k in range(N_ISLANDS):
        f = LINE_TABLE[_island_bits(fire, k)]
        i = LINE_TABLE[_island_bits(ice, k)]
        out.append((FIRE, f) if f >= 0 else (ICE, i) if i >= 0 else None)
    return tuple(out)


def controllers(board: Sequence[int]) -> tuple[Seat, ...]:
    """For each island A–G, the seat that controls it, or EMPTY (-1)."""
    return tuple(c[0] if c is not None else EMPTY for c in control_lines(board))


def winning_line(board: Sequence[int]) -> tuple[Seat, int] | None:
    """``(winner, index into ISLAND_LINES)`` if a side controls three islands on a line."""
    return winning_line_of(*masks(board))


def winning_line_of(fire: int, ice: int) -> tuple[Seat, int] | None:
    """:func:`winning_line` of the board whose pieces are the masks ``fire`` and ``ice`` (:func:`masks`):
    what :func:`winning_lines_after` needs for each move without building its board (a Fire and Ice view
    asks it of every legal move, to warn of the moves that hand the opponent the win)."""
    held_fire = control_mask(fire)
    held_ice = control_mask(ice) & ~held_fire  # (an island holds one line at most: Fire's first, as above)
    for seat, held in ((FIRE, held_fire), (ICE, held_ice)):
        line = LINE_TABLE[held]
        if line >= 0:
            return seat, line
    return None


def winning_lines_after(s: State, moves: Sequence[Move]) -> list[tuple[Seat, int] | None]:
    """``winning_line(play_unchecked(s, m).board)`` for each of ``moves`` by the side to move, from the
    masks: a move puts the mover's piece on its destination and leaves the vacated point to the opponent's
    new piece while their supply lasts, else empty (see :func:`play_unchecked`)."""
    fire, ice = masks(s.board)
    seat = s.to_move
    refill = s.supply[1 - seat] > 0
    own, opp = (fire, ice) if seat == FIRE else (ice, fire)
    out = []
    for m in moves:
        src, dst = 1 << m.src, 1 << m.dst
        own_after = (own & ~src) | dst
        opp_after = opp | src if refill else opp
        out.append(winning_line_of(own_after, opp_after) if seat == FIRE else
                   winning_line_of(opp_after, own_after))
    return out


def moves_of(board: Sequence[int], seat: Seat) -> list[Move]:
    return [Move(src, dst) for src in range(N_POINTS) if board[src] == seat
            for dst in NEIGHBOURS[src] if board[dst] == EMPTY]


def placements(s: State) -> tuple[Place, ...]:
    used = {island_of(p) for p in range(N_POINTS) if s.board[p] != EMPTY}
    return tuple(Place(p) for p in range(N_POINTS) if island_of(p) not in used)


def play_unchecked(s: State, move: Move | Pass) -> State:
    """The state after ``move`` by the side to move, without any check."""
    seat = s.to_move
    other = 1 - seat
    if isinstance(move, Pass):
        return State(s.board, other, s.supply, s.handicap, s.setup, s.ply + 1, s.passes + 1, move)
    board = list(s.board)
    board[move.dst] = seat
    supply = list(s.supply)
    if supply[other] > 0:
        board[move.src] = other
        supply[other] -= 1
    else:
        board[move.src] = EMPTY
    return State(tuple(board), other, (supply[0], supply[1]), s.handicap, s.setup, s.ply + 1, 0, move)


def side_name(seat: Seat) -> str:
    """The side's name in the current language (``Fire``, ``Ice``; ``chance`` for the handicap's draws)."""
    return _(SIDE_NAMES[seat]) if seat in (FIRE, ICE) else _("chance")


def islands_text(line: int) -> str:
    return island_line_name(ISLAND_LINES[line])
