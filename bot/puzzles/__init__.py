"""Puzzles: positions where the side to move has a forced win, each solution proved by search.

The puzzles ship as package data (``puzzles.json``, written offline by ``python -m bot puzzles``, see
:mod:`bot.puzzles.generate`). A puzzle is an engine position (the engine's own ``dump``), the solver's
seat, the win's length in own moves and its solution tree (:mod:`bot.puzzles.search`): at each of the
solver's turns every move that still wins, and the opponent's best reply to it. Answering is pure
(:func:`answer`): the try goes through the engine (illegal: the engine's reason, nothing changes), then
through the tree (a move in it is right; any other legal move fails the puzzle). No search runs while
a player answers: the tree was proved when the file was built, and the tests prove it again.

Puzzles never touch matches or ratings; who solved what is stored per server (migration 009).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from bot.games import GAMES
from bot.games.base import GameError
from bot.i18n import _

PUZZLE_GAMES = ("pylon", "fireandice", "eggcarton")


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    seat: int
    depth: int
    state: dict[str, Any]
    tree: dict[str, Any]
    source: str = ""

    @property
    def number(self) -> int:
        return int(self.id.rsplit("-", 1)[1])


@dataclass(frozen=True)
class Verdict:
    """One try: ``ok`` (a right move: ``replies`` answered it, ``solved`` when the win is complete),
    ``failed`` (a legal move that lets the win go), or neither (unreadable or illegal: ``message``)."""

    ok: bool
    message: str = ""
    failed: bool = False
    solved: bool = False
    move: str = ""
    replies: tuple[str, ...] = ()
    path: tuple[int, ...] = ()
    state: Any = None
    events: list[Any] = field(default_factory=list)


@cache
def all_puzzles() -> tuple[Puzzle, ...]:
    """Every shipped puzzle (read once from the package data)."""
    data = json.loads(resources.files("bot.puzzles").joinpath("puzzles.json").read_text("utf-8"))
    return tuple(Puzzle(p["id"], p["game"], p["seat"], p["depth"], p["state"], p["tree"], p.get("source", ""))
                 for p in data["puzzles"])


def puzzles_of(game: str) -> tuple[Puzzle, ...]:
    return tuple(p for p in all_puzzles() if p.game == game)


def puzzle(game: str, number: int) -> Puzzle | None:
    found = puzzles_of(game)
    return found[number - 1] if 1 <= number <= len(found) else None


def choices(tree: dict[str, Any]) -> list[str]:
    """The accepted moves of a node, in a fixed order (what a path's indices count)."""
    return sorted(tree)


def node(p: Puzzle, path: tuple[int, ...]) -> tuple[Any, dict[str, Any] | None]:
    """(engine state, solution node) after the solver's moves ``path`` (indices into :func:`choices`) and
    the opponent's replies to them.

    Raises:
        KeyError: the path leaves the tree (an old or forged button).
    """
    rules = GAMES[p.game].rules
    state = rules.load(p.state)
    tree: dict[str, Any] | None = p.tree
    for k in path:
        if tree is None or not 0 <= k < len(tree):
            raise KeyError(k)
        move = choices(tree)[k]
        state, _events = rules.apply(state, p.seat, rules.parse(move, state, p.seat))
        for reply in tree[move]["r"]:
            other = 1 - p.seat
            state, _events = rules.apply(state, other, rules.parse(reply, state, other))
        tree = tree[move]["n"]
    return state, tree


def answer(p: Puzzle, path: tuple[int, ...], text: str) -> Verdict:
    """The solver's try ``text`` (notation) after ``path``."""
    rules = GAMES[p.game].rules
    state, tree = node(p, path)
    if tree is None:
        return Verdict(False, _("This puzzle is already solved."))
    try:
        move = rules.parse(text, state, p.seat)
        notation = rules.format(move, state)
    except GameError as exc:
        return Verdict(False, str(exc).split("\n")[0])
    if notation not in tree:
        after, events = rules.apply(state, p.seat, move)
        return Verdict(False, "", failed=True, move=notation, state=after, events=events)
    after, events = rules.apply(state, p.seat, move)
    for reply in tree[notation]["r"]:
        after, more = rules.apply(after, 1 - p.seat, rules.parse(reply, after, 1 - p.seat))
        events = [*events, *more]
    new_path = (*path, choices(tree).index(notation))
    return Verdict(True, "", solved=tree[notation]["n"] is None, move=notation,
                   replies=tuple(tree[notation]["r"]), path=new_path, state=after, events=events)


def verify(p: Puzzle, *, budget: int = 2_000_000) -> None:
    """Prove ``p`` again from its position: the same fewest moves, the same tree (every winning move at
    every turn, the same best replies), and every move of it legal on the engine.

    Raises:
        AssertionError: the puzzle does not hold.
    """
    from bot.puzzles.games import SEARCHES
    from bot.puzzles.generate import DEPTHS, _longest
    from bot.puzzles.search import Prover

    rules = GAMES[p.game].rules
    state = rules.load(p.state)
    search = SEARCHES[p.game]
    s = search.to_search(state)
    prover = Prover(search, p.seat, budget)
    if p.game == "pylon":
        assert prover.wins(s, DEPTHS["pylon"]), p.id
        tree = prover.tree(s, DEPTHS["pylon"])
        assert _longest(tree) == p.depth, p.id
    else:
        assert prover.fastest(s, p.depth) == p.depth, p.id
        tree = prover.tree(s, p.depth)
    assert tree == p.tree, f"{p.id}: the solution tree differs"
    assert len(tree) < len(search.moves(s)), f"{p.id}: every move wins"

    def walk(path: tuple[int, ...], t: dict[str, Any]) -> None:
        for k, move in enumerate(choices(t)):
            v = answer(p, path, move)
            assert v.ok, (p.id, path, move, v.message)
            if t[move]["n"] is None:
                out = rules.outcome(v.state)
                assert out is not None and out.winners == frozenset({p.seat}), (p.id, path, move)
            else:
                walk(v.path, t[move]["n"])
                assert v.path == (*path, k)

    walk((), p.tree)


__all__ = ["PUZZLE_GAMES", "Puzzle", "Verdict", "all_puzzles", "answer", "choices", "node", "puzzle",
           "puzzles_of", "verify"]
