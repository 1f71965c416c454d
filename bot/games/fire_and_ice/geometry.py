"""The board of Fire and Ice: seven islands of seven points, both Fano planes.

Points are numbered 0–48 as ``island * 7 + (position - 1)``: island 0–6 is
``A``–``G`` and position 1–7 is the number printed on the board (1 top; 2, 3
second row left and right; 4 centre; 5, 6, 7 bottom row left to right).

The seven positions of an island form a Fano plane: three points are a *line*
when they are on one of the rows of :data:`LINES` (six straight lines and the
ring 2-3-6). The seven islands sit in the same pattern (``A`` top; ``B``, ``C``
second row; ``D`` centre; ``E``, ``F``, ``G`` bottom), so the *island lines*
that win the game are ``A-B-E``, ``A-C-G``, ``E-F-G``, ``A-D-F``, ``C-D-E``,
``B-D-G`` and ``B-C-F``.

Any two lines of a Fano plane share exactly one point, which is why two players
can never both control one island, nor both hold a line of islands.

The bit tables at the bottom let the rules and the AI work on 49-bit masks.
"""

from __future__ import annotations

from bot.i18n import N_, _

ISLANDS = "ABCDEFG"
N_ISLANDS = 7
N_POSITIONS = 7
N_POINTS = 49

FIRE = 0
ICE = 1
EMPTY = -1
SIDE_NAMES = (N_("Fire"), N_("Ice"))
"""The sides' names in English (look each up with ``_()`` where it is written)."""

PIECES = 25
"""Pieces each side owns (board + supply)."""

START_POINT = 3 * 7 + 3
"""D4, where Fire's first piece stands."""

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 4),  # 1-2-5  left side
    (0, 2, 6),  # 1-3-7  right side
    (4, 5, 6),  # 5-6-7  bottom
    (0, 3, 5),  # 1-4-6  vertical
    (2, 3, 4),  # 3-4-5  diagonal
    (1, 3, 6),  # 2-4-7  diagonal
    (1, 2, 5),  # 2-3-6  ring
)
"""The seven lines of an island (0-based positions); the last one is the ring."""

RING = 6
"""Index of the ring 2-3-6 in :data:`LINES` (drawn as a circle)."""

ISLAND_LINES = LINES
"""The seven winning lines of islands (0-based islands), same pattern as :data:`LINES`."""


def point(island: int, position: int) -> int:
    """The point number of ``position`` (0-based) on ``island`` (0-based)."""
    return island * N_POSITIONS + position


def island_of(p: int) -> int:
    """The island (0–6) holding point ``p``."""
    return p // N_POSITIONS


def position_of(p: int) -> int:
    """The 0-based position of point ``p`` on its island."""
    return p % N_POSITIONS


def line_name(line: tuple[int, int, int]) -> str:
    """``(0, 1, 4)`` -> ``"1-2-5"``."""
    return "-".join(str(i + 1) for i in line)


def island_line_name(line: tuple[int, int, int]) -> str:
    """``(0, 2, 6)`` -> ``"A, C and G"``."""
    a, b, c = (ISLANDS[i] for i in line)
    return _("{a}, {b} and {c}", a=a, b=b, c=c)


def _neighbours(p: int) -> tuple[int, ...]:
    isl, pos = island_of(p), position_of(p)
    same_island = [point(isl, q) for q in range(N_POSITIONS) if q != pos]
    same_position = [point(j, pos) for j in range(N_ISLANDS) if j != isl]
    return tuple(sorted(same_island + same_position))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(p) for p in range(N_POINTS))
"""For each point, the twelve points a piece there may move to (if empty)."""

NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << q for q in NEIGHBOURS[p]) for p in range(N_POINTS))

LINE_MASKS7: tuple[int, ...] = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in LINES)
"""The lines as 7-bit masks over one island (or over the seven islands)."""


def _first_line(mask7: int) -> int:
    for i, m in enumerate(LINE_MASKS7):
        if mask7 & m == m:
            return i
    return -1


LINE_TABLE: tuple[int, ...] = tuple(_first_line(m) for m in range(128))
"""``LINE_TABLE[m]``: the index of a line fully inside the 7-bit mask ``m``, or -1.

Used both for one island (which line controls it) and for the control mask
of the seven islands (which island line wins)."""

HAS_LINE: tuple[bool, ...] = tuple(i >= 0 for i in LINE_TABLE)

FULL_MASK = (1 << N_POINTS) - 1
ISLAND_MASK7 = 0x7F


def control_mask(pieces: int) -> int:
    """The 7-bit mask of islands on which the 49-bit mask ``pieces`` holds a line."""
    out = 0
    for k in range(N_ISLANDS):
        if HAS_LINE[(pieces >> (7 * k)) & ISLAND_MASK7]:
            out |= 1 << k
    return out


def wins(pieces: int) -> bool:
    """Whether the 49-bit mask ``pieces`` controls three islands on a line."""
    return HAS_LINE[control_mask(pieces)]
