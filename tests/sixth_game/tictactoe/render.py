"""The board picture: a 3×3 grid with coordinates, X in red and O in blue, the last mark ringed in amber
and a winning line drawn through. 600×680 pixels, drawn with the platform's palette and font."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.games.base import Event
from bot.render import ACCENT, CARD, INK, MUTED, PLAYER_COLOURS, font, start, text_center

from .notation import COLUMNS
from .rules import MARKS, TicTacToeView

WIDTH, HEIGHT = 600, 680
CELL = 160
LEFT, TOP = (WIDTH - 3 * CELL) // 2, 140


def cell_box(square: int) -> tuple[int, int, int, int]:
    """The pixel box of a square (row 1 at the bottom, like the notation)."""
    col, row = square % 3, square // 3
    x, y = LEFT + col * CELL, TOP + (2 - row) * CELL
    return x, y, x + CELL, y + CELL


def centre(square: int) -> tuple[int, int]:
    x0, y0, x1, y1 = cell_box(square)
    return (x0 + x1) // 2, (y0 + y1) // 2


def render(view: TicTacToeView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Sequence[int] | None = None) -> Image.Image:
    img, draw = start((WIDTH, HEIGHT), CARD)
    who = list(names or ("Player 1", "Player 2"))
    for seat in (0, 1):
        x = WIDTH // 4 + seat * WIDTH // 2
        text_center(
            draw, (x, 40), f"{MARKS[seat]} · {who[seat]}"[:24], font(26, bold=True), PLAYER_COLOURS[seat]
        )
    if view.to_move is not None:
        status = f"{MARKS[view.to_move]} to move"
    elif view.winner is not None:
        status = f"{MARKS[view.winner]} wins"
    else:
        status = "Draw" if view.is_draw else "Game over"
    text_center(draw, (WIDTH // 2, 90), status, font(24), INK)
    for i in range(4):  # the grid
        draw.line((LEFT + i * CELL, TOP, LEFT + i * CELL, TOP + 3 * CELL), fill=MUTED, width=4)
        draw.line((LEFT, TOP + i * CELL, LEFT + 3 * CELL, TOP + i * CELL), fill=MUTED, width=4)
    for i in range(3):  # coordinates
        text_center(draw, (LEFT + i * CELL + CELL // 2, TOP + 3 * CELL + 22), COLUMNS[i], font(20), MUTED)
        text_center(draw, (LEFT - 22, TOP + (2 - i) * CELL + CELL // 2), str(i + 1), font(20), MUTED)
    last = next((e.data["square"] for e in reversed(events) if e.kind == "mark"), None)
    for square, mark in enumerate(view.cells):
        x0, y0, x1, y1 = cell_box(square)
        if square == last:
            draw.rectangle((x0 + 6, y0 + 6, x1 - 6, y1 - 6), outline=ACCENT, width=6)
        if mark is None:
            continue
        pad = 34
        if mark == 0:
            draw.line((x0 + pad, y0 + pad, x1 - pad, y1 - pad), fill=PLAYER_COLOURS[0], width=14)
            draw.line((x0 + pad, y1 - pad, x1 - pad, y0 + pad), fill=PLAYER_COLOURS[0], width=14)
        else:
            draw.ellipse((x0 + pad, y0 + pad, x1 - pad, y1 - pad), outline=PLAYER_COLOURS[1], width=14)
    if view.line:
        draw.line((*centre(view.line[0]), *centre(view.line[2])), fill=ACCENT, width=10)
    return img
