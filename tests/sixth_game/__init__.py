"""The sixth game: tic-tac-toe, an engine package (``tictactoe/``) and one cog (``cog.py``) that live here.

The product knows nothing about it. A test adds it to the registry with :func:`register` and loads
:data:`EXTENSION` as one more extension of ``ParlorBot``; :func:`unregister` takes it out again, so the
five real games' tests (``/help`` lists five games) never see it.
"""

from __future__ import annotations

from bot import games

KEY = "tictactoe"
MODULE = "tests.sixth_game.tictactoe"
EXTENSION = "tests.sixth_game.cog"
GAME = games.Game(KEY, "tictactoe", MODULE)
"""The game as the registry would hold it (for engine tests, which need no registration)."""


def register() -> games.Game:
    return games.register(KEY, MODULE)


def unregister() -> None:
    games.unregister(KEY)
