"""Issue 30: each game's rules diagram is its own renderer's picture of a fixed position with labels on
top: the labels are drawn (their boxes hold the tag colour and dark text, which the plain board lacks
there), readable at 400 px wide, the highlighted part is there (Fire and Ice's line of islands), the rest
is the renderer's picture untouched, and the summaries stay short."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render import ACCENT, INK_DARK
from bot.render.callouts import MIN_PX, label_size

pytestmark = pytest.mark.golden

PACKAGES = ("pylon", "fire_and_ice", "egg_carton", "eof", "nomic")
ROOT = Path(__file__).resolve().parents[2]


def diagram(package):
    return importlib.import_module(f"bot.games.{package}.diagram").diagram()


def share(img, box, colour, tol=40):
    """Fraction of the pixels in ``box`` within ``tol`` of ``colour`` (per channel)."""
    crop = img.crop(box).convert("RGB")
    counts = crop.getcolors(crop.width * crop.height) or []
    near = sum(n for n, p in counts if all(abs(a - b) <= tol for a, b in zip(p, colour, strict=True)))
    return near / max(1, crop.width * crop.height)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_label_is_drawn_and_readable_at_400_px(package):
    d = diagram(package)
    assert len(d.labels) >= 2 and len(d.alt) > 80
    assert label_size(d.image.width) * 400 / d.image.width >= MIN_PX
    for text, box in d.labels:
        assert 0 <= box[0] < box[2] <= d.image.width and 0 <= box[1] < box[3] <= d.image.height, text
        assert share(d.image, box, ACCENT) > 0.45, text  # the tag
        assert share(d.image, box, INK_DARK, 60) > 0.04, text  # its letters
        height = box[3] - box[1]
        assert height * 400 / d.image.width >= MIN_PX, text


@pytest.mark.parametrize("package", PACKAGES)
def test_the_diagram_is_drawn_once(package):
    assert diagram(package) is diagram(package)


def test_fire_and_ice_highlights_a_line_of_islands_over_the_renderers_board():
    from bot.games.fire_and_ice import diagram as fi
    from bot.games.fire_and_ice.render import island_centre, render

    d = fi.diagram()
    state = fi.RULES.initial({}, 2)
    for text in fi.OPENING:
        seat = next(iter(fi.RULES.to_act(state)))
        state, _ = fi.RULES.apply(state, seat, fi.RULES.parse(text, state, seat))
    plain = render(fi.RULES.view(state, None)).convert("RGB")
    assert d.image.size == plain.size
    (a, _, _f) = fi.ISLAND_LINES[fi.LINE]
    # in the sea halfway between A and D the band tints the picture towards amber
    ax, ay = island_centre(a)
    dx, dy = island_centre(3)
    x, y = round((ax + dx) / 2), round((ay + dy) / 2)
    before, after = plain.getpixel((x, y)), d.image.getpixel((x, y))
    assert after[0] - before[0] > 40 and after[2] <= before[2] + 5, (before, after)
    assert d.highlights and d.highlights[0][0] <= x <= d.highlights[0][2]
    # away from the callouts the picture is the renderer's own: island E is untouched
    ex, ey = island_centre(4)
    box = (round(ex) - 40, round(ey) - 20, round(ex) + 40, round(ey) + 40)
    assert ImageChops.difference(plain.crop(box), d.image.crop(box)).getbbox() is None


def test_pylon_rings_the_stack_and_names_its_owner():
    from bot.games.pylon.diagram import diagram as pd

    d = pd()
    assert any("Red on top" in t for t, _ in d.labels) and d.highlights
    x0, y0, _x1, y1 = d.highlights[0]
    assert share(d.image, (x0, (y0 + y1) // 2 - 3, x0 + 6, (y0 + y1) // 2 + 3), ACCENT) > 0.3  # the ring


@pytest.mark.parametrize("package", PACKAGES)
def test_summaries_are_one_short_paragraph(package):
    text = (ROOT / "bot" / "games" / package / "summary.md").read_text(encoding="utf-8").strip()
    assert 40 <= len(text.split()) <= 120 and "\n\n" not in text


def test_save_the_diagrams_at_400_px_for_a_look(tmp_path):
    for package in PACKAGES:
        img = diagram(package).image
        small = img.resize((400, round(img.height * 400 / img.width)), Image.Resampling.LANCZOS)
        small.save(tmp_path / f"{package}.png")
        assert small.width == 400
