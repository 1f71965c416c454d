"""The explained picture of ``/eggcarton rules``: the starting carton, drawn by the game's renderer, with
the sowing path called out: A to F, off at the right end, I to N, off at the left end, A again."""

from __future__ import annotations

from bot.games.egg_carton.render import CUP_R, render, slot_centre, zone_centre
from bot.games.egg_carton.rules import RULES
from bot.i18n import _, per_language
from bot.render.callouts import Callouts, Diagram

SLOT_A, SLOT_F, SLOT_I, SLOT_N = 0, 5, 6, 11
RIGHT, LEFT = 0, 1


@per_language
def diagram() -> Diagram:
    """The diagram in the current language (its callouts and alt text are words), drawn once per language."""
    c = Callouts(render(RULES.view(RULES.initial({}, 2), None)))
    low, high = CUP_R * 0.72, CUP_R * 0.72
    a, f, i, n = (slot_centre(s) for s in (SLOT_A, SLOT_F, SLOT_I, SLOT_N))
    right, left = zone_centre(RIGHT), zone_centre(LEFT)
    c.arrow((a[0] - CUP_R * 0.5, a[1] + low), (f[0] + CUP_R * 0.5, f[1] + low))
    c.arrow((f[0] + CUP_R * 0.7, f[1] + low), (right[0] - CUP_R * 0.2, right[1] + CUP_R * 0.6))
    c.arrow((right[0] - CUP_R * 0.2, right[1] - CUP_R * 0.6), (i[0] + CUP_R * 0.7, i[1] - high))
    c.arrow((i[0] + CUP_R * 0.5, i[1] - high), (n[0] - CUP_R * 0.5, n[1] - high))
    c.arrow((n[0] - CUP_R * 0.7, n[1] - high), (left[0] + CUP_R * 0.2, left[1] - CUP_R * 0.6))
    c.arrow((left[0] + CUP_R * 0.2, left[1] + CUP_R * 0.6), (a[0] - CUP_R * 0.7, a[1] + low))
    mid_bottom = ((a[0] + f[0]) / 2, a[1] + low)
    mid_top = ((i[0] + n[0]) / 2, i[1] - high)
    c.tag(mid_bottom, _("1. sow A → F"))
    c.tag((right[0], right[1]), _("2. off"), anchor="rm")
    c.tag(mid_top, _("3. then I → N"))
    c.tag((left[0], left[1]), _("4. off"), anchor="lm")
    return c.done(_(
        "The egg carton at the start, three marbles in every slot. Arrows show the sowing path, one marble "
        "per space: along the bottom row from A to F, into the right end zone (off the board), along the "
        "top row from I to N, into the left end zone, then on to A again."
    ))
