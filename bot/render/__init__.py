"""Rendering primitives shared by the game renderers: fonts, palette, encoding.

Renderers in ``bot/games/<game>/render.py`` are pure functions from a view to a
``PIL.Image.Image``; encoding (PNG, GIF) and running off the event loop happen
here so that every game does it the same way.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans at ``size`` pixels (cached)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def text_center(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
                fnt: ImageFont.FreeTypeFont, fill: tuple[int, ...]) -> None:
    """Draw ``text`` centred on ``xy``."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


def png_bytes(img: Image.Image, *, optimize: bool = False) -> bytes:
    """Encode as PNG (fast settings by default: boards are small)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=optimize, compress_level=1 if not optimize else 6)
    return buf.getvalue()


def gif_bytes(frames: Sequence[Image.Image], durations: Sequence[int] | int, *, loop: int | None = 0) -> bytes:
    """Encode frames (RGB or P) as an animated GIF; ``durations`` in ms.

    ``loop=0`` repeats forever; ``loop=None`` plays once and stays on the last frame (no NETSCAPE
    looping extension is written at all, which is how viewers such as Discord's know to stop).
    """
    if not frames:
        raise ValueError("no frames")
    pal = [f.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT) if f.mode != "P" else f
           for f in frames]
    buf = io.BytesIO()
    extra = {} if loop is None else {"loop": loop}
    pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:],
                duration=list(durations) if not isinstance(durations, int) else durations,
                optimize=False, disposal=1, **extra)
    return buf.getvalue()
