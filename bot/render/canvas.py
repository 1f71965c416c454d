"""Drawing a board straight onto its family's palette.

A board drawn in RGB costs three whole-picture passes before it is a palette PNG: the colour check
(``getcolors``), the mapping (``quantize``) and the drawing itself on three bytes per pixel. Once a family
has its palette (see :func:`bot.render.palette.to_palette`), the renderers draw the next boards of the
family on a palette image instead:

* shapes (rectangles, polygons, ellipses, lines -- Pillow never anti-aliases them) are drawn with the
  palette entry of their colour, which must hold it within :data:`~bot.render.palette.MAX_FILL_ERROR`:
  the same pixels as the RGB drawing, mapped;
* text and pasted sprites (anti-aliased) are drawn on a small RGB patch of what lies under them (each
  palette entry as the one colour drawn with it, where one is: ``_Family.hold``), checked colour by colour
  like a whole board and mapped; a patch is kept (keyed by the text and the pixels under
  it), so a label drawn again on the same background is a copy.

So the picture a person sees is the one the RGB path would send, within the same bounds. A colour the palette
cannot hold (a new player colour, say) takes one of the palette's free entries (``_Family.extend``); when
none is left it stops the palette drawing: the board is drawn again in RGB and the family's palette rebuilt
with that colour held exactly (:class:`PaletteMiss`), so it happens once.

Renderers take their canvas from :func:`start` and paste with :func:`paste`; a part of a board that depends
only on a few values (a stack of pieces, an axis of labels) is drawn through :func:`kept`, once per ground.
Outside :func:`board_png` (tests, pictures made once) they get the plain RGB image and ``ImageDraw`` they
always had.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from contextvars import ContextVar
from typing import Any, cast

from PIL import Image, ImageColor, ImageDraw

import bot.render.palette as P
from bot.i18n import language
from bot.render.kept import Kept

Colour = tuple[int, ...]
_FAMILY: ContextVar[P._Family | None] = ContextVar("parlor_palette_family", default=None)

PATCH_PIXELS = 1 << 22
"""Pixels of drawn text and sprite patches kept per family (least recently used out): 4 MB."""
BOXES_KEPT = 32768
"""Texts whose box is known, per family (all forgotten at once past this: a few MB)."""
INKS_KEPT = 4096
"""Colours whose palette entry is known, per family (all forgotten at once past this)."""


class PaletteMiss(Exception):
    """A colour the family's palette does not hold closely enough: draw this board in RGB instead."""

    def __init__(self, colours: Iterable[Colour], *, solid: bool = False) -> None:
        self.colours = {tuple(c[:3]) for c in colours}
        self.solid = solid  # a shape's colour: the palette is to hold it exactly from now on
        super().__init__(f"colours outside the palette: {sorted(self.colours)}")  # not translated: internal


def _state(family: P._Family) -> dict[str, Any]:
    """The family's drawing caches (made on first use; a rebuilt palette is a new family, with new ones)."""
    st = family.__dict__.get("_canvas")
    if st is None:
        st = family.__dict__.setdefault("_canvas",
                                        {"backgrounds": {}, "patches": Kept(PATCH_PIXELS), "boxes": {},
                                         "inks": {}})
    return cast(dict[str, Any], st)


def solid(family: P._Family, colour: Any) -> int:
    """The palette index of a shape's colour (an area: it must be held within MAX_FILL_ERROR)."""
    if isinstance(colour, str):
        colour = ImageColor.getrgb(colour)
    c = tuple(colour[:3])
    index, error = family.mapping(c)
    if error > P.MAX_FILL_ERROR:
        if not family.extend([c]):
            raise PaletteMiss([c], solid=True)
        index, error = family.mapping(c)
        if error > P.MAX_FILL_ERROR:
            raise PaletteMiss([c], solid=True)
    family.hold(index, c)
    return index


def map_patch(family: P._Family, rgb: Image.Image) -> Image.Image:
    """An RGB patch (text or a sprite on what lay under it) mapped to the palette, every colour checked:
    within MAX_PALETTE_ERROR, and the family's fills within MAX_FILL_ERROR."""
    found = cast(list[tuple[int, Colour]], rgb.getcolors(rgb.width * rgb.height) or [])
    colours = [c for _, c in found]
    bad: list[Colour] = []
    for _attempt in range(2):
        # one palette's maps throughout: a worker thread may extend the palette meanwhile, and a colour
        # checked against one palette but mapped through another could land further than checked
        maps = family.learn(colours)
        error, fills = maps.error, family.fills
        bad = [c for c in colours if error[c] > (P.MAX_FILL_ERROR if c in fills else P.MAX_PALETTE_ERROR)]
        if not bad:
            return rgb.quantize(palette=maps.lookup, dither=Image.Dither.NONE)
        if not family.extend(bad):  # the palette's free entries take them, if enough are left
            break
    raise PaletteMiss(bad)


class PaletteDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on a family's palette image that takes the RGB colours the renderers use."""

    def __init__(self, im: Image.Image, family: P._Family) -> None:
        super().__init__(im)
        self.family = family
        self.target = im
        self.boxes: dict[Hashable, tuple[int, int, int, int]] = _state(family)["boxes"]
        self.inks: dict[tuple[Any, int], int] = _state(family)["inks"]
        self.patches: Kept = _state(family)["patches"]

    def _index(self, colour: Any) -> Any:
        if colour is None or isinstance(colour, int):
            return colour
        # a colour's entry, until the palette takes another colour (which may be the nearer entry)
        key = (colour if isinstance(colour, (str, tuple)) else tuple(colour), self.family.free)
        index = self.inks.get(key)
        if index is None:
            if len(self.inks) > INKS_KEPT:
                self.inks.clear()
            index = self.inks[key] = solid(self.family, colour)
        return index

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        return super()._getink(self._index(ink), self._index(fill))

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """Pillow's polygon, the same pixels; a wide outline is clipped to the polygon through a kept mask
        the board's size (one per thread: boards are also drawn in worker threads; cleared round the
        polygon after use), where Pillow allocates and clears a new one for every polygon (an Ice piece,
        an island's rim: 900 KB each, a fifth of a Fire and Ice board's drawing time)."""
        ink, fill_ink = self._getink(outline, fill)
        if ink is None or ink == fill_ink or width <= 1:
            super().polygon(xy, fill, outline, width)
            return
        if fill_ink is not None:
            self.draw.draw_polygon(xy, fill_ink, 1)
        points = [(float(p[0]), float(p[1])) for p in xy] if not isinstance(xy[0], (int, float)) else [
            (float(xy[i]), float(xy[i + 1])) for i in range(0, len(xy), 2)]
        size = self.target.size
        masks: dict[Hashable, tuple[Image.Image, Any, Any]] = _state(self.family).setdefault("masks", {})
        key = (size, threading.get_ident())
        kept_mask = masks.get(key)
        if kept_mask is None:
            blank = Image.new("1", size)
            on = ImageDraw.Draw(blank)
            kept_mask = masks[key] = (blank, on.draw, on._getink(1)[0])
        mask, on_mask, mask_ink = kept_mask
        on_mask.draw_polygon(points, mask_ink, 1)
        self.draw.draw_polygon(points, ink, 0, width * 2 - 1, mask.im)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        box = (max(0, int(min(xs)) - 2), max(0, int(min(ys)) - 2), min(size[0], int(max(xs)) + 3),
               min(size[1], int(max(ys)) + 3))
        mask.im.paste(0, box)

    def text(  # type: ignore[override]  # Pillow's parameters, passed on
        self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
        anchor: str | None = None, **kw: Any,
    ) -> None:
        if not text:
            return
        # Where the text goes relative to int(xy) depends only on the text, its font and xy's fractions.
        x, y = int(xy[0]), int(xy[1])
        extra = tuple(sorted(kw.items())) if kw else ()
        where = ("text", text, fill, font, anchor, xy[0] - x, xy[1] - y, extra)
        rel = self.boxes.get(where)
        if rel is None:
            measure = {k: v for k, v in kw.items() if k not in ("stroke_fill", "fill")}
            left, top, right, bottom = self.textbbox((xy[0] - x, xy[1] - y), text, font=font, anchor=anchor,
                                                     **measure)
            pad = 1 + int(kw.get("stroke_width", 0) or 0)
            rel = (int(left) - pad - (left < 0), int(top) - pad - (top < 0), int(right) + 1 + pad,
                   int(bottom) + 1 + pad)
            if len(self.boxes) > BOXES_KEPT:
                self.boxes.clear()
            self.boxes[where] = rel
        box = (max(0, x + rel[0]), max(0, y + rel[1]), min(self.target.width, x + rel[2]),
               min(self.target.height, y + rel[3]))
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        # A board draws dozens of labels, nearly all kept: the look-up works on Pillow's image core (an
        # Image's crop costs several times more, in Python, than the pixels it moves).
        lo, hi = self.target.im.crop(box).getextrema()
        # on one colour (most labels) the patch depends on that colour only; else on the pixels under it
        key = (where, box[0] - x, box[1] - y, box[2] - x, box[3] - y,
               lo if lo == hi else self.target.crop(box).tobytes())
        patches = self.patches
        free = self.family.free
        patch = patches.get((key, free))
        if patch is not None:
            self.target.im.paste(patch.im, box)
            return
        # A line not kept is drawn word by word, each word its own patch: the words seen before (names, "to
        # place", "pyramids left") are pasted and only the new ones (a count, a clock) drawn. The words are
        # the pixels of the whole line (CachedFont.words), so the line is then kept as it came out. (On
        # pixels that vary -- a board's squares, a picture -- its words would not be kept either.)
        split = None if kw or lo != hi else getattr(font, "words", None)  # (bot.render.CachedFont's)
        words = split(text, anchor) if split is not None else None
        if words is None:
            _put_patch(self.target, self.family, box, key,
                       lambda rgb: ImageDraw.Draw(rgb).text((xy[0] - box[0], xy[1] - box[1]), text, fill=fill,
                                                            font=font, anchor=anchor, **kw))
            return
        pieces, word_anchor = words
        for dx, word in pieces:
            self.text((xy[0] + dx, xy[1]), word, fill, font, word_anchor)
        if self.family.free == free:  # (a colour the palette took meanwhile: the words key it themselves)
            patches.put((key, free), self.target.crop(box))


def kept(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], key: Hashable,
         draw: Callable[[], None]) -> None:
    """``draw()``, a part of a board that stays inside ``box`` and whose pixels there depend only on ``key``,
    the language (the words it may hold) and on what lies under them (a stack of pyramids on its square, a
    card, a token): on a palette canvas
    the drawn box is kept (with the pixels it was drawn on), so drawing the same part on the same pixels
    again is one paste instead of its shapes and labels. Elsewhere (RGB, outside :func:`board_png`) it is
    just ``draw()``."""
    if not isinstance(d, PaletteDraw):
        draw()
        return
    target = d.target
    box = (max(0, box[0]), max(0, box[1]), min(target.width, box[2]), min(target.height, box[3]))
    if box[2] <= box[0] or box[3] <= box[1]:
        draw()
        return
    lo, hi = target.im.crop(box).getextrema()
    # (keyed by the family's free entries too: a colour the palette took since may be the nearer entry for
    # some of the part's pixels, so a part kept from before would not be the part drawn now; and by the
    # language: a part's labels are drawn in the current one)
    key = ("kept", key, box[2] - box[0], box[3] - box[1], lo if lo == hi else target.crop(box).tobytes(),
           d.family.free, language())
    patches: Kept = _state(d.family)["patches"]
    patch = patches.get(key)
    if patch is not None:
        target.im.paste(patch.im, box)
        return
    draw()
    patches.put(key, target.crop(box))


def start(background: Image.Image | tuple[int, int], fill: Any = None,
          draw: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw,
          ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A fresh canvas for a board: a copy of ``background`` (an RGB image, drawn once and kept by the
    renderer), or a new picture of that size filled with ``fill``; with its ``ImageDraw``.

    Inside :func:`board_png` (a family with a palette) the canvas is a palette image and the draw object
    a :class:`PaletteDraw`; otherwise the plain RGB image and ``draw(image)``.
    """
    family = _FAMILY.get()
    if family is None:
        img = background.copy() if isinstance(background, Image.Image) else Image.new("RGB", background, fill)
        return img, draw(img)
    if isinstance(background, Image.Image):
        img = _background(family, background).copy()
    else:
        img = Image.new("P", background, solid(family, fill))
        img.putpalette(family.rgb)
    return img, PaletteDraw(img, family)


def _background(family: P._Family, background: Image.Image) -> Image.Image:
    """``background`` mapped to the family's palette (once per palette), every colour checked."""
    backgrounds: dict[int, tuple[Image.Image, Image.Image]] = _state(family)["backgrounds"]
    kept = backgrounds.get(id(background))
    if kept is not None and kept[0] is background:
        return kept[1]
    found = cast(list[tuple[int, Colour]] | None, background.getcolors(P._MAX_COLOURS))
    area = background.width * background.height
    maps = family.accepts(found, area) if found is not None else None
    if found is None or maps is None:
        raise PaletteMiss(())  # drawn in RGB, where the palette is rebuilt for the board's colours
    mapped = family.apply(background, maps)
    for c in P._fills(found, area):
        family.hold(maps.entry[c], c)  # the fills text is drawn on
    backgrounds[id(background)] = (background, mapped)
    return mapped


def paste(img: Image.Image, im: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
    """``img.paste(im, xy, mask)`` on a canvas from :func:`start` (an RGB or RGBA ``im``)."""
    family = _FAMILY.get()
    if img.mode != "P" or family is None:
        img.paste(im, xy, mask)
        return
    x0, y0 = max(0, xy[0]), max(0, xy[1])
    box = (x0, y0, min(img.width, xy[0] + im.width), min(img.height, xy[1] + im.height))
    if box[2] <= box[0] or box[3] <= box[1]:
        return
    key = ("paste", id(im), id(mask), box[2] - box[0], box[3] - box[1], xy[0] - x0, xy[1] - y0,
           img.crop(box).tobytes())
    _put_patch(img, family, box, key, lambda rgb: rgb.paste(im, (xy[0] - x0, xy[1] - y0), mask))


def _put_patch(target: Image.Image, family: P._Family, box: tuple[int, int, int, int], key: Hashable,
               draw: Callable[[Image.Image], None]) -> None:
    """Paste the kept patch ``key`` at ``box``; if none is kept, ``draw`` on an RGB copy of what lies
    there, check and map it (:func:`map_patch`) and keep it. Pasted with the image core's paste: an
    Image's costs several times the pixels it moves, and a board pastes dozens of patches."""
    patches: Kept = _state(family)["patches"]
    key = (key, family.free)  # (see kept(): drawn with the palette as it is now)
    patch = patches.get(key)
    if patch is None:
        under = target.crop(box)
        # with the entries taken since the canvas was started (see _Family.extend), each entry held by one
        # colour as that colour (_Family.hold)
        under.putpalette(family.truth_rgb())
        rgb = under.convert("RGB")
        draw(rgb)
        patch = map_patch(family, rgb)
        patches.put(key, patch)
    target.im.paste(patch.im, box)


def board_png(draw: Callable[[], Image.Image], key: Hashable) -> bytes:
    """A board of picture family ``key`` as PNG bytes: ``draw()`` (a renderer call) draws it straight onto
    the family's palette when the family has one, else in RGB (which builds the palette)."""
    family = P._families.get(key)
    exact: set[Colour] = set()
    if family is not None:
        # the current palette, then the earlier ones (a family whose looks need more colours than one
        # palette holds goes back to the palette that holds this look)
        for attempt in (family, *P.earlier(key)):
            token = _FAMILY.set(attempt)
            try:
                img = draw()
            except PaletteMiss as miss:
                if attempt is family:
                    exact = miss.colours if miss.solid else set()
                continue
            finally:
                _FAMILY.reset(token)
            if img.mode != "P":
                return P.png_bytes(img, key=key)
            if attempt is not family:
                P.use(key, attempt)
            img.putpalette(attempt.rgb)  # with the entries taken while it was drawn
            return P.palette_png(img)
        P.log.debug("no palette of %s holds this board (%s): drawn in RGB", key, sorted(exact))
    return P.png_bytes(draw(), key=key, exact=exact)
