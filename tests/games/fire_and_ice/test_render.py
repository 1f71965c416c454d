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
    LAST_DARK,
    LAST_LIGHT,
    TARGET_FILL,
    TINTS,
    WIDTH,
    header_layout,
    island_centre,
    move_line,
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
    return img.getpixel((round(cx - 42), round(cy + 33)))


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
    assert ring(early, "D1") == LAST_LIGHT
    assert ring(early, "A1") != LAST_LIGHT
    # the arrow between D4 and D1
    (x1, y1), (x2, y2) = point_xy(parse_point("D4")), point_xy(parse_point("D1"))
    assert early.getpixel(((x1 + x2) // 2, (y1 + y2) // 2)) == LAST_LIGHT


def _luminance(rgb: tuple[int, ...]) -> float:
    def lin(c: int) -> float:
        c2 = c / 255
        return c2 / 12.92 if c2 <= 0.03928 else ((c2 + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG contrast ratio (1–21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


GROUNDS = {
    "Fire piece": FIRE_COLOUR,
    "Ice piece": ICE_COLOUR,
    "Fire island": TINTS[0],
    "Ice island": TINTS[1],
    "island": ISLAND_FILL,
    "sea": CARD,
}


@pytest.mark.parametrize("ground", list(GROUNDS))
def test_last_move_highlight_reads_on_every_ground(ground: str) -> None:
    """One of the highlight's two tones stands out (WCAG ≥ 4.5) on every colour it can be drawn over; the old
    single amber did not on a Fire piece or island (ratio under 2)."""
    bg = GROUNDS[ground]
    assert max(contrast(LAST_LIGHT, bg), contrast(LAST_DARK, bg)) >= 4.5, ground
    assert contrast(LAST_LIGHT, LAST_DARK) >= 15  # the two tones against each other: the edge is always seen
    if ground == "Fire piece":
        assert contrast(ACCENT, bg) < 2  # what the issue saw: amber nearly vanished on Fire's orange


def _fire_island_move() -> tuple[object, list]:
    """Fire holds island D (line 5-6-7) and moves D4-D2 within its own island; Ice is left on D4."""
    s = position({"D": "---FFFF", "A": "I------"}, to_move=0, ply=9)
    s2, events = RULES.apply(s, 0, RULES.parse("D4-D2", s, 0))
    return s2, events


def test_last_move_on_a_fire_island_is_two_tone() -> None:
    s, events = _fire_island_move()
    view = make_view(s)
    assert view.controllers[3] == 0  # D is Fire's: the ring sits on the orange tint
    img = render(view, events=events)
    x, y = point_xy(parse_point("D2"))
    light = img.getpixel((x, y - DISC_R - 4))
    dark = img.getpixel((x, y - DISC_R - 7))
    assert light == LAST_LIGHT and dark == LAST_DARK
    assert contrast(light, TINTS[0]) >= 4.5 or contrast(dark, TINTS[0]) >= 4.5


def test_the_arrow_never_covers_a_piece_or_its_number() -> None:
    """D4-A4 crosses D1 and A6 (both occupied): their discs, numbers included, are drawn over the arrow."""
    from dataclasses import replace

    s = position({"D": "I--I---", "A": "---F-I-"}, to_move=1, ply=3, last="D4-A4")
    with_arrow = render(make_view(s))
    without = render(make_view(replace(s, last=None)))
    (x1, y1), (x2, y2) = point_xy(parse_point("D4")), point_xy(parse_point("A4"))
    assert with_arrow.getpixel(((x1 + x2) // 2, (y1 + y2) // 2)) in (
        LAST_LIGHT,
        LAST_DARK,
    )  # there is an arrow
    for name in ("D1", "A6"):
        x, y = point_xy(parse_point(name))
        box = (x - DISC_R + 2, y - DISC_R + 2, x + DISC_R - 2, y + DISC_R - 2)
        assert ImageChops.difference(with_arrow.crop(box), without.crop(box)).getbbox() is None, name


def test_choosing_a_piece_marks_its_destinations() -> None:
    s = RULES.initial({}, 2)
    view = make_view(s)
    img = render(view, names=("Alice", "Bob"), selected="D4")
    dests = view.destinations("D4")
    assert len(dests) == 12
    for d in dests:
        assert disc(img, d) == TARGET_FILL, d
    assert disc(img, "A1") == ISLAND_FILL          # not a destination (not on a line with D4... of islands)
    assert ring(img, "D4") == LAST_LIGHT            # the chosen piece is ringed
    plain = render(view, names=("Alice", "Bob"))
    assert all(disc(plain, d) != TARGET_FILL for d in dests)
    assert move_line(view, "D4") == "D4: 12 destinations (white)"


def _with_a_one_destination_piece() -> tuple[object, str]:
    """A position (from seeded random play) where a movable piece has exactly one destination."""
    import random

    rng = random.Random(1)
    for _ in range(200):
        s = RULES.initial({}, 2)
        for _ in range(60):
            view = make_view(s)
            if view.to_move is None:
                break
            one = [p for p in view.movable if len(view.destinations(p)) == 1]
            if one:
                return view, one[0]
            move = rng.choice(view.legal)
            s, _ = RULES.apply(s, view.to_move, RULES.parse(move, s, view.to_move))
    raise AssertionError("no position with a one-destination piece found")


def test_header_counts_moves_like_the_footer_and_says_one_destination() -> None:
    s = position({"D": "I--F---", "A": "F------"}, to_move=0, ply=40)
    view = make_view(s)
    assert move_line(view) == "after move 40"     # the footer says "move 40" (cogs: moves_played = view.ply)
    assert move_line(make_view(RULES.initial({}, 2))) == "no moves yet"
    view, piece = _with_a_one_destination_piece()
    assert move_line(view, piece) == f"{piece}: 1 destination (white)"


def test_piece_select_says_an_ice_piece_and_one_destination() -> None:
    from types import SimpleNamespace

    from cogs.fire_and_ice import FireAndIce

    view, piece = _with_a_one_destination_piece()
    match = SimpleNamespace(view=lambda seat=None: view, id=1, version=1)
    items = FireAndIce.components(SimpleNamespace(), match, "")  # type: ignore[arg-type]
    select = items[0]
    side = "Fire" if view.to_move == 0 else "Ice"
    assert select.placeholder.startswith(f"Choose {'a Fire' if side == 'Fire' else 'an Ice'} piece to move")
    descriptions = {o.value: o.description for o in select.options}
    assert descriptions[piece] == "1 destination"
    assert all(d == "1 destination" or (d.endswith(" destinations") and not d.startswith("1 "))
               for d in descriptions.values())


LONG = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"


@pytest.mark.parametrize("names", [("Parlor (medium)", "alice"), ("Parlor (medium)", LONG), (LONG, LONG),
                                   ("alice", "Parlor (medium)")])
@pytest.mark.parametrize("to_move", [0, 1])
def test_header_names_never_run_into_the_status(names: tuple[str, str], to_move: int) -> None:
    s = position({"D": "I--F---"}, to_move=to_move, ply=41)
    view = make_view(s)
    layout = header_layout(view, names, (300_000, 61_000))
    left, right = layout.centre
    from bot.render import font

    for seat, (text, size, _counts, box) in enumerate(layout.sides):
        width = font(size, bold=True).getlength(text)
        assert size >= 25  # legible at 400 px wide
        if seat == 0:
            assert 52 + width <= WIDTH / 2 - 8 and box[1] <= WIDTH / 2
        else:
            assert WIDTH - 52 - width >= WIDTH / 2 + 8 and box[0] >= WIDTH / 2
    if "Parlor (medium)" in names:
        assert any("Parlor (medium)" in side.text for side in layout.sides)  # the computer's name fits whole
    # In pixels: the status row (whose turn, move line) is the same as with no names at all.
    named = render(view, names=names, clocks=(300_000, 61_000))
    plain = render(view, clocks=(300_000, 61_000))
    box = (round(left), 92, round(right), 122)
    assert ImageChops.difference(named.crop(box), plain.crop(box)).getbbox() is None


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
    a, c, _g = (island_centre(k) for k in ISLAND_LINES[1])  # A, C, G
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
