"""The Pylon lesson: place, stack onto an equal or larger top, capture, and win at the end."""

from __future__ import annotations

from typing import Any

from bot.games.pylon.notation import SQUARES, parse_square
from bot.games.pylon.rules import RULES, PylonState, Stack, scores
from bot.i18n import N_
from bot.lessons.core import Lesson, Step

_OWNERS = {"R": 0, "B": 1}


def board(squares: dict[str, str]) -> PylonState:
    """A stacking-phase position: ``{"c3": "B3 B2"}`` (bottom first, R = Red, B = Blue), stashes empty.

    Built directly (legality looks only at the board); an odd number of stacks leaves Red to move."""
    cells: list[Stack] = [()] * SQUARES
    for name, text in squares.items():
        cells[parse_square(name)] = tuple((_OWNERS[t[0]], int(t[1])) for t in text.split())
    return PylonState(tuple(cells), ((0, 0, 0), (0, 0, 0)))


def _placed_large(before: Any, after: Any, notation: str) -> bool:
    return notation.startswith("L ")


def _is(move: str) -> Any:
    return lambda before, after, notation: notation == move


def _captured(before: Any, after: Any, notation: str) -> bool:
    return bool(scores(after)[0] - scores(before)[0] >= 3)


def _won(before: Any, after: Any, notation: str) -> bool:
    out = RULES.outcome(after)
    return out is not None and out.winners == frozenset({0})


LESSON = Lesson(
    game="pylon",
    finish=N_("Play the computer now"),
    steps=(
        Step(
            caption=N_("You are **Red**. Players take turns putting one pyramid from their stash on any "
                       "empty square. Place a **large** pyramid: press **Large**, then pick a square."),
            hint=N_("Press **Large**, then pick any empty square from the menu."),
            setup=lambda: RULES.initial({}, 2),
            accepts=_placed_large, solution="L c3", wrong="S a1",
            after=N_("Placing goes on until all 30 pyramids are on the board; then stacks start to move."),
        ),
        Step(
            caption=N_("Later the board is full and stacks move: a stack goes onto a neighbouring stack "
                       "(north, east, south or west) whose top is **no smaller** than its bottom. "
                       "Move your small pyramid on **b2** east onto the large one on c2."),
            hint=N_("Pick **b2** in the menu, then press **East → c2**."),
            setup=lambda: board({"b2": "R1", "c2": "B3", "e4": "B2", "e5": "R2", "a5": "B1"}),
            accepts=_is("b2-c2"), solution="b2-c2", wrong="e5-e4",
            after=N_("Small onto large is fine; large onto small never is. A square left empty stays empty."),
        ),
        Step(
            caption=N_("Equal sizes stack too. Move your medium pyramid on **e5** north onto Blue's medium "
                       "on e4."),
            hint=N_("Pick **e5** in the menu, then press **North → e4**."),
            setup=lambda: board({"c2": "R1 B1", "e4": "B2", "e5": "R2", "a5": "B1", "b2": "R3"}),
            accepts=_is("e5-e4"), solution="e5-e4", wrong="e4-e5",
            after=N_("The whole stack moves, so the pyramids under it now count for you."),
        ),
        Step(
            caption=N_("You may move **any** stack, Blue's too. You score every pyramid in a stack with "
                       "your colour on top: put a Red pyramid on the tall Blue stack to take all of it."),
            hint=N_("The tall stack is on **c3**: move your small pyramid from **d3** west onto it."),
            setup=lambda: board({"c3": "B3 B2 B1", "d3": "R1", "a1": "B2", "f5": "R3", "f4": "B3"}),
            accepts=_captured, solution="d3-c3", wrong="f5-f4",
            after=N_("Four pyramids are now under your colour. Either player can take them back later."),
        ),
        Step(
            caption=N_("The game ends right after the move that leaves no stack able to move; the higher "
                       "score wins. It is 3–3 and one move is left for you: win the game."),
            hint=N_("Put your medium on **a1** onto Blue's medium on **a2**, so the last stack is yours."),
            setup=lambda: board({"a1": "R2", "a2": "B2", "c5": "R3", "e5": "R1", "f1": "B3 B2"}),
            accepts=_won, solution="a1-a2", wrong="a2-a1",
            after=N_("You win 4–2. (Both players can also press **Agree to end** to score the board as it "
                     "stands.)"),
        ),
    ),
)
