"""The registry of games: ``GAMES[key]`` gives a game's engine, renderer and AI.

Each game package ``bot/games/<package>/__init__.py`` exports:

* ``RULES`` — an object following :class:`bot.games.base.Rules`;
* ``render(view, *, names=None, events=(), clocks=None) -> PIL.Image.Image``;
* ``choose(state, seat, rng, level) -> move`` (only games with AI levels);
* optionally ``animate(view_before, events, view_after, *, names=None, speed="normal")
  -> list[tuple[Image, int]]`` (frames with their durations in ms).

A game package kept outside ``bot/games/`` (the test suite's sixth game) joins
with :func:`register` and leaves with :func:`unregister`; see docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

from bot.games.base import GameSpec, Rules

PACKAGES: dict[str, str] = {
    "pylon": "pylon",
    "fireandice": "fire_and_ice",
    "eggcarton": "egg_carton",
    "eof": "eof",
    "nomic": "nomic",
}

TITLES: dict[str, str] = {
    "pylon": "Pylon",
    "fireandice": "Fire and Ice",
    "eggcarton": "The Egg Carton Game",
    "eof": "EOF",
    "nomic": "Nomic World",
}
"""Titles without importing the engines (for command choices built at import time)."""
RATED = ("pylon", "fireandice", "eggcarton", "eof")


@dataclass(frozen=True)
class Game:
    """A registered game, imported on first use."""

    key: str
    package: str
    module_name: str = ""
    """The package's import path; empty for ``bot.games.<package>``."""

    @cached_property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name or f"bot.games.{self.package}")

    @property
    def rules(self) -> Rules[Any, Any]:
        rules: Rules[Any, Any] = self.module.RULES
        return rules

    @property
    def spec(self) -> GameSpec:
        return self.rules.spec

    @property
    def render(self) -> Callable[..., Any]:
        render: Callable[..., Any] = self.module.render
        return render

    @property
    def choose(self) -> Callable[..., Any] | None:
        return getattr(self.module, "choose", None)

    @property
    def animate(self) -> Callable[..., Any] | None:
        return getattr(self.module, "animate", None)


GAMES: dict[str, Game] = {key: Game(key, pkg) for key, pkg in PACKAGES.items()}


def register(key: str, module_name: str) -> Game:
    """Add the game package ``module_name`` (importable, exporting ``RULES`` and ``render``) as ``key``."""
    if key in GAMES:
        raise ValueError(f"a game {key!r} is registered already")
    game = Game(key, module_name.rsplit(".", 1)[-1], module_name)
    if game.spec.key != key:
        raise ValueError(f"{module_name} is the game {game.spec.key!r}, not {key!r}")
    GAMES[key] = game
    TITLES[key] = game.spec.title
    return game


def unregister(key: str) -> None:
    """Remove a game added by :func:`register` (the five built-in games stay)."""
    if key in PACKAGES:
        raise ValueError(f"{key!r} is a built-in game")
    GAMES.pop(key, None)
    TITLES.pop(key, None)


def available() -> dict[str, Game]:
    """The games whose packages import (all five once they are built)."""
    out = {}
    for key, game in GAMES.items():
        try:
            if not hasattr(game.module, "RULES"):
                continue
        except ImportError:
            continue
        out[key] = game
    return out
