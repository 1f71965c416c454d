"""The font fallback chain: text in any script, or with emoji, drawn without empty boxes.

The pictures' font is DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, many symbols). A character it lacks is
drawn with the first font of :data:`CHAIN` that has it (Noto Sans Arabic, Devanagari, Bengali, Tamil, Thai,
a subset of Noto Sans CJK SC, monochrome Noto Emoji); one that no font has is drawn as :data:`PLACEHOLDER`.
:class:`bot.render.CachedFont` asks :func:`plan` how to split a text into runs of one font each and, when it
needs more than DejaVu, lays the runs out one after the other on a common baseline (so measuring, boxes and
drawing agree): ``ImageDraw.text``, ``textlength`` and ``textbbox`` work unchanged, and a text DejaVu covers
whole (every ASCII text) is one plain FreeType call as before.

Arabic is drawn by DejaVu's successor in the chain, Noto Sans Arabic, even where DejaVu has the letter: its
joining forms are complete. Shaping (Arabic joining, right-to-left order, Indic conjuncts) is done within
each run by libraqm, which Pillow's wheels include; runs themselves are laid out left to right, in the
order of the text.

Which fonts have a character is read from each font's ``cmap`` table (:func:`coverage`), once per font.
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable

ASSETS_PACKAGE = "parlor_assets"
FONTS: Traversable = resources.files(ASSETS_PACKAGE) / "fonts"

PRIMARY = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
CHAIN: tuple[tuple[str, str], ...] = (  # (regular, bold) files, in the order they are asked
    ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    ("NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf"),
    ("NotoSansBengali-Regular.ttf", "NotoSansBengali-Bold.ttf"),
    ("NotoSansTamil-Regular.ttf", "NotoSansTamil-Bold.ttf"),
    ("NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    ("NotoSansCJKsc-Regular-subset.otf", "NotoSansCJKsc-Regular-subset.otf"),  # one weight (size)
    ("NotoEmoji-Regular.ttf", "NotoEmoji-Regular.ttf"),
)
PLACEHOLDER = "\ufffd"
"""Drawn (by DejaVu) for a character no font of the chain has: the replacement character, never a box."""

ARABIC = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
"""Left to Noto Sans Arabic although DejaVu has some of them."""


def _cmap(data: bytes) -> frozenset[int]:
    """The code points an OpenType/TrueType font maps to glyphs (``cmap`` formats 4 and 12)."""
    tables = struct.unpack_from(">H", data, 4)[0]
    offset = None
    for i in range(tables):
        tag, _, off, _ = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if tag == b"cmap":
            offset = off
    if offset is None:
        return frozenset()
    count = struct.unpack_from(">H", data, offset + 2)[0]
    subtables: dict[tuple[int, int], int] = {}
    for i in range(count):
        platform, encoding, off = struct.unpack_from(">HHL", data, offset + 4 + 8 * i)
        subtables[(platform, encoding)] = offset + off
    points: set[int] = set()
    for key in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3), (0, 1), (0, 0)):
        at = subtables.get(key)
        if at is None:
            continue
        fmt = struct.unpack_from(">H", data, at)[0]
        if fmt == 12:
            groups = struct.unpack_from(">L", data, at + 12)[0]
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">LLL", data, at + 16 + 12 * g)
                points.update(range(first, last + 1) if glyph else range(first + 1, last + 1))
            return frozenset(points)
        if fmt == 4:
            segs = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", data, at + 14)
            starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
            deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
            ranges_at = at + 16 + 6 * segs
            range_offsets = struct.unpack_from(f">{segs}H", data, ranges_at)
            for s in range(segs):
                for c in range(starts[s], ends[s] + 1):
                    if c == 0xFFFF:
                        continue
                    if range_offsets[s] == 0:
                        glyph = (c + deltas[s]) & 0xFFFF
                    else:
                        where = ranges_at + 2 * s + range_offsets[s] + 2 * (c - starts[s])
                        glyph = struct.unpack_from(">H", data, where)[0]
                        glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(c)
            return frozenset(points)
    return frozenset(points)


@cache
def coverage(name: str) -> frozenset[int]:
    """The code points the font file ``name`` (in :data:`FONTS`) has a glyph for."""
    points = _cmap((FONTS / name).read_bytes())
    if name in PRIMARY:
        points = points.difference(c for lo, hi in ARABIC for c in range(lo, hi + 1))
    return points


# Characters that belong to the character before them (a grapheme's combining marks and joiners): drawn by
# the same font, or left out when it lacks them (they draw nothing alone; libraqm hides default-ignorables).
def _joins(c: str) -> bool:
    o = ord(c)
    return (unicodedata.category(c) in ("Mn", "Mc", "Me") or o in (0x200C, 0x200D, 0x20E3)
            or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or 0x1F3FB <= o <= 0x1F3FF
            or 0xE0020 <= o <= 0xE007F)


def _neutral(c: str) -> bool:
    """Spaces and punctuation: kept inside a run of another script (an Arabic name's spaces stay in its
    run, so libraqm orders its words right to left)."""
    return unicodedata.category(c)[0] in "ZP"


def plan(text: str, bold: bool) -> list[tuple[str, str]] | None:
    """``text`` split into runs ``(font file, characters)``; ``None`` when DejaVu has every character (the
    one-call path). Characters no font has become :data:`PLACEHOLDER`; joiners a run's font lacks are
    left out."""
    if text.isascii():
        return None
    return _plan(text, bold)


@lru_cache(maxsize=4096)
def _plan(text: str, bold: bool) -> list[tuple[str, str]] | None:
    primary = PRIMARY[bold]
    cov = coverage(primary)
    if all(ord(c) in cov for c in text):
        return None
    chain = [primary, *(pair[bold] for pair in CHAIN)]
    chosen: list[str | None] = []  # font per character; None: a joiner left out
    chars = list(text)
    for i, c in enumerate(chars):
        o = ord(c)
        if _joins(c) and chosen:
            before = next((f for f in reversed(chosen) if f is not None), None)
            if before is not None and o in coverage(before):
                chosen.append(before)
                continue
            if not unicodedata.category(c).startswith("M"):
                chosen.append(None)
                continue
        found = next((f for f in chain if o in coverage(f)), None)
        if found is None:
            if _joins(c) or unicodedata.category(c) == "Cf":
                chosen.append(None)
                continue
            chars[i] = PLACEHOLDER
            found = primary
        chosen.append(found)
    # spaces and punctuation between two characters of one fallback font join that font's run
    for i, c in enumerate(chars):
        if chosen[i] == primary and _neutral(c):
            left = next((f for f in reversed(chosen[:i]) if f is not None), None)
            right = next((f for f in chosen[i + 1:] if f is not None), None)
            if left is not None and left == right and left != primary and ord(c) in coverage(left):
                chosen[i] = left
    runs: list[tuple[str, str]] = []
    for c, f in zip(chars, chosen, strict=True):
        if f is None:
            continue
        if runs and runs[-1][0] == f:
            runs[-1] = (f, runs[-1][1] + c)
        else:
            runs.append((f, c))
    return runs


def uncovered(runs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The characters of ``runs`` their font has no glyph for (a test's check: always empty)."""
    return [(f, c) for f, t in runs for c in t if ord(c) not in coverage(f)]
