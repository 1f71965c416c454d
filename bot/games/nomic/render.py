"""The Nomic World map: a pure picture of a :class:`~bot.games.nomic.view.NomicView`.

The map shows the spaces around everybody (with a margin), north up:
unknown spaces in slate, revealed ones in their resource's colour with its
pictogram and, on spaces big enough, its two-letter code on a band along the
bottom of the space (tokens stand above the band; the legend explains each
code once), the origin marked,
the last path as an amber line from its start to its landing space, and each
player's token (with a white halo and a dark ring: it reads on every space's
colour, and its player's initial: it is never smaller than that letter needs,
even where it overflows a small space) with their name beside it, placed where it covers no other name, token,
the origin or the axes (:mod:`.labels`; shortened, or joined by a leader line,
when it must). The picture has one size for a whole match: the map
is fitted into a fixed square whatever part of the world it shows (only more
than six players or a world wider than 51 spaces make it larger). A header
says whose turn and phase it is; a legend lists the resources and every
player with their colour, position and clock. Every text is at least 11 px when
the picture is shown 400 px wide (:attr:`Geometry.text`). The
rulebook is not drawn: the cog shows it in embeds (:mod:`.rulebook`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw, ImageFont

from bot.games.base import Event, Seat
from bot.games.nomic.flow import end_text
from bot.games.nomic.labels import Placed, Rect, Wanted, layout_labels
from bot.games.nomic.moves import Point, resource_name, vote_word
from bot.games.nomic.view import NomicView
from bot.i18n import _, language, ngettext, pgettext
from bot.render import (
    ACCENT,
    CARD,
    CARD_LIGHT,
    INK,
    INK_DARK,
    MUTED,
    PLAYER_COLOURS,
    font,
    kept,
    start,
    text_center,
)
from bot.render.text import clip, graphemes, shorten

UNKNOWN = (64, 68, 75)
"""Fill of a space whose resource is still unknown."""
GRID = (86, 90, 98)
BAND = (32, 34, 37)
"""The dark band along the bottom of a revealed space that carries its resource's name."""
ORIGIN_FILL = CARD_LIGHT
RESOURCE_COLOURS: dict[str, tuple[int, int, int]] = {
    "Wood": (146, 96, 48),
    "Metal": (176, 184, 196),
    "Water": (48, 128, 224),
    "Food": (92, 178, 74),
}
TOKEN_COLOURS: tuple[tuple[int, int, int], ...] = (*PLAYER_COLOURS,
    (255, 140, 26), (235, 69, 158), (26, 200, 214), (155, 89, 220),
    (190, 230, 60), (255, 160, 190), (26, 188, 140), (225, 225, 225))
"""Token colours by seat (cycled after twelve players)."""

MAP_SIZE = 560        # the square the map is fitted into, in pixels
MIN_CELL, MAX_CELL = 14, 88
MIN_HALF_SPAN = 3     # the map always shows at least -3..3 around what it contains
PAD = 16
AXIS = 40             # room for the coordinate labels
HEADER = 78
LEGEND_ROW = 30
LEGEND_COLUMNS = 2
LEGEND_PLAYER_ROWS = 3  # room for six players before the picture grows
PHONE_WIDTH, MIN_TEXT_PX = 400, 11
"""Every text is at least 11 px when Discord shows the picture 400 px wide (issue 31)."""
BAND_MIN_CELL = 40    # smaller spaces show their resource's pictogram only (no room for its code)
TOKEN_MIN_R = 12      # every token is big enough to carry its letter, even where it overflows its space
RESOURCE_CODES: dict[str, str] = {"Wood": "Wd", "Metal": "Mt", "Water": "Wa", "Food": "Fd"}
"""Each resource's code on the band of its spaces (the legend explains each code once), in English; drawn
in the current language (:func:`resource_code`)."""


def resource_code(resource: str) -> str:
    """The two letters of ``resource`` on its spaces' bands, in the current language."""
    codes = {"Wood": pgettext("resource code", "Wd"), "Metal": pgettext("resource code", "Mt"),
             "Water": pgettext("resource code", "Wa"), "Food": pgettext("resource code", "Fd")}
    return codes.get(resource, RESOURCE_CODES.get(resource, resource))


def token_colour(seat: Seat) -> tuple[int, int, int]:
    """The colour of ``seat``'s token (also used for its legend swatch)."""
    return TOKEN_COLOURS[seat % len(TOKEN_COLOURS)]


def _bounds(view: NomicView) -> tuple[int, int, int, int]:
    pts: list[Point] = [(0, 0), *view.path, *(p for p, _res in view.revealed)]
    pts += [p.pos for p in view.players if p.status != "left" and p.pos is not None]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    x0, x1 = min(x0, cx - MIN_HALF_SPAN), max(x1, cx + MIN_HALF_SPAN)
    y0, y1 = min(y0, cy - MIN_HALF_SPAN), max(y1, cy + MIN_HALF_SPAN)
    return x0, x1, y0, y1


def _header(view: NomicView, names: Sequence[str]) -> tuple[str, str]:
    """The picture's title and the line under it, in the current language."""
    if view.status == "lobby":
        n = sum(p.status == "active" for p in view.players)
        waiting = ngettext("{n} player waiting to start", "{n} players waiting to start", n)
        return _("Nomic World \u00b7 lobby"), waiting
    if view.status == "over":
        ended = end_text(view.result) if view.result else _("The game has ended.")
        return _("Nomic World \u00b7 game over"), ended
    who = names[view.current] if view.current is not None else "?"
    title = _("Nomic World \u00b7 round {round}, turn {turn}", round=view.round, turn=view.turn)
    if view.question is not None:
        q = view.question.question
        q = clip(q, 40)
        return title, _("Judgment: {judge} must rule on \u201c{question}\u201d",
                        judge=names[view.question.judge], question=q)
    if view.phase == "roll":
        return title, _("{player} rolls the d{sides}", player=who, sides=view.die)
    if view.phase == "move":
        return title, _("{player} rolled {n}: choose a path", player=who, n=view.roll)
    if view.phase == "reveal":
        return title, _("{player} is landing", player=who)
    if view.phase == "propose":
        return title, _("{player} proposes a rule-change", player=who)
    if view.phase == "vote":
        return title, _vote_line(view)
    return title, who


def _vote_line(view: NomicView) -> str:
    p = view.proposal
    if p is None:
        return _("Vote")
    # no counts: the picture is not redrawn per vote; the proposal message carries the live tally
    return ngettext("Vote on proposal {number}: {n} voter, {needed} (tally on the proposal)",
                    "Vote on proposal {number}: {n} voters, {needed} (tally on the proposal)", len(p.voters),
                    number=p.number, needed=vote_word(p.needed))


def _clock(ms: int) -> str:
    sec = max(0, ms // 1000)
    if sec >= 3600:
        minutes = f"{sec % 3600 // 60:02d}"
        return _("{hours}h {minutes}m", hours=sec // 3600, minutes=minutes)
    return f"{sec // 60}:{sec % 60:02d}"


_TREE = (40, 90, 40)
_GRAIN = (240, 220, 120)


def _icon(d: ImageDraw.ImageDraw, res: str, cx: float, cy: float, r: float) -> None:
    """A small pictogram of a resource centred on (cx, cy) within radius ``r``."""
    dark = INK_DARK
    if res == "Wood":  # a fir tree
        d.polygon([(cx, cy - r), (cx + r * 0.8, cy + r * 0.5), (cx - r * 0.8, cy + r * 0.5)], fill=_TREE)
        d.rectangle((cx - r * 0.15, cy + r * 0.5, cx + r * 0.15, cy + r), fill=dark)
    elif res == "Metal":  # an ingot
        d.polygon([(cx - r * 0.6, cy - r * 0.4), (cx + r * 0.6, cy - r * 0.4), (cx + r, cy + r * 0.5),
                   (cx - r, cy + r * 0.5)], fill=(110, 116, 128), outline=dark)
    elif res == "Water":  # a drop
        d.ellipse((cx - r * 0.6, cy - r * 0.1, cx + r * 0.6, cy + r * 0.9), fill=(225, 240, 255))
        d.polygon([(cx, cy - r), (cx + r * 0.55, cy + r * 0.25), (cx - r * 0.55, cy + r * 0.25)],
                  fill=(225, 240, 255))
    else:  # Food: an ear of grain
        d.line((cx, cy - r, cx, cy + r), fill=dark, width=max(1, int(r / 5)))
        for k in (-0.6, -0.1, 0.4):
            top, bottom = cy + r * (k - 0.2), cy + r * (k + 0.2)
            d.ellipse((cx - r * 0.55, top, cx - r * 0.05, bottom), fill=_GRAIN)
            d.ellipse((cx + r * 0.05, top, cx + r * 0.55, bottom), fill=_GRAIN)


def _fit(d: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, room: float) -> str:
    """``text``, shortened with an ellipsis to fit ``room`` pixels (at a grapheme boundary)."""
    return shorten(text, fnt, room)


@dataclass(frozen=True)
class Geometry:
    """Where things go on the picture of a view (also used by tests to find pixels)."""

    x0: int
    x1: int
    y0: int
    y1: int
    cell: int
    left: int
    top: int
    width: int
    height: int
    legend_top: int

    @property
    def cols(self) -> int:
        return self.x1 - self.x0 + 1

    @property
    def rows(self) -> int:
        return self.y1 - self.y0 + 1

    def box(self, p: Point) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom; right/bottom exclusive) of space ``p``."""
        left = self.left + (p[0] - self.x0) * self.cell
        top = self.top + (self.y1 - p[1]) * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, p: Point) -> tuple[float, float]:
        left, top, _right, _bottom = self.box(p)
        return left + self.cell / 2, top + self.cell / 2

    @property
    def text(self) -> int:
        """The font size of every text but the title: 11 px or more at 400 px wide."""
        return max(18, -(-MIN_TEXT_PX * self.width // PHONE_WIDTH))

    @property
    def band(self) -> int:
        """Height of the resource code along the bottom of a revealed space (0 on small spaces)."""
        return self.text + 4 if self.cell >= BAND_MIN_CELL else 0

    def token_area(self, p: Point, labelled: bool) -> tuple[float, float, float, float]:
        """Where tokens stand in space ``p``: above the label band of a revealed space."""
        left, top, right, bottom = self.box(p)
        return left, top, right, bottom - (self.band if labelled else 0)


def geometry(view: NomicView) -> Geometry:
    """The layout of ``view``'s picture: the spaces shown, their size and place."""
    x0, x1, y0, y1 = _bounds(view)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = max(MIN_CELL, min(MAX_CELL, MAP_SIZE // max(cols, rows)))
    map_w, map_h = cols * cell, rows * cell
    box_w, box_h = max(MAP_SIZE, map_w), max(MAP_SIZE, map_h)  # fixed unless the world is huge
    on_map = sum(p.status != "left" for p in view.players)
    legend_rows = 1 + max(LEGEND_PLAYER_ROWS, -(-on_map // LEGEND_COLUMNS))
    width = PAD * 2 + AXIS + box_w
    height = HEADER + box_h + AXIS + PAD + legend_rows * LEGEND_ROW + PAD
    left = PAD + AXIS + (box_w - map_w) // 2
    top = HEADER + (box_h - map_h) // 2
    return Geometry(x0, x1, y0, y1, cell, left, top, width, height, HEADER + box_h + AXIS + PAD // 2)


LABEL_STROKE = 3   # the card-coloured outline around a name, so it reads over any space
LABEL_GAP = 3      # pixels between a space and its name


def label_font(g: Geometry) -> ImageFont.FreeTypeFont:
    """The font of the names beside the tokens."""
    return font(g.text, bold=True)


def _measure(fnt: ImageFont.FreeTypeFont, text: str) -> tuple[float, float]:
    """The box of a name as drawn (its outline included); one height for every text of the font."""
    left, _top, right, _bottom = fnt.getbbox(text, anchor="lm", stroke_width=LABEL_STROKE)
    ascent, descent = fnt.getmetrics()
    return right - left, ascent + descent + 2 * LABEL_STROKE


def _ink_offset(fnt: ImageFont.FreeTypeFont, text: str) -> tuple[float, float]:
    left, top, _right, _bottom = fnt.getbbox(text, anchor="lm", stroke_width=LABEL_STROKE)
    return left, top


Spot = tuple[Seat, float, float, float]
"""A token: seat, centre x, centre y, radius."""


def token_spots(view: NomicView, g: Geometry) -> dict[Point, list[Spot]]:
    """Where each token on the map is drawn, by space: players sharing a space sit side by side."""
    revealed = {p for p, _res in view.revealed}
    by_space: dict[Point, list[int]] = {}
    for pl in view.players:
        if pl.pos is not None and pl.status == "active":
            by_space.setdefault(pl.pos, []).append(pl.seat)
    out: dict[Point, list[Spot]] = {}
    for pos, seats in by_space.items():
        k = len(seats)
        per_row = 1 if k == 1 else 2 if k <= 4 else 3
        a_left, a_top, a_right, a_bottom = g.token_area(pos, pos in revealed)
        area_w, area_h = a_right - a_left, a_bottom - a_top
        size = max(min(area_w, area_h) / per_row, 2 * TOKEN_MIN_R + 6)  # may overflow a small space
        rows_used = min(per_row, -(-k // per_row))
        rad = max(float(TOKEN_MIN_R), size * 0.38 - 2)
        x_off = (area_w - per_row * size) / 2
        y_off = (area_h - rows_used * size) / 2
        out[pos] = [(seat, a_left + x_off + (n % per_row + 0.5) * size,
                     a_top + y_off + (n // per_row % per_row + 0.5) * size, rad)
                    for n, seat in enumerate(seats)]
    return out


def markers(g: Geometry, spots: Mapping[Point, Sequence[Spot]]) -> list[Rect]:
    """The boxes no name may cover: every token (with its halo), the origin, the axes' numbers, "N"."""
    out: list[Rect] = []
    for seats in spots.values():
        for _seat, cx, cy, rad in seats:
            r = rad + (2 if rad >= 6 else 1)
            out.append((cx - r, cy - r, cx + r + 1, cy + r + 1))
    out.append(g.box((0, 0)))
    map_w, map_h = g.cols * g.cell, g.rows * g.cell
    mx, my = g.left, g.top
    out.append((mx - 20, my + map_h + 1, mx + map_w + 20, my + map_h + AXIS))   # x axis numbers
    out.append((mx - AXIS - 8, my - 14, mx - 1, my + map_h + 14))              # y axis numbers
    out.append((mx + map_w - 46, my - 26, mx + map_w, my - 2))                  # "N ↑"
    return out


def label_bounds(g: Geometry) -> Rect:
    """Names stay between the header and the legend, off the picture's edges."""
    return 4, HEADER, g.width - 4, g.legend_top - 2


def _near(g: Geometry, pos: Point, seats: Sequence[Spot]) -> Rect:
    """The box a name stands beside: the space, and its tokens where they overflow it (small spaces)."""
    box = g.box(pos)
    left, top, right, bottom = float(box[0]), float(box[1]), float(box[2]), float(box[3])
    for _seat, cx, cy, rad in seats:
        r = rad + 3
        left, top, right, bottom = min(left, cx - r), min(top, cy - r), max(right, cx + r + 1), \
            max(bottom, cy + r + 1)
    return left, top, right, bottom


def _wanted(spots: Mapping[Point, Sequence[Spot]], shown: Sequence[str], g: Geometry) -> list[Wanted]:
    return [Wanted(pos, ", ".join(shown[s] for s, _x, _y, _r in seats), _near(g, pos, seats))
            for pos, seats in spots.items()]


def _shown(view: NomicView, names: Sequence[str | None] | None) -> list[str]:
    return [names[i] if names is not None and i < len(names) and names[i] else p.name  # type: ignore[misc]
            for i, p in enumerate(view.players)]


def label_layout(view: NomicView,
                 names: Sequence[str | None] | None = None) -> tuple[list[Placed], list[Rect]]:
    """The names' boxes as :func:`render` draws them, and the markers they keep clear of (for tests)."""
    g = geometry(view)
    spots = token_spots(view, g)
    fnt = label_font(g)
    placed = layout_labels(_wanted(spots, _shown(view, names), g), markers(g, spots), label_bounds(g),
                           partial(_measure, fnt), gap=LABEL_GAP, step=g.cell)
    return placed, markers(g, spots)


def _x_axis(d: ImageDraw.ImageDraw, x0: int, x1: int, cell: int, step: int, mx: int, top: int,
            size: int) -> None:
    axis_font = font(size)
    for x in range(x0, x1 + 1):
        if x % step == 0:
            text_center(d, (mx + (x - x0) * cell + cell / 2, top + AXIS / 2), str(x), axis_font, MUTED)


def _y_axis(d: ImageDraw.ImageDraw, y0: int, y1: int, cell: int, step: int, mx: int, my: int,
            size: int) -> None:
    axis_font = font(size)
    for y in range(y0, y1 + 1):
        if y % step == 0:
            d.text((mx - 6, my + (y1 - y) * cell + cell / 2), str(y), font=axis_font, fill=MUTED, anchor="rm")


def _resource_legend(d: ImageDraw.ImageDraw, ly: int, size: int, right: int) -> None:
    """Each resource once: its colour, its code (as on the spaces' bands) and its name; then unknown (in the
    current language)."""
    lx = PAD
    items = [(colour, resource_code(res), resource_name(res)) for res, colour in RESOURCE_COLOURS.items()]
    unknown = pgettext("map legend", "unknown")

    def width(small: ImageFont.FreeTypeFont, bold: ImageFont.FreeTypeFont) -> float:
        return sum(23 + d.textlength(code, font=bold) + 5 + d.textlength(word, font=small) + 14
                   for _c, code, word in items) + 23 + d.textlength(unknown, font=small)

    # a language whose names are longer gets a smaller type (down to 3/4), then shortened names
    fitted = size
    while fitted > size * 3 // 4 and width(font(fitted), font(fitted, bold=True)) > right - lx:
        fitted -= 1
    small, bold = font(fitted), font(fitted, bold=True)
    over = width(small, bold) - (right - lx)
    for colour, code, word in items:
        d.rectangle((lx, ly + 4, lx + 18, ly + 22), fill=colour, outline=GRID)
        d.text((lx + 23, ly + 13), code, font=bold, fill=INK, anchor="lm")
        lx += 23 + int(d.textlength(code, font=bold)) + 5
        if over > 0:
            word = shorten(word, small, max(12, int(d.textlength(word, font=small) - over / len(items))))
        d.text((lx, ly + 13), word, font=small, fill=MUTED, anchor="lm")
        lx += int(d.textlength(word, font=small)) + 14
    d.rectangle((lx, ly + 4, lx + 18, ly + 22), fill=UNKNOWN, outline=GRID)
    room = right - lx - 23  # a translation too long for the row is shortened rather than cut by the edge
    d.text((lx + 23, ly + 13), shorten(pgettext("map legend", "unknown"), small, room), font=small, fill=INK,
           anchor="lm")


def render(view: NomicView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Mapping[Seat, int] | Sequence[int] | None = None) -> Image.Image:
    """Draw the map of ``view``.

    ``names`` overrides the display names per seat; ``events`` (the last
    move's) outline the space just landed on; ``clocks`` (remaining
    milliseconds per seat) are shown in the legend.
    """
    shown = _shown(view, names)
    g = geometry(view)
    x0, x1, y0, y1, cell = g.x0, g.x1, g.y0, g.y1, g.cell
    cols, rows = g.cols, g.rows
    map_w, map_h = cols * cell, rows * cell
    on_map = [p for p in view.players if p.status != "left"]
    width = g.width
    img, d = start((g.width, g.height), CARD)

    title, sub = _header(view, shown)
    tf, sf = font(max(24, g.text), bold=True), font(g.text)
    d.text((PAD, 12), _fit(d, title, tf, width - 2 * PAD), font=tf, fill=INK)
    d.text((PAD, 46), _fit(d, sub, sf, width - 2 * PAD - 50), font=sf,  # clear of "N ↑" under it
           fill=ACCENT if view.status == "running" else MUTED)

    mx, my = g.left, g.top
    box, centre = g.box, g.centre

    # Spaces: unknown everywhere, then the revealed ones, the origin, the grid.
    d.rectangle((mx, my, mx + map_w - 1, my + map_h - 1), fill=UNKNOWN)
    band = g.band
    resource_at: dict[Point, str] = {}
    for p, res in view.revealed:
        if x0 <= p[0] <= x1 and y0 <= p[1] <= y1:
            resource_at[p] = res
            left, top, right, bottom = box(p)
            d.rectangle((left, top, right - 1, bottom - 1), fill=RESOURCE_COLOURS[res])
            _icon(d, res, left + cell / 2, top + (cell - band) / 2, (cell - band) * 0.34)
    left, top, right, bottom = box((0, 0))
    d.rectangle((left, top, right - 1, bottom - 1), fill=ORIGIN_FILL)
    c = cell // 4
    d.line((left + c, top + c, right - c, bottom - c), fill=INK_DARK, width=max(2, cell // 12))
    d.line((left + c, bottom - c, right - c, top + c), fill=INK_DARK, width=max(2, cell // 12))
    for i in range(cols + 1):
        d.line((mx + i * cell, my, mx + i * cell, my + map_h), fill=GRID, width=1)
    for j in range(rows + 1):
        d.line((mx, my + j * cell, mx + map_w, my + j * cell), fill=GRID, width=1)

    # Coordinates: every space when there is room, else every 5th (or 10th). Each axis is drawn once per
    # process for its span and cell size (kept): a map has dozens of them, the same from move to move.
    step = 1 if cell >= 36 else 2 if cell >= 20 else 5 if cell * 5 >= 40 else 10
    kept(d, (mx - 20, my + map_h, mx + map_w + 20, my + map_h + AXIS), ("x axis", x0, x1, cell, g.text),
         partial(_x_axis, d, x0, x1, cell, step, mx, my + map_h, g.text))
    kept(d, (mx - AXIS - 8, my - 14, mx, my + map_h + 14), ("y axis", y0, y1, cell, g.text),
         partial(_y_axis, d, y0, y1, cell, step, mx, my, g.text))
    d.text((mx + map_w, my - 4), "N \u2191", font=font(g.text, bold=True), fill=MUTED,  # not translated: N
           anchor="rb")

    # The last path, and the space just landed on when this move made it.
    if len(view.path) >= 2:
        pts = [centre(p) for p in view.path]
        w = max(3, cell // 6)
        d.line(pts, fill=ACCENT, width=w, joint="curve")
        r = max(3, cell // 7)
        sx, sy = pts[0]
        d.ellipse((sx - r, sy - r, sx + r, sy + r), outline=ACCENT, width=max(2, w // 2))
    if any(e.kind in ("move", "land", "reveal") for e in events) and view.path:
        left, top, right, bottom = box(view.path[-1])
        d.rectangle((left, top, right - 1, bottom - 1), outline=ACCENT, width=max(3, cell // 8))

    # Resource codes on their bands (over the landing highlight's bottom edge, under nobody's token).
    if band:
        lf = font(g.text, bold=True)
        for p, res in resource_at.items():
            left, _top, right, bottom = box(p)
            d.rectangle((left + 1, bottom - band, right - 2, bottom - 2), fill=BAND)
            text_center(d, (left + cell / 2, bottom - band / 2 - 1), resource_code(res), lf, INK)

    # Tokens: players sharing a space sit side by side in it; their names beside it, clear of each other.
    name_font = label_font(g)
    spots = token_spots(view, g)
    for seats in spots.values():
        for seat, cx, cy, rad in seats:
            halo = 2 if rad >= 6 else 1
            d.ellipse((cx - rad - halo, cy - rad - halo, cx + rad + halo, cy + rad + halo), fill=INK)
            d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=token_colour(seat), outline=INK_DARK,
                      width=2 if rad >= 6 else 1)
            initial = "".join(graphemes(shown[seat])[:1]).upper()
            text_center(d, (cx, cy), initial, font(max(g.text, int(rad * 1.1)), bold=True), INK_DARK)
    for lab in layout_labels(_wanted(spots, shown, g), markers(g, spots), label_bounds(g),
                             partial(_measure, name_font), gap=LABEL_GAP, step=cell):
        if lab.leader is not None:
            d.line(lab.leader, fill=CARD, width=4)
            d.line(lab.leader, fill=INK, width=2)
        dx, _dy = _ink_offset(name_font, lab.text)
        d.text((lab.rect[0] - dx, (lab.rect[1] + lab.rect[3]) / 2), lab.text, font=name_font, fill=INK,
               anchor="lm", stroke_width=LABEL_STROKE, stroke_fill=CARD)

    # Legend: resources (the same on every board of a language: kept), then players (colour, name, where,
    # clock).
    ly = g.legend_top
    small = font(g.text)
    # (the box reaches a little above the row: its big labels' antialiasing does)
    kept(d, (PAD, ly - 4, width - PAD, ly + LEGEND_ROW + 2), ("resources", width, g.text, language()),
         partial(_resource_legend, d, ly, g.text, width - PAD))
    clock_of: Mapping[int, int] | None = (dict(enumerate(clocks)) if isinstance(clocks, Sequence)
                                          else clocks)
    col_w = (width - PAD * 2) // LEGEND_COLUMNS
    for n, pl in enumerate(on_map):
        row, col = divmod(n, LEGEND_COLUMNS)
        px = PAD + col * col_w
        py = ly + LEGEND_ROW * (row + 1)
        d.ellipse((px, py + 4, px + 18, py + 22), fill=token_colour(pl.seat), outline=INK_DARK)
        if pl.status == "pending":
            where = _("joins next round")
        elif pl.pos is None:
            where = _("in movement")
        else:
            where = f"({pl.pos[0]}, {pl.pos[1]})"
        mark = "\u25b6 " if pl.seat == view.current else ""
        tail = f"  {where}"
        if clock_of is not None and pl.seat in clock_of:
            tail += " \u00b7 " + _("{clock} left", clock=_clock(clock_of[pl.seat]))
        room = col_w - 34 - d.textlength(mark + tail, font=small)
        text = mark + _fit(d, shown[pl.seat], small, room) + tail
        fill = ACCENT if pl.seat == view.current else INK
        d.text((px + 26, py + 13), text, font=small, fill=fill, anchor="lm")
    return img
