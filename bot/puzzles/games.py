"""One search view (:class:`bot.puzzles.search.Game`) per puzzle game, each checked against its engine.

* Pylon: the stacking phase only (the board; whose turn follows from the number of stacks), played to
  the end, so a Pylon puzzle's win is exact. ``agree`` is left out: it ends nothing unless the solver
  agrees too, and a puzzle is won on the board.
* Fire and Ice: 49-bit masks as the hard AI uses them (:mod:`bot.games.fire_and_ice.ai`), with the
  engine's win rule (a line of islands after a whole turn).
* The Egg Carton Game: the engine's own states and ``apply`` (six picks at most; rule A repeats count as
  moves of the same player).

``to_search(engine_state)`` turns a stored position into the search's; the tests play every solution
tree on the engine too, so the two never drift apart unnoticed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.egg_carton.rules import RULES as EGG_RULES
from bot.games.egg_carton.rules import EggCartonState, Pick
from bot.games.fire_and_ice.ai import _ctrl, _gen
from bot.games.fire_and_ice.board import masks
from bot.games.fire_and_ice.geometry import HAS_LINE
from bot.games.fire_and_ice.notation import point_name
from bot.games.pylon.notation import NEIGHBOURS, SQUARE_NAMES
from bot.games.pylon.rules import PIECES, PylonState, Stack

PylonBoard = tuple[Stack, ...]
_PAIRS = tuple((a, b) for a in range(len(SQUARE_NAMES)) for b in NEIGHBOURS[a])


class PylonSearch:
    """Pylon's stacking phase on bare boards."""

    key = "pylon"

    @staticmethod
    def to_search(s: PylonState) -> PylonBoard:
        return s.board

    def moves(self, b: PylonBoard) -> list[tuple[int, int]]:
        return [(x, y) for x, y in _PAIRS if b[x] and b[y] and b[x][0][1] <= b[y][-1][1]]

    def mover(self, b: PylonBoard) -> int | None:
        if not self.moves(b):
            return None
        return (1 + PIECES - sum(1 for st in b if st)) % 2

    def winner(self, b: PylonBoard) -> int | None:
        sc = [0, 0]
        for st in b:
            if st:
                sc[st[-1][0]] += len(st)
        return None if sc[0] == sc[1] else int(sc[1] > sc[0])

    def play(self, b: PylonBoard, m: tuple[int, int]) -> PylonBoard:
        out = list(b)
        out[m[1]] = b[m[1]] + b[m[0]]
        out[m[0]] = ()
        return tuple(out)

    def name(self, b: PylonBoard, m: tuple[int, int]) -> str:
        return f"{SQUARE_NAMES[m[0]]}-{SQUARE_NAMES[m[1]]}"


FireIce = tuple[int, int, int, int, int]
"""(Fire mask, Ice mask, Fire supply, Ice supply, side to move)."""


class FireAndIceSearch:
    key = "fireandice"

    @staticmethod
    def to_search(s: Any) -> FireIce:
        fire, ice = masks(s.board)
        return fire, ice, s.supply[0], s.supply[1], s.to_move

    def winner(self, p: FireIce) -> int | None:
        if HAS_LINE[_ctrl(p[0])]:
            return 0
        if HAS_LINE[_ctrl(p[1])]:
            return 1
        return None

    def mover(self, p: FireIce) -> int | None:
        return None if self.winner(p) is not None else p[4]

    def moves(self, p: FireIce) -> Sequence[tuple[int, int]]:
        me, op = (p[0], p[1]) if p[4] == 0 else (p[1], p[0])
        return _gen(me, op)  # never empty in a real game (no position reached by play blocks a side)

    def play(self, p: FireIce, m: tuple[int, int]) -> FireIce:
        fire, ice, sf, si, side = p
        src, dst = m
        if side == 0:
            fire ^= (1 << src) | (1 << dst)
            if si > 0:
                ice |= 1 << src
                si -= 1
        else:
            ice ^= (1 << src) | (1 << dst)
            if sf > 0:
                fire |= 1 << src
                sf -= 1
        return fire, ice, sf, si, 1 - side

    def name(self, p: FireIce, m: tuple[int, int]) -> str:
        return f"{point_name(m[0])}-{point_name(m[1])}"


class EggCartonSearch:
    key = "eggcarton"

    @staticmethod
    def to_search(s: EggCartonState) -> EggCartonState:
        return s

    def winner(self, s: EggCartonState) -> int | None:
        return s.winner

    def mover(self, s: EggCartonState) -> int | None:
        return None if s.winner is not None else s.to_move

    def moves(self, s: EggCartonState) -> list[Pick]:
        return EGG_RULES.legal_moves(s, s.to_move)

    def play(self, s: EggCartonState, m: Pick) -> EggCartonState:
        after, _events = EGG_RULES.apply(s, s.to_move, m)
        # the turn counter only numbers turns: positions are equal without it
        return EggCartonState(after.slots, after.off, after.to_move, after.again, after.winner,
                              after.marbles, 0)

    def name(self, s: EggCartonState, m: Pick) -> str:
        return str(m)


SEARCHES: dict[str, Any] = {g.key: g for g in (PylonSearch(), FireAndIceSearch(), EggCartonSearch())}
"""The search view of each puzzle game, by game key."""
