"""The Fire and Ice lesson: both kinds of move, the piece left behind, control, and winning."""

from __future__ import annotations

from typing import Any

from bot.games.fire_and_ice.board import State, controllers
from bot.games.fire_and_ice.geometry import EMPTY, FIRE, ICE, N_POINTS, PIECES, island_of
from bot.games.fire_and_ice.notation import parse_point
from bot.games.fire_and_ice.rules import RULES
from bot.i18n import N_
from bot.lessons.core import Lesson, Step

D, E = 3, 4


def position(fire: str, ice: str) -> State:
    """Fire to move with pieces on the named points (``"D1 D4"``), supplies what is left of 25."""
    cells = [EMPTY] * N_POINTS
    for side, names in ((FIRE, fire), (ICE, ice)):
        for name in names.split():
            cells[parse_point(name)] = side
    n_fire, n_ice = cells.count(FIRE), cells.count(ICE)
    return State(tuple(cells), FIRE, (PIECES - n_fire, PIECES - n_ice), 0, 0, n_fire + n_ice - 1, 0, None)


def _points(notation: str) -> tuple[int, int]:
    src, dst = notation.split("-")
    return parse_point(src), parse_point(dst)


def _same_island(before: Any, after: Any, notation: str) -> bool:
    src, dst = _points(notation)
    return island_of(src) == island_of(dst)


def _other_island(before: Any, after: Any, notation: str) -> bool:
    src, dst = _points(notation)
    return island_of(src) != island_of(dst)


def _controls(island: int) -> Any:
    def accepts(before: Any, after: Any, notation: str) -> bool:
        out = RULES.outcome(after)
        return controllers(after.board)[island] == FIRE and (out is None or FIRE in out.winners)
    return accepts


def _won(before: Any, after: Any, notation: str) -> bool:
    out = RULES.outcome(after)
    return out is not None and out.winners == frozenset({FIRE})


ICE_HOLDS_B_AND_D = "B1 B2 B5 D3 D4 D5 G5 G6"

LESSON = Lesson(
    game="fireandice",
    finish=N_("Play the computer now"),
    steps=(
        Step(
            caption=N_("You are **Fire** and move first, from **D4**. A piece may move to any empty point of "
                       "**its own island**: move D4 to another point of island D."),
            hint=N_("Choose your piece **D4**, then a destination that starts with **D** (D1, D2, …)."),
            setup=lambda: RULES.initial({}, 2),
            accepts=_same_island, solution="D4-D1", wrong="D4-A4",
            after=N_("An **Ice** piece appeared on D4, the point you left: every move gives your opponent a "
                     "piece there."),
        ),
        Step(
            caption=N_("A piece may also jump to the **same number on another island** (D1 to A1, B1, …). "
                       "Move a piece to another island that way."),
            hint=N_("Choose **D1**, then a destination on another island ending in **1** (A1, B1, …)."),
            setup=lambda: position("D1 D6", "A4 D4"),
            accepts=_other_island, solution="D1-A1", wrong="D1-D2",
            after=N_("The piece left behind on D1 is Ice's now."),
        ),
        Step(
            caption=N_("Three of your pieces on a **line** of an island (like 1-4-6, the dots on the picture "
                       "show the points) **control** it. Take island **D**: complete its line 1-4-6."),
            hint=N_("You have D1 and D4: move **B6** to **D6** (same number, another island)."),
            setup=lambda: position("D1 D4 B6 F2", "A3 C5 D2"),
            accepts=_controls(D), solution="B6-D6", wrong="F2-F1",
            after=N_("Island D is yours while that line stands; only you can break it."),
        ),
        Step(
            caption=N_("Careful: the point you leave goes to Ice. Ice holds B and D and has G5 and G6. Take "
                       "island **E** (line 1-2-5) without handing Ice island G."),
            hint=N_("Moving G7 away gives Ice G7 and the win (B-D-G). Move **C5** to **E5** instead."),
            setup=lambda: position("E1 E2 C5 G7 A2", ICE_HOLDS_B_AND_D),
            accepts=_controls(E), solution="C5-E5", wrong="G7-E7",
            after=N_("The board warns before a move that hands your opponent the win, and asks to confirm."),
        ),
        Step(
            caption=N_("You win with three controlled islands **in a line of islands** (A-D-F, B-D-G, the "
                       "ring B-C-F, …). You hold A and D: take **F** (line 1-4-6) to win."),
            hint=N_("You have F1 and F4: move **C6** to **F6**."),
            setup=lambda: position("A1 A2 A5 D1 D4 D6 F1 F4 C6", "B3 C1 E2 G4 D2 F2"),
            accepts=_won, solution="C6-F6", wrong="C6-C2",
            after=N_("A-D-F is a line of islands: Fire wins."),
        ),
    ),
)
