"""The Egg Carton Game (registry key ``eggcarton``): engine, notation, AI and pictures."""

from bot.games.egg_carton.ai import choose
from bot.games.egg_carton.rules import RULES, EggCartonRules, EggCartonState, EggCartonView, Pick

__all__ = ["RULES", "EggCartonRules", "EggCartonState", "EggCartonView", "Pick", "choose"]
