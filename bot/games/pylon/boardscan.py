"""The board scan of Pylon hard's learned evaluation (see :mod:`bot.games.pylon.search`): one pass over a
position's four per-square lists gives the evaluation for a side, whether any stacking is left, and that
side's captures. The search's weights and their tables stay in ``search``, where benches set them.

:func:`scan_full` is compiled where the package was built with a C compiler (``_scan.c``, see ``setup.py``):
the same values, captures and order as :func:`scan_full_python`, about five times as fast. So are the
search's capture quiescence (:data:`quiesce`) and its whole stacking negamax (:data:`stacking_search`), on C
arrays, and hard's placement playouts (:data:`playouts`). ``COMPILED`` says
whether they run; ``PARLOR_PURE_PYTHON_SCAN=1`` in the environment keeps the pure-Python ones (tests compare
the two)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Final, NamedTuple, Protocol

from bot.games.pylon.notation import NEIGHBOURS, SQUARES

Folded = tuple[list[float], tuple[float, ...]]
"""The evaluation's weights doubled (half-pyramids), and per top size the margin's weight plus that size's."""
Reach = list[tuple[tuple[int, ...], ...]]
"""Per square and top size, the neighbours whose bottom fits (:func:`reach_lists`)."""

_NB: Final = NEIGHBOURS  # ascending: the captures are listed in this order


def scan(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int,
     caps: list[int] | None, weights: Folded) -> tuple[int, bool]:
    """One pass over a position (height, top owner, top size and bottom size per square): the learned
    evaluation for ``side`` and whether any stacking is left; ``side``'s captures (its stack onto an
    opponent's) are appended to ``caps`` if it is given. ``weights``: an entry of the search's weight table
    (``search.folded_weights`` of the position's stack count). In placement an empty square's bottom reads
    0: any pyramid may still arrive there, so it reaches every neighbour."""
    return scan_full(h, top, ts, bs, side, caps, weights, reach_lists(bs), True)


def reach_lists(bs: list[int]) -> Reach:
    """Per square and top size, the neighbours whose bottom pyramid is small enough to go onto that top.

    Once the board is full a stack's bottom never changes and a vacated square stays empty, so these
    lists hold for the rest of the game (an empty neighbour is skipped by its height)."""
    return [tuple(tuple(n for n in _NB[y] if bs[n] <= t) for t in range(4)) for y in range(SQUARES)]


def scan_full_python(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int,
                     caps: list[int] | None, weights: Folded, reach: Reach,
                     empty_reaches: bool = False) -> tuple[int, bool]:
    """:func:`scan` with ``reach`` from :func:`reach_lists` of the bottoms: on a full board (the stacking
    phase) the lists built once hold for the rest of the game. ``empty_reaches``: an empty square in the
    lists counts as reaching its neighbour (fresh lists in placement; never for lists kept while stacks
    are vacated)."""
    w, w_size = weights
    w_stack, w_bot1, w_locked = w[6], w[11], w[1]
    acc = 0.0
    cap_me = cap_them = maxcap_me = maxcap_them = mob = 0
    anymove = False
    for y in range(SQUARES):
        hy = h[y]
        if not hy:
            continue
        o = top[y]
        v = hy * w_size[ts[y]] + w_stack + (w_bot1 if bs[y] == 1 else 0.0)
        reached = near = cap = False
        for n in reach[y][ts[y]]:
            if h[n]:
                reached = True
                if top[n] == side:
                    mob += 1
                    if o != side:
                        cap = True
                        if caps is not None:
                            caps.append(n * 32 + y)
                else:
                    mob -= 1
                    if o == side:
                        cap = True
            elif empty_reaches:
                near = True
        if reached:
            anymove = True
        elif not near:
            v += hy * w_locked
        if o == side:
            acc += v
            if cap:
                cap_them += hy
                if hy > maxcap_them:
                    maxcap_them = hy
        else:
            acc -= v
            if cap:
                cap_me += hy
                if hy > maxcap_me:
                    maxcap_me = hy
    acc += w[2] * cap_me + w[3] * cap_them + w[4] * maxcap_me + w[5] * maxcap_them + w[10] * mob
    return round(acc), anymove


class ScanFull(Protocol):
    """:func:`scan_full_python`'s signature, its arguments by position (as the compiled one takes them)."""

    def __call__(self, h: list[int], top: list[int], ts: list[int], bs: list[int], side: int,
                 caps: list[int] | None, weights: Folded, reach: Reach, empty_reaches: bool = ...,
                 /) -> tuple[int, bool]: ...


class Quiesce(Protocol):
    """The compiled capture quiescence (``search.Search.quiesce`` on a full board, see ``_scan.pyi``)."""

    def __call__(self, h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, alpha: int,
                 beta: int, depth: int, stacks: int, table: list[Folded], reach: Reach, nodes: int,
                 budget: int, deadline: float, clock: Callable[[], float], win: int, leaf: bool = ...,
                 /) -> tuple[int, int, int]: ...


class Stackings(Protocol):
    """The compiled ``search.Search.stackings`` (``_scan.pyi``)."""

    def __call__(self, h: list[int], ts: list[int], bs: list[int], neighbours: tuple[tuple[int, ...], ...],
                 /) -> list[int]: ...


class Order(Protocol):
    """The compiled sort of ``search.Search._order`` (``_scan.pyi``)."""

    def __call__(self, moves: list[int], top: list[int], h: list[int], side: int, first: int,
                 killers: list[int] | tuple[int, ...], history: dict[int, int], place: int,
                 /) -> list[int]: ...


class Playouts(Protocol):
    """The placement judge's quick playouts: ``ai._playouts_python``'s arguments, by position
    (``_scan.pyi``); with a weight table, quiescence depth and win bonus, ended by the search's judgement."""

    def __call__(self, top: list[int], ts: list[int], stash: list[int], turn: int, seat: int, n: int,
                 state: int, neighbours: tuple[tuple[int, ...], ...], table: list[Folded] | None = ...,
                 qdepth: int = ..., win: int = ..., /) -> tuple[int, int]: ...


class Uct(Protocol):
    """The placement judge's tree search, ``ai._uct_python``'s arguments by position (``_scan.pyi``)."""

    def __call__(self, top: list[int], ts: list[int], stash: list[int], turn: int, sims: int, state: int,
                 c: float, deadline: float, clock: Callable[[], float],
                 neighbours: tuple[tuple[int, ...], ...], table: list[Folded] | None = ..., qdepth: int = ...,
                 win: int = ..., scale: float = ..., /) -> tuple[list[tuple[int, int, float]], int, int]: ...


def _pure_python_asked() -> bool:
    return os.environ.get("PARLOR_PURE_PYTHON_SCAN", "") not in ("", "0")


def _compiled() -> tuple[ScanFull, Quiesce, Stackings, Order, Playouts, Uct] | None:
    if _pure_python_asked():
        return None
    try:
        from bot.games.pylon._scan import order, playouts, stackings, uct
        from bot.games.pylon._scan import quiesce as compiled_quiesce
        from bot.games.pylon._scan import scan_full as compiled_scan
    except ImportError:
        return None
    return compiled_scan, compiled_quiesce, stackings, order, playouts, uct


class Negamax(Protocol):
    """The compiled ``search.Search.negamax`` on a full board (``_scan.pyi``)."""

    def __call__(self, h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, alpha: int,
                 beta: int, depth: int, ply: int, stacks: int, key: int, table: list[Folded], reach: Reach,
                 zobrist: list[list[int]], nodes: int, budget: int, deadline: float,
                 clock: Callable[[], float], win: int, qdepth: int, pvs: bool, inf: int, ctx: object,
                 exact: bool, neighbours: tuple[tuple[int, ...], ...], /) -> tuple[int, int, int, bool]: ...


class CompiledSearch(NamedTuple):
    """The compiled stacking search: ``negamax``, a context per search (its table, killers and history)
    and the history counts of a context, for the root's move order."""

    negamax: Negamax
    new_context: Callable[[], object]
    history: Callable[[object], dict[int, int]]


def _compiled_search() -> CompiledSearch | None:
    if _pure_python_asked():
        return None
    try:
        from bot.games.pylon._scan import history, negamax, new_context
    except ImportError:
        return None
    return CompiledSearch(negamax, new_context, history)


_COMPILED: Final = _compiled()
COMPILED: Final = _COMPILED is not None
"""Whether :func:`scan_full` and the search's compiled parts (:data:`quiesce`, :data:`stackings`,
:data:`order`, :data:`stacking_search`, and hard's placement :data:`playouts` and :data:`uct`) are compiled
(``_scan.c``): a build with a C compiler, and ``PARLOR_PURE_PYTHON_SCAN`` not set."""
scan_full: Final[ScanFull] = _COMPILED[0] if _COMPILED else scan_full_python
"""The full-board scan (:func:`scan_full_python`'s arguments, by position): compiled where it was built."""
quiesce: Final[Quiesce | None] = _COMPILED[1] if _COMPILED else None
stackings: Final[Stackings | None] = _COMPILED[2] if _COMPILED else None
order: Final[Order | None] = _COMPILED[3] if _COMPILED else None
playouts: Final[Playouts | None] = _COMPILED[4] if _COMPILED else None
uct: Final[Uct | None] = _COMPILED[5] if _COMPILED else None
stacking_search: Final[CompiledSearch | None] = _compiled_search() if _COMPILED else None
"""The compiled capture quiescence, move list, move order, placement playouts and placement tree search,
where they were built (``None``: the search and the placement judge run their own Python)."""
