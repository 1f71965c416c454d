"""The explained picture of ``/nomic rules``: the map of a seeded three-player game just after a move,
drawn by the game's renderer (which draws the last path), with the start, the path and the landing space
called out."""

from __future__ import annotations

import random

from bot.games.base import CHANCE, Chance
from bot.games.nomic.render import geometry, render
from bot.games.nomic.rules import RULES
from bot.games.nomic.view import NomicView
from bot.i18n import _, ngettext, per_language
from bot.render.callouts import Callouts, Diagram

SEED = 4
PLAYERS = 3
MIN_PATH = 4
"""The first path of at least this many spaces (start included) in the seeded game is shown."""


def _position() -> NomicView:
    """The first view of the seeded game (random legal actions) whose last path is long enough."""
    rng = random.Random(SEED)
    state = RULES.initial({}, PLAYERS)
    for _i in range(400):
        view = RULES.view(state, None)
        if len(view.path) >= MIN_PATH and view.status == "running":
            return view
        who = RULES.to_act(state)
        if who is None:
            break
        if isinstance(who, Chance):
            state, _events = RULES.apply(state, CHANCE, rng.choice(who.outcomes))
            continue
        seat = rng.choice(sorted(who))
        state, _events = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    raise RuntimeError("the seeded Nomic game made no long enough path")


@per_language
def diagram() -> Diagram:
    """The diagram in the current language (its callouts, the map's words and the alt text), drawn once per
    language."""
    view = _position()
    c = Callouts(render(view))
    g = geometry(view)
    start, end = g.box(view.path[0]), g.box(view.path[-1])
    steps = len(view.path) - 1
    c.ring(g.centre(view.path[-1]), g.cell * 0.75)
    c.tag(((start[0] + start[2]) / 2, start[3] + 4), _("start"), anchor="mt")
    c.tag(((end[0] + end[2]) / 2, end[1] - 4),
          ngettext("lands here: {n} step", "lands here: {n} steps", steps), anchor="mb")
    c.tag((g.left + 8, g.top + 8), _("the map: grey spaces are unexplored"), anchor="lt")
    return c.done(ngettext(
        "A Nomic World map with {players} players. The grey squares are still unexplored; explored spaces "
        "take the colour of their resource. An amber line shows the last move: a path of {n} step, one "
        "square at a time north, east, south or west, from the start to the ringed space it landed on.",
        "A Nomic World map with {players} players. The grey squares are still unexplored; explored spaces "
        "take the colour of their resource. An amber line shows the last move: a path of {n} steps, one "
        "square at a time north, east, south or west, from the start to the ringed space it landed on.",
        steps, players=PLAYERS))
