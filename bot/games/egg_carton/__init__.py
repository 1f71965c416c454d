"""The Egg Carton Game (registry key ``eggcarton``): engine, notation, AI and pictures.

The platform uses ``RULES`` (the engine), ``render`` (a board picture),
``animate`` (the sowing as GIF frames) and ``choose`` (the computer player).
"""

from bot.games.egg_carton.ai import choose
from bot.games.egg_carton.render import render
from bot.games.egg_carton.rules import RULES, EggCartonRules, EggCartonState, EggCartonView, Pick
from bot.games.egg_carton.sowing import (
    animate,
    picks_gif,
    prepare_sowing,
    ready_sowing,
    sowing_gif,
    sowings_ahead,
)

__all__ = ["RULES", "EggCartonRules", "EggCartonState", "EggCartonView", "Pick", "animate", "choose",
           "picks_gif", "prepare_sowing", "ready_sowing", "render", "sowing_gif", "sowings_ahead"]
