"""Tic-tac-toe (key ``tictactoe``): the sixth game, which lives in the test suite only.

Shaped exactly like a game under ``bot/games/<game>/``: the platform uses ``RULES`` (the engine),
``render`` (the board picture) and ``choose`` (the computer player). It joins the registry only when a
test calls :func:`tests.sixth_game.register`; see docs/adding-a-game.md.
"""

from .ai import choose
from .render import render
from .rules import RULES, TicTacToeRules, TicTacToeState, TicTacToeView

__all__ = ["RULES", "TicTacToeRules", "TicTacToeState", "TicTacToeView", "choose", "render"]
