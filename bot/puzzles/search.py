"""The proof search behind every puzzle: a small exhaustive negamax over win/not-win, pure.

A :class:`Game` is a thin view of one engine for search (who moves, the moves, the position after one,
who won); :mod:`bot.puzzles.games` has one per game. :class:`Prover` answers one question exactly:
*can ``me`` force a win with at most ``d`` more moves of its own, whatever the opponent does?* Every
opponent reply is tried (no pruning by heuristics), so a "yes" is a proof and a "no" is one too. A node
budget keeps the generator's time bounded: a position that needs more is skipped (:class:`TooDeep`),
never guessed.

The solution tree of a puzzle (:meth:`Prover.tree`) lists, at each of the solver's turns, **every** move
that still wins within the moves left, and after each the opponent's best reply: the one that makes the
win take longest (ties: the first in move order), so the opponent's answers are the search's
refutation, not a fixed script.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar

S = TypeVar("S", bound=Hashable)
M = TypeVar("M")

Tree = dict[str, Any]
"""``{move notation: {"r": [opponent replies, in notation], "n": next tree or None (won)}}``."""


class TooDeep(Exception):
    """The search needed more nodes than its budget: the position is not used (never guessed)."""


class Game(Protocol[S, M]):
    def mover(self, s: S) -> int | None:
        """The seat to move, or None once the game is over."""
        ...

    def winner(self, s: S) -> int | None:
        """The winner of a finished game (None: a draw, or not over)."""
        ...

    def moves(self, s: S) -> Sequence[M]: ...
    def play(self, s: S, m: M) -> S: ...
    def name(self, s: S, m: M) -> str:
        """The engine's notation of ``m`` in ``s``."""
        ...


class Prover:
    """Exact forced-win search for ``me`` in one game, with a transposition table and a node budget."""

    def __init__(self, game: Game[Any, Any], me: int, budget: int = 200_000) -> None:
        self.game = game
        self.me = me
        self.budget = budget
        self.nodes = 0
        self._known: dict[tuple[Any, int], bool] = {}

    def wins(self, s: Any, d: int) -> bool:
        """Whether ``me`` forces a win from ``s`` with at most ``d`` more own moves (whoever moves)."""
        g = self.game
        mover = g.mover(s)
        if mover is None:
            return g.winner(s) == self.me
        if d <= 0:
            return False
        key = (s, d)
        known = self._known.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise TooDeep(f"more than {self.budget} positions")  # not translated: the generator's own use
        if mover == self.me:
            result = any(self.wins(g.play(s, m), d - 1) for m in g.moves(s))
        else:
            moves = g.moves(s)
            result = bool(moves) and all(self.wins(g.play(s, m), d) for m in moves)
        self._known[key] = result
        return result

    def winning(self, s: Any, d: int) -> list[Any]:
        """Every move of ``me`` (to move in ``s``) after which it still wins within ``d - 1`` own moves."""
        g = self.game
        return [m for m in g.moves(s) if self.wins(g.play(s, m), d - 1)]

    def fastest(self, s: Any, most: int) -> int | None:
        """The fewest own moves (1..``most``) within which ``me`` forces a win from ``s``, or None."""
        for d in range(1, most + 1):
            if self.wins(s, d):
                return d
        return None

    def best_reply(self, s: Any, d: int) -> Any:
        """The opponent's reply in ``s`` that makes ``me``'s forced win (within ``d``) take longest."""
        g = self.game
        best, longest = None, -1
        for m in g.moves(s):
            took = self.fastest(g.play(s, m), d)
            if took is None:
                raise AssertionError("a reply escapes a proved win")  # wins() said every reply loses
            if took > longest:
                best, longest = m, took
        return best

    def tree(self, s: Any, d: int) -> Tree:
        """The solution tree from ``s`` (``me`` to move, a win within ``d`` own moves proved)."""
        g = self.game
        out: Tree = {}
        for m in self.winning(s, d):
            after = g.play(s, m)
            replies: list[str] = []
            while g.mover(after) not in (None, self.me):
                r = self.best_reply(after, d - 1)
                replies.append(g.name(after, r))
                after = g.play(after, r)
            out[g.name(s, m)] = {"r": replies, "n": self.tree(after, d - 1) if g.mover(after) is not None
                                 else None}
        return out


def tree_size(tree: Tree | None) -> int:
    """Moves in a solution tree (the solver's accepted moves, counted over every branch)."""
    if not tree:
        return 0
    return sum(1 + tree_size(branch["n"]) for branch in tree.values())
