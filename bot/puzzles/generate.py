"""Finding puzzles: positions of real games where the side to move has a proved forced win (offline).

``python -m bot puzzles`` runs this (``nice`` it: it is a batch job, never the bot's event loop). Games
come from two places: the engines' own games (seeded: each side plays the game's computer opponent at
its middle level, with a random move now and then so that no two games are alike), and, with
``--from-db``, the finished matches of a server's database (every position of every finished Pylon,
Fire and Ice and Egg Carton match, replayed from its move log). Every position goes through the same
finder (:func:`find`): the fewest own moves that force a win (Pylon: the stacking phase solved to the
end), kept when some legal move does *not* win (a puzzle must be one), and when the search finished
within its node budget.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.games.base import CHANCE, Chance
from bot.puzzles.games import SEARCHES
from bot.puzzles.search import Prover, TooDeep, tree_size

DEPTHS = {"pylon": 15, "fireandice": 3, "eggcarton": 4}
"""The most own moves a puzzle's win may take (Pylon: the whole rest of the game, solved exactly)."""
BUDGET = {"pylon": 60_000, "fireandice": 40_000, "eggcarton": 40_000}
"""Search nodes per position; a position needing more is skipped."""
MAX_TREE = 300
"""The most accepted moves (over all branches) a shipped solution tree may hold."""
PYLON_MOVES = 14
"""Pylon puzzles start with at most this many legal stackings on the board (a last phase)."""
LEVEL = {"pylon": "medium", "fireandice": "medium", "eggcarton": "beginner"}


def find(game: str, state: Any, *, budget: int | None = None) -> dict[str, Any] | None:
    """The puzzle at ``state`` (an engine state), or None: no forced win, nothing to choose, or too deep.

    The result holds the side to move (``seat``), the fewest own moves that win (``depth``) and the
    solution tree (every winning move at each turn, the opponent's best reply after each)."""
    rules = GAMES[game].rules
    search = SEARCHES[game]
    who = rules.to_act(state)
    if not isinstance(who, frozenset) or len(who) != 1:
        return None
    seat = next(iter(who))
    if game == "pylon" and state.is_placement:
        return None
    s = search.to_search(state)
    moves = search.moves(s)
    if len(moves) < 2 or (game == "pylon" and len(moves) > PYLON_MOVES):
        return None
    prover = Prover(search, seat, budget or BUDGET[game])
    try:
        if game == "pylon":
            depth = DEPTHS[game] if prover.wins(s, DEPTHS[game]) else None
        else:
            depth = prover.fastest(s, DEPTHS[game])
        if depth is None:
            return None
        winning = prover.winning(s, depth)
        if len(winning) == len(moves):
            return None
        tree = prover.tree(s, depth)
    except TooDeep:
        return None
    if tree_size(tree) > MAX_TREE:
        return None
    if game == "pylon":
        depth = _longest(tree)
    return {"game": game, "seat": seat, "depth": depth, "state": rules.dump(state), "tree": tree}


def _longest(tree: dict[str, Any] | None) -> int:
    """The most solver moves along any branch (Pylon's shown "win in" count)."""
    if not tree:
        return 0
    return max(1 + _longest(b["n"]) for b in tree.values())


def engine_game(game: str, seed: int) -> Iterator[Any]:
    """Every position of one seeded game of the engine against itself (middle level, a random move
    in five)."""
    g = GAMES[game]
    rules, choose = g.rules, g.choose
    rng = random.Random(seed)
    options = {"marbles": str(rng.choice((2, 3, 3, 4)))} if game == "eggcarton" else {}
    state = rules.initial(options, 2)
    for _ply in range(400):
        yield state
        who = rules.to_act(state)
        if who is None:
            return
        if isinstance(who, Chance):
            state, _ = rules.apply(state, CHANCE, rng.choice(who.outcomes))
            continue
        seat = min(who)
        legal = [m for m in rules.legal_moves(state, seat) if str(m) != "agree"]
        if choose is None or rng.random() < 0.2:
            move = rng.choice(legal)
        else:
            move = choose(state, seat, rng, LEVEL[game])
        state, _ = rules.apply(state, seat, move)


def match_positions(game: str, moves: Iterable[tuple[int, str]], options: dict[str, Any]) -> Iterator[Any]:
    """Every position of a finished match, replayed from its log of ``(seat, notation)``."""
    rules = GAMES[game].rules
    state = rules.initial(options, 2)
    yield state
    for seat, text in moves:
        state, _ = rules.apply(state, seat, rules.parse(text, state, seat))
        yield state


def key_of(p: dict[str, Any]) -> str:
    return json.dumps([p["game"], p["state"].get("board") or p["state"].get("slots"), p["seat"]],
                      sort_keys=True)


def collect(game: str, positions: Iterable[Any], found: dict[str, dict[str, Any]], source: str,
            *, deadline: float) -> None:
    for state in positions:
        if time.monotonic() > deadline:
            return
        p = find(game, state)
        if p is not None:
            k = key_of(p)
            if k not in found:
                found[k] = {**p, "source": source}


def choose_mix(found: Iterable[dict[str, Any]], count: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``count`` puzzles, spread over their depths (deep ones first), in a seeded order."""
    by_depth: dict[int, list[dict[str, Any]]] = {}
    for p in found:
        by_depth.setdefault(p["depth"], []).append(p)
    rng = random.Random(seed)
    for group in by_depth.values():
        rng.shuffle(group)
    out: list[dict[str, Any]] = []
    while len(out) < count and any(by_depth.values()):
        for d in sorted(by_depth, reverse=True):
            if by_depth[d] and len(out) < count:
                out.append(by_depth[d].pop())
    rng.shuffle(out)
    return out


def build(games: Iterable[str], count: int, seconds: float, seed: int = 1,
          extra: dict[str, list[tuple[str, Iterable[Any]]]] | None = None,
          engine_games: int | None = None) -> list[dict[str, Any]]:
    """About ``count`` puzzles per game, searching each game for at most ``seconds``: the ``extra`` positions
    (a server's finished matches) first, then games the engine plays itself (at most ``engine_games`` of
    them, if given)."""
    out: list[dict[str, Any]] = []
    for game in games:
        found: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + seconds
        for source, positions in (extra or {}).get(game, []):
            collect(game, positions, found, source, deadline=deadline)
        g = 0
        while len(found) < 3 * count and time.monotonic() < deadline and (
                engine_games is None or g < engine_games):
            g += 1
            label = f"engine game {seed * 1000 + g}"  # not translated: the puzzle file's source field
            collect(game, engine_game(game, seed * 1000 + g), found, label,
                    deadline=deadline)
        picked = choose_mix(found.values(), count, seed)
        picked.sort(key=lambda p: (p["depth"], p["source"]))
        for n, p in enumerate(picked, 1):
            out.append({"id": f"{game}-{n}", **p})
    return out


def write(puzzles: list[dict[str, Any]], path: Path) -> None:
    path.write_text(json.dumps({"v": 1, "puzzles": puzzles}, separators=(",", ":"), sort_keys=True) + "\n")
