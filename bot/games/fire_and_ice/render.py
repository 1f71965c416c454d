"""Draw a Fire and Ice board from a :class:`~bot.games.fire_and_ice.rules.FireIceView`.

The seven triangular islands sit in the board's own pattern (A top; B, C; D in
the middle; E, F, G at the bottom), joined by the faint lines of islands (and
the circle B-C-F). Each island shows its seven points (numbered) and its own
lines; pieces are Fire (orange-red) and Ice (pale blue) discs. A controlled
island is tinted with its controller's colour and its controlling line drawn;
a winning line of islands is drawn thick; the last move is a white arrow
edged in black (it reads on both sides' colours). The header shows each
side's pieces on the board and in supply, and whose turn it is.

:func:`point_xy` and :func:`island_centre` give the geometry (tests sample
pixels there).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.games.base import Event
from bot.games.fire_and_ice.board import Move
from bot.games.fire_and_ice.geometry import (
    EMPTY,
    FIRE,
    ICE,
    ISLAND_LINES,
    ISLANDS,
    LINES,
    N_ISLANDS,
    N_POINTS,
    RING,
    SIDE_NAMES,
)
from bot.games.fire_and_ice.notation import parse_point
from bot.games.fire_and_ice.view import FireIceView
from bot.i18n import _, ngettext, pgettext
from bot.render import ACCENT, CARD, INK, INK_DARK, MUTED, font, start
from bot.render.text import shorten

WIDTH = 900
HEIGHT = 1040
HEADER = 124

FIRE_COLOUR = (240, 98, 46)
ICE_COLOUR = (140, 206, 246)
SIDE_COLOURS = (FIRE_COLOUR, ICE_COLOUR)
ISLAND_FILL = (58, 61, 68)
ISLAND_EDGE = (96, 101, 110)
INNER_LINE = (80, 84, 93)
SEA_LINE = (84, 88, 97)

LAST_LIGHT = (255, 255, 255)
LAST_DARK = (22, 23, 26)
"""The last move is drawn in two tones (a white core edged in near-black), so it reads on every ground:
the dark card and islands, the orange Fire and the pale-blue Ice pieces and their tinted islands."""
TARGET_FILL = (255, 255, 255)
"""A legal destination of the chosen piece: a white disc (its number in dark ink)."""

DISC_R = 19
"""Radius of a point's disc in pixels (an Ice piece is a hexagon round the same disc, see :func:`piece`)."""
NUMBER_FONT = 25
"""Point numbers (and every other text): at least 11 px when the picture is shown 400 px wide."""
_POINT_TRI = 154.0                      # side of the triangle of points 1, 5, 7
_OFFSET = 17.0                          # island outline beyond the outer points
_ISLAND_SIDE = _POINT_TRI + 2 * math.sqrt(3) * _OFFSET
_ISLAND_H = _ISLAND_SIDE * math.sqrt(3) / 2
_BIG_W = 640.0                          # distance E-G between island centres
_BIG_H = 680.0                          # vertical distance A to E/G
_TOP = HEADER + 8 + 2 * _ISLAND_H / 3  # y of island A's centre


def _tint(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    r, g, b = ISLAND_FILL
    return (round(r + (colour[0] - r) * amount), round(g + (colour[1] - g) * amount),
            round(b + (colour[2] - b) * amount))


PIECE_INK = ((255, 255, 255), INK_DARK)
"""Text on a Fire / Ice piece."""
TINTS = tuple(_tint(c, 0.38) for c in SIDE_COLOURS)
"""Island fill when controlled by Fire / Ice."""


@cache
def island_centre(island: int) -> tuple[float, float]:
    """Pixel centre (centroid) of island 0–6 (A–G)."""
    cx = WIDTH / 2
    a = (cx, _TOP)
    e = (cx - _BIG_W / 2, _TOP + _BIG_H)
    g = (cx + _BIG_W / 2, _TOP + _BIG_H)

    def mid(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)

    d = ((a[0] + e[0] + g[0]) / 3, (a[1] + e[1] + g[1]) / 3)
    return (a, mid(a, e), mid(a, g), d, e, mid(e, g), g)[island]


def _unit_points() -> tuple[tuple[float, float], ...]:
    t = _POINT_TRI
    top = (0.0, -t / math.sqrt(3))
    bl = (-t / 2, t / (2 * math.sqrt(3)))
    br = (t / 2, t / (2 * math.sqrt(3)))

    def mid(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)

    return (top, mid(top, bl), mid(top, br), (0.0, 0.0), bl, mid(bl, br), br)


_UNIT = _unit_points()


@cache
def point_xy(p: int) -> tuple[int, int]:
    """Pixel centre of point ``p`` (0–48)."""
    cx, cy = island_centre(p // 7)
    dx, dy = _UNIT[p % 7]
    return round(cx + dx), round(cy + dy)


def _island_polygon(island: int) -> list[tuple[float, float]]:
    cx, cy = island_centre(island)
    s = _ISLAND_SIDE
    return [(cx, cy - s / math.sqrt(3)), (cx + s / 2, cy + s / (2 * math.sqrt(3))),
            (cx - s / 2, cy + s / (2 * math.sqrt(3)))]


def _ring_box(island: int) -> tuple[float, float, float, float]:
    cx, cy = island_centre(island)
    r = _POINT_TRI / (2 * math.sqrt(3))
    return (cx - r, cy - r, cx + r, cy + r)


def _sea_circle() -> tuple[tuple[float, float], float]:
    """The circle through the centres of B, C and F."""
    (x1, y1), (x2, y2), (x3, y3) = island_centre(1), island_centre(2), island_centre(5)
    d = 2 * (x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2))
    s1, s2, s3 = x1 * x1 + y1 * y1, x2 * x2 + y2 * y2, x3 * x3 + y3 * y3
    ux = (s1 * (y2 - y3) + s2 * (y3 - y1) + s3 * (y1 - y2)) / d
    uy = (s1 * (x3 - x2) + s2 * (x1 - x3) + s3 * (x2 - x1)) / d
    return (ux, uy), math.hypot(x1 - ux, y1 - uy)


def _dotted_line(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float],
                 fill: tuple[int, int, int], dot: float = 3, gap: float = 9) -> None:
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    n = max(1, int(length // gap))
    for i in range(n + 1):
        t = i / n
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        draw.ellipse((x - dot / 2, y - dot / 2, x + dot / 2, y + dot / 2), fill=fill)


def _dotted_circle(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float,
                   fill: tuple[int, int, int], dot: float = 3, gap: float = 9) -> None:
    n = max(8, int(2 * math.pi * r // gap))
    for i in range(n):
        a = 2 * math.pi * i / n
        x, y = c[0] + r * math.cos(a), c[1] + r * math.sin(a)
        draw.ellipse((x - dot / 2, y - dot / 2, x + dot / 2, y + dot / 2), fill=fill)


def _draw_island_lines(draw: ImageDraw.ImageDraw, island: int, fill: tuple[int, int, int]) -> None:
    pts = [point_xy(island * 7 + i) for i in range(7)]
    for i, line in enumerate(LINES):
        if i == RING:
            continue
        a, _b, c = sorted(line, key=lambda q: (pts[q][0], pts[q][1]))
        draw.line([pts[a], pts[c]], fill=fill, width=2)
    draw.ellipse(_ring_box(island), outline=fill, width=2)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The parts that never change: card, sea lines, neutral islands, their inner lines, labels."""
    img = Image.new("RGB", (WIDTH, HEIGHT), CARD)
    draw = ImageDraw.Draw(img)
    for a, _b, c in ISLAND_LINES:
        if (a, c) == (1, 5):
            continue
        _dotted_line(draw, island_centre(a), island_centre(c), SEA_LINE)
    centre, r = _sea_circle()
    _dotted_circle(draw, centre, r, SEA_LINE)
    label = font(26, bold=True)
    for k in range(N_ISLANDS):
        draw.polygon(_island_polygon(k), fill=ISLAND_FILL, outline=ISLAND_EDGE, width=2)
        _draw_island_lines(draw, k, INNER_LINE)
        draw.text(_label_xy(k), ISLANDS[k], font=label, fill=INK, anchor="mm")
    return img


def _label_xy(island: int) -> tuple[float, float]:
    """Where an island's letter goes: under the island."""
    cx, cy = island_centre(island)
    return cx, cy + _ISLAND_SIDE / (2 * math.sqrt(3)) + 19


def piece(draw: ImageDraw.ImageDraw, xy: tuple[float, float], side: int, r: float) -> None:
    """A piece of ``side`` at ``xy``: Fire a disc of radius ``r``, Ice a hexagon whose flat sides touch that
    disc (corners left and right), so the two sides differ by shape as well as colour."""
    x, y = xy
    if side == FIRE:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=FIRE_COLOUR, outline=CARD, width=2)
        return
    h = r * 2 / math.sqrt(3)
    corners = [(x + h * math.cos(math.pi * k / 3), y + h * math.sin(math.pi * k / 3)) for k in range(6)]
    draw.polygon(corners, fill=ICE_COLOUR, outline=CARD, width=2)


def _arrow(draw: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int]) -> None:
    """The last move's arrow from ``p`` to ``q``: white, edged in near-black (drawn under the pieces)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    start = (p[0] + ux * (DISC_R + 3), p[1] + uy * (DISC_R + 3))
    tip = (q[0] - ux * (DISC_R + 7), q[1] - uy * (DISC_R + 7))
    head = 20.0
    base = (tip[0] - ux * head, tip[1] - uy * head)

    def head_polygon(grow: float) -> list[tuple[float, float]]:
        t = (tip[0] + ux * grow, tip[1] + uy * grow)
        b = (base[0] - ux * grow / 2, base[1] - uy * grow / 2)
        w = 11 + grow
        return [t, (b[0] - uy * w, b[1] + ux * w), (b[0] + uy * w, b[1] - ux * w)]

    draw.line([start, base], fill=LAST_DARK, width=11)
    draw.polygon(head_polygon(3), fill=LAST_DARK)
    draw.line([start, base], fill=LAST_LIGHT, width=5)
    draw.polygon(head_polygon(0), fill=LAST_LIGHT)


def _ring(draw: ImageDraw.ImageDraw, p: tuple[int, int], radius: int, light: int) -> None:
    """A two-tone ring around a point: ``light`` px of white between 2 px of near-black on each side."""
    x, y = p
    r = radius + light + 2
    draw.ellipse((x - r, y - r, x + r, y + r), outline=LAST_DARK, width=light + 4)
    r -= 2
    draw.ellipse((x - r, y - r, x + r, y + r), outline=LAST_LIGHT, width=light)


def _clock_text(ms: int) -> str:
    secs = max(0, ms) // 1000
    if secs >= 3600:
        return f"{secs // 3600}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    return f"{secs // 60}:{secs % 60:02d}"


def _fit_text(text: str, sizes: Sequence[int], width: float, *, bold: bool = True) -> tuple[str, int]:
    """``text`` at the first size in ``sizes`` where it fits ``width`` px, else shortened (…) at the last."""
    for size in sizes:
        if font(size, bold=bold).getlength(text) <= width:
            return text, size
    return shorten(text, font(sizes[-1], bold=bold), width), sizes[-1]


def move_line(view: FireIceView, selected: str | None = None) -> str:
    """The header's second centre line: moves played (the number the board's footer gives), the result, or
    (while a piece is chosen) how many destinations it has."""
    if view.to_move is None:
        return view.detail_text()
    if selected:
        return ngettext("{point}: {n} destination (white)", "{point}: {n} destinations (white)",
                        len(view.destinations(selected)), point=selected)
    return _("after move {number}", number=view.ply) if view.ply else _("no moves yet")


class SideText(NamedTuple):
    """One side's header block: its name line (and font size), its counts line, and its x range."""

    text: str
    size: int
    counts: str
    box: tuple[float, float]


class HeaderLayout(NamedTuple):
    status: str
    colour: tuple[int, int, int]
    sub: str
    centre: tuple[float, float]
    sides: tuple[SideText, SideText]


def header_layout(view: FireIceView, names: Sequence[str] | None,
                  clocks: Sequence[int] | None, selected: str | None = None) -> HeaderLayout:
    """Where the header's texts go: each side's block (piece, side and name over its counts) gets half the
    width; the status and the move line share a third row, centred (``centre`` is its x range). A long name
    is shortened (never set below :data:`NUMBER_FONT`)."""
    big, small = font(26, bold=True), font(NUMBER_FONT)
    colour: tuple[int, int, int]
    if view.is_over:
        status = (pgettext("result", "Draw") if view.is_draw or view.winner is None
                  else _("{side} wins!", side=_(SIDE_NAMES[view.winner])))
        colour = INK if view.winner is None else SIDE_COLOURS[view.winner]
    elif view.to_move is None:
        status, colour = _("Handicap set-up"), MUTED
    else:
        status, colour = _("{side} to move", side=_(SIDE_NAMES[view.to_move])), SIDE_COLOURS[view.to_move]
    sub = move_line(view, selected)
    half = (big.getlength(status) + small.getlength(STATUS_GAP + sub)) / 2
    centre = (WIDTH / 2 - half, WIDTH / 2 + half)
    sides: list[SideText] = []
    for seat in (FIRE, ICE):
        room = WIDTH / 2 - 8 - 52 - 6
        label = _(SIDE_NAMES[seat])
        if names is not None and seat < len(names) and names[seat]:
            label = f"{label} · {names[seat]}"
        text, size = _fit_text(label, (26, NUMBER_FONT), room)
        counts = _("{on_board} on board · {supply} left", on_board=view.on_board[seat],
                   supply=view.supply[seat])
        if clocks is not None and seat < len(clocks):
            counts += f" · {_clock_text(clocks[seat])}"
        counts, _size = _fit_text(counts, (NUMBER_FONT,), room + 34, bold=False)
        box = (8, WIDTH / 2 - 6) if seat == FIRE else (WIDTH / 2 + 6, WIDTH - 8)
        sides.append(SideText(text, size, counts, box))
    return HeaderLayout(status, colour, sub, centre, (sides[0], sides[1]))


STATUS_GAP = " · "
STATUS_Y = HEADER - 22
"""The status row (whose turn, the move line) under the two sides' blocks."""


def _header(draw: ImageDraw.ImageDraw, view: FireIceView, names: Sequence[str] | None,
            clocks: Sequence[int] | None, selected: str | None) -> None:
    layout = header_layout(view, names, clocks, selected)
    small = font(NUMBER_FONT)
    for seat, (text, size, counts, box) in zip((FIRE, ICE), layout.sides, strict=True):
        x_disc = 30 if seat == FIRE else WIDTH - 30
        y = 28
        if view.to_move == seat:
            draw.rounded_rectangle((box[0], 6, box[1], 88), radius=10, outline=ACCENT, width=3)
        piece(draw, (x_disc, y), seat, 14)
        fnt = font(size, bold=True)
        if seat == FIRE:
            draw.text((x_disc + 22, y), text, font=fnt, fill=INK, anchor="lm")
            draw.text((x_disc - 12, y + 36), counts, font=small, fill=MUTED, anchor="lm")
        else:
            draw.text((x_disc - 22, y), text, font=fnt, fill=INK, anchor="rm")
            draw.text((x_disc + 12, y + 36), counts, font=small, fill=MUTED, anchor="rm")
    left = layout.centre[0]
    big = font(26, bold=True)
    draw.text((left, STATUS_Y), layout.status, font=big, fill=layout.colour, anchor="lm")
    draw.text((left + big.getlength(layout.status), STATUS_Y), STATUS_GAP + layout.sub, font=small,
              fill=MUTED, anchor="lm")


def render(view: FireIceView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Sequence[int] | None = None, selected: str | None = None) -> Image.Image:
    """Draw ``view`` (900×1000 RGB); ``events`` of the last move add highlights.

    ``names`` are optional display names per seat, ``clocks`` remaining
    milliseconds per seat. The last move (from the view) is drawn as a white
    arrow edged in black, under the pieces so no number is covered, with rings
    round both points; islands taken by the last move (``control`` events) get
    the same two-tone rim. ``selected`` (a point such as ``"D4"``, while a
    player picks a move) rings that piece instead and marks each of its legal
    destinations as a white disc.
    """
    img, draw = start(_background())
    targets = {parse_point(d) for d in view.destinations(selected)} if selected else set()

    # The winning line of islands, drawn in the sea (the islands on it are drawn over it).
    winning: tuple[int, ...] = ()
    if view.winner is not None and view.winning_line is not None:
        colour = SIDE_COLOURS[view.winner]
        winning = ISLAND_LINES[view.winning_line]
        a, _b, c = winning
        if winning == (1, 2, 5):
            centre, r = _sea_circle()
            box = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
            draw.ellipse(box, outline=colour, width=10)
        else:
            draw.line([island_centre(a), island_centre(c)], fill=colour, width=10)

    # Controlled islands: tint, rim and the controlling line.
    for k in range(N_ISLANDS):
        owner = view.controllers[k]
        if owner == EMPTY:
            continue
        draw.polygon(_island_polygon(k), fill=TINTS[owner], outline=SIDE_COLOURS[owner],
                     width=7 if k in winning else 3)
        _draw_island_lines(draw, k, _tint(SIDE_COLOURS[owner], 0.55))
        line = view.control_lines[k]
        if line is not None:
            if line == RING:
                draw.ellipse(_ring_box(k), outline=SIDE_COLOURS[owner], width=6)
            else:
                pts = sorted(point_xy(k * 7 + q) for q in LINES[line])
                draw.line([pts[0], pts[2]], fill=SIDE_COLOURS[owner], width=6)
        # The island's letter on its controller's piece shape: control reads without the tint's colour.
        lx, ly = _label_xy(k)
        piece(draw, (lx, ly), owner, 18)
        draw.text((lx, ly), ISLANDS[k], font=font(26, bold=True), fill=PIECE_INK[owner], anchor="mm")

    taken = {str(e.data.get("island")) for e in events
             if e.kind == "control" and e.data.get("seat") is not None}
    for k in range(N_ISLANDS):
        if ISLANDS[k] in taken and not selected:
            draw.polygon(_island_polygon(k), outline=LAST_DARK, width=8)
            draw.polygon(_island_polygon(k), outline=LAST_LIGHT, width=4)

    # The last move's arrow, under the pieces: a disc it passes keeps its number.
    last = view.last_move
    if isinstance(last, Move) and not selected:
        _arrow(draw, point_xy(last.src), point_xy(last.dst))

    # Points and pieces.
    num = font(NUMBER_FONT, bold=True)
    for p in range(N_POINTS):
        x, y = point_xy(p)
        box = (x - DISC_R, y - DISC_R, x + DISC_R, y + DISC_R)
        v = view.board[p]
        label = str(p % 7 + 1)
        if p in targets:
            draw.ellipse(box, fill=TARGET_FILL, outline=LAST_DARK, width=3)
            draw.text((x, y), label, font=num, fill=INK_DARK, anchor="mm")
        elif v == EMPTY:
            owner = view.controllers[p // 7]
            fill = ISLAND_FILL if owner == EMPTY else TINTS[owner]
            draw.ellipse(box, fill=fill, outline=MUTED, width=2)
            draw.text((x, y), label, font=num, fill=MUTED, anchor="mm")
        else:
            piece(draw, (x, y), v, DISC_R)
            draw.text((x, y), label, font=num, fill=PIECE_INK[v], anchor="mm")

    # Rings round the last move's points (outside the discs), or round the piece being chosen.
    if selected:
        _ring(draw, point_xy(parse_point(selected)), DISC_R + 1, 5)
    elif isinstance(last, Move):
        _ring(draw, point_xy(last.dst), DISC_R + 1, 4)
        _ring(draw, point_xy(last.src), DISC_R + 1, 2)

    _header(draw, view, names, clocks, selected)
    return img


def legend() -> Mapping[str, tuple[int, int, int]]:
    """The colours used, by meaning (for tests and help text)."""
    return {"fire": FIRE_COLOUR, "ice": ICE_COLOUR, "island": ISLAND_FILL, "fire_island": TINTS[FIRE],
            "ice_island": TINTS[ICE], "last_move": LAST_LIGHT, "last_move_edge": LAST_DARK,
            "destination": TARGET_FILL}


__all__ = ["DISC_R", "HEIGHT", "LAST_DARK", "LAST_LIGHT", "TARGET_FILL", "WIDTH", "header_layout",
           "island_centre", "legend", "move_line", "point_xy", "render"]
