"""The explained picture of ``/fireandice rules``: the board of a fixed early position, drawn by the
game's renderer, with the islands, the point numbers and one line of islands called out."""

from __future__ import annotations

from bot.games.fire_and_ice.geometry import ISLAND_LINES, ISLANDS, point
from bot.games.fire_and_ice.render import island_centre, point_xy, render
from bot.games.fire_and_ice.rules import RULES
from bot.i18n import _, per_language
from bot.render.callouts import Callouts, Diagram

OPENING = ("D4-A4", "D4-D1", "A4-A1", "A4-G4")
"""A few real moves from the start: both sides have pieces out, nobody controls an island yet."""
LINE = ISLAND_LINES.index((0, 3, 5))
"""The highlighted line of islands: A, D, F (top to bottom)."""


@per_language
def diagram() -> Diagram:
    """The diagram in the current language (its callouts and alt text are words), drawn once per language."""
    state = RULES.initial({}, 2)
    for text in OPENING:
        seat = next(iter(RULES.to_act(state)))  # type: ignore[arg-type]
        state, _events = RULES.apply(state, seat, RULES.parse(text, state, seat))
    c = Callouts(render(RULES.view(state, None)))
    line = ISLAND_LINES[LINE]
    a, f = island_centre(line[0]), island_centre(line[-1])
    c.band(a, f, alpha=80)
    names = "-".join(ISLANDS[i] for i in line)
    mid = island_centre(3)
    c.tag((mid[0] - c.size * 1.3, (mid[1] + f[1]) / 2), _("a line: {islands}", islands=names), anchor="rm")
    top, bottom_right = point_xy(point(6, 0)), point_xy(point(6, 6))
    box = c.tag((bottom_right[0], top[1] - c.size * 3.2), _("points 1–7"), anchor="rb")
    c.arrow(((box[0] + box[2]) / 2, box[3]), (top[0] + c.size * 0.5, top[1] - c.size * 0.7))
    c.tag((island_centre(1)[0], island_centre(1)[1] - c.size * 4.6), _("7 islands, A to G"), anchor="mb")
    return c.done(_(
        "The Fire and Ice board: seven triangular islands, A at the top, B and C below it, D in the middle, "
        "E, F and G along the bottom, each with points numbered 1 to 7. The line of islands A, D, F is "
        "highlighted: holding all three wins. The points of island G are called out; a few pieces "
        "of each side are out after four moves."
    ))
