"""Issue #31: no colour-only cue, and labels legible at phone width.

*Colour vision*: each game's classes of pieces a player must tell apart are compared under the Machado (2009)
simulations of protanopia, deuteranopia and tritanopia and in greyscale (``tests/render/cvd.py``): a pair
either differs by at least :data:`MIN_DELTA_E` (CIE76) under every vision, or carries a non-colour mark that
a pixel test finds in the drawn picture.

*Phone width*: every text a board draws is at least 11 px when the picture is shown 400 px wide (font size
≥ 11 × width / 400), measured on seeded sample positions by recording every ``ImageDraw.text`` call.
"""

from __future__ import annotations

import importlib
import itertools
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games import GAMES
from bot.games.samples import sample_positions
from bot.render import INK, INK_DARK, PLAYER_COLOURS
from tests.render.cvd import VISIONS, delta_e, min_delta_e

MIN_DELTA_E = 20.0
"""ΔE*ab a pair of colours must keep under every vision to be told apart by colour alone."""
PHONE_WIDTH = 400
MIN_TEXT_PX = 11
SEATS = {"pylon": 2, "fireandice": 2, "eggcarton": 2, "eof": 3, "nomic": 3}
NAMES = ("Alice", "Bob", "Carol")

fi = importlib.import_module("bot.games.fire_and_ice.render")
pylon = importlib.import_module("bot.games.pylon.render")
nomic = importlib.import_module("bot.games.nomic.render")


def _clear_caches() -> None:
    """Drop the renderers' kept backgrounds and glyph stamps, so every text is drawn (and recorded) again."""
    for name, mod in list(sys.modules.items()):
        if name.startswith("bot.games."):
            for v in vars(mod).values():
                if callable(getattr(v, "cache_clear", None)):
                    v.cache_clear()


def _texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    drawn: list[tuple[float, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, t: Any, *args: Any, **kw: Any) -> None:
        fnt = kw.get("font") or (args[1] if len(args) > 1 else None)
        if t and getattr(fnt, "size", None):
            drawn.append((float(fnt.size), str(t)))
        original(self, xy, t, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


def _boards(key: str) -> Iterator[tuple[Any, Any]]:
    for seed in range(3):
        yield from sample_positions(GAMES[key].rules, SEATS[key], seed, plies=(0, 6, 25, 80))


@pytest.mark.parametrize("key", list(SEATS))
def test_every_label_is_at_least_11_px_at_400_px_wide(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _texts(monkeypatch)
    small: set[tuple[float, str]] = set()
    for view, events in _boards(key):
        _clear_caches()
        drawn.clear()
        img = GAMES[key].render(view, names=NAMES[: SEATS[key]], events=events)
        assert drawn, "no text recorded"
        scale = PHONE_WIDTH / img.width
        small |= {(round(size * scale, 1), text[:24]) for size, text in drawn if size * scale < MIN_TEXT_PX}
    assert not small, sorted(small)[:12]
    _clear_caches()


def _beyond(img: Image.Image, centre: tuple[float, float], r: float, ground: tuple[int, int, int]) -> int:
    """Pixels not of ``ground`` farther than ``r + 1`` from ``centre`` (within ``r + 6``): 0 for a disc of
    radius ``r``, the corners of a hexagon round it otherwise."""
    cx, cy = centre
    n = 0
    for x in range(round(cx - r - 6), round(cx + r + 7)):
        for y in range(round(cy - r - 6), round(cy + r + 7)):
            if (x - cx) ** 2 + (y - cy) ** 2 > (r + 1) ** 2 and (x - cx) ** 2 + (y - cy) ** 2 < (r + 6) ** 2:
                n += img.getpixel((x, y))[:3] != ground
    return n


# --- colour vision ------------------------------------------------------------------------------------------

def test_the_simulation_matches_known_values() -> None:
    # Red and green collapse for a deuteranope; red and blue stay apart; greyscale keeps only lightness.
    assert delta_e((237, 66, 69), (87, 242, 135), "normal") > 100
    red, olive = (200, 60, 0), (110, 110, 0)
    assert delta_e(red, olive, "deuteranopia") < delta_e(red, olive, "normal") / 3
    assert delta_e((10, 10, 200), (200, 10, 10), "greyscale") < 25
    assert set(VISIONS) == {"normal", "protanopia", "deuteranopia", "tritanopia", "greyscale"}


def test_fire_and_ice_pieces_differ_by_colour_under_every_vision_and_by_shape() -> None:
    least, vision = min_delta_e(fi.FIRE_COLOUR, fi.ICE_COLOUR)
    assert least >= MIN_DELTA_E, (least, vision)
    # Shape: an Ice piece is a hexagon whose corners stick out left and right of the disc a Fire piece is.
    for side, colour in ((0, fi.FIRE_COLOUR), (1, fi.ICE_COLOUR)):
        img = Image.new("RGB", (80, 80), fi.ISLAND_FILL)
        fi.piece(ImageDraw.Draw(img), (40, 40), side, fi.DISC_R)
        assert img.getpixel((40, 40 - fi.DISC_R + 4)) == colour
        assert (_beyond(img, (40, 40), fi.DISC_R, fi.ISLAND_FILL) > 20) == (side == 1)


def test_fire_and_ice_controlled_islands_carry_the_owner_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tints are close in greyscale (measured), so control is also shown by shape: the island's letter
    # sits on its controller's piece shape.
    least, _ = min_delta_e(fi.TINTS[0], fi.TINTS[1])
    assert least < MIN_DELTA_E  # why the mark is needed
    view = next(v for v, _ in _boards("fireandice") if any(c in (0, 1) for c in v.controllers))
    img = GAMES["fireandice"].render(view)
    for k, owner in enumerate(view.controllers):
        lx, ly = fi._label_xy(k)
        if owner in (0, 1):
            assert img.getpixel((round(lx), round(ly - 15))) == fi.SIDE_COLOURS[owner], k
            # drawn by fi.piece (the shapes tested above) over the background's plain letter
            assert img.getpixel((round(lx), round(ly + 15))) == fi.SIDE_COLOURS[owner], k


def test_pylon_sides_carry_a_marker_shape() -> None:
    # Red and blue have the same lightness (greyscale ΔE ~2): the top piece's marker is a dot or a diamond.
    least, vision = min_delta_e(*pylon.SEAT_COLOURS)
    assert vision == "greyscale" and least < MIN_DELTA_E
    img = Image.new("RGB", (100, 100), pylon.SQUARE_FILL)
    d = ImageDraw.Draw(img)
    marks = []
    for seat in (0, 1):
        img.paste(pylon.SQUARE_FILL, (0, 0, 100, 100))
        pylon._marker(d, 50, 50, seat, 7)
        marks.append({(x, y) for x in range(100) for y in range(100)
                      if img.getpixel((x, y)) != pylon.SQUARE_FILL})
    assert len(marks[0] ^ marks[1]) >= 20  # a dot and a diamond: different shapes, not just colours


def test_eof_player_colours_always_come_with_their_letter() -> None:
    eof = importlib.import_module("bot.games.eof.drawing")
    close = [(a, b) for a, b in itertools.combinations(range(4), 2)
             if min_delta_e(eof.PIECE_COLOURS[a], eof.PIECE_COLOURS[b])[0] < MIN_DELTA_E]
    assert close  # yellow and green collapse in greyscale: letters are needed
    assert [eof.LETTERS[i] for i in range(4)] == ["R", "Y", "G", "B"]


def test_nomic_tokens_are_haloed_and_lettered_on_tiles_of_their_own_colour() -> None:
    # A token and a resource tile can share a colour (red token on Wood is ΔE 0 in greyscale): every token
    # gets a light halo and its initial, so it reads on any tile.
    pairs = [(r, s) for r, c in nomic.RESOURCE_COLOURS.items() for s, t in enumerate(PLAYER_COLOURS)
             if min_delta_e(c, t)[0] < MIN_DELTA_E]
    assert pairs
    view = next(v for v, _ in _boards("nomic") if any(p.pos is not None for p in v.players))
    img = GAMES["nomic"].render(view, names=NAMES)
    g = nomic.geometry(view)
    for seats in nomic.token_spots(view, g).values():
        for _seat, cx, cy, rad in seats:
            assert img.getpixel((round(cx), round(cy - rad - 1))) in ((235, 236, 238), nomic.INK_DARK)
            assert rad >= nomic.TOKEN_MIN_R  # every token is big enough for its letter
            h = rad / 2
            centre = img.crop((round(cx - h), round(cy - h), round(cx + h), round(cy + h)))
            assert nomic.INK_DARK in {c for _, c in centre.getcolors(4096) or []}


def test_nomic_resources_carry_a_code_or_a_pictogram() -> None:
    # Resource colours collapse in greyscale (Wood and Water are close): each revealed space shows its
    # code on a dark band (big spaces) and its pictogram (every size), so the resource reads without hue.
    close = [(a, b) for a, b in itertools.combinations(nomic.RESOURCE_COLOURS.values(), 2)
             if min_delta_e(a, b)[0] < MIN_DELTA_E]
    assert close
    assert len(set(nomic.RESOURCE_CODES.values())) == 4
    for view, _ in _boards("nomic"):
        if not view.revealed:
            continue
        img = GAMES["nomic"].render(view, names=NAMES)
        g = nomic.geometry(view)
        for p, res in view.revealed:
            left, top, right, bottom = g.box(p)
            if not (g.x0 <= p[0] <= g.x1 and g.y0 <= p[1] <= g.y1) or p == (0, 0):
                continue
            tile = img.crop((left + 2, top + 2, right - 2, bottom - 2))
            colours = {c for _, c in tile.getcolors(65536) or []}
            assert len(colours) >= 2, (p, res)  # more than the plain fill: a mark on it
            if g.band:
                band = img.crop((left + 3, bottom - g.band + 2, right - 3, bottom - 3))
                assert nomic.BAND in {c for _, c in band.getcolors(65536) or []}, (p, res)
                assert nomic.INK in {c for _, c in band.getcolors(65536) or []}, (p, res)  # its code


def test_eof_boards_show_a_letter_beside_every_colour() -> None:
    # In the pictures themselves: every record's label, every pool entry and every player's badge has ink.
    eof = importlib.import_module("bot.games.eof.drawing")
    for view, events in _boards("eof"):
        img = GAMES["eof"].render(view, names=NAMES, events=events)
        for r in range(len(view.file)):
            x0, _, x1, y1 = eof.position_box(view, r + 1)
            assert INK in {c for _, c in img.crop((x0, y1, x1, y1 + eof.NUM_H)).getcolors(65536) or []}
        for seat in range(view.seats):
            cy = eof.panels_top(view) + eof.PANEL_HEAD + seat * eof.player_row_height(view) + 18
            badge = {c for _, c in img.crop((44, cy - 12, 68, cy + 12)).getcolors(65536) or []}
            assert INK_DARK in badge and eof.PIECE_COLOURS[view.players[seat].colour] in badge
        for c in range(4):
            for size in (1, 2, 3):
                cx, y = eof.pool_slot(view, c, size)
                assert len(img.crop((cx + 14, y + 4, cx + 100, y + eof.POOL_ROW - 4)).getcolors(65536)) > 3
