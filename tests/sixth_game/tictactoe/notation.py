"""Tic-tac-toe notation: a square is its column letter and row number, ``a1`` (bottom left) to ``c3``.

Square indexes run 0–8 row by row from the bottom: ``a1 b1 c1`` are 0 1 2, ``a3 b3 c3`` 6 7 8.
"""

from __future__ import annotations

import re

from bot.games.base import InvalidNotation
from bot.i18n import _

COLUMNS = "abc"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{c}{r}" for r in "123" for c in COLUMNS)
_SQUARE = re.compile(r"\s*([a-c])\s*([1-3])\s*", re.IGNORECASE)


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def read_square(text: str) -> int:
    """``"b2"``, ``"B2"`` or ``" b 2 "`` → 4; anything else is :class:`InvalidNotation`."""
    m = _SQUARE.fullmatch(text)
    if m is None:
        raise InvalidNotation(_("`{text}` is not a square: write a column a–c and a row 1–3, like `b2`.",
                                text=text[:20]))
    return (int(m[2]) - 1) * 3 + COLUMNS.index(m[1].lower())
