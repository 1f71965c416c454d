"""EOF: the programs a hand allows (a lazy sequence) and warnings about instructions that always crash."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import overload

from bot.games.eof.notation import SKIP, Program
from bot.games.eof.pieces import (
    ALL_KINDS,
    DOWN,
    KINDS,
    LEFT,
    ORIENT_LETTERS,
    RIGHT,
    STANDING,
    UP,
    Counts,
    Instruction,
    counts_of,
)
from bot.games.eof.words import colour_word
from bot.i18n import _


class ProgramSpace(Sequence[Program]):
    """Every program a hand allows, in sorted order, built on demand.

    A hand of nine distinct pieces allows 15,120 orderings × 3,125
    orientations, so the list is never materialised: ``len`` counts and
    ``[i]`` unranks. Index 0 is ``skip`` (no program).
    """

    def __init__(self, hand: Counts, length: int) -> None:
        self.hand = tuple(hand)
        self.length = length
        self._kinds = tuple(k for k in range(KINDS) if hand[k])

    @staticmethod
    @lru_cache(maxsize=4096)
    def _count(hand: Counts, length: int) -> int:
        if length == 0:
            return 1
        total = 0
        for k in range(KINDS):
            if hand[k]:
                rest = (*hand[:k], hand[k] - 1, *hand[k + 1:])
                total += 5 * ProgramSpace._count(rest, length - 1)
        return total

    def __len__(self) -> int:
        return 1 + self._count(self.hand, self.length)

    @overload
    def __getitem__(self, index: int) -> Program: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Program]: ...

    def __getitem__(self, index: int | slice) -> Program | Sequence[Program]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("program index out of range")
        if index == 0:
            return SKIP
        r = index - 1
        hand = self.hand
        out = []
        for left in range(self.length, 0, -1):
            for k in range(KINDS):
                if not hand[k]:
                    continue
                rest = (*hand[:k], hand[k] - 1, *hand[k + 1:])
                block = self._count(rest, left - 1)
                if r < 5 * block:
                    piece = ALL_KINDS[k]
                    out.append(Instruction(piece.colour, piece.size, r // block))
                    r %= block
                    hand = rest
                    break
                r -= 5 * block
        return Program(tuple(out))

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Program):
            return False
        if item.skip:
            return item == SKIP
        need = counts_of(i.piece for i in item.instructions)
        fits = all(a <= b for a, b in zip(need, self.hand, strict=True))
        return len(item.instructions) == self.length and fits

    def __iter__(self) -> Iterator[Program]:
        for i in range(len(self)):
            yield self[i]


def program_warnings(program: Program) -> tuple[str, ...]:
    """Sentences warning about instructions that will crash whatever the file (bad orientations), in the
    current language."""
    out = []
    for n, ins in enumerate(program.instructions, 1):
        if not ins.is_valid:
            valid = "/".join(ORIENT_LETTERS[o] for o in (UP, DOWN, LEFT, RIGHT, STANDING)
                             if Instruction(ins.colour, ins.size, o).is_valid)
            out.append(_("Instruction {number} ({instruction}) will crash: {colour} pieces only work "
                         "{orientations}.", number=n, instruction=str(ins), colour=colour_word(ins.colour),
                         orientations=valid))
    return tuple(out)
