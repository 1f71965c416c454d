"""Boards drawn straight onto their family's palette (bot.render.canvas) must be the boards the RGB path
draws: every pixel within MAX_PALETTE_ERROR of the RGB drawing, the board's own colours within
MAX_FILL_ERROR -- and the palette path must really be taken once a family has its palette."""

import random
import threading

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot import render as R
from bot.games import GAMES
from bot.render import canvas as C
from bot.render import palette as P
from tests.render.test_palette_png import NAMES, SEATS, decoded, max_error, positions


@pytest.fixture
def paths(monkeypatch):
    """Counts the boards encoded straight from a palette canvas and those drawn again in RGB."""
    seen = {"palette": 0, "rgb": 0}
    palette_png, png_bytes = P.palette_png, P.png_bytes
    inside = []

    def on_palette(img, *a, **k):
        seen["palette"] += not inside  # png_bytes encodes with it too
        return palette_png(img, *a, **k)

    def in_rgb(img, *a, **k):
        seen["rgb"] += 1
        inside.append(1)
        try:
            return png_bytes(img, *a, **k)
        finally:
            inside.pop()

    monkeypatch.setattr(P, "palette_png", on_palette)
    monkeypatch.setattr(P, "png_bytes", in_rgb)
    return seen


def fill_error(img: Image.Image, back: Image.Image) -> int:
    area = img.width * img.height
    fills = {c for n, c in img.getcolors(1 << 16) if n * P._FILL_SHARE >= area}
    a, b = img.tobytes(), back.tobytes()
    worst = 0
    for i in range(0, len(a), 3 * 5):
        if tuple(a[i:i + 3]) in fills:
            worst = max(worst, *(abs(x - y) for x, y in zip(a[i:i + 3], b[i:i + 3], strict=True)))
    return worst


@pytest.mark.parametrize("key", sorted(GAMES))
def test_boards_drawn_on_the_palette_are_the_rgb_boards(key, paths):
    game = GAMES[key]
    family = ("test canvas", key)
    cases = [c for seed in (1, 2, 3) for c in positions(key, seed, plies=(0, 3, 6, 12, 25, 40, 80))]

    def draw(view, events):
        return lambda: game.render(view, names=NAMES[:SEATS[key]], events=events)

    for view, events in cases:  # the family learns its palette (rebuilt while new colours come)
        C.board_png(draw(view, events), family)
    paths["palette"] = paths["rgb"] = 0
    for view, events in cases:
        rgb = draw(view, events)()
        assert rgb.mode == "RGB"  # outside board_png the renderers draw in RGB, as before
        back = decoded(C.board_png(draw(view, events), family))
        assert back.mode == "P"
        back = back.convert("RGB")
        assert back.size == rgb.size
        assert max_error(rgb, back) <= R.MAX_PALETTE_ERROR, key
        assert fill_error(rgb, back) <= R.MAX_FILL_ERROR, key
    # the palette path is the one taken (Nomic's boards need more colours than one palette holds: each
    # look goes back to the palette that holds it)
    assert paths["palette"] == len(cases), paths


def test_a_shape_colour_the_palette_lacks_takes_a_free_entry_and_without_one_is_drawn_in_rgb_once(paths):
    key = ("test canvas", "new shape colour")
    background = Image.new("RGB", (60, 40), R.CARD)

    def board(colour):
        def draw():
            img, d = R.start(background)
            d.rectangle((5, 5, 30, 30), fill=colour)
            d.text((32, 8), "ab", font=R.font(16), fill=R.INK)
            return img
        return draw

    P.png_bytes(board((10, 200, 30))(), key=key)
    family = P._families[key]
    assert family.free == P.RESERVED
    paths["palette"] = paths["rgb"] = 0
    back = decoded(C.board_png(board((200, 30, 160)), key)).convert("RGB")  # a colour never seen
    assert paths == {"palette": 1, "rgb": 0}  # drawn on the palette: the colour took a free entry
    assert P._families[key] is family and family.free == P.RESERVED - 1
    assert back.getpixel((10, 10)) == (200, 30, 160)
    assert max_error(board((200, 30, 160))(), back) <= R.MAX_PALETTE_ERROR
    # with no entry left, a new colour is drawn in RGB once and the palette built again (holding it exactly)
    family.free = 0
    back = decoded(C.board_png(board((30, 160, 200)), key)).convert("RGB")
    assert paths == {"palette": 1, "rgb": 1}
    assert back.getpixel((10, 10)) == (30, 160, 200)
    assert P._families[key] is not family and P._families[key].free == P.RESERVED
    back = decoded(C.board_png(board((30, 160, 200)), key)).convert("RGB")
    assert paths["palette"] == 2  # now held: drawn on the palette
    assert back.getpixel((10, 10)) == (30, 160, 200)
    assert max_error(board((30, 160, 200))(), back) <= R.MAX_PALETTE_ERROR


def test_entries_taken_while_boards_are_drawn_leave_what_was_drawn_before_unchanged(paths):
    """A colour taking a free entry mid-board: the board (started with the palette before it) and the
    patches kept earlier still come back as drawn."""
    key = ("test canvas", "taken mid-board")
    background = Image.new("RGB", (80, 40), R.CARD)

    def board(late):
        def draw():
            img, d = R.start(background)
            d.text((4, 8), "ok", font=R.font(16), fill=R.INK)
            d.rectangle((40, 5, 70, 30), fill=late)
            # a label on the new colour, drawn on a copy of what lies under it: the new colour, not what its
            # entry held when the board was started
            d.text((44, 10), "7", font=R.font(14), fill=late)
            return img
        return draw

    P.png_bytes(board((10, 200, 30))(), key=key)
    first = decoded(C.board_png(board((10, 200, 30)), key))
    family = P._families[key]
    paths["palette"] = paths["rgb"] = 0
    late = decoded(C.board_png(board((220, 40, 120)), key))
    assert paths == {"palette": 1, "rgb": 0}  # on the palette throughout
    assert P._families[key] is family and family.free < P.RESERVED
    assert max_error(board((220, 40, 120))(), late.convert("RGB")) <= R.MAX_PALETTE_ERROR
    again = decoded(C.board_png(board((10, 200, 30)), key))
    assert again.convert("RGB").tobytes() == first.convert("RGB").tobytes()


def test_a_patch_checked_against_one_palette_is_mapped_through_it_while_another_thread_extends_it():
    """A worker thread (the start-up warming, say) may give a colour a free entry while a label is being
    mapped: the label is checked and mapped against one palette throughout. The grey below is 8 levels from
    its entry before the extension and would be 10 from the entry taken after it (nearer in Pillow's
    measure, further in the largest channel): checked against one and mapped through the other, a pixel
    would be off by more than MAX_PALETTE_ERROR."""
    grey, taken = (100, 100, 100), (110, 100, 100)

    class Racing(P._Family):
        raced = False

        @property  # type: ignore[override]
        def maps(self):
            now = self._now
            if not self.raced:  # another thread takes a free entry just after this read
                self.raced = True
                self.extend([taken])
            return now

        @maps.setter
        def maps(self, value):
            self._now = value

    colours = [(0, 0, 0), (255, 255, 255), (92, 92, 92)]
    family = Racing(colours + [colours[0]] * (256 - len(colours)), {}, set(), free=P.RESERVED)
    patch = Image.new("RGB", (4, 2), grey)
    mapped = C.map_patch(family, patch)
    assert family.raced and family.free == P.RESERVED - 1
    mapped.putpalette(family.rgb)
    assert max_error(patch, mapped.convert("RGB")) == 8  # its entry before: (92, 92, 92)
    # mapped now, its nearest entry is the new one, 10 levels off: checked against this palette, that is
    # too far, so the grey takes a free entry of its own
    again = C.map_patch(family, patch)
    again.putpalette(family.rgb)
    assert family.free == P.RESERVED - 2 and max_error(patch, again.convert("RGB")) == 0


def test_text_and_sprites_on_the_palette_match_rgb_drawing_and_are_reused():
    key = ("test canvas", "text")
    background = Image.new("RGB", (200, 60), R.CARD)
    ImageDraw.Draw(background).rectangle((100, 0, 199, 59), fill=(54, 57, 63))
    sprite = Image.new("RGBA", (12, 12), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).ellipse((0, 0, 11, 11), fill=(250, 166, 26, 200))

    def draw():
        img, d = R.start(background)
        d.text((10.5, 8), "Alice 4:05", font=R.font(18), fill=R.INK)
        d.text((150, 30), "c3", font=R.font(22, True), fill=R.ACCENT, anchor="mm")
        d.text((95, 40), "edge", font=R.font(14), fill=R.MUTED)  # over two backgrounds
        R.paste(img, sprite, (60, 40), sprite)
        R.paste(img, sprite, (194, 54), sprite)  # partly off the picture
        return img

    R.png_bytes(draw(), key=key)
    first = decoded(C.board_png(draw, key))
    again = decoded(C.board_png(draw, key))  # the patches come from the cache this time
    assert first.mode == again.mode == "P"
    assert ImageChops.difference(first.convert("RGB"), again.convert("RGB")).getbbox() is None
    assert max_error(draw(), first.convert("RGB")) <= R.MAX_PALETTE_ERROR
    assert C._state(P._families[key])["patches"].items, "no patch kept"


def test_a_kept_part_is_pasted_where_it_was_drawn_on_the_same_pixels_and_drawn_again_elsewhere():
    key = ("test canvas", "kept")
    background = Image.new("RGB", (120, 40), R.CARD)
    ImageDraw.Draw(background).rectangle((60, 0, 119, 39), fill=(54, 57, 63))
    drawn = []

    def part(d, x):
        def draw():
            drawn.append(x)
            d.ellipse((x + 4, 4, x + 34, 34), fill=R.PLAYER_COLOURS[0], outline=R.INK, width=2)
            d.text((x + 19, 19), "7", font=R.font(16, True), fill=R.INK, anchor="mm")
        R.kept(d, (x, 0, x + 40, 40), ("chip", 7), draw)

    def board():
        img, d = R.start(background)
        part(d, 0)
        part(d, 70)  # on the other ground: not the same pixels under it
        return img

    plain = board()  # outside board_png: drawn every time, in RGB
    assert drawn == [0, 70] and plain.mode == "RGB"
    R.png_bytes(board(), key=key)  # the family learns its palette
    drawn.clear()
    first = decoded(C.board_png(board, key))
    assert drawn == [0, 70]
    drawn.clear()
    again = decoded(C.board_png(board, key))
    assert drawn == []  # both parts pasted
    assert first.tobytes() == again.tobytes() and first.mode == "P"
    assert max_error(plain, again.convert("RGB")) <= R.MAX_PALETTE_ERROR


@pytest.mark.parametrize("key", sorted(GAMES))
def test_boards_with_kept_parts_are_the_boards_drawn_afresh(key):
    """Every game's boards, drawn while the family keeps what it drew (text, sprites, kept parts), are pixel
    for pixel the boards drawn with nothing kept."""
    game = GAMES[key]
    family = ("test kept", key)
    cases = [c for seed in (4, 5) for c in positions(key, seed, plies=range(0, 60, 3))]

    def draw(view, events):
        return lambda: game.render(view, names=NAMES[:SEATS[key]], events=events)

    for view, events in cases:
        C.board_png(draw(view, events), family)
    for view, events in cases:
        warm = decoded(C.board_png(draw(view, events), family))
        fam = P._families[family]
        C._state(fam)["patches"].clear()
        fresh = decoded(C.board_png(draw(view, events), family))
        assert P._families[family] is fam
        assert warm.tobytes() == fresh.tobytes(), key


def test_wide_polygon_outlines_on_the_palette_are_pillows_own_pixels():
    """A polygon with an outline wider than a pixel (an Ice piece, an island's rim) is clipped through one
    kept mask instead of a new one the board's size: Pillow's own pixels, polygon after polygon, and the
    mask is left blank for the next (also for polygons partly off the picture)."""
    key = ("test canvas", "polygons")
    colours = [R.PLAYER_COLOURS[0], R.PLAYER_COLOURS[1], R.INK, R.ACCENT]
    background = Image.new("RGB", (160, 120), R.CARD)
    R.png_bytes(background, key=key, exact=set(colours))
    family = P._families[key]
    rng = random.Random(4)
    for _board in range(60):
        ours = Image.new("P", background.size, 0)
        ours.putpalette(family.rgb)
        pillows = ours.copy()
        d, plain = C.PaletteDraw(ours, family), ImageDraw.ImageDraw(pillows)
        for _shape in range(6):
            cx, cy, r = rng.uniform(-20, 180), rng.uniform(-20, 140), rng.uniform(4, 50)
            corners = rng.randint(3, 7)
            points = [(cx + r * rng.uniform(-1, 1), cy + r * rng.uniform(-1, 1)) for _p in range(corners)]
            fill, outline = rng.choice([None, *colours]), rng.choice(colours)
            width = rng.choice((1, 2, 3, 4, 7, 8))
            d.polygon(points, fill=fill, outline=outline, width=width)
            plain.polygon(points, fill=None if fill is None else d._index(fill), outline=d._index(outline),
                          width=width)
        assert ours.tobytes() == pillows.tobytes()
    mask = C._state(family)["masks"][background.size, threading.get_ident()][0]
    assert mask.getbbox() is None
