"""EOF pictures: the colours, the board's geometry (public so tests can check pixels at known
places) and the drawing primitives shared by the board, the hand picture and the animation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from bot.games.eof.pieces import (
    DOWN,
    LEFT,
    LETTERS,
    RIGHT,
    UP,
    Instruction,
    Piece,
)
from bot.games.eof.views import EofView
from bot.games.eof.words import colour_name
from bot.render import CARD_LIGHT, INK_DARK, PLAYER_COLOURS, font
from bot.render.text import shorten

RGB = tuple[int, int, int]

PIECE_COLOURS: Final[tuple[RGB, ...]] = (
    PLAYER_COLOURS[0],  # red
    PLAYER_COLOURS[3],  # yellow
    PLAYER_COLOURS[2],  # green
    PLAYER_COLOURS[1],  # blue
)
"""Fill of each EOF colour (R, Y, G, B), from the shared palette."""
CRASH: Final[RGB] = (237, 66, 69)
STRIP: Final[RGB] = (54, 57, 63)
"""Background of the file strip and the panels."""
OUTLINE: Final[RGB] = (20, 21, 24)

WIDTH: Final = 880
SLOT: Final = 64
PER_ROW: Final = 13
FILE_X: Final = (WIDTH - SLOT * PER_ROW) // 2
HEADER_H: Final = 104
TOP_H: Final = 30
"""Record numbers, above the pyramids."""
PYR_H: Final = 60
NUM_H: Final = 32
"""The piece labels ("R2"), under the pyramids (the configuration bars follow)."""
CFG_H: Final = 10
LANE_H: Final = 30
ROW_GAP: Final = 14
PIECE_W: Final = {1: 20, 2: 30, 3: 40}
PIECE_H: Final = {1: 26, 2: 40, 3: 54}
LABEL_FONT: Final = 28
"""Piece labels and pointer letters in the file strip: a cap height of 9 px or more when Discord shows the
880 px board 400 px wide."""
NUMBER_FONT: Final = 28

SPEEDS: Final = {"slow": 1800, "normal": 1100, "fast": 600, "off": 0}
FINAL_MS: Final = 4000


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``t`` of ``a`` and ``1 - t`` of ``b``."""
    return (round(a[0] * t + b[0] * (1 - t)), round(a[1] * t + b[1] * (1 - t)),
            round(a[2] * t + b[2] * (1 - t)))


def shade(colour: RGB, factor: float) -> RGB:
    """``colour`` darkened (factor < 1) or brightened toward white (factor > 1)."""
    r, g, b = colour
    if factor >= 1:
        return (round(r + (255 - r) * (factor - 1)), round(g + (255 - g) * (factor - 1)),
                round(b + (255 - b) * (factor - 1)))
    return round(r * factor), round(g * factor), round(b * factor)


# --- geometry ------------------------------------------------------------------------------------------

def positions(view: EofView) -> int:
    """Positions drawn: BOF, the records, EOF (one shared marker for an empty file)."""
    return len(view.file) + 2 if view.file else 1


def lanes(view: EofView) -> int:
    """Pointer lanes under each row of the file: one per player, none in the final picture (nothing
    runs any more, so the file panel holds just the records)."""
    return 0 if view.finished else view.seats


def row_height(n_lanes: int) -> int:
    """One row of the file with ``n_lanes`` pointer lanes under it."""
    return TOP_H + PYR_H + NUM_H + CFG_H + n_lanes * LANE_H + ROW_GAP


def file_rows(view: EofView) -> int:
    return (positions(view) + PER_ROW - 1) // PER_ROW


def position_box(view: EofView, pos: int) -> tuple[int, int, int, int]:
    """The pixel box of position ``pos`` (0 = BOF, 1..n records, n+1 EOF): pyramid area only."""
    row, col = divmod(pos, PER_ROW)
    x0 = FILE_X + col * SLOT
    y0 = HEADER_H + row * row_height(lanes(view)) + TOP_H
    return x0, y0, x0 + SLOT, y0 + PYR_H


def piece_point(view: EofView, record: int) -> tuple[int, int]:
    """A pixel inside the lit (left) face of the pyramid of 0-based ``record``: its exact colour."""
    x0, _, x1, y1 = position_box(view, record + 1)
    size = view.file[record].size
    cx = (x0 + x1) // 2
    return cx - PIECE_W[size] // 6 - 1, y1 - 4 - PIECE_H[size] // 4


def pointer_point(view: EofView, seat: int) -> tuple[int, int]:
    """The centre of ``seat``'s pointer triangle."""
    x0, _, x1, y1 = position_box(view, view.players[seat].pointer)
    y = y1 + NUM_H + CFG_H + seat * LANE_H + LANE_H // 2
    return (x0 + x1) // 2, y


def board_height(view: EofView) -> int:
    return HEADER_H + file_rows(view) * row_height(lanes(view)) + panels_height(view) + 16


PANEL_HEAD: Final = 44
"""The panel's heading line ("Players", "Data pool")."""
PANEL_GAP: Final = 12
POOL_PER_ROW: Final = 6
POOL_SLOT: Final = 136
POOL_ROW: Final = 40
TEXT_FONT: Final = 25
"""The smallest text on the board: 11 px or more when Discord shows the 880 px board 400 px wide."""


def players_height(view: EofView) -> int:
    """The players panel (full width, under the file)."""
    return PANEL_HEAD + view.seats * player_row_height(view) + 6


def panels_height(view: EofView) -> int:
    """The players panel, then the data pool panel under it (each as wide as the file)."""
    return players_height(view) + PANEL_GAP + PANEL_HEAD + 2 * POOL_ROW + 8


def player_row_height(view: EofView) -> int:
    return 102 if view.last_round is not None else 70


def panels_top(view: EofView) -> int:
    return HEADER_H + file_rows(view) * row_height(lanes(view))


def pool_top(view: EofView) -> int:
    return panels_top(view) + players_height(view) + PANEL_GAP


def pool_slot(view: EofView, colour: int, size: int) -> tuple[int, int]:
    """The data pool entry of ``colour`` and ``size``: its pyramid's centre x and its row's top (six kinds
    a row: R1 R2 R3 Y1 Y2 Y3, then G and B)."""
    row, col = divmod(colour * 3 + size - 1, POOL_PER_ROW)
    return 24 + 26 + col * POOL_SLOT, pool_top(view) + PANEL_HEAD + row * POOL_ROW


# --- drawing primitives -------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def stamp(text: str, fnt: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased mask of ``text`` and its offset from the anchor point (cached: labels repeat
    from frame to frame, and FreeType rendering is most of a frame's cost)."""
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, int(left), int(top)


class CachedDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` whose ``text`` pastes cached glyph masks (same pixels, a fraction of the time)."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.target = im

    def text(  # type: ignore[override]  # a subset of Pillow's parameters; the others go through **kw
        self, xy: tuple[float, float], text: str, fill: float | tuple[int, ...] | str | None = None,
        font: ImageFont.FreeTypeFont | None = None, anchor: str | None = None, **kw: Any,
    ) -> None:
        if kw or font is None or not isinstance(fill, tuple) or not text:
            super().text(xy, text, fill=fill, font=font, anchor=anchor, **kw)
            return
        mask, left, top = stamp(text, font, anchor or "la")
        self.target.paste(fill, (int(xy[0]) + left, int(xy[1]) + top), mask)


def draw_pyramid(d: ImageDraw.ImageDraw, cx: int, base_y: int, piece: Piece, *, scale: float = 1.0,
                 dim: bool = False) -> None:
    """A pyramid seen from the side: lit left face, shaded right face, dark outline."""
    w = PIECE_W[piece.size] * scale
    h = PIECE_H[piece.size] * scale
    colour = PIECE_COLOURS[piece.colour]
    if dim:
        colour = mix(colour, STRIP, 0.35)
    left = [(cx - w / 2, base_y), (cx, base_y - h), (cx, base_y)]
    right = [(cx, base_y), (cx, base_y - h), (cx + w / 2, base_y)]
    d.polygon(left, fill=colour)
    d.polygon(right, fill=shade(colour, 0.72))
    d.polygon([(cx - w / 2, base_y), (cx, base_y - h), (cx + w / 2, base_y)], outline=OUTLINE)


def label(piece: Piece) -> str:
    """``R2``: the colour's letter and the size, written on every piece."""
    return f"{LETTERS[piece.colour]}{piece.size}"


def draw_badge(d: ImageDraw.ImageDraw, cx: int, cy: int, colour: int, size: int = 38) -> None:
    """A player's colour as a square with its letter (R/Y/G/B): tells players apart without hue."""
    h = size // 2
    d.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=6, fill=PIECE_COLOURS[colour],
                        outline=OUTLINE)
    d.text((cx, cy + 1), LETTERS[colour], font=font(size * 2 // 3, True), fill=INK_DARK, anchor="mm")


def draw_instruction(d: ImageDraw.ImageDraw, cx: int, cy: int, ins: Instruction, size: int = 40) -> None:
    """An instruction seen from above: a lying pyramid points its way, a standing one is a crossed square."""
    colour = PIECE_COLOURS[ins.colour]
    r = size / 2 * (0.55 + 0.15 * ins.size)
    if ins.orient in (UP, DOWN, LEFT, RIGHT):
        if ins.orient == UP:
            pts = [(cx, cy - r), (cx + r * 0.8, cy + r), (cx - r * 0.8, cy + r)]
        elif ins.orient == DOWN:
            pts = [(cx, cy + r), (cx - r * 0.8, cy - r), (cx + r * 0.8, cy - r)]
        elif ins.orient == LEFT:
            pts = [(cx - r, cy), (cx + r, cy - r * 0.8), (cx + r, cy + r * 0.8)]
        else:
            pts = [(cx + r, cy), (cx - r, cy + r * 0.8), (cx - r, cy - r * 0.8)]
        d.polygon(pts, fill=colour, outline=OUTLINE)
        mid = ((pts[1][0] + pts[2][0]) / 2, (pts[1][1] + pts[2][1]) / 2)
        d.line([pts[0], mid], fill=shade(colour, 0.6), width=2)
    else:
        q = r * 0.8
        d.rectangle([cx - q, cy - q, cx + q, cy + q], fill=colour, outline=OUTLINE)
        d.line([(cx - q, cy - q), (cx + q, cy + q)], fill=shade(colour, 0.6), width=2)
        d.line([(cx - q, cy + q), (cx + q, cy - q)], fill=shade(colour, 0.6), width=2)


def draw_marker(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str) -> None:
    x0, _y0, x1, y1 = box
    cx = (x0 + x1) // 2
    top = y1 - 48
    fnt = font(TEXT_FONT)
    if "/" in text:  # the empty file's one marker: two lines, reaching up over the record numbers' row
        a, b = text.split("/")
        top = y1 - 64
        d.rounded_rectangle([x0 + 1, top, x1 - 1, y1 - 4], radius=6, fill=CARD_LIGHT)
        d.text((cx, top + 16), a, font=fnt, fill=INK_DARK, anchor="mm")
        d.text((cx, top + 44), b, font=fnt, fill=INK_DARK, anchor="mm")
    else:
        d.rounded_rectangle([x0 + 1, top, x1 - 1, y1 - 4], radius=6, fill=CARD_LIGHT)
        d.text((cx, top + 22), text, font=fnt, fill=INK_DARK, anchor="mm")


def fit_text(text: str, fnt_size: int, width: int, bold: bool = False) -> str:
    return shorten(text, font(fnt_size, bold), width)


def seat_name(view: EofView, names: Sequence[str] | None, seat: int) -> str:
    if names and seat < len(names) and names[seat]:
        return str(names[seat])
    return colour_name(view.players[seat].colour)  # in the language being written (a view may be kept)
