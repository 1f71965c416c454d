"""The sowing as the bot sends it: an animated GIF put together from kept pictures of the carton's parts.

:func:`animate` gives the frames (pictures) of a sowing as :mod:`bot.games.egg_carton.render` draws them;
:func:`sowing_gif` writes the same frames as GIF bytes without drawing them whole: each slot, end zone and
strip is drawn once per look and kept, and each frame is written as the box where it differs from the one
before (kept too, by change). :func:`picks_gif` plays several picks in a row (a player's and the
computer's answer) in one GIF. :func:`sowings_ahead` encodes every pick's sowing while the player thinks, and
:func:`prepare_sowing` the first frame, the same for all of them.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable, Iterator, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.games.base import Event
from bot.games.egg_carton.render import (
    SPEEDS,
    STRIP_BOTTOM,
    STRIP_TOP,
    Clocks,
    _background,
    _clock_list,
    _draw_item,
    _Frame,
    _item_look,
    _name,
    _opening,
    _opening_ms,
    _palette,
    _pictures,
    _strip,
    _tile,
    _to_palette,
)
from bot.games.egg_carton.rules import EggCartonView
from bot.i18n import language
from bot.render.kept import Kept
from bot.render.palette import GIF_END, gif_frame, gif_header


def animate(view_before: EggCartonView, events: Sequence[Event], view_after: EggCartonView, *,
            names: Sequence[str] | None = None, speed: str = "normal",
            clocks: Clocks = None) -> list[tuple[Image.Image, int]]:
    """Frames (palette images) and durations in ms showing one pick's sowing.

    The first frame is the board before the pick; each pickup (the pick and
    every relay) empties its slot into the hand; each marble then drops in
    turn (several per frame when the sowing is long, so at most
    :data:`MAX_FRAMES` frames); the slot or end zone that received the last
    marble flashes; the last frame is ``view_after``, held longest.

    Raises:
        ValueError: ``speed`` is not slow, normal or fast.
    """
    sowing = _Sowing(names, _clock_list(clocks))
    frames = []
    for frame, ms in _pictures(view_before, events, view_after, speed):
        sowing.show(frame)
        frames.append((sowing.canvas.copy(), ms))
    return frames


def sowing_gif(view_before: EggCartonView, events: Sequence[Event], view_after: EggCartonView, *,
               names: Sequence[str] | None = None, speed: str = "normal", clocks: Clocks = None,
               loop: int | None = None) -> bytes:
    """:func:`animate`'s frames as GIF bytes (played once unless ``loop``, as in ``bot.render.gif_bytes``).

    The frames are not built one by one: each is written as the box where it differs from the one before,
    and the written box of a change seen before (the same slots, from the same looks to the same looks) is
    reused as it was encoded. A sowing encoded ahead (:func:`sowings_ahead`) is taken as it is.
    """
    clock_list = _clock_list(clocks)
    pictures = _pictures(view_before, events, view_after, speed)
    ready = _take_ready(pictures, names, clock_list, loop)
    if ready is not None:
        return ready[0]
    return _run(_encode(pictures, names, clock_list, loop))


Played = tuple[EggCartonView, Sequence[Event], EggCartonView]
"""One pick's sowing: (the view before the pick, its events, the view after it)."""

PAUSE_STEPS = 4
"""Between picks played in one GIF (:func:`picks_gif`), the new position is held this many animation steps
(0.9 s at normal speed) before the next pick's sowing starts."""


def picks_gif(picks: Sequence[Played], *, names: Sequence[str] | None = None, speed: str = "normal",
              clocks: Clocks = None, loop: int | None = None) -> bytes:
    """Several picks in a row (a player's pick, then each of the computer's) as one GIF: each pick's sowing
    as :func:`sowing_gif` shows it, in order, every one but the last ending on its new position held
    :data:`PAUSE_STEPS` steps. The first frame is the board before the first pick, the last one the position
    after the last pick. The first pick's sowing, if encoded ahead (:func:`sowings_ahead`), is taken as it
    is, up to its last frame, and the rest appended.

    Raises:
        ValueError: no picks, or ``speed`` is not slow, normal or fast.
    """
    if not picks:
        raise ValueError("No pick to animate.")
    if len(picks) == 1:
        return sowing_gif(*picks[0], names=names, speed=speed, clocks=clocks, loop=loop)
    clock_list = _clock_list(clocks)
    sowings = [_pictures(before, events, after, speed) for before, events, after in picks]
    pause = SPEEDS[speed] * PAUSE_STEPS
    pictures = [picture for sowing in sowings[:-1] for picture in [*sowing[:-1], (sowing[-1][0], pause)]]
    pictures += sowings[-1]
    ready = _take_ready(sowings[0], names, clock_list, loop)
    if ready is None:
        return _run(_encode(pictures, names, clock_list, loop))
    gif, last_at = ready  # the first sowing as encoded ahead, but for its last frame (shown longer there)
    return _run(_encode(pictures, names, clock_list, loop, resume=(len(sowings[0]) - 1, gif[:last_at])))


def _run(steps: Generator[None, None, tuple[bytes, int]]) -> bytes:
    """The GIF that :func:`_encode`'s ``steps`` make, made at once."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            gif: bytes = done.value[0]
            return gif


def sowings_ahead(view_before: EggCartonView, picks: Sequence[tuple[Sequence[Event], EggCartonView]], *,
                  names: Sequence[str] | None = None, speed: str = "normal") -> Iterator[None]:
    """Encode, while the player to pick thinks, the sowing of each of their possible ``picks`` (the events
    and the view after each): :func:`sowing_gif` with the same arguments then takes it ready. Yields
    between frames (a tenth of a millisecond or so of work each), so that the event loop can run other
    work in between; what is encoded is kept (:data:`READY_BYTES`) once every pick is done."""
    if speed not in SPEEDS:
        return
    ready: dict[Hashable, tuple[bytes, int]] = {}
    position: Hashable = None
    for events, view_after in picks:
        pictures = _pictures(view_before, events, view_after, speed)
        position, pick = _ready_keys(pictures, names, None, None)
        ready[pick] = yield from _encode(pictures, names, None, None)
        yield
    if ready:
        _READY.put(position, ready)


def ready_sowing(view_before: EggCartonView, events: Sequence[Event], view_after: EggCartonView, *,
                 names: Sequence[str] | None = None, speed: str = "normal", clocks: Clocks = None,
                 loop: int | None = None) -> bytes | None:
    """:func:`sowing_gif` of these arguments if it was encoded ahead (:func:`sowings_ahead`), else None.
    Taken, with the other picks' sowings of that position: the pick is made."""
    ready = _take_ready(_pictures(view_before, events, view_after, speed), names, _clock_list(clocks), loop)
    return None if ready is None else ready[0]


def _take_ready(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
                clocks: Sequence[int | None] | None, loop: int | None) -> tuple[bytes, int] | None:
    """The sowing's GIF encoded ahead and where its last frame starts in it, if it was; the position's
    other sowings go (the pick is made)."""
    position, pick = _ready_keys(pictures, names, clocks, loop)
    ready: dict[Hashable, tuple[bytes, int]] | None = _READY.get(position)
    if ready is None or pick not in ready:
        return None
    _READY.drop(position)
    return ready[pick]


def _ready_keys(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
                clocks: Sequence[int | None] | None, loop: int | None) -> tuple[Hashable, Hashable]:
    """(the position a sowing starts from, the rest of what it shows): everything its GIF depends on (the
    words drawn are in the current language)."""
    opening, ms = pictures[0]
    position = (opening, ms, tuple(names) if names is not None else None,
                tuple(clocks) if clocks is not None else None, loop, language())
    return position, tuple(pictures[1:])


def _encode(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
            clocks: Sequence[int | None] | None, loop: int | None,
            resume: tuple[int, bytes] | None = None) -> Generator[None, None, tuple[bytes, int]]:
    """The GIF of ``pictures`` and where its last frame starts in it, yielding after each frame.

    ``resume``: (n, the GIF's bytes up to ``pictures[n]``, already encoded): only the rest is encoded."""
    sowing = _Sowing(names, clocks)
    if resume is None:
        start = 1
        frame, ms = pictures[0]
        sowing.show(frame)
        out = [*gif_header(sowing.canvas, ms, loop), *sowing.whole(ms)]
    else:
        start, head = resume
        sowing.show(pictures[start - 1][0])  # the canvas as the GIF shows it so far
        out = [head]
    size = last_at = sum(len(chunk) for chunk in out)
    for frame, ms in pictures[start:]:
        yield
        data = sowing.frame_data(frame, ms)
        out += data
        last_at, size = size, size + sum(len(chunk) for chunk in data)
    out.append(GIF_END)
    return b"".join(out), last_at


def prepare_sowing(view_before: EggCartonView, *, names: Sequence[str] | None = None, speed: str = "normal",
                   clocks: Clocks = None) -> None:
    """Encode, ahead of the pick, the first frame of the sowing from ``view_before`` (the board as the
    mover sees it): a whole picture, the largest part of a sowing's encoding (about 1.5 ms), and the same
    whichever slot they pick. :func:`sowing_gif` with the same arguments finds it kept."""
    if speed not in SPEEDS:
        return
    sowing = _Sowing(names, _clock_list(clocks))
    ms = _opening_ms(SPEEDS[speed])
    sowing.show(_opening(view_before))
    sowing.whole(ms, keep=True)


TILE_PIXELS = 1 << 24
"""Pixels of slot, end-zone and strip pictures kept by look (least recently used out): 16 MB."""
FRAME_BYTES = 1 << 23
"""Bytes of encoded GIF frames kept by change (least recently used out): 8 MB."""
AHEAD_BYTES = 1 << 22
"""Bytes of first frames encoded ahead of a pick (:func:`prepare_sowing`) kept: 4 MB (about 200 boards)."""
READY_BYTES = 1 << 25
"""Bytes of sowings encoded ahead of a pick (:func:`sowings_ahead`) kept: 32 MB (the six picks of about a
hundred positions), least recently used first out."""
_TILES = Kept(TILE_PIXELS)


def _encoded_bytes(chunks: Sequence[bytes]) -> int:
    return sum(len(c) for c in chunks) + 100


_FRAME_DATA = Kept(FRAME_BYTES, _encoded_bytes)
_AHEAD = Kept(AHEAD_BYTES, _encoded_bytes)
_READY = Kept(READY_BYTES, lambda picks: sum(len(gif) + 200 for gif, _ in picks.values()))
_STRIPS = {14: (1, STRIP_TOP), 15: (0, STRIP_BOTTOM)}      # the two strips, as items 14 and 15
ITEMS = range(16)


def _box(item: int) -> tuple[int, int, int, int]:
    """The box (right and bottom exclusive) of everything drawn for a slot, end zone (12, 13) or strip."""
    if item in _STRIPS:
        x0, y0, x1, y1 = _STRIPS[item][1]
        return x0, y0, x1 + 1, y1 + 1
    return _tile(item)


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


Box = tuple[int, int, int, int]


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _pixels(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


PART_MS = 20
"""How long the earlier parts of a change written in parts are shown: the shortest time viewers keep
(browsers play 10 ms or less as 100 ms), about one screen refresh."""
SPARE_PIXELS = 40_000
"""Parts of a change are written as one box when that box is at most this many pixels more than theirs
(each encoded pixel costs about 3 ns; a GIF frame about 30 µs)."""


def _parts(changes: list[tuple[int, Hashable]]) -> list[list[tuple[int, Hashable]]]:
    """``changes`` in the parts to write as GIF frames of their own, top to bottom: the top strip, the
    carton, the bottom strip, each joined to the next when one box for both costs little more."""
    bands = [[c for c in changes if c[0] == 14], [c for c in changes if c[0] < 14],
             [c for c in changes if c[0] == 15]]
    parts: list[list[tuple[int, Hashable]]] = []
    for band in bands:
        if not band:
            continue
        if parts:
            mine, theirs = _union([_box(i) for i, _ in band]), _union([_box(i) for i, _ in parts[-1]])
            if _pixels(_union([mine, theirs])) <= _pixels(mine) + _pixels(theirs) + SPARE_PIXELS:
                parts[-1] = parts[-1] + band
                continue
        parts.append(band)
    return parts


@lru_cache(maxsize=1)
def _background_p() -> Image.Image:
    return _to_palette(_background(), _palette())


class _Sowing:
    """One animation's palette canvas, put together from kept pictures of its slots, end zones and strips.

    Each item (slot, end zone, strip) is drawn only inside its own box, and how it looks depends only on its
    look (:func:`_item_look`, or the strip's name, clock and status), so a picture of it kept by look, mapped
    to the GIF palette, is exactly what drawing the whole frame and mapping it would give there. Boards
    repeat looks all the time (an empty slot, three marbles, the hand holding two), so frames are mostly
    pastes of kept pictures.
    """

    def __init__(self, names: Sequence[str] | None, clocks: Sequence[int | None] | None) -> None:
        self.names, self.clocks = names, clocks
        self.canvas = _background_p().copy()
        self.looks: list[Hashable] = [None] * len(ITEMS)
        self._scratch: Image.Image | None = None   # RGB, for drawing an item not kept yet

    def look(self, frame: _Frame, item: int) -> Hashable:
        if item < 14:
            return _item_look(frame, item)
        seat = _STRIPS[item][0]
        live = frame.to_move == seat or frame.winner == seat
        clock = self.clocks[seat] if self.clocks is not None and seat < len(self.clocks) else None
        return ("strip", live, frame.status if live else None, _name(seat, self.names), clock)

    def changes(self, frame: _Frame) -> list[tuple[int, Hashable]]:
        """The items that look different in ``frame``, with their new looks."""
        return [(item, look) for item in ITEMS if (look := self.look(frame, item)) != self.looks[item]]

    def show(self, frame: _Frame) -> None:
        """Turn the canvas into ``frame``."""
        self.show_changes(frame, self.changes(frame))

    def show_changes(self, frame: _Frame, changes: list[tuple[int, Hashable]]) -> None:
        """Paste the items of ``changes`` (of ``frame``) in their new looks."""
        for item, look in changes:
            self.canvas.im.paste(self._picture(frame, item, look).im, _box(item))
            self.looks[item] = look

    def whole(self, ms: int, *, keep: bool = False) -> list[bytes]:
        """The canvas as a whole GIF frame shown ``ms``: as encoded ahead (:func:`prepare_sowing`) if it was,
        else encoded now (and kept if ``keep``)."""
        key = (tuple(self.looks), ms)
        data = _AHEAD.get(key)
        if data is None:
            data = tuple(gif_frame(self.canvas, (0, 0, *self.canvas.size), ms))
            if keep:
                _AHEAD.put(key, data)
        return list(data)

    def frame_data(self, frame: _Frame, ms: int) -> list[bytes]:
        """``frame`` as the next GIF frame: the box where it differs from the canvas, encoded (and the
        canvas turned into it).

        Changes far apart (at the end of a sowing the mover's strip goes dark and the other one lights up,
        one at the top of the picture and one at the bottom) are written as one GIF frame per part, all but
        the last shown :data:`PART_MS`: one box around both would be the whole picture to encode."""
        changes = self.changes(frame)
        if not changes:
            return gif_frame(self.canvas, (0, 0, 1, 1), ms)
        parts = _parts(changes)
        out: list[bytes] = []
        for part in parts[:-1]:
            out += self._part_data(frame, part, PART_MS)
        out += self._part_data(frame, parts[-1], ms - PART_MS * (len(parts) - 1))
        return out

    def _part_data(self, frame: _Frame, changes: list[tuple[int, Hashable]], ms: int) -> list[bytes]:
        area = _union([_box(item) for item, _ in changes])
        key = (area, ms, tuple((item, self.looks[item], look) for item, look in changes),
               tuple((item, self.looks[item]) for item in ITEMS if _meets(_box(item), area)))
        data = _FRAME_DATA.get(key)
        if data is not None:
            self.show_changes(frame, changes)
            return list(data)
        before = self.canvas.crop(area)
        self.show_changes(frame, changes)
        diff = ImageChops.difference(before, self.canvas.crop(area)).getbbox()
        box = (0, 0, 1, 1) if diff is None else (area[0] + diff[0], area[1] + diff[1], area[0] + diff[2],
                                                 area[1] + diff[3])
        data = gif_frame(self.canvas, box, ms)
        _FRAME_DATA.put(key, tuple(data))
        return data

    def _picture(self, frame: _Frame, item: int, look: Hashable) -> Image.Image:
        """The item as it looks in ``frame``, on the GIF palette (kept by look)."""
        key = (item, look)
        picture: Image.Image | None = _TILES.get(key)
        if picture is None:
            if self._scratch is None:
                self._scratch = _background().copy()
            img, box = self._scratch, _box(item)
            img.paste(_background().crop(box), box[:2])
            d = ImageDraw.Draw(img)
            if item < 14:
                _draw_item(img, d, frame, item)
            else:
                seat, strip = _STRIPS[item]
                _strip(d, seat, strip, frame, self.names, self.clocks)
            picture = _to_palette(img.crop(box), _palette())
            _TILES.put(key, picture)
        return picture
