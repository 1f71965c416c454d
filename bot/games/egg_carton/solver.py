"""Exact endgame solver for the Egg Carton Game (pure: no discord, no clock, no randomness).

A position is a 14-byte ring seen from the player about to pick: bytes 0–5
their slots (A–F for player 1, I–N for player 2), 6 and 13 the end zones
(always 0 here), 7–12 the opponent's slots. Picks at turn start and picks
after rule A are the same kind of position (the same player picks a slot),
so the solver works pick by pick and a whole turn, relays and repicks
included, is simply a chain of such positions with the same player to pick.

The game graph has no cycles, which is what lets a plain memoised search be
exact: every pick either drops a marble off the board or, when it stays on
the mover's own side, moves marbles towards that side's end (the sum of the
marbles' places within their side grows), so no position can come back.

Values are won/lost for the player to pick; a won position stays won when the
player keeps picking won children, and the game then ends in a win because it
cannot cycle. The table keeps proven values only (facts, the same whoever
asked first), so sharing it between searches changes their speed, never their
answers.

Memory is bounded by ``max_entries``: a 14-byte key and its bool cost about
80 bytes in the dict (measured with tracemalloc), so the default 400,000
entries stay near 32 MB; when full the table is cleared (and refilled by the
next searches). A search with a node budget adds at most one entry per node:
the expert's 100,000 come to about 8 MB, freed after its turn. The expert
makes a fresh solver for each turn, so threads share nothing and the budget
(counted from an empty table) gives the same answer every time.
"""

from __future__ import annotations

Ring = bytes
"""14 cells seen from the player to pick: 0–5 theirs, 6 and 13 end zones (0), 7–12 the opponent's."""

_EMPTY_SIDE = bytes(6)


class OutOfBudget(Exception):
    """The search needed more new positions than its node budget allowed."""


_PLUS_ONE = bytes(range(1, 256)) + b"\xff"
"""``bytes.translate`` table adding one marble to every cell of a slice (counts stay far below 255)."""


def sow(b: bytearray, c: int) -> bool:
    """Sow cell ``c`` of ring ``b`` in place with relays; True when rule A applies (pick again).

    End-zone cells are reset to 0 afterwards. A lap that does not wrap past
    cell 13 adds its marbles with one slice translation.
    """
    h = b[c]
    b[c] = 0
    while True:
        end = c + h
        if end < 14:
            b[c + 1:end + 1] = b[c + 1:end + 1].translate(_PLUS_ONE)
            c = end
        else:
            for _ in range(h):
                c += 1
                if c == 14:
                    c = 0
                b[c] += 1
        if c == 6 or c == 13:
            b[6] = b[13] = 0
            return True
        h = b[c]
        if h == 1:
            b[6] = b[13] = 0
            return False
        b[c] = 0


def children(board: Ring) -> tuple[int | None, list[tuple[int, bool, Ring]]]:
    """The picks of ``board``: a pick that wins at once (or None), and every other pick.

    Each other pick is ``(cell, again, next)``: ``again`` means rule A (the same
    player picks in ``next``); otherwise the turn is over and ``next`` is seen
    from the opponent. A pick that would empty the opponent's side cannot
    happen (rulings.md) and is left out.

    Order (the search's move ordering): rule-A picks first, then the others,
    each from F down to A; on sampled endgames this needs about a third of
    the positions slot order does.
    """
    agains: list[tuple[int, bool, Ring]] = []
    ends: list[tuple[int, bool, Ring]] = []
    for c in range(5, -1, -1):
        if not board[c]:
            continue
        b = bytearray(board)
        again = sow(b, c)
        if b[:6] == _EMPTY_SIDE:
            return c, []
        if again:
            agains.append((c, True, bytes(b)))
        elif b[7:13] != _EMPTY_SIDE:
            ends.append((c, False, bytes(b[7:] + b[:7])))
    return None, agains + ends


class Solver:
    """Memoised exact search of won/lost, pick by pick.

    ``nodes`` counts positions this solver has expanded (its table misses);
    :meth:`wins` raises :class:`OutOfBudget` past ``node_budget`` expansions.
    """

    def __init__(self, max_entries: int = 400_000) -> None:
        self.max_entries = max_entries
        self.table: dict[Ring, bool] = {}
        self.nodes = 0
        self.node_budget: int | None = None

    def wins(self, board: Ring) -> bool:
        """True when the player to pick in ``board`` can force a win."""
        table = self.table
        hit = table.get(board)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise OutOfBudget
        win, picks = children(board)
        result = win is not None
        if not result:
            # a child already known to be good for us settles it without search
            for _, again, nxt in picks:
                known = table.get(nxt)
                if known is not None and known == again:
                    result = True
                    break
        if not result:
            for _, again, nxt in picks:
                if self.wins(nxt) == again:
                    result = True
                    break
        if len(table) >= self.max_entries:
            table.clear()
        table[board] = result
        return result

    def winning_pick(self, board: Ring) -> int | None:
        """A pick that keeps ``board`` won (one winning at once if any), or None when it is lost.

        The first such pick in :func:`children`'s fixed order, so the answer depends on the
        position only.
        """
        win, picks = children(board)
        if win is not None:
            return win
        for c, again, nxt in picks:
            if self.wins(nxt) == again:
                return c
        return None


def winning_turn(board: Ring, node_budget: int | None = None,
                 solver: Solver | None = None) -> tuple[int, ...] | None:
    """The picks of a whole turn that keeps ``board`` won, or None when it is lost or out of budget.

    The turn follows :meth:`Solver.winning_pick` through every rule-A repeat until
    the turn ends (the opponent then faces a lost position) or the mover wins.
    Without ``solver`` a fresh one is used, so with a ``node_budget`` the
    answer, including running out, depends on ``board`` alone.
    """
    sv = solver if solver is not None else Solver(max_entries=max(node_budget or 0, 400_000) + 1)
    sv.node_budget = None if node_budget is None else sv.nodes + node_budget
    plan: list[int] = []
    try:
        while True:
            c = sv.winning_pick(board)
            if c is None:
                return None
            plan.append(c)
            b = bytearray(board)
            again = sow(b, c)
            if not again or b[:6] == _EMPTY_SIDE:
                return tuple(plan)
            board = bytes(b)
    except OutOfBudget:
        return None
    finally:
        sv.node_budget = None
