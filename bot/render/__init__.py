"""Rendering primitives shared by the game renderers: fonts, palette, encoding.

Renderers in ``bot/games/<game>/render.py`` are pure functions from a view to a
``PIL.Image.Image``; encoding (PNG, GIF) and running off the event loop happen
here so that every game does it the same way.

Boards are sent as palette PNGs: every board is drawn from a small fixed set of
colours (plus the anti-aliased edges between them), so 256 palette entries
reproduce it within a few levels per channel. A palette is built once per
picture family (by default: pictures of the same size) from the boards
themselves and reused; each encoding checks every pixel against the bound
:data:`MAX_PALETTE_ERROR` and rebuilds the palette (or, failing that, sends an
RGB PNG) when a board brings colours the palette does not hold. Palette PNGs
are about half the bytes of RGB ones and several times faster to encode.
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger(__name__)

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
FONTS = ASSETS / "fonts"

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

    MAX_ENTRIES = 4096

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lengths: dict[tuple[Any, ...], float] = {}
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
            self._masks[key] = out
            if len(self._masks) > self.MAX_ENTRIES:
                self._masks.popitem(last=False)
        return out

    def getlength(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                  language: Any = None) -> float:
        key = (text, mode, direction, tuple(features) if features else None, language)
        hit = self._lengths.get(key)
        if hit is None:
            hit = super().getlength(text, mode, direction, features, language)
            if len(self._lengths) > self.MAX_ENTRIES:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans at ``size`` pixels (cached, with its rendered texts: :class:`CachedFont`)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return CachedFont(str(FONTS / name), size)


def text_center(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
                fnt: ImageFont.FreeTypeFont, fill: tuple[int, ...]) -> None:
    """Draw ``text`` centred on ``xy``."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


PNG_LEVEL = 3
"""zlib level for palette PNGs: as fast as level 1 on boards, 15-20 % smaller."""
MAX_PALETTE_ERROR = 8
"""The most a palette PNG's pixel may differ from the drawn board, per channel (of 255)."""
_PALETTE_SAMPLES = 3
"""Boards a palette is built from (the newest ones that needed a new palette)."""
MAX_FILL_ERROR = 3
"""The most a fill's pixels (a colour covering an area, see :data:`_FILL_SHARE`) may change, per channel."""
_FILL_SHARE = 500
"""A colour covering at least 1/_FILL_SHARE of a picture is a fill: its palette entry is exact."""
_MAX_FILLS = 96
_FILL_GUARD = 6
"""No other palette entry within this many levels of a fill (so the fill's pixels map to it)."""
_MAX_COLOURS = 8192
"""Pictures with more distinct colours than this are sent as RGB PNGs without trying a palette."""


class _Family:
    """The fixed palette of one picture family, the colours known to map within the bounds, and the boards
    the palette was built from."""

    def __init__(self, palette: Image.Image, samples: list[Image.Image]) -> None:
        self.palette = palette
        self.samples = samples
        self.rgb = palette.getpalette() or []
        self.error: dict[tuple[int, ...], int] = {}  # colour -> how far its palette entry is

    def accepts(self, found: Sequence[tuple[int, tuple[int, ...]]], area: int) -> bool:
        """Whether every colour (``(count, colour)`` as ``getcolors`` gives) maps within
        :data:`MAX_PALETTE_ERROR`, and fills within :data:`MAX_FILL_ERROR`. The palette's mapping depends only
        on the colour, so each distinct colour is worked out once."""
        error = self.error
        new = [c for _, c in found if c not in error]
        if new:
            strip = Image.new("RGB", (len(new), 1))
            strip.putdata(new)
            mapped = strip.quantize(palette=self.palette, dither=Image.Dither.NONE).tobytes()
            rgb = self.rgb
            for c, i in zip(new, mapped, strict=True):
                error[c] = max(abs(c[0] - rgb[3 * i]), abs(c[1] - rgb[3 * i + 1]), abs(c[2] - rgb[3 * i + 2]))
        fill = area // _FILL_SHARE
        return all(error[c] <= (MAX_FILL_ERROR if n >= fill else MAX_PALETTE_ERROR) for n, c in found)


_families: OrderedDict[Hashable, _Family] = OrderedDict()
_families_lock = threading.Lock()
_MAX_FAMILIES = 32


def _build_palette(samples: Sequence[Image.Image], *, exact_fills: bool = True) -> Image.Image:
    """A 256-colour palette (as a palette image) covering the colours of ``samples``.

    With ``exact_fills`` the colours that cover an area (fills, not anti-aliased edges) are put in the
    palette exactly and no other entry is kept close to them, so they come back unchanged.
    """
    if len(samples) == 1:
        sheet = samples[0]
    else:
        width = max(s.width for s in samples)
        sheet = Image.new("RGB", (width, sum(s.height for s in samples)), samples[0].getpixel((0, 0)))
        y = 0
        for s in samples:
            sheet.paste(s, (0, y))
            y += s.height
    flat = sheet.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE).getpalette() or []
    colours = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    if exact_fills:
        counts = cast(list[tuple[int, tuple[int, ...]]], sheet.getcolors(1 << 20) or [])
        area = sheet.width * sheet.height
        fills: list[tuple[int, ...]] = []
        for n, c in sorted(counts, reverse=True):
            if n * _FILL_SHARE < area or len(fills) == _MAX_FILLS:
                break
            if all(max(abs(a - b) for a, b in zip(c, f, strict=True)) > MAX_FILL_ERROR for f in fills):
                fills.append(c)  # near-twins of a fill (a level or two apart) share its entry
        colours = fills + [c for c in colours
                           if all(max(abs(a - b) for a, b in zip(c, f, strict=True)) > _FILL_GUARD for f in fills)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in colours[:256] for v in c])
    return palette


def to_palette(img: Image.Image, key: Hashable | None = None) -> Image.Image | None:
    """``img`` (RGB) as a palette image within :data:`MAX_PALETTE_ERROR`, or None if 256 colours cannot hold it.

    ``key`` names the picture family whose palette is reused (default: the picture's size). Thread-safe:
    renders run in worker threads.
    """
    if img.mode != "RGB":
        img = img.convert("RGB")
    found = cast(list[tuple[int, tuple[int, ...]]] | None, img.getcolors(_MAX_COLOURS))
    if found is None:
        return None
    area = img.width * img.height
    key = ("size", img.size) if key is None else key
    family = _families.get(key)
    if family is not None and family.accepts(found, area):
        return img.quantize(palette=family.palette, dither=Image.Dither.NONE)
    # A new family, or a board with colours its palette does not hold: build the palette again from this
    # board and the last few that needed it (so families with several looks settle on one palette).
    samples = [*family.samples[-(_PALETTE_SAMPLES - 1):], img] if family is not None else [img]
    attempts = [(samples, True), ([img], True), ([img], False)] if len(samples) > 1 else [([img], True), ([img], False)]
    for attempt, exact in attempts:
        candidate = _Family(_build_palette(attempt, exact_fills=exact), list(attempt))
        log.debug("palette for %s built from %d board(s)", key, len(attempt))
        if candidate.accepts(found, area):
            with _families_lock:
                _families[key] = candidate
                _families.move_to_end(key)
                while len(_families) > _MAX_FAMILIES:
                    _families.popitem(last=False)
            return img.quantize(palette=candidate.palette, dither=Image.Dither.NONE)
    return None


def png_bytes(img: Image.Image, *, optimize: bool = False, key: Hashable | None = None) -> bytes:
    """Encode as PNG: a palette PNG when 256 colours hold the picture (see :func:`to_palette`), else RGB.

    ``optimize`` spends more time for fewer bytes (for pictures made once, not per move).
    """
    buf = io.BytesIO()
    indexed = to_palette(img, key) if img.mode == "RGB" else None
    out = indexed if indexed is not None else img
    out.save(buf, format="PNG", optimize=optimize, compress_level=9 if optimize else PNG_LEVEL)
    return buf.getvalue()


def gif_bytes(frames: Sequence[Image.Image], durations: Sequence[int] | int, *, loop: int = 0) -> bytes:
    """Encode frames (RGB or P) as an animated GIF; ``durations`` in ms."""
    if not frames:
        raise ValueError("no frames")
    pal = [f.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT) if f.mode != "P" else f
           for f in frames]
    buf = io.BytesIO()
    pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:],
                duration=list(durations) if not isinstance(durations, int) else durations,
                loop=loop, optimize=False, disposal=1)
    return buf.getvalue()
