"""Fire and Ice notation, the context-free layer: points and move syntax.

A point is its island letter and position number, ``F6``. A move is pbmserv's
``F6-C6``: the piece on F6 goes to C6. Reading is case-insensitive and
tolerates spaces anywhere (``f6 - c6``); the dash may be written as an en or em
dash or an arrow (``F6->C6``, ``F6→C6``), or left out (``F6 C6``, ``F6C6``).
``pass`` is the move of a player with no legal move. A handicap piece placed
at the start (a chance outcome) is written ``+B3``.

Whether a move is legal is the rules' business (:mod:`.rules` ``parse``).

>>> read("f6 - c6")
('move', 40, 19)
>>> point_name(40)
'F6'
"""

from __future__ import annotations

import re

from bot.games.base import InvalidNotation
from bot.games.fire_and_ice.geometry import ISLANDS, N_POINTS
from bot.i18n import N_, _

EXAMPLE = N_("Write a move as from-to, for example F6-C6 (island A–G, position 1–7).")

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "→": "-", ">": "-", "_": "-"})
_TOKEN = re.compile(r"([A-Z])(\d+)")
_MOVE = re.compile(r"([A-Z]\d+)-*([A-Z]\d+)")
_PLACE = re.compile(r"\+?([A-Z]\d+)")


def point_name(p: int) -> str:
    """The name of point ``p`` (0–48): ``40`` -> ``"F6"``."""
    if not 0 <= p < N_POINTS:
        raise ValueError(f"no point {p}")
    return f"{ISLANDS[p // 7]}{p % 7 + 1}"


def parse_point(text: str) -> int:
    """The point named by ``text`` (``"f6"``, ``" F 6 "``).

    Raises:
        InvalidNotation: the text is not an island letter A–G and a position 1–7.
    """
    t = re.sub(r"\s+", "", text).upper()
    m = _TOKEN.fullmatch(t)
    if not m:
        raise InvalidNotation(_("'{text}' is not a point: write an island letter A–G and a "
                                "position 1–7, for example F6.", text=text.strip()))
    letter, number = m.group(1), m.group(2)
    if letter not in ISLANDS:
        raise InvalidNotation(_("'{text}' is not a point: there is no island {letter} (islands are A–G).",
                                text=t, letter=letter))
    if not (len(number) == 1 and "1" <= number <= "7"):
        raise InvalidNotation(_("'{text}' is not a point: island positions are numbered 1–7.", text=t))
    return ISLANDS.index(letter) * 7 + int(number) - 1


def normalise(text: str) -> str:
    """Upper-case, no spaces, every dash or arrow as ``-``."""
    return re.sub(r"\s+", "", text).upper().translate(_DASHES)


def read(text: str) -> tuple[str] | tuple[str, int] | tuple[str, int, int]:
    """Read a move without looking at a position.

    Returns ``("move", src, dst)``, ``("pass",)`` or ``("place", point)`` (a
    point with or without a leading ``+``).

    Raises:
        InvalidNotation: the text is none of these; the message says how to write a move.
    """
    t = normalise(text)
    if not t:
        raise InvalidNotation(_("Empty move. {example}", example=_(EXAMPLE)))
    if t == "PASS":
        return ("pass",)
    m = _MOVE.fullmatch(t)
    if m:
        return ("move", parse_point(m.group(1)), parse_point(m.group(2)))
    m = _PLACE.fullmatch(t)
    if m:
        return ("place", parse_point(m.group(1)))
    shown = text.strip()[:40]
    raise InvalidNotation(_("Can't read '{text}' as a move. {example}", text=shown, example=_(EXAMPLE)))
