"""Rendering primitives shared by the game renderers: fonts, palette, encoding.

Renderers in ``bot/games/<game>/render.py`` are pure functions from a view to a
``PIL.Image.Image``; encoding (PNG, GIF) and running off the event loop happen
here so that every game does it the same way.

Boards are sent as palette PNGs, one palette per picture family
(:mod:`bot.render.palette`), and once a family has its palette its boards are
drawn straight onto it (:mod:`bot.render.canvas`: renderers take their canvas
from :func:`start`).

Text is most of a board's drawing time; :class:`CachedFont` keeps the glyph
masks of the texts a font drew, so redrawn labels are bitmap copies.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, cast

from PIL import ImageDraw, ImageFont

log = logging.getLogger(__name__)

ASSETS_PACKAGE = "parlor_assets"
"""The repository's ``assets/``, installed as a package (pyproject.toml's ``package-dir``)."""
FONTS: Traversable = resources.files(ASSETS_PACKAGE) / "fonts"
"""The vendored DejaVu fonts and their licence: package data, wherever the package is installed."""

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
    MAX_LENGTHS = 4096

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._pixels = 0
        self._lengths: dict[tuple[Any, ...], Any] = {}  # lengths and boxes of texts
        self._lock = threading.Lock()

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
        out = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                               *args, **kwargs)
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
            hit = super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
            if len(self._lengths) > self.MAX_LENGTHS:
                self._lengths.clear()
            self._lengths[key] = hit
        return cast(tuple[float, float, float, float], hit)

    def getlength(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                  language: Any = None) -> float:
        key = (text, mode, direction, tuple(features) if features else None, language)
        hit = self._lengths.get(key)
        if hit is None:
            hit = super().getlength(text, mode, direction, features, language)
            if len(self._lengths) > self.MAX_LENGTHS:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit


def _mask_pixels(mask_and_offset: Any) -> int:
    w, h = mask_and_offset[0].size
    return int(w * h) + 64


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans at ``size`` pixels (cached, with its rendered texts: :class:`CachedFont`)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with (FONTS / name).open("rb") as f:  # FreeType keeps the bytes: any importlib.resources location works
        return CachedFont(f, size)


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
