"""Names in any script or with emoji are drawn in every picture, never as empty boxes (tofu).

The coverage check is independent of the renderer's own: every character drawn is looked up in the cmap of
the font the fallback chain chose for it, read by fontTools.
"""

from __future__ import annotations

import random

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

import bot.render as R
from bot.games import GAMES
from bot.render import font
from bot.render import fonts as F
from bot.render.text import ELLIPSIS, clip, graphemes, shorten
from tests.games.test_conformance import initial, seats_of, step

NAMES = ["محمد علي", "देवनागरी नाम", "王小明", "さくら 桜", "김민수", "🎄🎅 Carol of the Season",
         "👨\u200d👩\u200d👧 Dave 🇯🇵👍🏽"]
CMAPS: dict[str, set[int]] = {}


def cmap(name: str) -> set[int]:
    if name not in CMAPS:
        CMAPS[name] = set(TTFont(str(F.FONTS / name), fontNumber=0).getBestCmap())
    return CMAPS[name]


def missing(text: str, bold: bool) -> list[tuple[str, str]]:
    """The characters of ``text`` drawn by a font (by fontTools' reading) that has no glyph for them."""
    runs = F.plan(text, bold)
    if runs is None:
        return [("DejaVu", c) for c in text if ord(c) not in cmap(F.PRIMARY[bold])]
    return [(f, c) for f, part in runs for c in part if ord(c) not in cmap(f)]


@pytest.mark.parametrize("name", F.PRIMARY + tuple(f for pair in F.CHAIN for f in pair))
def test_cmap_reader_agrees_with_fonttools(name: str) -> None:
    assert F._cmap((F.FONTS / name).read_bytes()) == cmap(name)


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_every_character_has_a_glyph_in_its_font_and_ink_is_drawn(name: str, bold: bool) -> None:
    assert not missing(name, bold)
    runs = F.plan(name, bold)
    assert runs is not None and not any(c == F.PLACEHOLDER for _, part in runs for c in part)
    img = Image.new("L", (700, 60))
    d = ImageDraw.Draw(img)
    fnt = font(28, bold)
    d.text((10, 30), name, font=fnt, fill=255, anchor="lm")
    box = img.getbbox()
    assert box is not None
    # measured and drawn alike: the ink lies in the measured box, and spans most of the measured length
    left, top, right, bottom = d.textbbox((10, 30), name, font=fnt, anchor="lm")
    assert left - 1 <= box[0] and box[2] <= right + 1 and top - 1 <= box[1] and box[3] <= bottom + 1
    assert box[2] - box[0] >= 0.8 * fnt.getlength(name)


def test_each_non_latin_character_is_drawn_apart_from_notdef() -> None:
    """No drawn glyph is the empty box: each character's mask differs from the mask of a character no font
    has drawn by its fallback font without fallback (the .notdef box)."""
    for name in NAMES:
        for _, part in F.plan(name, False) or []:
            for g in graphemes(part):
                if g.strip():
                    runs = F.plan(g, False)
                    assert runs is not None or g.isascii() or all(ord(c) in cmap(F.PRIMARY[0]) for c in g)
                    for f, text in runs or []:
                        face = R._face(f, 28)
                        notdef = face.getmask("\uffff")  # a noncharacter: the .notdef box
                        assert bytes(face.getmask(text)) != bytes(notdef), (g, f)


def test_unknown_characters_become_the_placeholder_not_a_box() -> None:
    runs = F.plan("a\U00010a10b", False)  # Kharoshthi: in no font of the chain
    assert runs == [(F.PRIMARY[0], "a" + F.PLACEHOLDER + "b")]
    assert not missing("a\U00010a10b", False)


def test_latin_text_takes_the_one_call_path_and_draws_as_before() -> None:
    assert F.plan("Carol of the Season", False) is None
    assert F.plan("Zoë Ångström Ñandú — Ελένη Борис", True) is None
    plain = ImageFont.truetype(str(F.FONTS / "DejaVuSans.ttf"), 24)
    for text in ("Alice (Fire)", "Zoë · 12:00"):
        assert bytes(font(24).getmask(text)) == bytes(plain.getmask(text))
        assert font(24).getlength(text) == plain.getlength(text)


def test_runs_on_one_baseline_match_a_single_font_within_a_pixel() -> None:
    fnt, face = font(24), R._face(F.PRIMARY[0], 24)
    runs = [(face, "Hgjy Abc")]
    for anchor in ("la", "lm", "ls", "mm", "rm", "ra", "ld", "lt", "lb"):
        left, top, right, bottom, ax, ay = fnt._layout(runs, "", None, None, 0, anchor)
        want = face.getbbox("Hgjy Abc", anchor=anchor)
        got = (left - ax, top - ay, right - ax, bottom - ay)
        assert all(abs(a - b) <= 1.01 for a, b in zip(got, want, strict=True)), anchor


def test_an_arabic_name_stays_one_run_so_its_words_read_right_to_left() -> None:
    assert F.plan("محمد علي", False) == [("NotoSansArabic-Regular.ttf", "محمد علي")]
    # spaces between a fallback run and Latin text stay DejaVu's
    assert F.plan("🎄 Carol", False) == [("NotoEmoji-Regular.ttf", "🎄"), ("DejaVuSans.ttf", " Carol")]


GAME_KEYS = sorted(GAMES.builtin())


@pytest.mark.golden
@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_draws_the_names_without_tofu(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's board, with the names above as its players: every text drawn has a glyph for each
    character in the font chosen for it, the names' own characters reach the picture, and they leave ink."""
    game = GAMES[key]
    seats = seats_of(game)
    names = [NAMES[(i * 2) % len(NAMES)] + " " + NAMES[(i * 2 + 1) % len(NAMES)] for i in range(seats)]
    drawn: list[tuple[str, bool, int]] = []
    original = R.CachedFont.getmask2

    def spy(self: R.CachedFont, text: str, *args: object, **kwargs: object) -> object:
        out = original(self, text, *args, **kwargs)
        if self.fallback and isinstance(text, str):
            _, hi = out[0].getextrema() if out[0].size[0] and out[0].size[1] else (0, 0)
            drawn.append((text, self.bold, hi))
        return out

    monkeypatch.setattr(R.CachedFont, "getmask2", spy)
    state, rng = initial(game), random.Random(7)
    for _ in range(40):  # a game whose first picture shows no names (Nomic's lobby) is played on a little
        game.render(game.rules.view(state, None), names=names)
        if any(F.plan(t, b) is not None for t, b, _ in drawn):
            break
        state, _ = game.rules.apply(state, *step(game.rules, state, rng.choice))
    non_latin = [(t, b, ink) for t, b, ink in drawn if F.plan(t, b) is not None]
    assert non_latin, f"{key}: no name in another script reached the picture"
    seen = {c for t, _, _ in non_latin for c in t}
    assert seen & set("王김さ🎄محدे"), key
    for text, bold, ink in non_latin:
        assert not missing(text, bold), (key, text)
        if text.strip():
            assert ink > 0, (key, text)


def test_graphemes_keep_sequences_whole() -> None:
    assert graphemes("abc") == ["a", "b", "c"]
    assert graphemes("e\u0301\u0323x") == ["e\u0301\u0323", "x"]
    assert graphemes("👨\u200d👩\u200d👧\u200d👦a") == ["👨\u200d👩\u200d👧\u200d👦", "a"]
    assert graphemes("👍🏽👍") == ["👍🏽", "👍"]
    assert graphemes("❤\ufe0f!") == ["❤\ufe0f", "!"]
    assert graphemes("🇯🇵🇫🇷🇩") == ["🇯🇵", "🇫🇷", "🇩"]
    assert graphemes("1\ufe0f\u20e3") == ["1\ufe0f\u20e3"]
    assert graphemes("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f") == [
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"]
    assert graphemes("नमस्ते") == ["न", "म", "स्", "ते"]  # vowel signs and virama stay with their letter
    assert graphemes("\u1100\u1161\u11a8가") == ["\u1100\u1161\u11a8", "가"]  # conjoining jamo
    assert graphemes("") == []


def test_shorten_cuts_at_a_grapheme_boundary_and_fits() -> None:
    fnt = font(24, True)
    assert shorten("Bob", fnt, 200) == "Bob"
    family = "👨\u200d👩\u200d👧"
    for name in [*NAMES, "Carol of the Season, the long name", family * 4, "🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵", "e\u0301" * 30]:
        for width in (30, 60, 90, 140):
            out = shorten(name, fnt, width)
            if out == name:
                assert fnt.getlength(name) <= width
                continue
            assert out.endswith(ELLIPSIS)
            kept = out[:-1]
            assert name.startswith(kept)
            assert fnt.getlength(out) <= width or kept == ""
            # the cut is between two graphemes of the name
            assert len(kept.rstrip()) == 0 or "".join(graphemes(name)[:len(graphemes(kept))]) == kept
            assert not missing(out, True)


def test_clip_counts_graphemes() -> None:
    assert clip("Alice", 24) == "Alice"
    assert clip("🇯🇵" * 30, 5) == "🇯🇵" * 4 + ELLIPSIS
    assert clip("abcdef", 4) == "abc" + ELLIPSIS
