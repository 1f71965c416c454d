"""EOF's pieces: colours, pyramids, program instructions and piece counts.

The set is four colours (red, yellow, green, blue) of fifteen pyramids each:
five small (size 1), five medium (2) and five large (3). Pyramids of the same
colour and size are interchangeable, so collections of pieces (the bag, the
data pool, a hand) are kept as *counts*: a tuple of twelve numbers indexed by
:attr:`Piece.index` (colour-major: R1 R2 R3 Y1 Y2 Y3 G1 G2 G3 B1 B2 B3).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.eof.words import colour_word
from bot.i18n import N_, _, ngettext

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
COLOUR_NAMES: Final = ("red", "yellow", "green", "blue")
LETTERS: Final = "RYGB"
SIZES: Final = (1, 2, 3)
SIZE_LETTERS: Final = "SML"
PER_KIND: Final = 5
"""Pyramids of each colour and size in the set."""
KINDS: Final = 12
"""Distinct (colour, size) kinds."""
PIECES: Final = PER_KIND * KINDS

UP, DOWN, LEFT, RIGHT, STANDING = 0, 1, 2, 3, 4
ORIENT_LETTERS: Final = "UDLRS"
ORIENT_WORDS: Final = (N_("up"), N_("down"), N_("left"), N_("right"), N_("standing"))
"""The orientations as words in a sentence (looked up where shown)."""

VALID_ORIENTS: Final[tuple[frozenset[int], ...]] = (
    frozenset({LEFT, RIGHT}),                 # red: delete
    frozenset({LEFT, RIGHT}),                 # yellow: insert
    frozenset({UP, DOWN, LEFT, RIGHT}),       # green: move
    frozenset({STANDING, LEFT, RIGHT}),       # blue: update
)
"""The orientations each colour defines; any other one crashes when executed."""

Counts: TypeAlias = tuple[int, ...]
"""Twelve counts, one per kind (see the module docstring)."""
EMPTY: Final[Counts] = (0,) * KINDS
FULL: Final[Counts] = (PER_KIND,) * KINDS


@dataclass(frozen=True, order=True)
class Piece:
    """One pyramid: a colour (0–3, ``RYGB``) and a size (1–3). ``str`` gives ``G2``."""

    colour: int
    size: int

    def __str__(self) -> str:
        return f"{LETTERS[self.colour]}{self.size}"

    @property
    def index(self) -> int:
        """Position of this kind in a :data:`Counts` tuple."""
        return self.colour * 3 + self.size - 1

    @staticmethod
    def of_index(index: int) -> Piece:
        return ALL_KINDS[index]

    @staticmethod
    def parse(text: str) -> Piece:
        """``"G2"`` → ``Piece(GREEN, 2)``.

        Raises:
            ValueError: the text is not a colour letter followed by a size 1–3.
        """
        t = text.strip().upper()
        if len(t) != 2 or t[0] not in LETTERS or t[1] not in "123":
            raise ValueError(f"{text!r} is not a piece (expected e.g. G2)")
        return Piece(LETTERS.index(t[0]), int(t[1]))


ALL_KINDS: Final = tuple(Piece(c, s) for c in range(4) for s in SIZES)


@dataclass(frozen=True, order=True)
class Instruction:
    """A program instruction: a piece of the hand laid in an orientation.

    ``str`` gives the notation ``G2R`` (colour, size, orientation letter
    ``U``/``D``/``L``/``R``/``S``).
    """

    colour: int
    size: int
    orient: int

    def __str__(self) -> str:
        return f"{LETTERS[self.colour]}{self.size}{ORIENT_LETTERS[self.orient]}"

    @property
    def piece(self) -> Piece:
        return Piece(self.colour, self.size)

    @property
    def is_valid(self) -> bool:
        """Whether the rules define this colour/orientation pair (else it crashes)."""
        return self.orient in VALID_ORIENTS[self.colour]

    def describe(self) -> str:
        """A few words saying what the instruction does ("move right 2"), in the current language."""
        n = self.size
        if not self.is_valid:
            return _("{colour} {orientation}: not an instruction (crashes)", colour=colour_word(self.colour),
                     orientation=_(ORIENT_WORDS[self.orient]))
        left = self.orient == LEFT
        if self.colour == GREEN:
            if self.orient == UP:
                return _("move to the first record")
            if self.orient == DOWN:
                return _("move to the last record")
            return _("move left {n}", n=n) if left else _("move right {n}", n=n)
        if self.colour == RED:
            if left:
                return ngettext("delete {n} record going left", "delete {n} records going left", n)
            return ngettext("delete {n} record going right", "delete {n} records going right", n)
        if self.colour == BLUE:
            if self.orient == STANDING:
                return _("replace the record with your size-{n} piece", n=n)
            if left:
                return _("swap with the record {n} to the left", n=n)
            return _("swap with the record {n} to the right", n=n)
        if left:
            return _("insert your size-{n} piece to the left", n=n)
        return _("insert your size-{n} piece to the right", n=n)


ALL_INSTRUCTIONS: Final = tuple(Instruction(c, s, o) for c in range(4) for s in SIZES for o in range(5))


def counts_of(pieces: Iterable[Piece]) -> Counts:
    """The counts of a collection of pieces."""
    out = [0] * KINDS
    for p in pieces:
        out[p.index] += 1
    return tuple(out)


def pieces_of(counts: Counts) -> tuple[Piece, ...]:
    """The pieces a counts tuple holds, sorted (colour, then size)."""
    return tuple(k for k, n in zip(ALL_KINDS, counts, strict=True) for _i in range(n))


def add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def plus(c: Counts, p: Piece, n: int = 1) -> Counts:
    """``c`` with ``n`` more of ``p`` (``n`` may be negative)."""
    out = list(c)
    out[p.index] += n
    return tuple(out)


def size_totals(c: Counts) -> tuple[int, int, int]:
    """How many small, medium and large pieces ``c`` holds."""
    return (sum(c[0::3]), sum(c[1::3]), sum(c[2::3]))


def iter_kinds(c: Counts) -> Iterator[tuple[Piece, int]]:
    """``(kind, count)`` for every kind present."""
    for k, n in zip(ALL_KINDS, c, strict=True):
        if n:
            yield k, n


def parse_colour(text: str) -> int:
    """``"red"``/``"R"`` → 0 (case-insensitive).

    Raises:
        ValueError: not one of the four colours.
    """
    t = text.strip().lower()
    for i, name in enumerate(COLOUR_NAMES):
        if t in (name, name[0]):
            return i
    raise ValueError(f"{text!r} is not a colour (red, yellow, green or blue)")
