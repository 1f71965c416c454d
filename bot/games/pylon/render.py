"""Draw a Pylon board as a PNG-ready image from a :class:`PylonView`.

The picture is a dark card 720 px wide: a status line, the 6×5 board with
coordinates, and one panel per player (name, colour marker, score, pyramids
left to place, agree-to-end mark, clock). Each stack is drawn as its pyramids
seen from above: nested squares (large, medium, small) with shaded faces in
the owner's colour, so the top pyramid's size and colour read at a glance and
larger pyramids lower down show as rings. The top pyramid carries its owner's
marker (Red: a dot, Blue: a diamond) so the colours never have to be told
apart by hue alone; a badge in the corner gives the height of a stack of two
or more. The last move is outlined in amber (a stacking also gets an arrow).

Geometry helpers (:func:`square_box`, :func:`square_center`) are public so
tests can check pixels at known places.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.games.base import Event
from bot.games.pylon.notation import COLUMN_LETTERS, COLUMNS, ROWS, SIZE_LETTERS, parse_square
from bot.games.pylon.rules import OVER, PLACEMENT, PylonView, Stack
from bot.i18n import _, ngettext, pgettext
from bot.render import ACCENT, CARD, INK, MUTED, PLAYER_COLOURS, font, kept, start
from bot.render.text import shorten

CELL: Final = 104
MARGIN_X: Final = 48
HEADER: Final = 60
BOARD_TOP: Final = HEADER
BOARD_W: Final = CELL * COLUMNS
BOARD_H: Final = CELL * ROWS
LABEL_H: Final = 34
PANEL_TOP: Final = BOARD_TOP + BOARD_H + LABEL_H
PANEL_H: Final = 132
WIDTH: Final = MARGIN_X * 2 + BOARD_W
HEIGHT: Final = PANEL_TOP + PANEL_H + 16

SQUARE_FILL: Final = (62, 66, 74)
"""An empty square."""
GRID: Final = (30, 31, 34)
PANEL_FILL: Final = (54, 57, 63)
SEAT_COLOURS: Final = (PLAYER_COLOURS[0], PLAYER_COLOURS[1])
MARKER_FILL: Final = (250, 250, 250)
OUTLINE: Final = (24, 25, 28)
BADGE_FILL: Final = (250, 250, 250)
BADGE_INK: Final = (20, 20, 22)

PIECE_SIDE: Final = {3: 88, 2: 66, 1: 44}
"""Side in pixels of a pyramid's square footprint, by size."""
FACE_SHADE: Final = {"N": 1.18, "W": 1.0, "E": 0.84, "S": 0.70}
"""Brightness of each face relative to the owner's colour (light from the north-west)."""


def square_box(square: int) -> tuple[int, int, int, int]:
    """The pixel box ``(x0, y0, x1, y1)`` of a square (row 5 at the top)."""
    col, row = square % COLUMNS, square // COLUMNS
    x0 = MARGIN_X + col * CELL
    y0 = BOARD_TOP + (ROWS - 1 - row) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def square_center(square: int) -> tuple[int, int]:
    x0, y0, x1, y1 = square_box(square)
    return (x0 + x1) // 2, (y0 + y1) // 2


def shade(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    """``colour`` brightened (factor > 1, towards white) or darkened (factor < 1)."""
    r, g, b = colour
    if factor >= 1:
        return (round(r + (255 - r) * (factor - 1)), round(g + (255 - g) * (factor - 1)),
                round(b + (255 - b) * (factor - 1)))
    return round(r * factor), round(g * factor), round(b * factor)


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    """The card, empty board, grid and coordinates (drawn once, copied per render)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), CARD)
    d = ImageDraw.Draw(img)
    d.rectangle((MARGIN_X - 2, BOARD_TOP - 2, MARGIN_X + BOARD_W + 1, BOARD_TOP + BOARD_H + 1), fill=GRID)
    for sq in range(COLUMNS * ROWS):
        x0, y0, x1, y1 = square_box(sq)
        d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), fill=SQUARE_FILL)
    f = font(22, bold=True)
    for c in range(COLUMNS):
        x = MARGIN_X + c * CELL + CELL // 2
        d.text((x, BOARD_TOP + BOARD_H + LABEL_H // 2 + 2), COLUMN_LETTERS[c], font=f, fill=MUTED,
               anchor="mm")
    for r in range(ROWS):
        y = BOARD_TOP + (ROWS - 1 - r) * CELL + CELL // 2
        d.text((MARGIN_X // 2, y), str(r + 1), font=f, fill=MUTED, anchor="mm")
        d.text((WIDTH - MARGIN_X // 2, y), str(r + 1), font=f, fill=MUTED, anchor="mm")
    return img


def _pyramid(d: ImageDraw.ImageDraw, cx: int, cy: int, side: int, colour: tuple[int, int, int]) -> None:
    """A pyramid seen from above: four shaded triangular faces meeting at the apex."""
    h = side // 2
    nw, ne, se, sw = (cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)
    apex = (cx, cy)
    d.polygon((nw, ne, apex), fill=shade(colour, FACE_SHADE["N"]))
    d.polygon((ne, se, apex), fill=shade(colour, FACE_SHADE["E"]))
    d.polygon((se, sw, apex), fill=shade(colour, FACE_SHADE["S"]))
    d.polygon((sw, nw, apex), fill=shade(colour, FACE_SHADE["W"]))
    d.rectangle((cx - h, cy - h, cx + h, cy + h), outline=OUTLINE, width=2)


def _chip(d: ImageDraw.ImageDraw, cx: int, cy: int, seat: int) -> None:
    """A seat's colour chip: a small pyramid with its marker."""
    _pyramid(d, cx, cy, 36, SEAT_COLOURS[seat])
    _marker(d, cx, cy, seat, 5)


def _marker(d: ImageDraw.ImageDraw, cx: int, cy: int, owner: int, r: int) -> None:
    """The owner's marker at the apex: Red a dot, Blue a diamond (white with a dark rim)."""
    if owner == 0:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MARKER_FILL, outline=OUTLINE, width=2)
    else:
        r += 2
        d.polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), fill=MARKER_FILL, outline=OUTLINE,
                  width=2)


def _stack(d: ImageDraw.ImageDraw, square: int, stack: Stack) -> None:
    """The stack on its square; the same stack on the same pixels is drawn once per process (``kept``)."""
    x0, y0, x1, y1 = square_box(square)
    kept(d, (x0 + 4, y0 + 4, x1 - 4, y1 - 4), ("stack", tuple(stack)), partial(_draw_stack, d, square, stack))


def _draw_stack(d: ImageDraw.ImageDraw, square: int, stack: Stack) -> None:
    cx, cy = square_center(square)
    for owner, size in stack:
        _pyramid(d, cx, cy, PIECE_SIDE[size], SEAT_COLOURS[owner])
    owner, size = stack[-1]
    _marker(d, cx, cy, owner, 6 if size == 1 else 7)
    if len(stack) > 1:
        _x0, y0, x1, _y1 = square_box(square)
        bx, by, br = x1 - 22, y0 + 22, 16
        d.ellipse((bx - br, by - br, bx + br, by + br), fill=BADGE_FILL, outline=OUTLINE, width=2)
        d.text((bx, by + 1), str(len(stack)), font=font(21, bold=True), fill=BADGE_INK, anchor="mm")


def _last_move_squares(view: PylonView, events: Sequence[Event]) -> tuple[int, ...]:
    for e in reversed(events):
        data: Mapping[str, object] = e.data
        if e.kind == "place" and isinstance(data.get("square"), str):
            return (parse_square(str(data["square"])),)
        if e.kind == "stack" and isinstance(data.get("from"), str) and isinstance(data.get("to"), str):
            return parse_square(str(data["from"])), parse_square(str(data["to"]))
    return view.last_squares


def _highlight(d: ImageDraw.ImageDraw, squares: tuple[int, ...]) -> None:
    if not squares:
        return
    if len(squares) == 2:
        src, dst = squares
        x0, y0, x1, y1 = square_box(src)
        d.rectangle((x0 + 3, y0 + 3, x1 - 4, y1 - 4), outline=ACCENT, width=3)
        (sx, sy), (tx, ty) = square_center(src), square_center(dst)
        # arrow from the vacated square to the edge of the target square
        ex, ey = (sx + tx) // 2, (sy + ty) // 2
        d.line((sx, sy, ex, ey), fill=ACCENT, width=8)
        dx, dy = (tx - sx) // CELL, (ty - sy) // CELL
        head = 16
        tip = (ex + dx * 6, ey + dy * 6)
        left = (ex - dx * head + dy * head, ey - dy * head + dx * head)
        right = (ex - dx * head - dy * head, ey - dy * head - dx * head)
        d.polygon((tip, left, right), fill=ACCENT)
        squares = (dst,)
    x0, y0, x1, y1 = square_box(squares[0])
    d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=ACCENT, width=6)


def _fit(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, shortened with an ellipsis to fit ``width`` pixels (at a grapheme boundary)."""
    return shorten(text, fnt, width)


def _clock_text(ms: int) -> str:
    secs = max(0, ms) // 1000
    if secs >= 3600:
        return f"{secs // 3600}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    return f"{secs // 60}:{secs % 60:02d}"


def _panel(d: ImageDraw.ImageDraw, view: PylonView, seat: int, name: str, clock: int | None) -> None:
    gap = 16
    w = (BOARD_W - gap) // 2
    x0 = MARGIN_X + seat * (w + gap)
    y0 = PANEL_TOP
    x1, y1 = x0 + w, y0 + PANEL_H
    active = view.to_move == seat
    d.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=PANEL_FILL,
                        outline=ACCENT if active else PANEL_FILL, width=4)
    colour = SEAT_COLOURS[seat]
    # colour chip: a small pyramid with the seat's marker
    kept(d, (x0 + 14, y0 + 14, x0 + 55, y0 + 55), ("chip", seat), partial(_chip, d, x0 + 34, y0 + 34, seat))
    score = str(view.scores[seat])
    score_font = font(40, bold=True)
    d.text((x1 - 18, y0 + 34), score, font=score_font, fill=INK, anchor="rm")
    room = (x1 - 18 - score_font.getlength(score) - 12) - (x0 + 62)
    name_font = font(24, bold=True)
    for size in (20, 17):  # a long name gets a smaller font before it is shortened
        if name_font.getlength(name) <= room:
            break
        name_font = font(size, bold=True)
    d.text((x0 + 62, y0 + 34), _fit(name, name_font, room), font=name_font, fill=INK, anchor="lm")
    line_y = y0 + 84
    if view.phase == PLACEMENT:
        x = x0 + 20
        for size in (1, 2, 3):
            n = view.stash[seat][size - 1]
            side = {1: 18, 2: 24, 3: 30}[size]
            fill = colour if n else MUTED
            kept(d, (x - 2, line_y - 17, x + 33, line_y + 18), ("stash", side, fill),
                 partial(_pyramid, d, x + 15, line_y, side, fill))
            d.text((x + 34, line_y), f"{SIZE_LETTERS[size]}×{n}", font=font(22), fill=INK if n else MUTED,
                   anchor="lm")
            x += 98
    else:
        tops = sum(1 for st in view.board if st and st[-1][0] == seat)
        status, fill = ngettext("on top of {n} stack", "on top of {n} stacks", tops), INK
        if view.agreed[seat]:
            status, fill = _("✓ agreed to end"), ACCENT
        elif view.phase == OVER and view.outcome is not None and seat in view.outcome.winners:
            status, fill = _("winner · {status}", status=status), ACCENT
        room = x1 - 18 - (x0 + 20)  # a longer language's status is shortened inside the player's panel
        d.text((x0 + 20, line_y), _fit(status, font(21), room), font=font(21), fill=fill, anchor="lm")
    if clock is not None:
        d.text((x1 - 18, y1 - 22), _clock_text(clock), font=font(20), fill=MUTED, anchor="rm")


Headline = Callable[[Sequence[str]], str]
"""The headline's main part, written with the seats' names (in the current language)."""


def _status(view: PylonView) -> tuple[Headline, str]:
    """The headline as ``(main, tail)``: ``main`` writes it with the players' names."""
    if view.phase == OVER:
        oc = view.outcome
        a, b = view.scores
        tail = _("ended by agreement") if all(view.agreed) else ""
        if oc is None or oc.is_draw:
            return (lambda names: pgettext("result", "Draw {score}–{other}", score=a, other=b)), tail
        winner, high, low = min(oc.winners), max(a, b), min(a, b)
        return (lambda names: _("{player} wins {score}–{other}", player=names[winner], score=high,
                                other=low)), tail
    mover = view.to_move
    assert mover is not None
    if view.phase == PLACEMENT:
        return ((lambda names: _("{player} to place", player=names[mover])),
                ngettext("{n} pyramid left", "{n} pyramids left", view.to_place))
    return (lambda names: _("{player} to stack", player=names[mover])), ""


def _with_names(main: Headline, names: Sequence[str], fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``main`` with the seat names filled in, each shortened (ellipsis) until the line fits ``width``."""
    fixed = fnt.getlength(main(("", "")))
    return main([_fit(n, fnt, max(60.0, width - fixed)) for n in names])


def headline_lines(view: PylonView, names: Sequence[str]) -> list[tuple[str, int]]:
    """The headline as ``[(text, font size)]``: one line when it fits the board's width, else two smaller ones
    (the result, then "ended by agreement" / "n pyramids left"); names are shortened only as a last resort."""
    main, tail = _status(view)
    for size in (28, 24):
        fnt = font(size, bold=True)
        line = main(names) + (f" · {tail}" if tail else "")
        if fnt.getlength(line) <= BOARD_W:
            return [(line, size)]
    if not tail:
        return [(_with_names(main, names, font(24, bold=True), BOARD_W), 24)]
    fnt = font(22, bold=True)
    return [(_with_names(main, names, fnt, BOARD_W), 22), (_fit(tail, font(20), BOARD_W), 20)]


def render(view: PylonView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Sequence[int | None] | None = None) -> Image.Image:
    """The board picture for ``view``.

    ``names`` are display names per seat (default: the seat colours),
    ``events`` the events of the last move (to highlight it; without them the
    view's last move is highlighted), ``clocks`` the remaining milliseconds per
    seat (``None`` entries are not shown).
    """
    seat_names = tuple(names) if names else tuple(_(n) for n in view.seat_names)
    img, d = start(_background())
    lines = headline_lines(view, seat_names)
    if len(lines) == 1:
        d.text((MARGIN_X, HEADER // 2), lines[0][0], font=font(lines[0][1], bold=True), fill=INK, anchor="lm")
    else:
        d.text((MARGIN_X, 18), lines[0][0], font=font(lines[0][1], bold=True), fill=INK, anchor="lm")
        d.text((MARGIN_X, 44), lines[1][0], font=font(lines[1][1]), fill=MUTED, anchor="lm")
    _highlight(d, _last_move_squares(view, events))
    for sq, st in enumerate(view.board):
        if st:
            _stack(d, sq, st)
    for seat in (0, 1):
        clock = clocks[seat] if clocks is not None and seat < len(clocks) else None
        _panel(d, view, seat, seat_names[seat], clock)
    return img
