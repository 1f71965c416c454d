"""Boards are sent as palette PNGs: every game's boards must come back (decoded) as the board that was drawn,
within MAX_PALETTE_ERROR per channel -- and the board's own colours (those covering an area) within
MAX_FILL_ERROR, so a person sees the same picture."""

import io
import random

import pytest
from PIL import Image, ImageChops

from bot import render as R
from bot.games import GAMES
from bot.games.samples import sample_positions
from bot.render import canvas as C
from bot.render import palette as P

SEATS = {"pylon": 2, "fireandice": 2, "eggcarton": 2, "eof": 3, "nomic": 3}
NAMES = ("Alice", "Bob", "Carol")


def positions(key, seed, plies=(0, 6, 25, 80)):
    """Views along one seeded random game (with the events of the last action), the end position included."""
    return sample_positions(GAMES[key].rules, SEATS[key], seed, plies)


def boards(key):
    game = GAMES[key]
    for seed in (1, 2):
        for view, events in positions(key, seed):
            yield game.render(view, names=NAMES[:SEATS[key]], events=events)


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def max_error(a: Image.Image, b: Image.Image) -> int:
    return max(hi for _, hi in ImageChops.difference(a, b).getextrema())


@pytest.mark.parametrize("key", sorted(GAMES))
def test_palette_png_keeps_every_board_colour(key):
    for img in boards(key):
        data = R.png_bytes(img)
        back = decoded(data)
        assert back.mode == "P", f"{key}: a {img.size} board was not sent as a palette PNG"
        back = back.convert("RGB")
        assert back.size == img.size
        assert max_error(img, back) <= R.MAX_PALETTE_ERROR
        # the board's own colours (fills, not anti-aliased edges) come back within MAX_FILL_ERROR
        fills = {c for n, c in img.getcolors(1 << 16) if n * P._FILL_SHARE >= img.width * img.height}
        a, b = img.tobytes(), back.tobytes()
        worst, seen = 0, set()
        for i in range(0, len(a), 3 * 7):  # every 7th pixel: a fill covers thousands
            colour = tuple(a[i:i + 3])
            if colour in fills:
                seen.add(colour)
                worst = max(worst, *(abs(x - y) for x, y in zip(a[i:i + 3], b[i:i + 3], strict=True)))
        assert len(seen) >= len(fills) // 2
        assert worst <= R.MAX_FILL_ERROR, f"{key}: a fill colour changed by {worst} levels"


def test_palette_png_is_smaller_than_rgb():
    img = next(iter(boards("fireandice")))
    rgb = io.BytesIO()
    img.save(rgb, format="PNG", compress_level=1)
    assert len(R.png_bytes(img)) < 0.7 * len(rgb.getvalue())


def test_a_board_with_new_colours_gets_a_new_palette():
    """The palette of a family is rebuilt when a board brings colours it does not hold
    (never a wrong colour)."""
    grey = Image.new("RGB", (40, 30), (43, 45, 49))
    key = ("test", "new colours")
    assert decoded(R.png_bytes(grey, key=key)).mode == "P"
    vivid = grey.copy()
    for i, colour in enumerate(((237, 66, 69), (88, 101, 242), (87, 242, 135), (254, 231, 92))):
        vivid.paste(colour, (i * 10, 0, i * 10 + 10, 30))
    back = decoded(R.png_bytes(vivid, key=key)).convert("RGB")
    assert max_error(vivid, back) <= R.MAX_PALETTE_ERROR
    assert back.getpixel((5, 5)) == (237, 66, 69)


def test_a_picture_256_colours_cannot_hold_is_sent_as_rgb():
    noise = Image.frombytes("RGB", (64, 64), random.Random(3).randbytes(64 * 64 * 3))
    back = decoded(R.png_bytes(noise))
    assert back.mode == "RGB" and ImageChops.difference(noise, back).getbbox() is None


def test_cached_text_masks_draw_the_same_pixels():
    from PIL import ImageDraw, ImageFont

    plain = ImageFont.truetype(str(R.FONTS / "DejaVuSans.ttf"), 22)
    cached = R.font(22)
    pics = []
    for fnt in (plain, cached, cached):  # the second cached draw reuses the masks
        img = Image.new("RGB", (300, 80), R.CARD)
        d = ImageDraw.Draw(img)
        d.text((10.5, 10), "Alice · 4:05", font=fnt, fill=R.INK)
        R.text_center(d, (150, 55), "c3 ▲", fnt, R.ACCENT)
        pics.append(img)
    assert ImageChops.difference(pics[0], pics[1]).getbbox() is None
    assert ImageChops.difference(pics[0], pics[2]).getbbox() is None
    assert cached.getlength("Alice") == plain.getlength("Alice")


def test_the_text_mask_cache_is_bounded(monkeypatch):
    from PIL import ImageDraw

    fnt = R.CachedFont(str(R.FONTS / "DejaVuSans.ttf"), 18)
    monkeypatch.setattr(R.CachedFont, "MAX_PIXELS", 20_000)
    d = ImageDraw.Draw(Image.new("RGB", (300, 40)))
    for i in range(200):
        d.text((2, 2), f"player {i} · {i}:00", font=fnt, fill=R.INK)
    assert fnt._pixels <= 20_000 and 1 < len(fnt._masks) < 200


def test_a_family_with_two_looks_goes_back_to_the_palette_of_each_look(monkeypatch):
    """Two kinds of board that no single palette holds (Nomic's maps) used to rebuild the palette on every
    change of look; the family keeps its earlier palettes and goes back to the one that holds the board."""
    rng = random.Random(5)

    def look(seed):
        r = random.Random(seed)
        img = Image.new("RGB", (60, 40), (43, 45, 49))
        for i in range(200):  # 200 far-apart colours, a pixel each
            img.putpixel((i % 60, 10 + i // 60), (r.randrange(256), r.randrange(256), r.randrange(256)))
        return img

    a, b = look(1), look(2)
    builds = []
    build = P._Family.build.__func__
    monkeypatch.setattr(P._Family, "build",
                        classmethod(lambda cls, *x, **k: builds.append(1) or build(cls, *x, **k)))
    key = ("test", "two looks", rng.random())
    for img in (a, b, a, b, a, b, a, b):
        back = decoded(R.png_bytes(img, key=key)).convert("RGB")
        assert max_error(img, back) <= R.MAX_PALETTE_ERROR
    first_two = len(builds)
    for img in (a, b, a, b):
        R.png_bytes(img, key=key)
    assert len(builds) == first_two  # no palette built again
    assert first_two <= 8


def _bands_compressed(monkeypatch):
    """Counts the bands palette_png compresses (not found kept)."""
    calls = []
    real = P.zlib_ng.compressobj

    class Counting:
        def __init__(self, *a):
            self.inner = real(*a)

        def compress(self, data):
            calls.append(len(data))
            return self.inner.compress(data)

        def flush(self, mode):
            return self.inner.flush(mode)

    monkeypatch.setattr(P.zlib_ng, "compressobj", Counting)
    return calls


def test_palette_png_bands_seen_before_are_kept_and_the_png_is_the_same(monkeypatch):
    P._BANDS.clear()
    calls = _bands_compressed(monkeypatch)
    rng = random.Random(5)
    img = Image.new("P", (300, 5 * P.BAND_ROWS + 17))  # five whole bands and a short one
    img.putdata([rng.randrange(12) for _ in range(img.width * img.height)])
    img.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    first = P.palette_png(img)
    assert len(calls) == 6
    again = P.palette_png(img)
    assert len(calls) == 6 and again == first  # every band kept: the same bytes, nothing compressed
    back = decoded(first)
    assert back.mode == "P" and back.tobytes() == img.tobytes()
    assert back.getpalette()[:9] == [0, 255, 0, 1, 254, 0, 2, 253, 1]
    # one pixel changed in the third band: only that band is compressed again, and the PNG is that picture
    changed = img.copy()
    changed.putpixel((150, 2 * P.BAND_ROWS + 3), 200)
    data = P.palette_png(changed)
    assert len(calls) == 7
    assert decoded(data).tobytes() == changed.tobytes()
    assert decoded(P.palette_png(img)).tobytes() == img.tobytes()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_boards_in_bands_decode_to_the_board_and_cost_few_more_bytes(key, monkeypatch):
    """Consecutive boards of a game share most bands; each PNG still decodes to its own board, and cutting the
    stream into bands costs at most 5 % over one deflate stream."""
    P._BANDS.clear()
    game, family = GAMES[key], ("test bands", key)
    indexed, real = [], P.palette_png
    monkeypatch.setattr(P, "palette_png", lambda im, *a, **k: (indexed.append(im), real(im, *a, **k))[1])
    for view, events in positions(key, 3, plies=range(0, 40, 2)):
        indexed.clear()
        data = C.board_png(lambda v=view, e=events: game.render(v, names=NAMES[:SEATS[key]], events=e),
                           family)
        if indexed:
            assert decoded(data).tobytes() == indexed[-1].tobytes()
    monkeypatch.undo()
    boards = [C.board_png(lambda v=view, e=events: game.render(v, names=NAMES[:SEATS[key]], events=e), family)
              for view, events in positions(key, 3, plies=range(0, 40, 2))]
    whole = sum(len(P.zlib_ng.compress(_rows(decoded(b)), P.PNG_FAST_LEVEL)) for b in boards)
    banded = sum(len(_idat(b)) for b in boards)
    assert banded <= whole * 1.05


def _rows(im):
    rows = Image.new("P", (im.width + 1, im.height), 0)
    rows.paste(im, (1, 0))
    return rows.tobytes()


def _idat(png: bytes) -> bytes:
    out, i = b"", 8
    while i < len(png):
        n = int.from_bytes(png[i:i + 4], "big")
        if png[i + 4:i + 8] == b"IDAT":
            out += png[i + 8:i + 8 + n]
        i += 12 + n
    return out
