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

:func:`render` is a pure function of its arguments, and so is what each frame
of a sowing shows (:func:`_pictures`); the sowing's frames and GIF are put
together in :mod:`bot.games.egg_carton.sowing`, encoding happens in
:mod:`bot.render`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.base import Event, Seat
from bot.games.egg_carton.notation import SLOT_NAMES, side_name
from bot.games.egg_carton.rules import EggCartonView, player_name
from bot.i18n import _, language, pgettext
from bot.render import ACCENT, CARD, INK, MUTED, PLAYER_COLOURS, font, paste, start, text_center
from bot.render.text import clip, shorten

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
    """Everything that decides how one slot or zone looks (equal looks: nothing to redraw); an end zone's
    label is a word, so its look has the language too."""
    n = frame.slots[item] if item < 12 else frame.off[item - 12]
    here = frame.current == item
    look = (n, here, here and frame.flash, frame.origin == item,
            frame.hand if frame.hand and frame.hand_at == item else 0)
    return look if item < 12 else (*look, language())


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
            text_center(d, (x, y), str(n), font(24), INK)
        label_y = y - CUP_R - 36 if item >= 6 else y + CUP_R + 36
        text_center(d, (x - 14, label_y), SLOT_NAMES[item], font(26, True), INK)
        text_center(d, (x + 16, label_y), str(n), font(24), MUTED if n == 0 else INK)
    if frame.hand and frame.hand_at == item:
        hx, hy = slot_centre(item) if item < 12 else zone_centre(item - 12)
        top = hy - CUP_R - 6
        d.rounded_rectangle((hx - 40, top - 1, hx + 44, top + 31), radius=12, fill=HAND, outline=ACCENT,
                            width=3)
        paste(img, sprite, (hx - 30, top + 15 - MARBLE_R), sprite)
        text_center(d, (hx + 12, top + 15), f"×{frame.hand}", font(24, True), CARD)


def _draw_zone(img: Image.Image, d: ImageDraw.ImageDraw, frame: _Frame, zone: int) -> None:
    n = frame.off[zone]
    cx, _cy = zone_centre(zone)
    x0, y0, _x1, y1 = ZONE_BOXES[zone]
    if frame.current == 12 + zone:
        d.rounded_rectangle(ZONE_BOXES[zone], radius=16, fill=ACCENT if frame.flash else END_ZONE,
                            outline=ACCENT, width=6)
    sprite = _marble_sprite()
    for k in range(min(n, 21)):      # marbles in rows of 3 from the bottom of the zone
        mx, my = x0 + 22 + (k % 3) * 24, y1 - 22 - (k // 3) * 18
        paste(img, sprite, (mx - MARBLE_R, my - MARBLE_R), sprite)
    # No count: marbles off the board never matter (a number here would read like a score).
    text_center(d, (cx, y0 + 26), pgettext("end zone", "off"), font(24, True), END_ZONE_LINE)


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
    fnt = font(24, True)
    room = (x1 - 120 if timed else x1 - 14) - (x0 + 14)
    name = _name(seat, names)
    name = shorten(name, fnt, room - fnt.getlength(suffix))
    d.text((x0 + 14, cy), name + suffix, font=fnt, fill=INK, anchor="lm")
    if timed:
        assert clocks is not None
        ms = clocks[seat] or 0
        d.rounded_rectangle((x1 - 110, y0 + 5, x1 - 6, y1 - 5), radius=9, fill=CARD)
        text_center(d, (x1 - 58, cy), clock_text(ms), font(24, True), ACCENT if ms <= 0 else INK)


def _name(seat: Seat, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return clip(str(names[seat]), 24)
    return player_name(seat)


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
        return _("wins!")
    if view.again:
        return _("picks again")
    return _("to pick")


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
    sample = _Frame(tuple(range(1, 13)), (5, 9), 0, None, "to pick",  # not translated: a palette sample
                    origin=1, current=2, flash=True, hand=3, hand_at=4)
    img = _draw(sample, None, [60_000, 5_000])
    strip = _draw(_Frame((1,) * 12, (0, 0), 1, None, "picks again",  # not translated: a palette sample
                         current=12, flash=True), None, None)
    both = Image.new("RGB", (WIDTH, 2 * HEIGHT))
    both.paste(img, (0, 0))
    both.paste(strip, (0, HEIGHT))
    return both.quantize(colors=96, method=Image.Quantize.MEDIANCUT)


def _opening(view_before: EggCartonView) -> _Frame:
    """The first frame of a sowing: the board before the pick, the mover's strip saying "sowing…"."""
    return _Frame(view_before.slots, view_before.off, view_before.to_move, None, _("sowing…"))


def _opening_ms(step: int) -> int:
    return step * 2


def _pictures(view_before: EggCartonView, events: Sequence[Event], view_after: EggCartonView,
              speed: str) -> list[tuple[_Frame, int]]:
    """What each frame of the sowing shows, and for how long (ms)."""
    if speed not in SPEEDS:
        raise ValueError(f"Unknown animation speed '{speed}': use slow, normal or fast.")
    step = SPEEDS[speed]
    pictures = [(frame, ms) for frame, ms, _priority in _moments(view_before, events, step)]
    pictures.append((_final_frame(view_after, events), max(2500, step * 8)))
    return pictures


def _moments(view_before: EggCartonView, events: Sequence[Event], step: int) -> list[tuple[_Frame, int, int]]:
    """The pictures of a sowing before the final board: (frame, duration ms, priority for _merge)."""
    mover = view_before.to_move
    slots, off = list(view_before.slots), list(view_before.off)
    origin, last = _last_pick(events)
    moments: list[tuple[_Frame, int, int]] = []
    sowing = _("sowing…")

    def snap(current: int | None, hand: int, duration: int, priority: int) -> None:
        moments.append((_Frame(tuple(slots), (off[0], off[1]), mover, None, sowing, origin=origin,
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
        candidates = [i for i, (_frame, _ms, p) in enumerate(moments[:-1]) if p == tier]
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
