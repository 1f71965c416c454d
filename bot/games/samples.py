"""Positions of seeded random games: what a game's boards look like, without anyone playing.

Used at start-up to draw a few boards per game before the first move (so each picture family already has
its palette, see :func:`bot.render.board_png`), and by the rendering tests and benches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.games.base import CHANCE, Chance, Event, Rules


def sample_positions(rules: Rules[Any, Any], seats: int, seed: int,
                     plies: Sequence[int] = (0, 6, 25, 80)) -> list[tuple[Any, list[Event]]]:
    """``(view, events of the last action)`` at the given plies of one seeded random game (default
    options), and at its end if it ends sooner."""
    rng = random.Random(seed)
    state = rules.initial({}, seats)
    events: list[Event] = []
    out: list[tuple[Any, list[Event]]] = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            out.append((rules.view(state, None), events))
        if rules.outcome(state) is not None:
            out.append((rules.view(state, None), events))
            break
        action = _random_action(rules, state, rng)
        if action is None:
            break
        state, events = rules.apply(state, *action)
    return out


def _random_action(rules: Rules[Any, Any], state: Any, rng: random.Random) -> tuple[int, Any] | None:
    """A random ``(seat, move)`` of whoever is to act (chance included), or None when nobody is."""
    who = rules.to_act(state)
    if isinstance(who, Chance):
        return CHANCE, rng.choice(who.outcomes)
    if not who:
        return None
    seat = rng.choice(sorted(who))
    return seat, rng.choice(rules.legal_moves(state, seat))  # a Sequence (EOF: lazy, every program)


def sample_plays(rules: Rules[Any, Any], seats: int, seed: int) -> list[tuple[Any, list[Event], Any]]:
    """``(view before, events, view after)`` of every action of one seeded random game (default options)."""
    rng = random.Random(seed)
    state = rules.initial({}, seats)
    out: list[tuple[Any, list[Event], Any]] = []
    while rules.outcome(state) is None:
        action = _random_action(rules, state, rng)
        if action is None:
            break
        after, events = rules.apply(state, *action)
        out.append((rules.view(state, None), events, rules.view(after, None)))
        state = after
    return out
