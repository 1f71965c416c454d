"""Helpers for the Fire and Ice tests: positions from readable island strings."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.fire_and_ice.rules import RULES, State

EMPTY_ISLAND = "-------"


def position(islands: Mapping[str, str], *, to_move: int = 0, ply: int = 0, last: str | None = None,
             supply: tuple[int, int] | None = None) -> State:
    """A state from ``{"A": "FF--F--", ...}`` (positions 1–7; F = Fire, I = Ice, - = empty).

    Missing islands are empty; supplies default to what is not on the board.
    """
    board = {k: islands.get(k, EMPTY_ISLAND).replace(" ", "") for k in "ABCDEFG"}
    text = "".join(board.values())
    if supply is None:
        supply = (25 - text.count("F"), 25 - text.count("I"))
    return RULES.load({"v": 1, "board": board, "to_move": to_move, "supply": list(supply), "handicap": 0,
                       "setup": 0, "ply": ply, "passes": 0, "last": last})


def island_from_art(art: str, piece: str = "#") -> str:
    """Read one island drawn as in the rule text into an island string (``#`` = Fire, ``O`` = Ice).

    The points are the ``-``/``#``/``O`` marks inside the triangle, read row by row,
    which is exactly the numbering 1; 2 3; 4; 5 6 7.
    """
    marks = []
    for line in art.splitlines():
        inner = line.strip()
        if not inner.startswith("/") or inner in ("/ \\",):
            continue
        body = inner[1:-1]
        marks.extend(c for c in body if c in "-#O")
    assert len(marks) == 7, marks
    return "".join({"-": "-", "#": "F", "O": "I"}[c] for c in marks)
