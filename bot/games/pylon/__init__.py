"""Pylon: a 2-player game of placement and stacking (rules.py), with AI and renderer."""

from bot.games.pylon.ai import choose, wants_to_agree
from bot.games.pylon.notation import Agree, Move, Placement, Stacking
from bot.games.pylon.render import render
from bot.games.pylon.rules import RULES, PylonState, PylonView

__all__ = ["RULES", "Agree", "Move", "Placement", "PylonState", "PylonView", "Stacking", "choose", "render",
           "wants_to_agree"]
