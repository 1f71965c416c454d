"""Slot names and the context-free half of the Egg Carton notation.

A move is the letter of the slot to pick up from: ``A``–``F`` on player 1's
side (left to right as they see it), ``I``–``N`` on player 2's side (``I``
opposite ``F`` … ``N`` opposite ``A``). :func:`read_slot` only checks the
syntax; whether the slot may be picked now is the rules' business
(:meth:`bot.games.egg_carton.rules.EggCartonRules.parse`).
"""

from __future__ import annotations

from bot.games.base import InvalidNotation
from bot.i18n import _

SLOT_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "I", "J", "K", "L", "M", "N")
"""Slot letters by index: 0–5 are player 1's A–F, 6–11 player 2's I–N."""

SLOTS_PER_SIDE = 6
SLOT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SLOT_NAMES)}


def side_name(seat: int) -> str:
    """The letters of a seat's side, for messages: ``"A–F"`` or ``"I–N"``."""
    return "A–F" if seat == 0 else "I–N"


def slot_name(slot: int) -> str:
    """The letter of slot index ``slot`` (0–11).

    >>> slot_name(0), slot_name(6), slot_name(11)
    ('A', 'I', 'N')
    """
    return SLOT_NAMES[slot]


def read_slot(text: str) -> int:
    """Read one slot letter (case-insensitive, spaces ignored) and return its index.

    Accepts ``"C"``, ``" c "``, ``"slot C"`` and ``"(C)"``.

    Raises:
        InvalidNotation: the text is empty, names no slot (``G``, ``H``, ``O``...),
            or names several slots at once (one pick per move).

    >>> read_slot(" k ")
    8
    """
    cleaned = text.strip().upper()
    cleaned = cleaned.removeprefix("SLOT")
    cleaned = "".join(ch for ch in cleaned if ch not in " \t()[],.;:-")
    if not cleaned:
        raise InvalidNotation(_("Type the letter of a slot to pick up from: A–F or I–N."))
    if len(cleaned) > 1:
        if all(ch in SLOT_INDEX for ch in cleaned):
            raise InvalidNotation(_(
                "One slot per move: play {slot} first. When its last marble goes off the board you pick "
                "again with a new move.", slot=cleaned[0]))
        raise InvalidNotation(_("'{text}' is not a slot: type one letter, A–F or I–N.", text=text.strip()))
    if cleaned not in SLOT_INDEX:
        raise InvalidNotation(_("There is no slot {slot}: the slots are A–F (player 1) and I–N (player 2).",
                                slot=cleaned))
    return SLOT_INDEX[cleaned]
