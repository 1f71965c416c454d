"""Fire and Ice renderer: real pixels at known places, plus a reference picture.

Set PARLOR_REGEN_GOLDEN=1 to rewrite the reference PNGs after an intended change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.games.fire_and_ice import render
from bot.games.fire_and_ice.geometry import ISLAND_LINES
from bot.games.fire_and_ice.notation import parse_point
from bot.games.fire_and_ice.render import (
    DISC_R,
    FIRE_COLOUR,
    HEIGHT,
    ICE_COLOUR,
    ISLAND_FILL,
    TINTS,
    WIDTH,
    island_centre,
    point_xy,
)
from bot.games.fire_and_ice.rules import RULES, make_view
from bot.render import ACCENT, CARD, png_bytes
from tests.games.fire_and_ice.test_rules import SAMPLE
from tests.games.fire_and_ice.util import position

pytestmark = pytest.mark.golden

GOLDEN = Path(__file__).parent / "golden"


def disc(img: Image.Image, name: str) -> tuple[int, ...]:
    """Colour inside the disc of a point, above its number."""
    x, y = point_xy(parse_point(name))
    return img.getpixel((x, y - DISC_R + 5))


def island_inside(img: Image.Image, island: str) -> tuple[int, ...]:
    """Colour of an island's ground, between points 5 and 6 (clear of lines and discs)."""
    cx, cy = island_centre("ABCDEFG".index(island))
    return img.getpixel((round(cx - 35), round(cy + 28)))


def ring(img: Image.Image, name: str) -> tuple[int, ...]:
    """Colour just outside a disc (where the last-move ring is drawn)."""
    x, y = point_xy(parse_point(name))
    return img.getpixel((x, y - DISC_R - 3))


@pytest.fixture(scope="module")
def early() -> Image.Image:
    s = RULES.initial({}, 2)
    s, _ = RULES.apply(s, 0, RULES.parse("D4-F4", s, 0))
    s, events = RULES.apply(s, 1, RULES.parse("D4-D1", s, 1))
    return render(make_view(s), names=("Alice", "Bob"), events=events, clocks=(300_000, 61_000))


@pytest.fixture(scope="module")
def sample() -> Image.Image:
    return render(make_view(position(SAMPLE, to_move=0, ply=40, last="D4-D3")))


def test_size_and_mode(early: Image.Image) -> None:
    assert early.size == (WIDTH, HEIGHT) and early.mode == "RGB"
    assert 600 <= WIDTH <= 900
    assert png_bytes(early)[:8] == b"\x89PNG\r\n\x1a\n"


def test_pieces_and_empty_points(early: Image.Image) -> None:
    # after D4-F4, D4-D1: Fire on F4 and D4, Ice on D1; everything else empty
    assert disc(early, "F4") == FIRE_COLOUR
    assert disc(early, "D4") == FIRE_COLOUR
    assert disc(early, "D1") == ICE_COLOUR
    assert disc(early, "A1") == ISLAND_FILL
    assert disc(early, "G7") == ISLAND_FILL
    assert island_inside(early, "A") == ISLAND_FILL


def test_last_move_is_highlighted(early: Image.Image) -> None:
    assert ring(early, "D1") == ACCENT
    assert ring(early, "A1") != ACCENT
    # the arrow between D4 and D1
    (x1, y1), (x2, y2) = point_xy(parse_point("D4")), point_xy(parse_point("D1"))
    assert early.getpixel(((x1 + x2) // 2, (y1 + y2) // 2)) == ACCENT


def test_turn_box_marks_the_side_to_move(early: Image.Image) -> None:
    assert early.getpixel((9, 46)) == ACCENT  # Fire (left) to move
    assert early.getpixel((WIDTH - 10, 46)) != ACCENT


def test_controlled_islands_are_tinted(sample: Image.Image) -> None:
    for island in "ACDG":
        assert island_inside(sample, island) == TINTS[1], island
    for island in "BEF":
        assert island_inside(sample, island) == TINTS[0], island
    assert disc(sample, "B7") == TINTS[0]  # an empty point on a Fire island
    assert disc(sample, "G1") == TINTS[1]


def test_winning_line_is_drawn(sample: Image.Image) -> None:
    a, c, g = (island_centre(k) for k in ISLAND_LINES[1])  # A, C, G
    # the sea between A and C lies on the winning line
    mid = (round((a[0] + c[0]) / 2), round((a[1] + c[1]) / 2))
    assert sample.getpixel(mid) == ICE_COLOUR
    # the plain sea elsewhere is the card
    assert sample.getpixel((40, 400)) == CARD


def test_rendering_is_pure(early: Image.Image) -> None:
    s = RULES.initial({}, 2)
    s, _ = RULES.apply(s, 0, RULES.parse("D4-F4", s, 0))
    s, events = RULES.apply(s, 1, RULES.parse("D4-D1", s, 1))
    again = render(make_view(s), names=("Alice", "Bob"), events=events, clocks=(300_000, 61_000))
    assert ImageChops.difference(again, early).getbbox() is None


def test_names_and_clocks_change_only_the_header() -> None:
    v = make_view(RULES.initial({}, 2))
    plain = render(v)
    named = render(v, names=("Alice", "Bob"), clocks=(1000, 2000))
    box = ImageChops.difference(plain, named).getbbox()
    assert box is not None and box[3] <= 90


def _compare(img: Image.Image, name: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PARLOR_REGEN_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        img.save(path)
        pytest.skip(f"wrote {path}")
    ref = Image.open(path).convert("RGB")
    diff = ImageChops.difference(ref, img).convert("L")
    changed = sum(diff.histogram()[41:])
    assert changed < 400, f"{changed} pixels differ from {path}"  # a little slack for font rasterising


def test_sample_position_matches_reference(sample: Image.Image) -> None:
    _compare(sample, "sample.png")


def test_start_with_handicap_matches_reference() -> None:
    s = RULES.initial({"handicap": "2"}, 2)
    s, _ = RULES.apply(s, -1, RULES.parse("+B3", s, -1))
    v = make_view(s)
    img = render(v)
    assert disc(img, "B3") == FIRE_COLOUR
    _compare(img, "handicap_setup.png")
