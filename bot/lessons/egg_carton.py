"""The Egg Carton lesson: sowing, relays on both sides, picking again, and emptying your side."""

from __future__ import annotations

from typing import Any

from bot.games.egg_carton.rules import EggCartonState
from bot.i18n import N_
from bot.lessons.core import Lesson, Step


def carton(mine: str, theirs: str = "222222") -> EggCartonState:
    """Your turn with ``mine`` marbles in A–F and ``theirs`` in I–N (one digit a slot)."""
    return EggCartonState(tuple(int(c) for c in mine + theirs))


def _is(slot: str) -> Any:
    return lambda before, after, notation: notation == slot


def _again(before: Any, after: Any, notation: str) -> bool:
    return bool(after.again and after.to_move == 0 and after.winner is None)


def _won(before: Any, after: Any, notation: str) -> bool:
    return bool(after.winner == 0)


LESSON = Lesson(
    game="eggcarton",
    finish=N_("Play the computer now"),
    steps=(
        Step(
            caption=N_("Your slots are **A–F** along the bottom. Pick a slot: its marbles are dropped one by "
                       "one into the next slots, counter-clockwise. Pick **A**."),
            hint=N_("Press the **A** button under the picture."),
            setup=lambda: carton("200101"),
            accepts=_is("A"), solution="A", wrong="D",
            after=N_("A's two marbles went to B and C. The last one fell into an **empty** slot, so your "
                     "turn is over."),
        ),
        Step(
            caption=N_("If the last marble lands in a slot that **already held marbles**, you scoop that "
                       "slot up and keep sowing: a **relay**. Pick **A**: its marble lands on B's two."),
            hint=N_("Press **A**: one marble into B, which holds 2."),
            setup=lambda: carton("120000"),
            accepts=_is("A"), solution="A", wrong="B",
            after=N_("B's three marbles went on to C, D and E; E was empty, so the turn ended there."),
        ),
        Step(
            caption=N_("After F one marble drops into the end zone (off the board for good), then the sowing "
                       "goes on along your opponent's side, relays included. Pick **F**."),
            hint=N_("Press **F**: one marble off the board, one into I."),
            setup=lambda: carton("100102", "200000"),
            accepts=_is("F"), solution="F", wrong="A",
            after=N_("I held 2, so its three marbles were relayed to J, K and L."),
        ),
        Step(
            caption=N_("When the last marble of a sowing drops **into an end zone**, you pick again. Pick "
                       "the slot whose last marble goes off the board."),
            hint=N_("F holds 1 marble, and the end zone comes right after F: press **F**."),
            setup=lambda: carton("101001"),
            accepts=_again, solution="F", wrong="A",
            after=N_("Your turn goes on: you pick again (then once more, until a marble stops in a slot)."),
        ),
        Step(
            caption=N_("You win when **your side is empty** as a sowing stops. Empty your side with one "
                       "pick."),
            hint=N_("Press **E**: its marble lands on F's, and the relay carries both off your side."),
            setup=lambda: carton("000011", "022222"),
            accepts=_won, solution="E", wrong="F",
            after=N_("Your side is empty: you win. (Your moves can never empty your opponent's side.)"),
        ),
    ),
)
