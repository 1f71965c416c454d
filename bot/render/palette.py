"""Palette pictures: the fixed palette of each picture family, and the PNG and GIF encoders.

Boards are sent as palette PNGs: every board is drawn from a small fixed set of colours (plus the
anti-aliased edges between them), so 256 palette entries reproduce it within a few levels per channel. A
palette is built once per picture family (the cogs name one per game; by default pictures of the same size
share one) from the boards themselves and reused. Every colour of every picture is checked against the
bounds -- :data:`MAX_PALETTE_ERROR` for any pixel, :data:`MAX_FILL_ERROR` for colours that cover an area --
and a picture bringing colours the palette cannot hold gets the palette rebuilt (or, failing that, is sent
as an RGB PNG). Palette PNGs are about half the bytes of RGB ones and several times faster to encode.
"""

from __future__ import annotations

import io
import logging
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Collection, Hashable, Sequence
from typing import Any, NamedTuple, cast

from PIL import GifImagePlugin, Image, ImageChops
from zlib_ng import zlib_ng

from bot.render.kept import Kept

log = logging.getLogger(__name__)

PNG_LEVEL = 3
"""zlib level for palette PNGs: as fast as level 1 on boards, 15-20 % smaller."""
MAX_PALETTE_ERROR = 8
"""The most a palette PNG's pixel may differ from the drawn board, per channel (of 255)."""
_CELL_SHIFT = 2
_WEIGHT_CAP = 64
"""A colour weighs at most this many pixels when a palette is built."""
MAX_FILL_ERROR = 3
"""The most a fill's pixels (a colour covering an area, see :data:`_FILL_SHARE`) may change, per channel."""
_FILL_SHARE = 500
"""A colour covering at least 1/_FILL_SHARE of a picture is a fill: its palette entry is exact."""
_MAX_FILLS = 96
_FILL_GUARD = 6
"""No other palette entry within this many levels of a fill (so the fill's pixels map to it)."""
_MAX_COLOURS = 8192
"""Pictures with more distinct colours than this are sent as RGB PNGs without trying a palette."""


Colour = tuple[int, ...]


class _Maps(NamedTuple):
    """One palette's look-up image, colours (flat RGB), and what each colour maps to (its error per channel
    and its entry) against that palette. A family swaps in new maps as a whole when it takes free entries
    (:meth:`_Family.extend`), so a reader that took one ``maps`` checks and maps colours against the same
    palette throughout, whatever another thread does meanwhile."""

    lookup: Image.Image
    rgb: list[int]
    error: dict[Colour, int]
    entry: dict[Colour, int]


class _Family:
    """The fixed palette of one picture family, what each colour maps to, and the colours (with pixel counts)
    of the boards the palette was built from."""

    def __init__(self, colours: Sequence[Colour], seen: dict[Colour, int], fills: set[Colour],
                 free: int = 0) -> None:
        rgb = [v for c in colours for v in c]
        # Pillow maps a colour to the palette entry nearest to the colour rounded *down* to a multiple of 4
        # (a 64-level cache), which is up to 3 levels below it. Looking up in a palette shifted down by 2
        # measures from the middle of that cell instead: the error is at most 2 levels, not 3. The picture
        # then gets the true palette.
        self.free = free  # entries at the end of the palette not used yet (see RESERVED)
        self.maps = _Maps(self._lookup(rgb, 256 - free), rgb, {}, {})
        self.seen = seen
        self.fills = fills
        self.lock = threading.Lock()
        self.truth: dict[int, Colour | None] = {}  # entry -> the one colour drawn with it (None: several)
        self._truth_rgb: list[int] | None = None

    def hold(self, entry: int, colour: Colour) -> None:
        """``colour`` (a shape's colour, a background's fill) is drawn as ``entry``: anti-aliased text or a
        sprite drawn on that entry later is blended onto ``colour`` itself, as the RGB drawing blends it, not
        onto the entry's colour (up to MAX_FILL_ERROR off, which the blend would add to the patch's own
        error). An entry two colours are drawn with is blended onto the entry's own colour.

        Patches kept already stay as they are: a colour is held the first time it is drawn, which comes
        before the labels drawn on it (a board's ground first, then each shape before its label)."""
        if self.truth.get(entry, ()) in (colour, None):
            return
        with self.lock:  # (again inside: two threads holding the same colour must not make it "several")
            held = self.truth.get(entry, ())
            if held in (colour, None):
                return
            self.truth[entry] = colour if held == () else None
            self._truth_rgb = None

    def truth_rgb(self) -> list[int]:
        """The palette's colours (flat RGB) with each entry held by one colour (:meth:`hold`) as that colour:
        what lies under a patch, as the RGB drawing has it."""
        rgb = self._truth_rgb
        if rgb is None:  # (made again after a hold or an extension)
            rgb = list(self.rgb)
            for entry, colour in list(self.truth.items()):
                if colour is not None:
                    rgb[3 * entry:3 * entry + 3] = colour[:3]
            self._truth_rgb = rgb
        return rgb

    @property
    def rgb(self) -> list[int]:
        """The palette's colours (flat RGB), with every entry taken so far."""
        return self.maps.rgb

    @staticmethod
    def _lookup(rgb: Sequence[int], used: int) -> Image.Image:
        """The palette colours are looked up in: the entries in use only (a free one, taken later for a new
        colour, must never have been chosen for another), shifted (see above)."""
        lookup = Image.new("P", (1, 1))
        lookup.putpalette([max(0, v - _CELL_SHIFT) for v in rgb[:3 * used]])
        return lookup

    def extend(self, colours: Collection[Colour]) -> bool:
        """Give ``colours`` (that the palette does not hold closely enough) free entries of their own, so
        the family goes on with everything drawn on it so far; False when too few entries are free.

        Earlier entries never change, so every picture and kept part mapped before stays right; the
        colours already worked out are worked out again (lazily) against the larger palette, in new maps
        (the old ones stay whole for whoever is reading them)."""
        with self.lock:
            new = list(dict.fromkeys(tuple(c[:3]) for c in colours))
            if not new or len(new) > self.free:
                return False
            rgb = list(self.maps.rgb)
            at = 256 - self.free
            for i, c in enumerate(new):
                rgb[3 * (at + i):3 * (at + i) + 3] = c
            self.maps = _Maps(self._lookup(rgb, at + len(new)), rgb, {}, {})
            self.free -= len(new)
            self._truth_rgb = None
            for c in new:
                self.seen.setdefault(c, 1)
            log.debug("palette extended by %d colours (%d entries free)", len(new), self.free)
            return True

    def apply(self, img: Image.Image, maps: _Maps) -> Image.Image:
        """``img`` mapped to the palette (a palette image) through ``maps``, those :meth:`accepts` checked it
        against."""
        indexed = img.quantize(palette=maps.lookup, dither=Image.Dither.NONE)
        indexed.putpalette(self.rgb)  # (the newest colours: a superset of the maps' own)
        return indexed

    @classmethod
    def build(cls, seen: dict[Colour, int], fills: set[Colour], *, exact_fills: bool = True) -> _Family:
        colours = _build_palette(seen, fills if exact_fills else set(), 256 - RESERVED)
        return cls(colours + [colours[0]] * RESERVED, seen, fills, free=RESERVED)

    def learn(self, colours: Sequence[Colour], maps: _Maps | None = None) -> _Maps:
        """Work out the palette entry of each new colour in ``maps`` (default: the current ones; the mapping
        depends only on the colour and the palette) and return those maps."""
        maps = maps or self.maps
        error, entry, rgb = maps.error, maps.entry, maps.rgb
        new = [c for c in colours if c not in error]
        if new:
            strip = Image.frombytes("RGB", (len(new), 1), b"".join(bytes(c) for c in new))
            mapped = strip.quantize(palette=maps.lookup, dither=Image.Dither.NONE).tobytes()
            for c, i in zip(new, mapped, strict=True):
                entry[c] = i
                error[c] = max(abs(c[0] - rgb[3 * i]), abs(c[1] - rgb[3 * i + 1]), abs(c[2] - rgb[3 * i + 2]))
        return maps

    def mapping(self, colour: Colour) -> tuple[int, int]:
        """(palette entry, error per channel) of one colour, from one palette's maps (a drawing in a worker
        thread may extend the palette meanwhile; earlier entries never change, so the answer stays right)."""
        maps = self.maps
        if colour not in maps.error:
            self.learn([colour], maps)
        return maps.entry[colour], maps.error[colour]

    def accepts(self, found: Sequence[tuple[int, Colour]], area: int,
                exact: Collection[Colour] = ()) -> _Maps | None:
        """The maps (for :meth:`apply`) if every colour (``(count, colour)`` as ``getcolors`` gives) maps
        within :data:`MAX_PALETTE_ERROR`, and fills -- and the colours ``exact`` -- within
        :data:`MAX_FILL_ERROR`; else None. Each distinct colour is worked out once."""
        maps = self.learn([c for _, c in found] + list(exact))
        error, fill = maps.error, area // _FILL_SHARE
        ok = (all(error[c] <= (MAX_FILL_ERROR if n >= fill else MAX_PALETTE_ERROR) for n, c in found)
              and all(error[c] <= MAX_FILL_ERROR for c in exact))
        return maps if ok else None


_families: OrderedDict[Hashable, _Family] = OrderedDict()
_families_lock = threading.Lock()
_MAX_FAMILIES = 32
_earlier: dict[Hashable, list[_Family]] = {}
"""The palettes a family had before its current one, most recent first: a family whose boards need more
colours than one palette holds (Nomic's maps) goes back to one of these instead of building again."""
_MAX_EARLIER = 3


def earlier(key: Hashable) -> list[_Family]:
    """The earlier palettes of family ``key`` (most recent first)."""
    return list(_earlier.get(key, ()))


def use(key: Hashable, family: _Family) -> None:
    """Make ``family`` (new, or one of the earlier ones) the current palette of ``key``; the one it
    replaces becomes the most recent earlier one."""
    with _families_lock:
        current = _families.get(key)
        if current is family:
            return
        kept = [f for f in _earlier.get(key, ()) if f is not family]
        if current is not None:
            kept.insert(0, current)
        _earlier[key] = kept[:_MAX_EARLIER]
        _families[key] = family
        _families.move_to_end(key)
        while len(_families) > _MAX_FAMILIES:
            gone, _ = _families.popitem(last=False)
            _earlier.pop(gone, None)


def _near(a: Colour, b: Colour, levels: int) -> bool:
    return abs(a[0] - b[0]) <= levels and abs(a[1] - b[1]) <= levels and abs(a[2] - b[2]) <= levels


def _fills(found: Sequence[tuple[int, Colour]], area: int) -> set[Colour]:
    """The colours that cover an area of a picture (at least 1/:data:`_FILL_SHARE` of it)."""
    return {c for n, c in found if n * _FILL_SHARE >= area}


RESERVED = 16
"""Palette entries left free when a palette is built: a colour that comes later (a player colour not seen
yet, the anti-aliased edge of a new label on a new ground) takes one of them, instead of the palette being
built again -- which costs a board drawn twice, and everything kept for the old palette."""


def _build_palette(seen: dict[Colour, int], fills: set[Colour], size: int = 256) -> list[Colour]:
    """A palette of ``size`` colours (256 unless told) for pictures with the colours ``seen`` (colour ->
    pixels).

    The palette is Pillow's max-coverage quantisation of the colours, each weighted by its pixel count
    (capped, so the big fills do not crowd out the anti-aliased edges). The ``fills`` are put in the palette
    exactly and no other entry is kept close to them, so they come back unchanged.
    """
    weighted = sorted(((min(n, _WEIGHT_CAP), c) for c, n in seen.items()), reverse=True)
    sheet = Image.frombytes("RGB", (sum(w for w, _ in weighted), 1),
                            b"".join(bytes(c) * w for w, c in weighted))
    quantized = sheet.quantize(size, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
    flat = quantized.getpalette() or []
    colours: list[Colour] = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    exact: list[Colour] = []
    for c in sorted(fills, key=lambda c: -seen.get(c, 0)):
        if len(exact) == _MAX_FILLS:
            break
        if not any(_near(c, f, MAX_FILL_ERROR) for f in exact):
            exact.append(c)  # near-twins of a fill (a level or two apart) share its entry
    if exact:
        colours = exact + [c for c in colours if not any(_near(c, f, _FILL_GUARD) for f in exact)]
    colours = colours[:size] or [(0, 0, 0)]
    return colours + [colours[0]] * (size - len(colours))  # a full palette: no index past its end


def to_palette(img: Image.Image, key: Hashable | None = None,
               exact: Collection[Colour] = ()) -> Image.Image | None:
    """``img`` (RGB) as a palette image within :data:`MAX_PALETTE_ERROR`, or None if 256 colours cannot
    hold it.

    ``key`` names the picture family whose palette is reused (default: the picture's size); ``exact`` are
    colours the palette must hold within :data:`MAX_FILL_ERROR` from now on (those that stopped drawing
    on the palette, see :mod:`bot.render.canvas`). Thread-safe: animations and the start-up warming draw in
    worker threads.
    """
    if img.mode != "RGB":
        img = img.convert("RGB")
    found = cast(list[tuple[int, Colour]] | None, img.getcolors(_MAX_COLOURS))
    if found is None:
        return None
    area = img.width * img.height
    key = ("size", img.size) if key is None else key
    family = _families.get(key)
    exact = {tuple(c) for c in exact}
    if family is not None and (maps := family.accepts(found, area, exact)):
        return family.apply(img, maps)
    for old in earlier(key):
        if maps := old.accepts(found, area, exact):
            use(key, old)
            return old.apply(img, maps)
    # A new family, or a board with colours its palette does not hold: build the palette again from the
    # colours of this board and of the boards it was built from (so families with several looks settle on
    # one palette), else from this board alone.
    here, fills = {c: n for n, c in found}, _fills(found, area) | exact
    for c in exact:
        here.setdefault(c, 1)
    attempts: list[tuple[dict[Colour, int], set[Colour], bool]] = []
    if family is not None:
        union = dict(family.seen)
        for c, n in here.items():
            union[c] = union.get(c, 0) + n
        attempts.append((union, family.fills | fills, True))
    attempts += [(here, fills, True), (here, fills, False)]
    for seen, fill_set, exact_fills in attempts:
        candidate = _Family.build(seen, fill_set, exact_fills=exact_fills)
        log.debug("palette for %s built from %d colours", key, len(seen))
        if maps := candidate.accepts(found, area, exact):
            use(key, candidate)
            return candidate.apply(img, maps)
    return None


PNG_FAST_LEVEL = 3
"""zlib-ng's level for the palette PNGs sent after each move: no bigger than zlib's level 3, and faster."""
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


BAND_ROWS = 48
"""Rows of a palette PNG compressed as one piece (about 35 KB of a board, a little more than deflate's
32 KB window, so cutting the stream there costs almost no bytes)."""
_BANDS = Kept(16 << 20, size=len)
"""Compressed bands by their rows' checksums: 16 MB, least recently used first out."""
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KB window, no preset dictionary


def palette_png(indexed: Image.Image, level: int = PNG_FAST_LEVEL) -> bytes:
    """A palette image as an 8-bit palette PNG, compressed by zlib-ng.

    Every row has filter type 0 (none), which suits palette pictures best (the PNG specification's own
    advice). The rows with their filter byte come straight from Pillow: the picture is pasted one column
    to the right on a canvas whose first column is index 0, i.e. the filter byte.

    A move changes a few parts of a board, so most of its rows are the rows of a board sent before. The
    rows are compressed in bands of :data:`BAND_ROWS`, each ending in a full flush (the next band does not
    refer back to it: the technique of pigz), so a band seen before -- found by the CRC-32 and Adler-32 of
    its bytes, and their length -- is its kept compressed bytes, not compressed again. The stream is one
    valid zlib stream whichever bands were kept; only which bytes compress it differs, never the pixels.
    """
    width, height = indexed.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(indexed, (1, 0))
    raw = rows.tobytes()
    step = (width + 1) * BAND_ROWS
    deflate = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -15)  # raw deflate: the header is ours
    parts = [_ZLIB_HEADER]
    view = memoryview(raw)
    for start in range(0, len(raw), step):
        band = view[start:start + step]
        key = (zlib_ng.crc32(band), zlib_ng.adler32(band), len(band), level)
        packed = _BANDS.get(key)
        if packed is None:
            packed = deflate.compress(band) + deflate.flush(zlib_ng.Z_FULL_FLUSH)
            _BANDS.put(key, packed)
        parts.append(packed)
    parts.append(deflate.flush(zlib_ng.Z_FINISH))
    parts.append(struct.pack(">I", zlib_ng.adler32(raw)))
    palette = bytes((indexed.getpalette() or [0, 0, 0])[:768])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, no interlace
    return b"".join((_PNG_SIGNATURE, _png_chunk(b"IHDR", header), _png_chunk(b"PLTE", palette),
                     _png_chunk(b"IDAT", b"".join(parts)), _png_chunk(b"IEND", b"")))


def png_bytes(img: Image.Image, *, optimize: bool = False, key: Hashable | None = None,
              exact: Collection[Colour] = ()) -> bytes:
    """Encode as PNG: a palette PNG when 256 colours hold the picture (see :func:`to_palette`), else RGB.

    ``optimize`` spends more time for fewer bytes (for pictures made once, not per move).
    """
    buf = io.BytesIO()
    indexed = to_palette(img, key, exact) if img.mode == "RGB" else None
    if indexed is not None and not optimize:
        return palette_png(indexed)
    out = indexed if indexed is not None else img
    out.save(buf, format="PNG", optimize=optimize, compress_level=9 if optimize else PNG_LEVEL)
    return buf.getvalue()


def gif_bytes(frames: Sequence[Image.Image], durations: Sequence[int] | int, *,
              loop: int | None = 0) -> bytes:
    """Encode frames (RGB or P) as an animated GIF; ``durations`` in ms.

    ``loop=0`` repeats forever; ``loop=None`` plays once and stays on the last frame (no NETSCAPE
    looping extension is written at all, which is how viewers such as Discord's know to stop).

    Palette frames of one size and palette (the animations: each frame is the one before with a few
    things redrawn) are written as the first frame whole and each later frame as only the box where it
    differs from the one before, drawn over it (disposal 1), with Pillow's own header and frame encoder.
    Pillow's ``save_all`` finds the same boxes but copies, converts and compares every frame whole on the
    way: a third to two fifths of an animation's encoding time (bench/eggcarton_render.py).
    """
    if not frames:
        raise ValueError("no frames")
    pal = [f.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT) if f.mode != "P" else f
           for f in frames]
    times = [durations] * len(pal) if isinstance(durations, int) else list(durations)
    if len(times) != len(pal):
        raise ValueError(f"{len(pal)} frames but {len(times)} durations")
    palette = pal[0].getpalette()
    if all(f.size == pal[0].size and f.getpalette() == palette for f in pal[1:]):
        return _gif_of_changes(pal, times, loop)
    buf = io.BytesIO()
    extra = {} if loop is None else {"loop": loop}
    pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:], duration=times,
                optimize=False, disposal=1, **extra)
    return buf.getvalue()


def _gif_of_changes(frames: Sequence[Image.Image], durations: Sequence[int], loop: int | None) -> bytes:
    """Palette frames sharing one palette as a GIF: the first whole, each later one as the box where it
    differs from the one before (a one-pixel box when nothing changed, so its time still counts)."""
    out = gif_start(frames[0], durations[0], loop)
    for before, frame, ms in zip(frames, frames[1:], durations[1:], strict=False):
        out += gif_frame(frame, ImageChops.difference(before, frame).getbbox() or (0, 0, 1, 1), ms)
    out.append(GIF_END)
    return b"".join(out)


GIF_END = b";"


def gif_start(first: Image.Image, duration: int, loop: int | None) -> list[bytes]:
    """The GIF header of an animation of palette frames like ``first`` and ``first`` as its whole first
    frame. ``loop`` as in :func:`gif_bytes`."""
    return [*gif_header(first, duration, loop), *gif_frame(first, (0, 0, *first.size), duration)]


def gif_header(first: Image.Image, duration: int, loop: int | None) -> list[bytes]:
    """The GIF header (screen, palette, looping) of an animation of palette frames like ``first``."""
    info: dict[str, Any] = {"duration": duration}  # a duration makes it GIF89a
    if loop is not None:
        info["loop"] = loop
    header, _ = GifImagePlugin.getheader(first.copy(), info=info)  # getheader may normalise its picture
    return header


def gif_frame(frame: Image.Image, box: tuple[int, int, int, int], duration: int) -> list[bytes]:
    """The part ``box`` of palette picture ``frame`` as the next frame of a GIF, drawn over the one
    before (disposal 1) and shown ``duration`` ms."""
    return GifImagePlugin.getdata(frame.crop(box), offset=box[:2], duration=duration, disposal=1)
