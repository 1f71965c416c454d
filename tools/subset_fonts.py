"""Make the fallback fonts shipped in assets/fonts/ (a developer's tool, needs ``fonttools``; not the bot's).

Sources (OFL 1.1, see LICENSE-Noto.txt), fetched from the package registries:

* Debian ``fonts-noto-core`` (20201225-1): NotoSans{Arabic,Devanagari,Bengali,Tamil,Thai}-{Regular,Bold}.ttf;
* Debian ``fonts-noto-cjk`` (1:20220127+repack1-1): NotoSansCJK-Regular.ttc, face "Noto Sans CJK SC";
* npm ``@expo-google-fonts/noto-emoji`` (0.4.7): NotoEmoji_400Regular.ttf (monochrome Noto Emoji).

CJK and emoji come in one weight only, to keep the wheel small (the CJK subset is 3.9 MB a weight): bold text
draws them in the regular weight.

Every font loses its hinting (the pictures are drawn at 15-40 px with FreeType's autohinter off, and hints are
most of a small font's bytes); the script fonts keep all their characters and OpenType layout (Arabic joining,
Indic conjuncts: drawn with libraqm). The CJK face is cut to the characters of the common national sets, as
Python's codecs list them:

* GB 2312 level 1 (3,755 most used simplified hanzi),
* JIS X 0208 level 1 kanji and rows 1-8 (2,965 kanji, kana, CJK punctuation, full-width forms),
* KS X 1001 Hangul (2,350 syllables),
* Big5 level 1 (5,401 most used traditional hanzi),

10,048 characters together; a character outside them (a rare hanzi, an unusual Hangul syllable) is drawn as
the placeholder (``bot.render.fonts.PLACEHOLDER``), never as an empty box.

Run: ``python tools/subset_fonts.py <folder with the unpacked .deb and npm files>``.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parents[1] / "assets" / "fonts"
SCRIPTS = ("Arabic", "Devanagari", "Bengali", "Tamil", "Thai")
CJK_FACE = 2  # in NotoSansCJK-*.ttc: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK


def _decoded(codec: str, rows: range, cells: list[int]) -> set[str]:
    out = set()
    for r in rows:
        for c in cells:
            with contextlib.suppress(UnicodeDecodeError):
                out.add(bytes([r, c]).decode(codec))
    return out


def cjk_characters() -> set[str]:
    """The characters kept in the CJK subset (see the module's text)."""
    euc = list(range(0xA1, 0xFF))
    chars = _decoded("gb2312", range(0xB0, 0xD8), euc)  # GB 2312 level 1
    chars |= _decoded("euc_jp", range(0xA1, 0xA9), euc)  # JIS X 0208 rows 1-8: symbols, kana
    chars |= _decoded("euc_jp", range(0xB0, 0xD0), euc)  # JIS X 0208 level 1 kanji
    chars |= _decoded("euc_kr", range(0xB0, 0xC9), euc)  # KS X 1001 Hangul syllables
    chars |= _decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *euc])  # Big5 level 1
    return {c for c in chars if len(c) == 1}


def _options() -> subset.Options:
    opts = subset.Options()
    opts.hinting = False
    opts.desubroutinize = False
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = False
    return opts


def _cut(font: TTFont, out: Path, unicodes: list[int] | None) -> None:
    opts = _options()
    sub = subset.Subsetter(opts)
    if unicodes is None:
        sub.populate(unicodes=font.getBestCmap().keys())
    else:
        sub.populate(unicodes=unicodes)
    sub.subset(font)
    font.save(out)
    print(f"{out.name}: {out.stat().st_size:,} bytes")


def main(src: Path) -> None:
    noto = next(src.rglob("NotoSansArabic-Regular.ttf")).parent
    for script in SCRIPTS:
        for weight in ("Regular", "Bold"):
            name = f"NotoSans{script}-{weight}.ttf"
            _cut(TTFont(noto / name), HERE / name, None)
    cjk = sorted(ord(c) for c in cjk_characters())
    ttc = next(src.rglob("NotoSansCJK-Regular.ttc"))
    _cut(TTCollection(ttc).fonts[CJK_FACE], HERE / "NotoSansCJKsc-Regular-subset.otf", cjk)
    _cut(TTFont(next(src.rglob("NotoEmoji_400Regular.ttf"))), HERE / "NotoEmoji-Regular.ttf", None)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
