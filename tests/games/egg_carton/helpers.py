"""Shared helpers for the Egg Carton tests: building positions and a reference sower."""

from __future__ import annotations

from bot.games.egg_carton.notation import SLOT_INDEX
from bot.games.egg_carton.rules import RULES, EggCartonState, Pick


def position(bottom: str, top: str, *, to_move: int = 0, off: tuple[int, int] = (0, 0),
             marbles: int = 3, again: bool = False) -> EggCartonState:
    """A state drawn as the source draws it: ``bottom`` = A..F, ``top`` = N..I (left to right).

    Counts are space-separated; ``-`` or ``0`` is an empty slot.
    """
    a_to_f = [0 if x == "-" else int(x) for x in bottom.split()]
    n_to_i = [0 if x == "-" else int(x) for x in top.split()]
    assert len(a_to_f) == 6 and len(n_to_i) == 6
    return EggCartonState(slots=tuple(a_to_f + n_to_i[::-1]), off=off, to_move=to_move, again=again,
                          marbles=marbles)


def counts(s: EggCartonState) -> dict[str, int]:
    """Slot letter -> marbles."""
    return {letter: s.slots[i] for letter, i in SLOT_INDEX.items()}


def play(s: EggCartonState, letters: str) -> tuple[EggCartonState, list]:
    """Play space-separated picks for whoever is to move; return the final state and all events."""
    events: list = []
    for letter in letters.split():
        s, ev = RULES.apply(s, s.to_move, Pick(SLOT_INDEX[letter]))
        events += ev
    return s, events


def reference_sow(slots: list[int], off: list[int], slot: int) -> str:
    """Sow like the source text reads, on a 14-space ring: an independent re-implementation.

    Ring order: A B C D E F (right zone) I J K L M N (left zone).
    """
    ring: list[object] = [0, 1, 2, 3, 4, 5, "R", 6, 7, 8, 9, 10, 11, "L"]
    pos = ring.index(slot)
    hand, slots[slot] = slots[slot], 0
    while True:
        for _ in range(hand):
            pos = (pos + 1) % 14
            cell = ring[pos]
            if cell == "R":
                off[0] += 1
            elif cell == "L":
                off[1] += 1
            else:
                slots[cell] += 1  # type: ignore[index]
        cell = ring[pos]
        if cell in ("R", "L"):
            return "again"
        if slots[cell] == 1:  # type: ignore[index]
            return "end"
        hand, slots[cell] = slots[cell], 0  # type: ignore[index]
