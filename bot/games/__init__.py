"""The registry of games: ``GAMES[key]`` gives a game's engine, renderer and AI.

Each game package ``bot/games/<package>/__init__.py`` exports:

* ``RULES`` — an object following :class:`bot.games.base.Rules`;
* ``render(view, *, names=None, events=(), clocks=None) -> PIL.Image.Image``;
* ``choose(state, seat, rng, level) -> move`` (only games with AI levels);
* optionally ``animate(view_before, events, view_after, *, names=None, speed="normal")
  -> list[tuple[Image, int]]`` (frames with their durations in ms).

Every package under ``bot/games/`` that exports ``RULES`` is a game (found on first use; see
:class:`_Registry`). A game package kept outside ``bot/games/`` (the test suite's sixth game) joins
with :func:`register` and leaves with :func:`unregister`; see docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any, overload

from bot.games.base import GameSpec, Rules


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


class _Registry(Mapping[str, Game]):
    """Every game package under ``bot/games/`` (found on first use), plus those added by :func:`register`.

    A package is a game when it exports ``RULES``; its key, title, list position and whether it is
    rated come from ``RULES.spec``, so a new game needs only its folder here (and its cog).
    """

    def __init__(self) -> None:
        self._games: dict[str, Game] | None = None
        self._builtin: frozenset[str] = frozenset()

    def _all(self) -> dict[str, Game]:
        if self._games is None:
            found: list[Game] = []
            for info in pkgutil.iter_modules(__path__):
                if not info.ispkg:
                    continue
                module = importlib.import_module(f"{__name__}.{info.name}")
                rules = getattr(module, "RULES", None)
                if rules is None:
                    continue
                found.append(Game(rules.spec.key, info.name))
            found.sort(key=lambda g: (g.spec.order, g.spec.title))
            self._games = {g.key: g for g in found}
            self._builtin = frozenset(self._games)
        return self._games

    def builtin(self) -> frozenset[str]:
        """The keys of the packages under ``bot/games/``."""
        self._all()
        return self._builtin

    def __getitem__(self, key: str) -> Game:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def add(self, game: Game) -> None:
        games = self._all()
        games[game.key] = game
        self._games = dict(sorted(games.items(), key=lambda kv: (kv[1].spec.order, kv[1].spec.title)))

    def remove(self, key: str) -> None:
        self._all().pop(key, None)


class _Titles(Mapping[str, str]):
    """Each game's title by key, in list order."""

    def __getitem__(self, key: str) -> str:
        return GAMES[key].spec.title

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


class _Rated(Sequence[str]):
    """The keys of the games counted on the leaderboards, in list order."""

    def _keys(self) -> list[str]:
        return [k for k, g in GAMES.items() if g.spec.rated]

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._keys()[i]

    def __len__(self) -> int:
        return len(self._keys())


GAMES = _Registry()
TITLES = _Titles()
RATED = _Rated()


def register(key: str, module_name: str) -> Game:
    """Add the game package ``module_name`` (importable, exporting ``RULES`` and ``render``) as ``key``."""
    if key in GAMES:
        raise ValueError(f"a game {key!r} is registered already")
    game = Game(key, module_name.rsplit(".", 1)[-1], module_name)
    if game.spec.key != key:
        raise ValueError(f"{module_name} is the game {game.spec.key!r}, not {key!r}")
    GAMES.add(game)
    return game


def unregister(key: str) -> None:
    """Remove a game added by :func:`register` (the games under ``bot/games/`` stay)."""
    if key in GAMES.builtin():
        raise ValueError(f"{key!r} is a built-in game")
    GAMES.remove(key)


def two_player() -> tuple[str, ...]:
    """The keys of the games for exactly two players (those a tournament can pair)."""
    return tuple(k for k, g in GAMES.items() if g.spec.min_seats == 2 and g.spec.max_seats == 2)
