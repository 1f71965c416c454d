"""Fire and Ice: seven Fano-plane islands, pbmserv notation, computer opponents.

Exports what the registry (:mod:`bot.games`) expects: ``RULES``, ``render``
and ``choose``, plus the helpers the Discord interface uses.
"""

from __future__ import annotations

from bot.games.fire_and_ice.ai import choose
from bot.games.fire_and_ice.render import render
from bot.games.fire_and_ice.rules import (
    RULES,
    FireIceView,
    Move,
    Pass,
    Place,
    State,
    destinations,
    gives_opponent_win,
    movable_pieces,
    wins_now,
)

__all__ = [
    "RULES", "FireIceView", "Move", "Pass", "Place", "State", "choose", "destinations",
    "gives_opponent_win", "movable_pieces", "render", "wins_now",
]
