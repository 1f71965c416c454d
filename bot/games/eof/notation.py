"""EOF's moves and their text notation (context-free syntax layer).

* a program: five instructions (fewer when the hand is short), each colour
  ``R``/``Y``/``G``/``B``, size ``1``–``3``, orientation ``U``/``D``/``L``/``R``/``S``:
  ``Y1R G2L B3S R1R G1U``. Case-insensitive; spaces, commas or semicolons
  between instructions (or none: ``Y1RG2L``); ``skip`` submits no program
  (what happens when the turn limit passes: the round scores 0);
* a size for the next draw of the deal with the ``feel`` option: ``draw S`` /
  ``draw M`` / ``draw L`` (also ``S``, ``small``, ``draw 1``...), or
  ``draw any`` to let chance pick the size;
* an answer to a permission request: ``allow`` or ``deny`` (``yes``/``no``);
* a chance outcome (played by the platform): the piece drawn, e.g. ``G2``.

:func:`read` only checks syntax; :mod:`bot.games.eof.rules` checks the move
against the position (``parse`` = ``read`` + legality).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.base import InvalidNotation
from bot.games.eof.pieces import LETTERS, ORIENT_LETTERS, SIZE_LETTERS, Instruction, Piece
from bot.i18n import N_, _


@dataclass(frozen=True, order=True)
class Program:
    """A seat's secret program for the round (``skip``: no program, round scores 0)."""

    instructions: tuple[Instruction, ...]
    skip: bool = False

    def __str__(self) -> str:
        return "skip" if self.skip else " ".join(map(str, self.instructions))  # not translated: notation


SKIP: Final = Program((), skip=True)


@dataclass(frozen=True, order=True)
class ChooseSize:
    """The drawing seat picks the size of its next draw (1–3; 0 = any size)."""

    size: int

    def __str__(self) -> str:
        if self.size == 0:
            return "draw any"  # not translated: notation
        return f"draw {SIZE_LETTERS[self.size - 1]}"  # not translated: notation


@dataclass(frozen=True, order=True)
class Draw:
    """A chance outcome: the piece that comes out of the bag."""

    piece: Piece

    def __str__(self) -> str:
        return str(self.piece)


@dataclass(frozen=True, order=True)
class Answer:
    """A reply to a permission request to delete the record holding one's pointer."""

    allow: bool

    def __str__(self) -> str:
        return "allow" if self.allow else "deny"


ALLOW: Final = Answer(True)
DENY: Final = Answer(False)

Move: TypeAlias = Program | ChooseSize | Draw | Answer

_INSTR = re.compile(r"([RYGB])\s*([1-3])\s*([UDLRS])")
_SEP = re.compile(r"[\s,;]*")


def _skip_separators(text: str, pos: int) -> int:
    """The position after the separators (maybe none) at ``pos``."""
    m = _SEP.match(text, pos)
    assert m is not None  # the pattern matches the empty string
    return m.end()
_SIZE_WORDS: Final = {
    "s": 1, "small": 1, "1": 1, "m": 2, "medium": 2, "2": 2, "l": 3, "large": 3, "3": 3,
    "any": 0, "random": 0, "?": 0, "": 0,
}
_ALLOW_WORDS: Final = {"allow": True, "yes": True, "y": True, "deny": False, "no": False, "n": False}
_SKIP_WORDS: Final = ("skip", "none", "empty")

INSTRUCTION_HELP: Final = N_("an instruction is colour R/Y/G/B, size 1-3 and orientation U/D/L/R/S, "
                              "e.g. G2R; a program is five of them: Y1R G2L B3S R1R G1U")
"""How instructions are written (looked up with ``_()`` where it is said)."""


def read_program(text: str) -> Program:
    """Read a program (or ``skip``) without checking it against a hand.

    Raises:
        InvalidNotation: the text is not a sequence of instructions.
    """
    t = text.strip().upper()
    if t.lower() in _SKIP_WORDS:
        return SKIP
    out: list[Instruction] = []
    pos = _skip_separators(t, 0)
    while pos < len(t):
        m = _INSTR.match(t, pos)
        if not m:
            bad = re.split(r"[\s,;]+", t[pos:])[0] or t[pos:]
            raise InvalidNotation(_("Could not read {text}: {help}.", text=repr(bad),
                                    help=_(INSTRUCTION_HELP)))
        out.append(Instruction(LETTERS.index(m[1]), int(m[2]), ORIENT_LETTERS.index(m[3])))
        pos = _skip_separators(t, m.end())
    if not out:
        raise InvalidNotation(_("Empty program: {help}.", help=_(INSTRUCTION_HELP)))
    return Program(tuple(out))


def read_instruction(text: str) -> Instruction:
    """One instruction, e.g. ``G2R``.

    Raises:
        InvalidNotation: not an instruction.
    """
    m = _INSTR.fullmatch(text.strip().upper())
    if not m:
        raise InvalidNotation(_("Could not read {text}: {help}.", text=repr(text.strip()),
                                help=_(INSTRUCTION_HELP)))
    return Instruction(LETTERS.index(m[1]), int(m[2]), ORIENT_LETTERS.index(m[3]))


def read_size(text: str) -> ChooseSize | None:
    """``draw S`` / ``S`` / ``small`` / ``draw any`` → :class:`ChooseSize`; ``None`` if not a size."""
    t = " ".join(text.strip().lower().split())
    if t.startswith("draw"):
        t = t[4:].strip()
        return ChooseSize(_SIZE_WORDS[t]) if t in _SIZE_WORDS else None
    if t and t in _SIZE_WORDS:
        return ChooseSize(_SIZE_WORDS[t])
    return None


def read_answer(text: str) -> Answer | None:
    """``allow``/``deny`` (``yes``/``no``) → :class:`Answer`; ``None`` otherwise."""
    t = text.strip().lower()
    return Answer(_ALLOW_WORDS[t]) if t in _ALLOW_WORDS else None


def read_draw(text: str) -> Draw:
    """A chance outcome ``G2``.

    Raises:
        InvalidNotation: not a piece.
    """
    try:
        return Draw(Piece.parse(text))
    except ValueError as e:
        raise InvalidNotation(_("{text} is not a piece: expected e.g. G2.", text=repr(text.strip()))) from e
