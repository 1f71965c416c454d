"""Pylon's squares, move objects and their context-free text notation.

The board has 6 columns ``a``–``f`` and 5 rows ``1``–``5``. A square is an
``int`` index ``row * 6 + column`` (``a1`` = 0, ``f1`` = 5, ``a2`` = 6, ...,
``f5`` = 29). Row 5 is drawn at the top, so *north* is towards row 5 and
*east* towards column ``f``.

There are three kinds of move, each with a canonical string (``str(move)``):

* :class:`Placement` — ``L c3``: put a pyramid of size ``S``/``M``/``L`` on an
  empty square (placement phase);
* :class:`Stacking` — ``c3-c4``: move the whole stack on ``c3`` onto the
  occupied, orthogonally adjacent ``c4`` (stacking phase);
* :class:`Agree` — ``agree``: agree to end the game now (stacking phase).

:func:`read` accepts the variants of rulings.md (``Lc3``, ``3c3``, ``l C3``,
``c3 - c4``, ``c3c4``, and a direction instead of the target: ``c3 N``), case
and spacing free. It checks syntax only; whether the move is legal in a
position is :func:`bot.games.pylon.rules.Pylon.parse`'s job.

>>> read("3c3")
Placement(size=3, square=14)
>>> str(read(" C3 - c4 "))
'c3-c4'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.base import InvalidNotation
from bot.i18n import _, pgettext

COLUMNS: Final = 6
ROWS: Final = 5
SQUARES: Final = COLUMNS * ROWS
COLUMN_LETTERS: Final = "abcdef"

SIZE_LETTERS: Final = {1: "S", 2: "M", 3: "L"}
SIZE_WORDS: Final = {1: "small", 2: "medium", 3: "large"}
"""The sizes' names in English (typed sizes, logs); :func:`size_word` writes one in the current language."""
_SIZE_FROM_TEXT: Final = {"s": 1, "m": 2, "l": 3, "1": 1, "2": 2, "3": 3,
                          "small": 1, "medium": 2, "large": 3}

DIRECTIONS: Final = ("N", "E", "S", "W")
"""Compass directions in the order the UI lists them (N = towards row 5)."""
_DIRECTION_WORDS: Final = {"n": "N", "north": "N", "up": "N", "e": "E", "east": "E", "right": "E",
                           "s": "S", "south": "S", "down": "S", "w": "W", "west": "W", "left": "W"}


def size_word(size: int) -> str:
    """A pyramid's size (1, 2, 3) as a word in the current language: "small", "medium", "large"."""
    if size == 1:
        return pgettext("pyramid", "small")
    if size == 2:
        return pgettext("pyramid", "medium")
    return pgettext("pyramid", "large")


def square_name(square: int) -> str:
    """The name of a square index: 0 -> ``a1``, 29 -> ``f5``.

    Raises:
        ValueError: the index is not on the board.
    """
    if not 0 <= square < SQUARES:
        raise ValueError(f"square index {square} is off the board")
    return f"{COLUMN_LETTERS[square % COLUMNS]}{square // COLUMNS + 1}"


SQUARE_NAMES: Final = tuple(square_name(i) for i in range(SQUARES))


def parse_square(text: str) -> int:
    """The index of a square name such as ``c3`` (case and spaces ignored).

    Raises:
        InvalidNotation: not a square name, or a square off the 6×5 board.
    """
    t = "".join(text.split()).lower()
    m = re.fullmatch(r"([a-z])(\d{1,3})", t)
    if not m:
        raise InvalidNotation(_("'{text}' is not a square: use a column a–f and a row 1–5, e.g. c3",
                                text=text.strip()))
    col = ord(m.group(1)) - ord("a")
    row = int(m.group(2)) - 1
    if not (0 <= col < COLUMNS and 0 <= row < ROWS):
        raise InvalidNotation(_("{square} is off the board: columns are a–f and rows 1–5", square=t))
    return row * COLUMNS + col


def step(square: int, direction: str) -> int | None:
    """The square next to ``square`` in ``direction`` (``N``/``E``/``S``/``W``), or None off the board."""
    col, row = square % COLUMNS, square // COLUMNS
    if direction == "N":
        row += 1
    elif direction == "S":
        row -= 1
    elif direction == "E":
        col += 1
    elif direction == "W":
        col -= 1
    else:
        raise ValueError(f"unknown direction {direction!r}")
    if 0 <= col < COLUMNS and 0 <= row < ROWS:
        return row * COLUMNS + col
    return None


def direction_between(source: int, target: int) -> str | None:
    """The direction from ``source`` to an orthogonal neighbour ``target``, or None if not adjacent."""
    for d in DIRECTIONS:
        if step(source, d) == target:
            return d
    return None


NEIGHBOURS: Final = tuple(tuple(sorted(n for d in DIRECTIONS if (n := step(sq, d)) is not None))
                          for sq in range(SQUARES))
"""The orthogonal neighbours of every square, in ascending order (the computer's move generation and
its playouts read them in this order, so their results depend on it)."""


@dataclass(frozen=True, order=True)
class Placement:
    """Put a pyramid of ``size`` (1 small, 2 medium, 3 large) from the mover's stash on ``square``."""

    size: int
    square: int

    def __str__(self) -> str:
        return f"{SIZE_LETTERS[self.size]} {SQUARE_NAMES[self.square]}"


@dataclass(frozen=True, order=True)
class Stacking:
    """Move the whole stack on ``source`` onto the stack on the adjacent ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.source]}-{SQUARE_NAMES[self.target]}"

    @property
    def direction(self) -> str | None:
        return direction_between(self.source, self.target)


@dataclass(frozen=True, order=True)
class Agree:
    """Agree to end the game now; it ends once both players agree since the last stacking."""

    def __str__(self) -> str:
        return "agree"


Move: TypeAlias = Placement | Stacking | Agree
AGREE: Final = Agree()

_PLACEMENT_RE: Final = re.compile(r"(small|medium|large|[sml123])([a-z]\d{1,3})")
_STACKING_RE: Final = re.compile(r"([a-z]\d{1,3})(?:-|–|—|>|->|to|onto)?([a-z]\d{1,3})")
_DIRECTION_RE: Final = re.compile(
    r"([a-z]\d{1,3})(?:-|>|->)?(north|east|south|west|up|down|left|right|[nesw])")
_AGREE_WORDS: Final = frozenset({"agree", "agreetoend", "end", "agreed"})


def read(text: str) -> Move:
    """Read a move from its text, checking only the syntax and that squares exist.

    Accepted forms (case-insensitive, spaces anywhere): ``L c3``, ``Lc3``,
    ``3c3``, ``large c3`` (placement); ``c3-c4``, ``c3 c4``, ``c3c4``,
    ``c3 N`` (stacking; the direction form names the target by compass
    direction); ``agree`` (agree to end).

    Raises:
        InvalidNotation: the text is not a move, or names a square off the board.
    """
    raw = text.strip()
    t = "".join(raw.split()).lower()
    if not t:
        raise InvalidNotation(_("Type a move: a placement like `L c3`, a stacking like `c3-c4`, or `agree`."))
    if t in _AGREE_WORDS:
        return AGREE
    if m := _PLACEMENT_RE.fullmatch(t):
        return Placement(_SIZE_FROM_TEXT[m.group(1)], parse_square(m.group(2)))
    if m := _STACKING_RE.fullmatch(t):
        return Stacking(parse_square(m.group(1)), parse_square(m.group(2)))
    if m := _DIRECTION_RE.fullmatch(t):
        source = parse_square(m.group(1))
        direction = _DIRECTION_WORDS[m.group(2)]
        target = step(source, direction)
        if target is None:
            raise InvalidNotation(_("{square} {direction} would leave the board", square=SQUARE_NAMES[source],
                                    direction=direction))
        return Stacking(source, target)
    raise InvalidNotation(_(
        "'{text}' is not a Pylon move: place with a size and a square (`L c3`, `3c3`), "
        "stack with two squares (`c3-c4`), or type `agree`.", text=raw))


def format_move(move: Move) -> str:
    """The canonical notation of a move (the same as ``str(move)``)."""
    return str(move)
