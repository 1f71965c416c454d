"""The standings table as a picture (pure: rows and names in, a Pillow image out).

Readable when Discord shows it 400 px wide: the card is 800 px wide and the body text 26 px,
so text stays 13 px tall at half size. Colour-blind safe: nothing is told by colour alone —
the podium has its place number in a medal *and* a ★/▲/● mark, a withdrawn player is written
"(withdrew)" and struck through, and every colour pair has a luminance contrast of at least
4.5:1 (the stripes differ in lightness, not hue).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import _, ngettext, pgettext
from bot.render import font
from bot.render.text import shorten
from bot.tournaments.model import Format, format_points
from bot.tournaments.standings import Row

WIDTH = 800
ROW = 40
HEAD = 118
BODY_SIZE = 26
BACKGROUND = (30, 31, 34)
STRIPE = (52, 54, 60)
INK = (240, 241, 243)
MUTED = (170, 176, 184)
# Medals: gold / silver / bronze, each also marked with its own shape and number
MEDALS = ((255, 204, 77), (206, 212, 218), (214, 140, 74))
MEDAL_INK = (20, 20, 22)
MARKS = ("★", "▲", "●")
MAX_ROWS = 128


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    def chan(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (chan(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def fit(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: float) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels (at a grapheme boundary)."""
    return shorten(text, fnt, width)


def render_standings(rows: Sequence[Row], names: dict[int, str], fmt: Format, *, title: str,
                     subtitle: str = "", limit: int = MAX_ROWS) -> Image.Image:
    """The table (at most ``limit`` rows, 128 at most; the rest are counted in the last line)."""
    shown = list(rows[:min(limit, MAX_ROWS)])
    more = len(rows) - len(shown)
    height = HEAD + ROW * (len(shown) + (1 if more else 0)) + 16
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    body, bold, small = font(BODY_SIZE), font(BODY_SIZE, bold=True), font(22)
    d.text((24, 16), title[:48], font=font(32, bold=True), fill=INK)
    if subtitle:
        d.text((24, 56), subtitle[:64], font=small, fill=MUTED)
    # (SB: Sonneborn-Berger and Buch.: Buchholz are names, the same in every language)
    cols = ("SB", pgettext("standings column", "H2H")) if fmt.is_round_robin else ("Buch.", "SB")
    x_place, x_name, x_pts, x_t1, x_t2, x_wdl = 24, 96, 520, 600, 680, 790
    y = HEAD - 32
    d.text((x_place, y), "#", font=small, fill=MUTED)
    d.text((x_name, y), pgettext("standings column", "Player"), font=small, fill=MUTED)
    for x, label in ((x_pts, pgettext("standings column", "Pts")), (x_t1, cols[0]), (x_t2, cols[1]),
                     (x_wdl, pgettext("standings column", "W-D-L"))):
        d.text((x, y), label, font=small, fill=MUTED, anchor="ra")
    d.line((16, HEAD - 4, WIDTH - 16, HEAD - 4), fill=MUTED, width=2)
    for i, r in enumerate(shown):
        top = HEAD + i * ROW
        if i % 2 == 1:
            d.rectangle((16, top, WIDTH - 16, top + ROW - 1), fill=STRIPE)
        mid = top + ROW // 2
        if r.place <= 3:
            medal = MEDALS[r.place - 1]
            d.ellipse((x_place, mid - 15, x_place + 30, mid + 15), fill=medal)
            d.text((x_place + 15, mid), str(r.place), font=font(20, bold=True), fill=MEDAL_INK, anchor="mm")
            d.text((x_place + 38, mid), MARKS[r.place - 1], font=body, fill=medal, anchor="lm")
        else:
            d.text((x_place, mid), str(r.place), font=body, fill=INK, anchor="lm")
        fnt = bold if r.place == 1 else body
        name = fit(
            d, names.get(r.player, str(r.player)), fnt, x_pts - 70 - x_name - (150 if r.withdrawn else 0)
        )
        d.text((x_name, mid), name + (" " + _("(withdrew)") if r.withdrawn else ""), font=fnt,
               fill=MUTED if r.withdrawn else INK, anchor="lm")
        if r.withdrawn:
            d.line((x_name, mid, x_name + d.textlength(name, font=fnt), mid), fill=MUTED, width=2)
        t1 = r.sb_text if fmt.is_round_robin else r.buchholz_text
        t2 = format_points(r.h2h) if fmt.is_round_robin else r.sb_text
        d.text((x_pts, mid), r.points_text, font=bold, fill=INK, anchor="rm")
        d.text((x_t1, mid), t1, font=body, fill=INK, anchor="rm")
        d.text((x_t2, mid), t2, font=body, fill=INK, anchor="rm")
        d.text((x_wdl, mid), f"{r.wins}-{r.draws}-{r.losses}", font=body, fill=INK, anchor="rm")
    if more:
        top = HEAD + len(shown) * ROW
        d.text((x_name, top + ROW // 2), ngettext("… and {n} more", "… and {n} more", more), font=body,
               fill=MUTED, anchor="lm")
    return img
