"""The explained picture of ``/pylon rules``: a full board after two stacking moves, drawn by the game's
renderer, with one stack and its owner called out."""

from __future__ import annotations

from bot.games.pylon.notation import parse_square
from bot.games.pylon.render import render, square_box, square_center
from bot.games.pylon.rules import RULES
from bot.i18n import _, per_language
from bot.render.callouts import Callouts, Diagram

SIZES = "SML"
STACKING = ("a1-b1", "b1-c1")
"""After the placements: Red's small onto Blue's medium, then that pair onto Red's large on c1."""
STACK = "c1"


def _placements() -> list[str]:
    """Square by square from a1: Red on even squares, Blue on odd ones, sizes cycling so each side places
    five of each size (a1 S, b1 M, c1 L, d1 S, …)."""
    return [f"{SIZES[sq % 3]} {'abcdef'[sq % 6]}{sq // 6 + 1}"
            for sq in range(30)]


@per_language
def diagram() -> Diagram:
    """The diagram in the current language (its callouts and alt text are words), drawn once per language."""
    state = RULES.initial({}, 2)
    for text in (*_placements(), *STACKING):
        seat = next(iter(RULES.to_act(state)))  # type: ignore[arg-type]
        state, _events = RULES.apply(state, seat, RULES.parse(text, state, seat))
    view = RULES.view(state, None)
    c = Callouts(render(view))
    sq = parse_square(STACK)
    x0, y0, x1, y1 = square_box(sq)
    cx, cy = square_center(sq)
    c.ring((cx, cy), (x1 - x0) * 0.62)
    owner = c.tag((cx, y0 - (y1 - y0) * 0.15 - 4), _("Red on top: scores 3"), anchor="mb")
    c.tag((cx, owner[1] - 4), _("a stack of 3"), anchor="mb")
    return c.done(_(
        "A Pylon board after the 30 placements and two stacking moves. On c1 a stack of three is ringed: "
        "Red's large at the bottom, Blue's medium, Red's small on top. The top pyramid is Red's, so the "
        "whole stack counts 3 for Red; b1 and a1 are empty now."
    ))
