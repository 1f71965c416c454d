"""The explained picture of ``/eof rules``: a round-two position in programming, drawn by the game's
renderers: the shared file (the channel's board) above, Red's program (Red's private hand picture) below,
with the file, the two pointers and the program called out."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from bot.games.eof.drawing import pointer_point, position_box
from bot.games.eof.pieces import FULL, Piece, counts_of, pieces_of, sub
from bot.games.eof.render import render, render_hand
from bot.games.eof.rules import RULES
from bot.games.eof.state import EofState, Phase
from bot.i18n import _, per_language
from bot.render import CARD
from bot.render.callouts import Callouts, Diagram

FILE = "R1 Y2 R2 R3 Y1 Y3"
"""The file after round one: Red's run R1 (then Yellow's Y2) R2 R3; Yellow's Y1 Y3."""
POINTERS = (3, 5)
"""Red's pointer on the third record (R2), Yellow's on the fifth (Y1)."""
HANDS = ("Y1 G2 B3 R1 G1", "G1 R2 B1 Y2 G3")
PROGRAM = "Y1R G2L B3S R1R G1U"
"""Red's five instructions: insert a small Red after the pointer, step back two, swap for the large…"""


def _pieces(text: str) -> tuple[Piece, ...]:
    return tuple(Piece.parse(p) for p in text.split())


def _position() -> EofState:
    """Round 2, programming: the file and hands above, everything else in the pool; Red has submitted."""
    s = RULES.initial({}, 2)
    file, hands = _pieces(FILE), [counts_of(_pieces(h)) for h in HANDS]
    pool = sub(FULL, counts_of(file))
    pool = sub(pool, counts_of(Piece(c, 1) for c in s.colours))
    for h in hands:
        pool = sub(pool, h)
    s = replace(s, phase=Phase.PROGRAM, first=0, round=2, file=file, pointers=POINTERS, bag=sub(FULL, FULL),
                pool=pool, hands=tuple(hands), draws=tuple(pieces_of(h) for h in hands),
                programs=(None, None), crashed=(-1, -1), history=((4, 3),), scores=(4, 3))
    s, _events = RULES.apply(s, 0, RULES.parse(PROGRAM, s, 0))
    return s


@per_language
def diagram() -> Diagram:
    """The diagram in the current language (its callouts, header and alt text are words), drawn once per
    language."""
    state = _position()
    view = RULES.view(state, None)
    board = render(view)
    hand = render_hand(RULES.view(state, 0))
    gap = 16
    both = Image.new("RGB", (max(board.width, hand.width), board.height + gap + hand.height), CARD)
    both.paste(board, (0, 0))
    both.paste(hand, ((both.width - hand.width) // 2, board.height + gap))
    c = Callouts(both)
    first, end = position_box(view, 1), position_box(view, len(view.file) + 1)
    c.tag((end[2] + c.size * 0.5, (first[1] + first[3]) / 2), _("◀ the file"), anchor="lm")
    _x, py = pointer_point(view, 0)
    c.tag((end[2] + c.size * 0.5, py), _("◀ pointers"), anchor="lm")
    right = (both.width + hand.width) // 2 - 24
    c.tag((right, board.height + gap + hand.height * 0.53), _("Red's secret program ▼"), anchor="rm")
    return c.done(_(
        "EOF in round 2, while the players write their programs. Above, the shared file between BOF and "
        "EOF: {file}, with Red's pointer on the third record and Yellow's on the fifth. Below, Red's private "
        "hand and submitted program of five instructions, {program}, run one per turn once both programs "
        "are in.", file=FILE.replace(" ", ", "), program=PROGRAM.replace(" ", ", ")))
