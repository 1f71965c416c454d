"""A line drawn word by word is the line drawn whole (bot.render.CachedFont.words), and on a palette canvas a
line not kept draws only its new words (bot.render.canvas.PaletteDraw.text)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from bot import render as R
from bot.render import canvas as C
from bot.render import palette as P
from tests.render.test_palette_png import decoded

pytestmark = pytest.mark.golden

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:·–—▶▸×(),.-'/TVAWYfjLåéßğΩжЖ"
ANCHORS = (None, "la", "lm", "ls", "ld", "ma", "mm", "ms", "ra", "rm", "rs")


def whole(text: str, fnt: R.CachedFont, xy: tuple[float, float], anchor: str | None) -> Image.Image:
    img = Image.new("RGB", (520, 70), R.CARD)
    ImageDraw.Draw(img).text(xy, text, font=fnt, fill=R.INK, anchor=anchor)
    return img


def by_words(text: str, fnt: R.CachedFont, xy: tuple[float, float], anchor: str | None) -> Image.Image:
    img = Image.new("RGB", (520, 70), R.CARD)
    found = fnt.words(text, anchor)
    assert found is not None, text
    pieces, word_anchor = found
    assert [w for _dx, w in pieces] == text.split()
    draw = ImageDraw.Draw(img)
    for dx, word in pieces:
        draw.text((xy[0] + dx, xy[1]), word, font=fnt, fill=R.INK, anchor=word_anchor)
    return img


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.text(LETTERS, min_size=1, max_size=8), min_size=2, max_size=6),
       gaps=st.lists(st.sampled_from([" ", " ", "  "]), min_size=5, max_size=5),
       size=st.sampled_from([11, 13, 14, 16, 18, 20, 24, 28]), bold=st.booleans(),
       anchor=st.sampled_from(ANCHORS), x=st.sampled_from([260, 260.5, 261.25, 40]),
       y=st.sampled_from([35, 35.5]))
def test_the_words_are_the_pixels_of_the_whole_line(words, gaps, size, bold, anchor, x, y) -> None:
    text = "".join(w + g for w, g in zip(words, gaps, strict=False)).rstrip(" ")
    fnt = R.font(size, bold)
    if anchor and anchor[0] != "l":
        x = 260 + (x % 1)  # centred and right-aligned lines stay on the picture
    a, b = whole(text, fnt, (x, y), anchor), by_words(text, fnt, (x, y), anchor)
    assert ImageChops.difference(a, b).getbbox() is None, (text, size, bold, anchor, x, y)


@pytest.mark.parametrize("text, anchor", [
    ("one", None),  # one word
    ("  padded  ", None),
    ("two\nlines", None),
    ("top anchor", "lt"),  # heights that depend on the text
    ("bottom anchor", "mb"),
    ("محمد علي", None),  # letters that join (and read right to left)
    ("名前 です", None),  # the fallback chain
    ("e\u0301 combining", None),  # a combining mark
    ("zero\u200bwidth space", None),
    ("vertical anchor", "ltt"),
])
def test_texts_that_are_not_split(text: str, anchor: str | None) -> None:
    assert R.font(16).words(text, anchor) is None


def test_a_font_that_kerns_against_a_space_is_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    fnt = R._face(R._fonts.PRIMARY[False], 17)  # a face of its own: the pair check is kept per face
    assert fnt.words("Alice to move", None) is not None
    real = type(fnt).getlength

    def kerned(self, text, *args, **kwargs):  # "o " a pixel narrower than "o" and " "
        return real(self, text, *args, **kwargs) - (1.0 if text == "o " else 0.0)

    monkeypatch.setattr(type(fnt), "getlength", kerned)
    fnt._joins.clear()
    fnt._lengths.clear()
    assert fnt.words("Alice to move", None) is None
    assert fnt.words("Alice move", None) is not None  # no "o " in it
    fnt._joins.clear()
    fnt._lengths.clear()


def test_a_line_not_kept_draws_only_its_new_words_and_is_the_line_drawn_whole() -> None:
    key = ("test words", "counts")
    background = Image.new("RGB", (420, 40), R.CARD)
    fnt = R.font(18)
    drawn: list[str] = []

    def board(count: int):
        def draw() -> Image.Image:
            img, d = R.start(background)
            d.text((10, 20), f"Alice to place · {count} pyramids left", font=fnt, fill=R.INK, anchor="lm")
            return img
        return draw

    R.png_bytes(board(12)(), key=key)  # the family's palette
    C.board_png(board(12), key)
    real = C._put_patch

    def counting(target, family, box, k, draw):
        if family is P._families[key] and C._state(family)["patches"].get((k, family.free)) is None:
            drawn.append(k[0][1])
        real(target, family, box, k, draw)

    C._put_patch = counting
    try:
        for count in (11, 10, 9, 13):
            drawn.clear()
            out = decoded(C.board_png(board(count), key)).convert("RGB")
            # the count is the one new word ("9" is narrower: the words after it move and are new there)
            assert drawn == ([str(count)] if count != 9 else ["9", "pyramids", "left"]), drawn
            assert ImageChops.difference(out, decoded(P.png_bytes(board(count)(), key=key)).convert("RGB")
                                         ).getbbox() is None
            drawn.clear()
            C.board_png(board(count), key)
            assert drawn == []  # the whole line is kept now
    finally:
        C._put_patch = real


def test_random_boards_with_split_lines_match_rgb_drawing() -> None:
    """Lines of names and counts over both a plain card and a two-colour one, drawn on the palette."""
    rng = random.Random(5)
    key = ("test words", "random")
    background = Image.new("RGB", (420, 120), R.CARD)
    ImageDraw.Draw(background).rectangle((200, 0, 419, 119), fill=(54, 57, 63))
    lines = [f"{rng.choice(['Ada', 'Bob', 'Éva', 'Жанна'])} to move · {rng.randint(0, 99)} left"
             for _ in range(30)]

    def board(i: int):
        def draw() -> Image.Image:
            img, d = R.start(background)
            d.text((10, 20), lines[i], font=R.font(16), fill=R.INK)
            d.text((190, 60), lines[-1 - i], font=R.font(14, True), fill=R.MUTED, anchor="mm")
            d.text((410, 95), lines[(i * 7) % 30], font=R.font(13), fill=R.ACCENT, anchor="rs")
            return img
        return draw

    R.png_bytes(board(0)(), key=key)
    for i in range(30):
        out = decoded(C.board_png(board(i), key)).convert("RGB")
        rgb = board(i)()
        assert out.size == rgb.size
        assert ImageChops.difference(out, decoded(P.png_bytes(rgb, key=key)).convert("RGB")).getbbox() is None
