"""Pictures of the egg carton: a static board and the animated sowing.

The carton is drawn as the original program showed it: the top row is
player 2's ``N`` … ``I`` (left to right), the bottom row player 1's ``A`` …
``F``, with an end zone at each end for the marbles that went off the board
(right: passed between ``F`` and ``I``; left: between ``N`` and ``A``). The
end zones show their marbles but no count: those never matter.
Marbles are drawn as marbles (up to 13 per cup; the count is always printed
beside the slot letter too). The strip above the carton belongs to player 2,
the one below to player 1; the player to move is lit in their colour, with
their clock when the tournament clock is on.

:func:`render` and :func:`animate` are pure functions of their arguments;
encoding happens in :mod:`bot.render`.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.games.base import Event, Seat
from bot.games.egg_carton.notation import SLOT_NAMES, side_name
from bot.games.egg_carton.rules import PLAYER_NAMES, EggCartonView
from bot.render import ACCENT, CARD, INK, MUTED, PLAYER_COLOURS, font, paste, start, text_center
from bot.render.kept import Kept
from bot.render.palette import GIF_END, gif_frame, gif_header

WIDTH, HEIGHT = 840, 440
CARTON = (196, 172, 132)        # cardboard
CARTON_EDGE = (150, 126, 90)
CUP = (168, 142, 102)           # an empty cup
END_ZONE = (46, 125, 50)        # the football-field end zones
END_ZONE_LINE = (232, 245, 233)
MARBLE = (38, 166, 154)         # teal glass
MARBLE_SHINE = (200, 240, 236)
MARBLE_RIM = (20, 96, 88)
DIM = (70, 73, 80)              # strip of the player not to move
HAND = (255, 255, 255)

CUP_R = 44
MARBLE_R = 9
COL_X = tuple(170 + 100 * i for i in range(6))
TOP_Y, BOTTOM_Y = 170, 272
ZONE_BOXES = ((730, 116, 822, 326), (18, 116, 110, 326))    # RIGHT, LEFT
STRIP_TOP, STRIP_BOTTOM = (18, 8, 822, 52), (18, 386, 822, 430)
CARTON_BOX = (116, 110, 724, 332)

Clocks = Sequence[int | None] | Mapping[int, int | None] | None
"""Remaining tournament-clock milliseconds per seat (a list, or a dict by seat), or None when off."""

SPEEDS: dict[str, int] = {"slow": 420, "normal": 220, "fast": 110}
"""Milliseconds per dropped marble for each animation speed."""
MAX_FRAMES = 44
"""Frames per GIF at most: longer relays drop several marbles per frame."""


def slot_centre(slot: int) -> tuple[int, int]:
    """Pixel centre of slot index ``slot`` (0–5 = A–F bottom, 6–11 = I–N top, I on the right)."""
    if slot < 6:
        return COL_X[slot], BOTTOM_Y
    return COL_X[11 - slot], TOP_Y


def zone_centre(zone: int) -> tuple[int, int]:
    """Pixel centre of end zone 0 (right) or 1 (left)."""
    x0, y0, x1, y1 = ZONE_BOXES[zone]
    return (x0 + x1) // 2, (y0 + y1) // 2


def _marble_offsets() -> tuple[tuple[int, int], ...]:
    """Marble positions inside a cup: centre, a ring of 6, then 6 more between them."""
    pts = [(0, 0)]
    pts += [(round(19 * math.cos(a)), round(19 * math.sin(a)))
            for a in (math.radians(90 + 60 * k) for k in range(6))]
    pts += [(round(33 * math.cos(a)), round(33 * math.sin(a)))
            for a in (math.radians(120 + 60 * k) for k in range(6))]
    return tuple(pts)


OFFSETS = _marble_offsets()
DRAWN_PER_CUP = len(OFFSETS)


@lru_cache(maxsize=1)
def _marble_sprite() -> Image.Image:
    """An antialiased marble (RGBA), drawn at 4x and scaled down."""
    k, r = 4, MARBLE_R
    big = Image.new("RGBA", (2 * r * k + 4, 2 * r * k + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((2, 2, 2 + 2 * r * k, 2 + 2 * r * k), fill=(*MARBLE, 255), outline=(*MARBLE_RIM, 255), width=k)
    d.ellipse((2 + int(0.45 * r * k), 2 + int(0.35 * r * k), 2 + int(0.95 * r * k), 2 + int(0.85 * r * k)),
              fill=(*MARBLE_SHINE, 255))
    return big.resize((2 * r + 1, 2 * r + 1), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The empty carton, cups and end zones (no marbles, labels or strips)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), CARD)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(CARTON_BOX, radius=26, fill=CARTON, outline=CARTON_EDGE, width=4)
    for slot in range(12):
        x, y = slot_centre(slot)
        d.ellipse((x - CUP_R, y - CUP_R, x + CUP_R, y + CUP_R), fill=CUP, outline=CARTON_EDGE, width=2)
    for box in ZONE_BOXES:
        d.rounded_rectangle(box, radius=16, fill=END_ZONE, outline=END_ZONE_LINE, width=3)
    return img


@dataclass(frozen=True)
class _Frame:
    """What one picture shows (a view, or a moment in the middle of a sowing)."""

    slots: tuple[int, ...]
    off: tuple[int, int]
    to_move: Seat | None
    winner: Seat | None
    status: str
    origin: int | None = None          # slot picked by the player (thin ring)
    current: int | None = None         # slot (0–11) or end zone (12 + zone) just reached
    flash: bool = False                # current drawn as the flashing last slot
    hand: int = 0                      # marbles still in hand
    hand_at: int | None = None         # where the hand is (slot or 12 + zone)


def _tile(item: int) -> tuple[int, int, int, int]:
    """The box that holds everything drawn for one slot (0–11) or end zone (12, 13)."""
    if item >= 12:
        x0, y0, x1, y1 = ZONE_BOXES[item - 12]
        return x0 - 3, y0 - 3, x1 + 3, y1 + 3
    x, y = slot_centre(item)
    return (x - 50, 68, x + 50, 221) if y == TOP_Y else (x - 50, 221, x + 50, 374)


def _item_look(frame: _Frame, item: int) -> tuple[object, ...]:
    """Everything that decides how one slot or zone looks (equal looks: nothing to redraw)."""
    n = frame.slots[item] if item < 12 else frame.off[item - 12]
    here = frame.current == item
    return (n, here, here and frame.flash, frame.origin == item,
            frame.hand if frame.hand and frame.hand_at == item else 0)


def _draw_item(img: Image.Image, d: ImageDraw.ImageDraw, frame: _Frame, item: int) -> None:
    sprite = _marble_sprite()
    if item >= 12:
        _draw_zone(img, d, frame, item - 12)
    else:
        n = frame.slots[item]
        x, y = slot_centre(item)
        if frame.current == item:
            if frame.flash:
                d.ellipse((x - CUP_R, y - CUP_R, x + CUP_R, y + CUP_R), fill=ACCENT)
            d.ellipse((x - CUP_R - 5, y - CUP_R - 5, x + CUP_R + 5, y + CUP_R + 5), outline=ACCENT, width=6)
        elif frame.origin == item:
            d.ellipse((x - CUP_R - 4, y - CUP_R - 4, x + CUP_R + 4, y + CUP_R + 4), outline=INK, width=3)
        for ox, oy in OFFSETS[:min(n, DRAWN_PER_CUP)]:
            paste(img, sprite, (x + ox - MARBLE_R, y + oy - MARBLE_R), sprite)
        if n > DRAWN_PER_CUP:
            d.rounded_rectangle((x - 22, y - 15, x + 22, y + 15), radius=8, fill=CARD)
            text_center(d, (x, y), str(n), font(22), INK)
        label_y = y - CUP_R - 36 if item >= 6 else y + CUP_R + 36
        text_center(d, (x - 14, label_y), SLOT_NAMES[item], font(26, True), INK)
        text_center(d, (x + 16, label_y), str(n), font(22), MUTED if n == 0 else INK)
    if frame.hand and frame.hand_at == item:
        hx, hy = slot_centre(item) if item < 12 else zone_centre(item - 12)
        top = hy - CUP_R - 6
        d.rounded_rectangle((hx - 36, top, hx + 36, top + 30), radius=12, fill=HAND, outline=ACCENT, width=3)
        paste(img, sprite, (hx - 26, top + 15 - MARBLE_R), sprite)
        text_center(d, (hx + 10, top + 15), f"×{frame.hand}", font(19, True), CARD)


def _draw_zone(img: Image.Image, d: ImageDraw.ImageDraw, frame: _Frame, zone: int) -> None:
    n = frame.off[zone]
    cx, _ = zone_centre(zone)
    x0, y0, _x1, y1 = ZONE_BOXES[zone]
    if frame.current == 12 + zone:
        d.rounded_rectangle(ZONE_BOXES[zone], radius=16, fill=ACCENT if frame.flash else END_ZONE,
                            outline=ACCENT, width=6)
    sprite = _marble_sprite()
    for k in range(min(n, 21)):      # marbles in rows of 3 from the bottom of the zone
        mx, my = x0 + 22 + (k % 3) * 24, y1 - 22 - (k // 3) * 18
        paste(img, sprite, (mx - MARBLE_R, my - MARBLE_R), sprite)
    # No count: marbles off the board never matter (a number here would read like a score).
    text_center(d, (cx, y0 + 26), "off", font(20, True), END_ZONE_LINE)


def _draw(frame: _Frame, names: Sequence[str] | None, clocks: Sequence[int | None] | None) -> Image.Image:
    """Draw ``frame`` from scratch."""
    img, d = start(_background())
    for item in range(14):
        _draw_item(img, d, frame, item)
    for seat, box in ((1, STRIP_TOP), (0, STRIP_BOTTOM)):
        _strip(d, seat, box, frame, names, clocks)
    return img


def _strip(d: ImageDraw.ImageDraw, seat: Seat, box: tuple[int, int, int, int], frame: _Frame,
           names: Sequence[str] | None, clocks: Sequence[int | None] | None) -> None:
    """The band naming a player, lit when they are to move or have won, with status and clock."""
    colour = PLAYER_COLOURS[seat]
    live = frame.to_move == seat or frame.winner == seat
    d.rounded_rectangle(box, radius=12, fill=colour if live else DIM)
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    timed = clocks is not None and seat < len(clocks) and clocks[seat] is not None
    suffix = f" ({side_name(seat)})" + (f"  ·  {frame.status}" if live else "")
    fnt = font(21, True)
    room = (x1 - 120 if timed else x1 - 14) - (x0 + 14)
    name = _name(seat, names)
    while len(name) > 1 and fnt.getlength(name + suffix) > room:
        name = name[:-2] + "…"
    d.text((x0 + 14, cy), name + suffix, font=fnt, fill=INK, anchor="lm")
    if timed:
        assert clocks is not None
        ms = clocks[seat] or 0
        d.rounded_rectangle((x1 - 110, y0 + 5, x1 - 6, y1 - 5), radius=9, fill=CARD)
        text_center(d, (x1 - 58, cy), clock_text(ms), font(22, True), ACCENT if ms <= 0 else INK)


def _name(seat: Seat, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return _fit(str(names[seat]), 24)
    return PLAYER_NAMES[seat]


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clock_text(ms: int) -> str:
    """``m:ss`` for a remaining time; tenths under ten seconds; never negative.

    >>> clock_text(272_000), clock_text(9_450), clock_text(-5)
    ('4:32', '0:09.4', '0:00')
    """
    ms = max(0, ms)
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}" if ms else "0:00"
    s = ms // 1000
    return f"{s // 60}:{s % 60:02d}"


def _status(view: EggCartonView) -> str:
    if view.winner is not None:
        return "wins!"
    if view.again:
        return "picks again"
    return "to pick"


def _last_pick(events: Sequence[Event]) -> tuple[int | None, int | None]:
    """(slot picked by the player, where the last marble went) in the events of one move."""
    origin = last = None
    for e in events:
        if e.kind == "pick":
            origin = SLOT_NAMES.index(e.data["slot"])
        elif e.kind == "drop":
            last = SLOT_NAMES.index(e.data["slot"])
        elif e.kind == "off":
            last = 12 + (0 if e.data["zone"] == "right" else 1)
    return origin, last


def render(view: EggCartonView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Clocks = None) -> Image.Image:
    """The board for ``view`` (RGB, 840×440), highlighting the last pick from ``events``.

    ``names`` are display names per seat, ``clocks`` remaining milliseconds per
    seat (tournament clock) or ``None``.
    """
    return _draw(_final_frame(view, events), names, _clock_list(clocks))


def _final_frame(view: EggCartonView, events: Sequence[Event]) -> _Frame:
    origin, last = _last_pick(events)
    return _Frame(view.slots, view.off, view.to_move, view.winner, _status(view), origin=origin, current=last)


def _clock_list(clocks: Clocks) -> list[int | None] | None:
    if clocks is None:
        return None
    if isinstance(clocks, Mapping):
        return [clocks.get(0), clocks.get(1)]
    return list(clocks)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One GIF palette for every frame, taken from a busy sample board."""
    sample = _Frame(tuple(range(1, 13)), (5, 9), 0, None, "to pick", origin=1, current=2, flash=True,
                    hand=3, hand_at=4)
    img = _draw(sample, None, [60_000, 5_000])
    strip = _draw(_Frame((1,) * 12, (0, 0), 1, None, "picks again", current=12, flash=True), None, None)
    both = Image.new("RGB", (WIDTH, 2 * HEIGHT))
    both.paste(img, (0, 0))
    both.paste(strip, (0, HEIGHT))
    return both.quantize(colors=96, method=Image.Quantize.MEDIANCUT)


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
        return ready
    steps = _encode(pictures, names, clock_list, loop)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            gif: bytes = done.value
            return gif


def sowings_ahead(view_before: EggCartonView, picks: Sequence[tuple[Sequence[Event], EggCartonView]], *,
                  names: Sequence[str] | None = None, speed: str = "normal") -> Iterator[None]:
    """Encode, while the player to pick thinks, the sowing of each of their possible ``picks`` (the events
    and the view after each): :func:`sowing_gif` with the same arguments then takes it ready. Yields
    between frames (a tenth of a millisecond or so of work each), so that the event loop can run other
    work in between; what is encoded is kept (:data:`READY_BYTES`) once every pick is done."""
    if speed not in SPEEDS:
        return
    ready: dict[Hashable, bytes] = {}
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
    return _take_ready(_pictures(view_before, events, view_after, speed), names, _clock_list(clocks), loop)


def _take_ready(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
                clocks: Sequence[int | None] | None, loop: int | None) -> bytes | None:
    position, pick = _ready_keys(pictures, names, clocks, loop)
    ready: dict[Hashable, bytes] | None = _READY.get(position)
    if ready is None or pick not in ready:
        return None
    _READY.drop(position)
    return ready[pick]


def _ready_keys(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
                clocks: Sequence[int | None] | None, loop: int | None) -> tuple[Hashable, Hashable]:
    """(the position a sowing starts from, the rest of what it shows): everything its GIF depends on."""
    opening, ms = pictures[0]
    position = (opening, ms, tuple(names) if names is not None else None,
                tuple(clocks) if clocks is not None else None, loop)
    return position, tuple(pictures[1:])


def _encode(pictures: Sequence[tuple[_Frame, int]], names: Sequence[str] | None,
            clocks: Sequence[int | None] | None, loop: int | None) -> Generator[None, None, bytes]:
    """The GIF of ``pictures``, yielding after each frame."""
    sowing = _Sowing(names, clocks)
    frame, ms = pictures[0]
    sowing.show(frame)
    out = [*gif_header(sowing.canvas, ms, loop), *sowing.whole(ms)]
    for frame, ms in pictures[1:]:
        yield
        out += sowing.frame_data(frame, ms)
    out.append(GIF_END)
    return b"".join(out)


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


def _opening(view_before: EggCartonView) -> _Frame:
    """The first frame of a sowing: the board before the pick, the mover's strip saying "sowing…"."""
    return _Frame(view_before.slots, view_before.off, view_before.to_move, None, "sowing…")


def _opening_ms(step: int) -> int:
    return step * 2


def _pictures(view_before: EggCartonView, events: Sequence[Event], view_after: EggCartonView,
              speed: str) -> list[tuple[_Frame, int]]:
    """What each frame of the sowing shows, and for how long (ms)."""
    if speed not in SPEEDS:
        raise ValueError(f"Unknown animation speed '{speed}': use slow, normal or fast.")
    step = SPEEDS[speed]
    pictures = [(frame, ms) for frame, ms, _ in _moments(view_before, events, step)]
    pictures.append((_final_frame(view_after, events), max(2500, step * 8)))
    return pictures


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
_READY = Kept(READY_BYTES, lambda picks: sum(len(data) + 200 for data in picks.values()))
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


def _moments(view_before: EggCartonView, events: Sequence[Event], step: int) -> list[tuple[_Frame, int, int]]:
    """The pictures of a sowing before the final board: (frame, duration ms, priority for _merge)."""
    mover = view_before.to_move
    slots, off = list(view_before.slots), list(view_before.off)
    origin, last = _last_pick(events)
    moments: list[tuple[_Frame, int, int]] = []

    def snap(current: int | None, hand: int, duration: int, priority: int) -> None:
        moments.append((_Frame(tuple(slots), (off[0], off[1]), mover, None, "sowing…", origin=origin,
                               current=current, hand=hand, hand_at=current), duration, priority))

    moments.append((_opening(view_before), _opening_ms(step), 0))
    hand = 0
    for e in events:
        if e.kind in ("pick", "relay"):
            at = SLOT_NAMES.index(e.data["slot"])
            hand = e.data["count"]
            slots[at] = 0
            snap(at, hand, int(step * 1.5), 0 if e.kind == "pick" else 2)
        elif e.kind == "drop":
            at = SLOT_NAMES.index(e.data["slot"])
            slots[at] = e.data["count"]
            hand -= 1
            snap(at, hand, step, 1)
        elif e.kind == "off":
            zone = 0 if e.data["zone"] == "right" else 1
            off[zone] = e.data["count"]
            hand -= 1
            snap(12 + zone, hand, step, 1)
    moments = _merge(moments, MAX_FRAMES - 6)
    if last is not None:
        base = moments[-1][0]
        blink = max(120, step)
        lit = _Frame(base.slots, base.off, mover, None, base.status, origin=origin, current=last, flash=True)
        dark = _Frame(base.slots, base.off, mover, None, base.status, origin=origin, current=last)
        moments += [(lit, blink, 0), (dark, blink, 0), (lit, blink, 0), (dark, blink, 0)]
    return moments


def _to_palette(img: Image.Image, pal: Image.Image) -> Image.Image:
    return img.quantize(palette=pal, dither=Image.Dither.NONE)


def _merge(moments: list[tuple[_Frame, int, int]], limit: int) -> list[tuple[_Frame, int, int]]:
    """Leave out intermediate frames evenly until at most ``limit`` remain.

    Each moment has a priority: 0 = always kept (the first frame, the pick, the
    last drop), 1 = a marble drop, 2 = a relay pickup; drops go first. A
    left-out frame's time goes to the next kept frame (capped), so long
    sowings keep moving but play faster.
    """
    if len(moments) <= limit:
        return moments
    excess = len(moments) - limit
    remove: set[int] = set()
    for tier in (1, 2):
        candidates = [i for i, (_, _, p) in enumerate(moments[:-1]) if p == tier]
        want = excess - len(remove)
        if want <= 0:
            break
        if want >= len(candidates):
            remove.update(candidates)
        else:
            stride = len(candidates) / want
            remove.update(candidates[int(k * stride)] for k in range(want))
    out: list[tuple[_Frame, int, int]] = []
    carry = 0
    for i, (f, ms, p) in enumerate(moments):
        if i in remove:
            carry += ms
            continue
        out.append((f, min(ms + carry, 3 * ms), p))
        carry = 0
    return out
