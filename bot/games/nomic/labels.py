"""Where the names go on the Nomic World map: beside their space, clear of every other name and marker.

A pure layout (no drawing): each space with tokens on it wants one label (the names of the players
there); markers (every token, the origin, the axis numbers) are boxes no label may cover. Labels are
placed one after another, each at the first candidate position around its space that stays inside
the map and overlaps nothing placed or marked so far: right, left, above, below, then the four
diagonals; then the same eight positions a space further out, joined to the space by a leader line
that crosses no marker and no other label (nor does a later label cover it).
When the whole name fits nowhere, it is shortened with an ellipsis to the longest text that fits
somewhere; a label that does not fit even as one letter is left out (the legend lists every player).
Boxes are ``(left, top, right, bottom)`` with right/bottom exclusive, so boxes that only touch do not
overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bot.games.nomic.moves import Point
from bot.render.text import graphemes

Rect = tuple[float, float, float, float]
"""A box: left, top, right, bottom (right and bottom exclusive)."""
Measure = Callable[[str], tuple[float, float]]
"""The width and height of a text's box as it is drawn."""

ELLIPSIS = "\u2026"
RINGS = 3
"""Candidate distances: beside the space, then one and two spaces further out (with a leader line)."""


@dataclass(frozen=True)
class Wanted:
    """A label to place: ``text`` for the tokens on space ``key``, whose box is ``near``."""

    key: Point
    text: str
    near: Rect


@dataclass(frozen=True)
class Placed:
    """A placed label: its (maybe shortened) text, its box, and a leader line when it stands away."""

    key: Point
    text: str
    rect: Rect
    leader: tuple[float, float, float, float] | None = None


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether two boxes share any pixel (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Rect, bounds: Rect) -> bool:
    return a[0] >= bounds[0] and a[1] >= bounds[1] and a[2] <= bounds[2] and a[3] <= bounds[3]


def crosses(seg: tuple[float, float, float, float], rect: Rect) -> bool:
    """Whether the segment ``seg`` (x0, y0, x1, y1) passes through the inside of ``rect`` (Liang-Barsky)."""
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - rect[0]), (dx, rect[2] - x0), (-dy, y0 - rect[1]), (dy, rect[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    return True


SPOTS = 8
"""Candidates per ring: right, left, above, below, above right, above left, below right, below left."""


def spot(near: Rect, w: float, h: float, gap: float, step: float, k: int) -> tuple[Rect, int]:
    """The ``k``-th candidate box of size ``w`` x ``h`` around ``near`` (in order of preference), with its
    ring (0 = beside it). A shorter text at the same candidate gets a box inside the longer one's."""
    left, top, right, bottom = near
    ring, side = divmod(k, SPOTS)
    d = gap + ring * step
    x = (right + d, left - d - w, (left + right - w) / 2, (left + right - w) / 2,
         right + d, left - d - w, right + d, left - d - w)[side]
    y = ((top + bottom - h) / 2, (top + bottom - h) / 2, top - d - h, bottom + d,
         top - d - h, top - d - h, bottom + d, bottom + d)[side]
    return (x, y, x + w, y + h), ring


def candidates(near: Rect, w: float, h: float, gap: float, step: float) -> Iterator[tuple[Rect, int]]:
    """Every candidate box around ``near``, in order of preference (see :func:`spot`)."""
    for k in range(RINGS * SPOTS):
        yield spot(near, w, h, gap, step, k)


def _leader(near: Rect, rect: Rect) -> tuple[float, float, float, float]:
    """A line from the middle of ``near``'s side facing ``rect`` to the nearest point of ``rect``."""
    cx, cy = (near[0] + near[2]) / 2, (near[1] + near[3]) / 2
    tx = min(max(cx, rect[0]), rect[2] - 1)
    ty = min(max(cy, rect[1]), rect[3] - 1)
    sx = near[2] if tx >= near[2] else near[0] if tx < near[0] else cx
    sy = near[3] if ty >= near[3] else near[1] if ty < near[1] else cy
    return sx, sy, tx, ty


def shortened(text: str, n: int) -> str:
    """The first ``n`` graphemes of ``text`` and an ellipsis (the whole text when ``n`` covers it): cut where
    :func:`bot.render.text.shorten` cuts, never inside an emoji sequence or a letter's accents."""
    parts = graphemes(text)
    return text if n >= len(parts) else "".join(parts[:n]).rstrip(" ,") + ELLIPSIS


def layout_labels(wanted: Sequence[Wanted], markers: Sequence[Rect], bounds: Rect, measure: Measure, *,
                  gap: float = 3, step: float = 0) -> list[Placed]:
    """Place ``wanted`` labels in order; no placed box overlaps another, a marker, or leaves ``bounds``.

    ``step`` is how much further out each ring of candidates lies (a space's width). Labels that fit
    nowhere are left out of the answer.
    """
    sizes: dict[str, tuple[float, float]] = {}

    def size(text: str) -> tuple[float, float]:  # the searches below measure the same texts again and again
        if text not in sizes:
            sizes[text] = measure(text)
        return sizes[text]

    taken: list[Rect] = list(markers)
    leaders: list[tuple[float, float, float, float]] = []
    out: list[Placed] = []

    def free(near: Rect, rect: Rect, ring: int) -> bool:
        if not inside(rect, bounds) or any(overlaps(rect, o) for o in taken):
            return False
        if any(crosses(line, rect) for line in leaders):
            return False
        if ring:  # its leader line crosses no marker nor label either
            line = _leader(near, rect)
            return not any(crosses(line, o) for o in taken)
        return True

    for want in wanted:
        found: tuple[str, Rect, int] | None = None
        w, h = size(want.text)
        for rect, ring in candidates(want.near, w, h, gap, step):
            if free(want.near, rect, ring):
                found = (want.text, rect, ring)
                break
        if found is None:  # the longest shortened text that fits anywhere (first candidate on ties)
            best = 0
            for k in range(RINGS * SPOTS):
                lo, hi = best + 1, len(graphemes(want.text)) - 1  # lengths worth trying at this candidate
                while lo <= hi:
                    n = (lo + hi) // 2
                    text = shortened(want.text, n)
                    tw, th = size(text)
                    rect, ring = spot(want.near, tw, th, gap, step, k)
                    if free(want.near, rect, ring):
                        best, found, lo = n, (text, rect, ring), n + 1
                    else:
                        hi = n - 1
        if found is None:
            continue
        text, rect, ring = found
        taken.append(rect)
        leader = _leader(want.near, rect) if ring else None
        if leader is not None:
            leaders.append(leader)
        out.append(Placed(want.key, text, rect, leader))
    return out
