"""Labels and arrows drawn on top of a board picture: the explained diagrams of ``/<game> rules``.

A :class:`Diagram` is a game's own board picture of a fixed engine position (drawn by its renderer) with
callouts on top: each callout is a filled tag with its text, so it reads over any part of the board, and
its box is kept with the picture (the tests look at those pixels). Text is sized for the picture's width
as Discord shows it: at least :data:`MIN_PX` pixels when the picture is shown 400 pixels wide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import ACCENT, CARD, INK_DARK, font

Box = tuple[int, int, int, int]
Point = tuple[float, float]

MIN_PX = 11
"""Smallest text, in pixels, at :data:`SHOWN_WIDTH` (Discord's usual width for an attached picture)."""
SHOWN_WIDTH = 400
LABEL_PX = 13
"""The callouts' text at the shown width (a little above the minimum)."""


@dataclass(frozen=True)
class Diagram:
    """An explained board picture: the image, its alt text, and where each label and highlight is."""

    image: Image.Image
    alt: str
    labels: tuple[tuple[str, Box], ...]
    highlights: tuple[Box, ...] = ()


def label_size(width: int, px: int = LABEL_PX) -> int:
    """The font size that shows as ``px`` pixels when a ``width``-wide picture is shown 400 wide.

    >>> label_size(400), label_size(900), label_size(900, 11)
    (13, 30, 25)
    """
    return math.ceil(max(px, MIN_PX) * width / SHOWN_WIDTH)


class Callouts:
    """Draws tags and arrows on ``image`` (converted to RGB) and remembers the tags' boxes."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image.convert("RGB")
        self.draw = ImageDraw.Draw(self.image)
        self.size = label_size(self.image.width)
        self.labels: list[tuple[str, Box]] = []
        self.highlights: list[Box] = []

    def tag(self, xy: Point, text: str, *, anchor: str = "mm", fill: tuple[int, int, int] = ACCENT,
            ink: tuple[int, int, int] = INK_DARK) -> Box:
        """``text`` on a filled rounded tag placed by ``anchor`` ("lm", "mm", "rb", …: the tag's side and
        edge at ``xy``), kept inside the picture; returns the tag's box."""
        fnt = font(self.size, bold=True)
        pad = max(4, self.size // 3)
        w = math.ceil(self.draw.textlength(text, font=fnt)) + 2 * pad
        h = self.size + 2 * pad
        x = {"l": xy[0], "m": xy[0] - w / 2, "r": xy[0] - w}[anchor[0]]
        y = {"t": xy[1], "m": xy[1] - h / 2, "b": xy[1] - h}[anchor[1]]
        x = min(max(2, x), self.image.width - w - 2)
        y = min(max(2, y), self.image.height - h - 2)
        box = (round(x), round(y), round(x + w), round(y + h))
        self.draw.rounded_rectangle(box, radius=pad, fill=fill, outline=CARD, width=max(2, self.size // 8))
        self.draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, font=fnt, fill=ink, anchor="mm")
        self.labels.append((text, box))
        return box

    def arrow(self, p: Point, q: Point, *, colour: tuple[int, int, int] = ACCENT) -> None:
        """An arrow from ``p`` to ``q`` (head at ``q``), edged in the card colour so it reads on anything."""
        width = max(3, self.size // 6)
        head = width * 4
        ang = math.atan2(q[1] - p[1], q[0] - p[0])
        base = (q[0] - head * math.cos(ang), q[1] - head * math.sin(ang))
        left = (base[0] + head / 2 * math.sin(ang), base[1] - head / 2 * math.cos(ang))
        right = (base[0] - head / 2 * math.sin(ang), base[1] + head / 2 * math.cos(ang))
        for w, c in ((width + 4, CARD), (width, colour)):
            self.draw.line([p, base], fill=c, width=w)
        self.draw.polygon([q, left, right], fill=colour, outline=CARD)

    def ring(self, centre: Point, radius: float, *, colour: tuple[int, int, int] = ACCENT) -> Box:
        """A highlight ring round ``centre``; its box is kept as a highlight."""
        width = max(3, self.size // 5)
        box = (round(centre[0] - radius), round(centre[1] - radius), round(centre[0] + radius),
               round(centre[1] + radius))
        self.draw.ellipse(box, outline=colour, width=width)
        self.highlights.append(box)
        return box

    def band(self, p: Point, q: Point, *, colour: tuple[int, int, int] = ACCENT, alpha: int = 110) -> Box:
        """A wide translucent band from ``p`` to ``q`` (a highlighted line); its box is kept."""
        width = self.size * 2
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        ImageDraw.Draw(layer).line([p, q], fill=(*colour, alpha), width=width)
        for end in (p, q):
            ImageDraw.Draw(layer).ellipse((end[0] - width / 2, end[1] - width / 2, end[0] + width / 2,
                                           end[1] + width / 2), fill=(*colour, alpha))
        merged = Image.alpha_composite(self.image.convert("RGBA"), layer).convert("RGB")
        self.image.paste(merged)
        box = (round(min(p[0], q[0]) - width / 2), round(min(p[1], q[1]) - width / 2),
               round(max(p[0], q[0]) + width / 2), round(max(p[1], q[1]) + width / 2))
        self.highlights.append(box)
        return box

    def done(self, alt: str) -> Diagram:
        return Diagram(self.image, alt, tuple(self.labels), tuple(self.highlights))
