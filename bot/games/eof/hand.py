"""Draw the DM picture of an EOF player's hand: the pieces drawn this round (those the program being built
uses dimmed), the program, and the player's own pieces in the data pool. Re-exported by :mod:`.render`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from bot.games.eof.drawing import (
    CRASH,
    PIECE_COLOURS,
    STRIP,
    CachedDraw,
    draw_instruction,
    draw_pyramid,
    fit_text,
    label,
    seat_name,
)
from bot.games.eof.pieces import Instruction, Piece
from bot.games.eof.views import EofView
from bot.games.eof.words import colour_word
from bot.i18n import _
from bot.render import CARD, INK, MUTED, font

HAND_FONT: Final = 18
"""The hand picture's smallest text: 11 px or more when it is shown 400 px wide (it is 640 px)."""


def render_hand(view: EofView, *, names: Sequence[str] | None = None,
                program: Sequence[Instruction] = ()) -> Image.Image:
    """The viewer's hand (pieces used by ``program`` dimmed) and the program being built.

    ``program`` is the draft from the DM builder; without it the submitted
    program, if any, is shown. Invalid orientations are marked.

    Raises:
        ValueError: the view is the public one (it has no hand).
    """
    if view.seat is None or view.hand is None:
        raise ValueError("render_hand needs a player's view (the public view has no hand)")
    seat = view.seat
    pl = view.players[seat]
    draft = tuple(program) if program else (view.program.instructions if view.program else ())
    pieces = list(view.hand) if not view.program else [i.piece for i in view.program.instructions]
    used = list(draft) if not view.program else []
    width = 640
    img = Image.new("RGB", (width, 360), CARD)
    small = font(HAND_FONT)
    d = CachedDraw(img)
    colour = PIECE_COLOURS[pl.colour]
    title = fit_text(_("{player} · your hand · round {round}", player=seat_name(view, names, seat),
                       round=view.round), 22, width - 48, True)
    d.text((24, 14), title, font=font(22, True), fill=colour)
    d.rounded_rectangle([16, 50, width - 16, 156], radius=10, fill=STRIP)
    remaining = [i.piece for i in used]
    n = max(1, len(pieces))
    slot = min(64, (width - 48) // n)
    for k, piece in enumerate(sorted(pieces)):
        cx = 24 + slot // 2 + k * slot
        dim = piece in remaining
        if dim:
            remaining.remove(piece)
        draw_pyramid(d, cx, 124, piece, dim=dim)
        d.text((cx, 142), label(piece), font=font(HAND_FONT, True), fill=MUTED if dim else INK, anchor="mm")
    if not pieces:
        d.text((width // 2, 103), _("no pieces"), font=small, fill=MUTED, anchor="mm")
    need = view.program_length
    heading = _("Program (submitted)") if view.program else _("Program {count}/{total}", count=len(draft),
                                                              total=need)
    d.text((24, 168), heading, font=font(HAND_FONT, True), fill=INK)
    d.rounded_rectangle([16, 196, width - 16, 300], radius=10, fill=STRIP)
    for k in range(max(need, len(draft))):
        cx = 24 + 52 + k * 110
        if k < len(draft):
            ins = draft[k]
            draw_instruction(d, cx, 236, ins, 44)
            ok = ins.is_valid
            d.text((cx, 280), f"{ins}" + ("" if ok else " ✗"), font=font(HAND_FONT, True),
                   fill=INK if ok else CRASH, anchor="mm")
        else:
            d.rounded_rectangle([cx - 24, 212, cx + 24, 260], radius=6, outline=MUTED, width=2)
            d.text((cx, 280), f"{k + 1}", font=small, fill=MUTED, anchor="mm")
    own = [view.pool[pl.colour * 3 + s - 1] for s in (1, 2, 3)]
    pool = " ".join(f"{label(Piece(pl.colour, i + 1))}×{c}" for i, c in enumerate(own))
    d.text((24, 308), _("Pool has {colour}: {pieces}", colour=colour_word(pl.colour), pieces=pool),
           font=small, fill=MUTED)
    d.text((24, 332), _("(for yellow inserts and blue updates)"), font=small, fill=MUTED)
    return img
