"""EOF scoring: the best total over disjoint configurations of one colour.

A player scores the configurations formed by the records of their colour in
the file; a pyramid counts in at most one configuration, and the player gets
the maximum total over all ways of choosing disjoint configurations
(rulings.md). "Consecutive" means adjacent in the file; "sorted" means
strictly increasing or strictly decreasing size in file order.

* **run** of k ≥ 3 consecutive records, not sorted: k points;
* **sorted**: 3 consecutive records, sorted: 5 points;
* **spread**: 3 records in file order, sorted, not all three consecutive: 4;
* **hill** 1-2-3-2-1 or **valley** 3-2-1-2-3, consecutive: 8;
* **file**: every record of the file is yours: 2 × its length (it uses every
  pyramid, so it replaces the others).

Any configuration may be taken from inside a longer stretch of the player's
records. Since sizes are 1–3, a sorted triple is always 1-2-3 or 3-2-1, so a
spread is "a 1, a 2 and a 3 with the 2 between the others".

The search is a dynamic programme over the file from left to right. Contiguous
configurations are segments of the player's consecutive records; spreads are
matched like a pattern with four counters of open partial triples (a 1
waiting for its 2, a 3 waiting for its 2, 1-2 waiting for a 3, 3-2 waiting for
a 1). It scores every sorted triple 4 even when its three records happen to be
adjacent: such a choice is never optimal (the same three records score 5 as a
*sorted* configuration), so the optimum is unchanged and every spread it picks
is a real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.games.eof.pieces import LETTERS, Piece, parse_colour
from bot.games.eof.words import Said, said
from bot.i18n import N_

RUN, SORTED, SPREAD, HILL, VALLEY, WHOLE = "run", "sorted", "spread", "hill", "valley", "file"
KIND_TEXTS: Final = {
    RUN: N_("run of {count} at {where}: {points}"), SORTED: N_("sorted three at {where}: {points}"),
    SPREAD: N_("spread three at {where}: {points}"), HILL: N_("hill at {where}: {points}"),
    VALLEY: N_("valley at {where}: {points}"), WHOLE: N_("whole file at {where}: {points}"),
}
"""How each kind of configuration is said (:meth:`Configuration.describe`)."""
KIND_NAMES: Final = frozenset(KIND_TEXTS)


@dataclass(frozen=True, order=True)
class Configuration:
    """One scored configuration: its kind, the 0-based record indices it uses, its points."""

    kind: str
    records: tuple[int, ...]
    points: int

    def describe(self) -> Said:
        """E.g. ``"hill at 3-7: 8"`` (records numbered from 1, as on the board), in the current language
        (a :class:`~bot.games.eof.words.Said`, so a score event can be written again for its reader)."""
        nums = [r + 1 for r in self.records]
        if self.kind == SPREAD:
            where = ", ".join(map(str, nums))
        else:
            where = f"{nums[0]}-{nums[-1]}" if len(nums) > 1 else str(nums[0])
        return said(KIND_TEXTS[self.kind], count=len(self.records), where=where, points=self.points)

    def dump(self) -> dict[str, object]:
        return {"kind": self.kind, "records": list(self.records), "points": self.points}

    @staticmethod
    def load(d: dict[str, object]) -> Configuration:
        kind = d["kind"]
        if kind not in KIND_NAMES:
            raise ValueError(f"unknown configuration kind {kind!r}")
        records = d["records"]
        points = d["points"]
        if not isinstance(records, list) or not all(isinstance(r, int) for r in records):
            raise ValueError("configuration records must be a list of integers")
        if not isinstance(points, int):
            raise ValueError("configuration points must be an integer")
        return Configuration(str(kind), tuple(records), points)


def _segment(sizes: Sequence[int]) -> tuple[str, int]:
    """The best configuration made of exactly these consecutive records (≥ 3)."""
    k = len(sizes)
    if k == 3 and (tuple(sizes) in ((1, 2, 3), (3, 2, 1))):
        return SORTED, 5
    if k == 5 and tuple(sizes) == (1, 2, 3, 2, 1):
        return HILL, 8
    if k == 5 and tuple(sizes) == (3, 2, 1, 2, 3):
        return VALLEY, 8
    return RUN, k


def _normalise(records: Sequence[Piece] | Sequence[tuple[int, int]] | Sequence[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for r in records:
        if isinstance(r, Piece):
            out.append((r.colour, r.size))
        elif isinstance(r, str):
            p = Piece.parse(r)
            out.append((p.colour, p.size))
        else:
            c, s = r
            out.append((int(c), int(s)))
    return out


# Roles a record can take in a spread (the counters are x1, x3, y1, y3).
_START_UP, _START_DOWN, _MID_UP, _MID_DOWN, _END_UP, _END_DOWN = range(6)


def score(file_records: Sequence[Piece] | Sequence[tuple[int, int]] | Sequence[str],
          colour: int | str) -> tuple[int, tuple[Configuration, ...]]:
    """The points ``colour`` scores in this file and the configurations chosen.

    ``file_records`` are the records in file order (pieces, ``(colour, size)``
    pairs or ``"G2"`` strings); ``colour`` is 0–3 or a colour name/letter. Ties
    between equally good choices go to the one with fewer configurations.

    Raises:
        ValueError: an unknown colour or a malformed record.

    >>> score(["Y1", "R1", "R2", "R3", "R2", "R1"], "red")[0]
    8
    """
    col = colour if isinstance(colour, int) else parse_colour(colour)
    if not 0 <= col < len(LETTERS):
        raise ValueError(f"colour {colour!r} out of range")
    recs = _normalise(file_records)
    n = len(recs)
    if n and all(c == col for c, _ in recs):
        # Whole file: 2 points a record, more than any other configuration gives
        # (at most 5/3 a record), so it is the maximum.
        return 2 * n, (Configuration(WHOLE, tuple(range(n)), 2 * n),)
    own = [c == col for c, _ in recs]
    sizes = [s for _, s in recs]
    if sum(own) < 3:
        return 0, ()

    run = [0] * (n + 1)  # own consecutive records starting at i
    for i in range(n - 1, -1, -1):
        run[i] = run[i + 1] + 1 if own[i] else 0
    rem = [[0, 0, 0, 0] for _ in range(n + 1)]  # own records of size 1..3 at >= i
    for i in range(n - 1, -1, -1):
        rem[i] = rem[i + 1][:]
        if own[i]:
            rem[i][sizes[i]] += 1

    # layer[i]: state (x1, x3, y1, y3) -> (points, -configs, back)
    Back = tuple[int, tuple[int, int, int, int], tuple[int, ...]]
    layers: list[dict[tuple[int, int, int, int], tuple[int, int, Back | None]]] = [{} for _ in range(n + 1)]
    layers[0][(0, 0, 0, 0)] = (0, 0, None)

    def push(i: int, st: tuple[int, int, int, int], pts: int, cfg: int, back: Back) -> None:
        x1, x3, y1, y3 = st
        r = rem[i]
        if x1 + y1 > r[3] or x3 + y3 > r[1] or x1 + x3 > r[2]:
            return  # some open triple can never be completed
        layer = layers[i]
        old = layer.get(st)
        if old is None or (pts, cfg) > (old[0], old[1]):
            layer[st] = (pts, cfg, back)

    for i in range(n):
        layer = layers[i]
        if not layer:
            continue
        for st, (pts, cfg, _) in list(layer.items()):
            push(i + 1, st, pts, cfg, (i, st, ()))
            if not own[i]:
                continue
            x1, x3, y1, y3 = st
            for length in range(3, run[i] + 1):
                kind, value = _segment(sizes[i:i + length])
                push(i + length, st, pts + value, cfg - 1, (i, st, (length,)))
            size = sizes[i]
            if size == 1:
                push(i + 1, (x1 + 1, x3, y1, y3), pts, cfg, (i, st, (-1, _START_UP)))
                if y3:
                    push(i + 1, (x1, x3, y1, y3 - 1), pts + 4, cfg - 1, (i, st, (-1, _END_DOWN)))
            elif size == 2:
                if x1:
                    push(i + 1, (x1 - 1, x3, y1 + 1, y3), pts, cfg, (i, st, (-1, _MID_UP)))
                if x3:
                    push(i + 1, (x1, x3 - 1, y1, y3 + 1), pts, cfg, (i, st, (-1, _MID_DOWN)))
            else:
                push(i + 1, (x1, x3 + 1, y1, y3), pts, cfg, (i, st, (-1, _START_DOWN)))
                if y1:
                    push(i + 1, (x1, x3, y1 - 1, y3), pts + 4, cfg - 1, (i, st, (-1, _END_UP)))

    final = layers[n].get((0, 0, 0, 0))
    assert final is not None  # skipping every record always reaches it
    total = final[0]

    # Walk back to the chosen actions, then pair the spread roles in file order.
    actions: list[tuple[int, tuple[int, ...]]] = []
    i, st = n, (0, 0, 0, 0)
    while True:
        entry = layers[i][st]
        back = entry[2]
        if back is None:
            break
        pi, pst, act = back
        if act:
            actions.append((pi, act))
        i, st = pi, pst
    actions.reverse()

    configs: list[Configuration] = []
    starts_up: list[int] = []
    starts_down: list[int] = []
    mids_up: list[tuple[int, int]] = []
    mids_down: list[tuple[int, int]] = []
    for pos, act in actions:
        if act[0] > 0:
            length = act[0]
            kind, value = _segment(sizes[pos:pos + length])
            configs.append(Configuration(kind, tuple(range(pos, pos + length)), value))
            continue
        role = act[1]
        if role == _START_UP:
            starts_up.append(pos)
        elif role == _START_DOWN:
            starts_down.append(pos)
        elif role == _MID_UP:
            mids_up.append((starts_up.pop(0), pos))
        elif role == _MID_DOWN:
            mids_down.append((starts_down.pop(0), pos))
        elif role == _END_UP:
            a, b = mids_up.pop(0)
            configs.append(Configuration(SPREAD, (a, b, pos), 4))
        else:
            a, b = mids_down.pop(0)
            configs.append(Configuration(SPREAD, (a, b, pos), 4))
    configs.sort(key=lambda c: c.records)
    assert sum(c.points for c in configs) == total
    return total, tuple(configs)
