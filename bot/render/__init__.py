"""Rendering primitives shared by the game renderers: fonts, palette, encoding.

Renderers in ``bot/games/<game>/render.py`` are pure functions from a view to a
``PIL.Image.Image``; encoding (PNG, GIF) and running off the event loop happen
here so that every game does it the same way.

Boards are sent as palette PNGs, one palette per picture family
(:mod:`bot.render.palette`), and once a family has its palette its boards are
drawn straight onto it (:mod:`bot.render.canvas`: renderers take their canvas
from :func:`start`).

Text is most of a board's drawing time; :class:`CachedFont` keeps the glyph
masks of the texts a font drew, so redrawn labels are bitmap copies. It draws
any script and emoji through the fallback chain of :mod:`bot.render.fonts`.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from functools import lru_cache
from itertools import pairwise
from typing import Any, cast

from PIL import Image, ImageDraw, ImageFont

from bot.render import fonts as _fonts
from bot.render.fonts import ASSETS_PACKAGE, FONTS  # noqa: F401  (where the fonts are, for callers)

log = logging.getLogger(__name__)

# One palette readable on Discord's dark (#313338) and light (#ffffff) themes:
# every picture is drawn on its own opaque card, so it never depends on the
# client's background.
CARD = (43, 45, 49)          # card background (dark slate)
CARD_LIGHT = (242, 243, 245)  # light panels on the card
INK = (235, 236, 238)        # text on the card
INK_DARK = (30, 31, 34)      # text on light panels
MUTED = (148, 155, 164)      # secondary text, grid lines
ACCENT = (250, 166, 26)      # last-move highlight (amber)
PLAYER_COLOURS = (
    (237, 66, 69),    # red
    (88, 101, 242),   # blue
    (87, 242, 135),   # green
    (254, 231, 92),   # yellow
)


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the glyph masks and lengths of the texts it drew.

    Boards redraw the same labels (coordinates, names, counts, clock digits) on every move, and
    rasterising text is most of a render's time; ``ImageDraw.text`` asks the font for each text's
    mask, so keeping the last few thousand masks per font makes redrawing a label a bitmap copy.
    The masks are read-only for ``ImageDraw`` (it only draws them), so sharing them is safe.
    """

    MAX_PIXELS = 1 << 21
    """Mask pixels (bytes) kept per font, least recently used first out: 2 MB."""
    MAX_LENGTHS = 32768

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._pixels = 0
        self._lengths: dict[tuple[Any, ...], Any] = {}  # lengths and boxes of texts
        self._joins: dict[tuple[str, str], bool] = {}  # letter-space pairs: drawn apart as together?
        self._lock = threading.Lock()

    fallback = False
    """Set by :func:`font`: texts DejaVu cannot draw whole go through the fallback chain."""
    bold = False

    def words(self, text: Any, anchor: str | None) -> tuple[list[tuple[float, str]], str] | None:
        """``text`` as its words, each with where its pen starts relative to the text's anchor point, and the
        anchor to draw each one with: drawn so, the words are the pixels of the whole text drawn at once.

        A board's lines mix words seen before (names, "to place", "pyramids left") with a few that change
        every move (counts, clocks); drawn word by word, a canvas keeps each word's patch and draws only the
        new words (:class:`bot.render.canvas.PaletteDraw`), where a whole line would be drawn afresh.

        None where that is not so or not known to be: a text of one word or several lines, one that needs
        the fallback chain or a script whose letters join or combine, an anchor whose height depends on the
        text (``t``, ``b``), or a font that kerns a letter against a space (checked per pair, once)."""
        anchor = anchor or "la"
        if (not isinstance(text, str) or " " not in text.strip(" ") or len(anchor) != 2
                or anchor[0] not in "lmr" or anchor[1] not in "amsd" or _NOT_SPLIT.search(text)
                or self._runs(text) is not None):
            return None
        found = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        joins = self._joins
        for (_a, end), (begin, _b) in pairwise(found):
            for pair in ((text[end - 1], " "), (" ", text[begin])):
                ok = joins.get(pair)
                if ok is None:
                    ok = joins[pair] = self.getlength(pair[0] + pair[1]) == (self.getlength(pair[0])
                                                                             + self.getlength(pair[1]))
                if not ok:
                    return None
        # every advance is a whole number of 64ths of a pixel (FreeType's 26.6), so these sums are exact
        pens, x, at = [], 0.0, 0
        for begin, end in found:
            x += self.getlength(text[at:begin]) if begin > at else 0.0
            pens.append(x)
            x += self.getlength(text[begin:end])
            at = end
        width = round(x * 64)
        # where Pillow puts a one-font text's anchor: its advance, halved for "m", rounded to a pixel
        shift = {"l": 0, "m": (width // 2 + 32) >> 6, "r": (width + 32) >> 6}[anchor[0]]
        return [(pen - shift, text[begin:end]) for pen, (begin, end) in zip(pens, found, strict=True)], \
            "l" + anchor[1]

    def _runs(self, text: Any) -> list[tuple[ImageFont.FreeTypeFont, str]] | None:
        if not self.fallback or not isinstance(text, str):
            return None
        runs = _fonts.plan(text, self.bold)
        if runs is None:
            return None
        return [(_face(name, self.size), part) for name, part in runs]

    def getmask2(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                 language: Any = None, stroke_width: float = 0, anchor: Any = None, ink: int = 0,
                 start: Any = None, *args: Any, **kwargs: Any) -> Any:
        key = (text, mode, direction, tuple(features) if features else None, language, stroke_width, anchor,
               ink if mode == "RGBA" else 0, tuple(start) if start else None, args,
               tuple(sorted(kwargs.items())))
        with self._lock:
            hit = self._masks.get(key)
            if hit is not None:
                self._masks.move_to_end(key)
                return hit
        runs = self._runs(text) if mode != "RGBA" else None
        if runs is None:
            out = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink,
                                   start, *args, **kwargs)
        else:
            out = self._composite(runs, mode, features, language, stroke_width, anchor, ink, start, kwargs)
        with self._lock:
            if key not in self._masks:
                self._masks[key] = out
                self._pixels += _mask_pixels(out)
                while self._pixels > self.MAX_PIXELS and len(self._masks) > 1:
                    self._pixels -= _mask_pixels(self._masks.popitem(last=False)[1])
        return out

    def getbbox(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                language: Any = None, stroke_width: float = 0,
                anchor: Any = None) -> tuple[float, float, float, float]:
        key = ("bbox", text, mode, direction, tuple(features) if features else None, language, stroke_width,
               anchor)
        hit = self._lengths.get(key)
        if hit is None:
            runs = self._runs(text)
            if runs is None:
                hit = super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
            else:
                left, top, right, bottom, ax, ay = self._layout(runs, mode, features, language, stroke_width,
                                                                anchor)
                hit = (math.floor(left - ax), math.floor(top - ay), math.ceil(right - ax),
                       math.ceil(bottom - ay))
            if len(self._lengths) > self.MAX_LENGTHS:
                self._lengths.clear()
            self._lengths[key] = hit
        return cast(tuple[float, float, float, float], hit)

    def getlength(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                  language: Any = None) -> float:
        key = (text, mode, direction, tuple(features) if features else None, language)
        hit = self._lengths.get(key)
        if hit is None:
            runs = self._runs(text)
            if runs is None:
                hit = super().getlength(text, mode, direction, features, language)
            else:
                hit = sum(f.getlength(part, mode, None, features, language) for f, part in runs)
            if len(self._lengths) > self.MAX_LENGTHS:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit

    def _layout(self, runs: list[tuple[ImageFont.FreeTypeFont, str]], mode: str, features: Any,
                language: Any, stroke_width: float,
                anchor: Any) -> tuple[float, float, float, float, float, float]:
        """The runs' box on a common baseline from the pen's start (left, top, right, bottom) and the
        anchor's point there (x, y): horizontal anchors by the runs' advance, vertical ones by DejaVu's
        ascender and descender, as Pillow places a one-font text."""
        x = 0.0
        box = [math.inf, math.inf, -math.inf, -math.inf]
        for f, part in runs:
            left, top, right, bottom = f.getbbox(part, mode, None, features, language, stroke_width, "ls")
            box = [min(box[0], x + left), min(box[1], top), max(box[2], x + right), max(box[3], bottom)]
            x += f.getlength(part, mode, None, features, language)
        anchor = anchor or "la"
        ascent, descent = self.getmetrics()
        ax = {"l": 0.0, "m": x / 2, "r": x}.get(anchor[0], 0.0)
        ay = {"a": -ascent, "s": 0.0, "d": descent, "m": (descent - ascent) / 2, "t": box[1],
              "b": box[3]}.get(anchor[1], -ascent)
        return box[0], box[1], box[2], box[3], ax, ay

    def _composite(self, runs: list[tuple[ImageFont.FreeTypeFont, str]], mode: str, features: Any,
                   language: Any, stroke_width: float, anchor: Any, ink: int, start: Any,
                   kwargs: dict[str, Any]) -> tuple[Any, tuple[int, int]]:
        """The runs' masks side by side on one baseline, as one mask and its offset (``getmask2``'s)."""
        sx, sy = start if start else (0.0, 0.0)
        *_, ax, ay = self._layout(runs, mode, features, language, stroke_width, anchor)
        y0 = sy - ay
        iy = math.floor(y0)
        pen = sx - ax
        placed = []
        for f, part in runs:
            ix = math.floor(pen)
            core, (ox, oy) = f.getmask2(part, mode, None, features, language, stroke_width, "ls", ink,
                                        (pen - ix, y0 - iy), **kwargs)
            placed.append((core, ix + ox, iy + oy))
            pen += f.getlength(part, mode, None, features, language)
        left = min(x for _, x, _ in placed)
        top = min(y for _, _, y in placed)
        right = max(x + c.size[0] for c, x, _ in placed)
        bottom = max(y + c.size[1] for c, _, y in placed)
        out = Image.new("L", (max(0, right - left), max(0, bottom - top)))
        for core, x, y in placed:
            w, h = core.size
            if w and h:
                box = (x - left, y - top, x - left + w, y - top + h)
                out.im.paste(out.im.crop(box).chop_lighter(core), box)
        return out.im, (left, top)


_WORD = re.compile(r"[^ ]+")
_NOT_SPLIT = re.compile("[^\u0020-\u007e\u00a0-\u02ff\u0370-\u0482\u048a-\u058f\u2010-\u2027\u2030-\u205f"
                        "\u2070-\u20cf\u2100-\u2bff]")
"""What :meth:`CachedFont.words` leaves whole: anything but the scripts whose letters stand alone (Latin,
Greek, Cyrillic, Armenian) and punctuation and symbols; combining marks, invisible formatting and controls
too."""


def _mask_pixels(mask_and_offset: Any) -> int:
    w, h = mask_and_offset[0].size
    return int(w * h) + 64


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans at ``size`` pixels (cached, with its rendered texts: :class:`CachedFont`),
    drawing what DejaVu lacks with the fallback chain (:mod:`bot.render.fonts`)."""
    fnt = _face(_fonts.PRIMARY[bold], size, fallback=True)
    fnt.bold = bold
    return fnt


@lru_cache(maxsize=256)
def _face(name: str, size: float, fallback: bool = False) -> CachedFont:
    """One vendored font file at ``size`` pixels."""
    with (FONTS / name).open("rb") as f:  # FreeType keeps the bytes: any importlib.resources location works
        fnt = CachedFont(f, size)
    fnt.fallback = fallback
    return fnt


def text_center(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
                fnt: ImageFont.FreeTypeFont, fill: tuple[int, ...]) -> None:
    """Draw ``text`` centred on ``xy``."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


from bot.render.canvas import PaletteMiss, board_png, kept, paste, start  # noqa: E402
from bot.render.palette import (  # noqa: E402  (the encoders, re-exported)
    MAX_FILL_ERROR,
    MAX_PALETTE_ERROR,
    gif_bytes,
    palette_png,
    png_bytes,
    to_palette,
)

__all__ = ["ACCENT", "CARD", "CARD_LIGHT", "INK", "INK_DARK", "MAX_FILL_ERROR", "MAX_PALETTE_ERROR", "MUTED",
           "PLAYER_COLOURS", "CachedFont", "PaletteMiss", "board_png", "font", "gif_bytes", "kept",
           "palette_png", "paste", "png_bytes", "start", "text_center", "to_palette"]
