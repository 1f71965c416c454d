# The compiled board scan, capture quiescence, move list, move order, stacking search and placement playouts
# (_scan.c, built by setup.py where a C compiler is found): boardscan.scan_full_python, search.Search's
# quiesce, stackings, _order's sort and negamax, ai._playouts_python and ai._uct_python, their arguments by
# position.
from collections.abc import Callable

def scan_full(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, caps: list[int] | None,
              weights: tuple[list[float], tuple[float, ...]],
              reach: list[tuple[tuple[int, ...], ...]], empty_reaches: bool = ..., /) -> tuple[int, bool]: ...
def quiesce(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, alpha: int, beta: int,
            depth: int, stacks: int, table: list[tuple[list[float], tuple[float, ...]]],
            reach: list[tuple[tuple[int, ...], ...]], nodes: int, budget: int, deadline: float,
            clock: Callable[[], float], win: int, leaf: bool = ..., /) -> tuple[int, int, int]: ...
def stackings(h: list[int], ts: list[int], bs: list[int], neighbours: tuple[tuple[int, ...], ...],
              /) -> list[int]: ...
def order(moves: list[int], top: list[int], h: list[int], side: int, first: int,
          killers: list[int] | tuple[int, ...], history: dict[int, int], place: int, /) -> list[int]: ...
def playouts(top: list[int], ts: list[int], stash: list[int], turn: int, seat: int, n: int, state: int,
             neighbours: tuple[tuple[int, ...], ...],
             table: list[tuple[list[float], tuple[float, ...]]] | None = ..., qdepth: int = ...,
             win: int = ..., /) -> tuple[int, int]: ...
def uct(top: list[int], ts: list[int], stash: list[int], turn: int, sims: int, state: int, c: float,
        deadline: float, clock: Callable[[], float], neighbours: tuple[tuple[int, ...], ...],
        table: list[tuple[list[float], tuple[float, ...]]] | None = ..., qdepth: int = ..., win: int = ...,
        scale: float = ..., /) -> tuple[list[tuple[int, int, float]], int, int]: ...
def negamax(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, alpha: int, beta: int,
            depth: int, ply: int, stacks: int, key: int, table: list[tuple[list[float], tuple[float, ...]]],
            reach: list[tuple[tuple[int, ...], ...]], zobrist: list[list[int]], nodes: int, budget: int,
            deadline: float, clock: Callable[[], float], win: int, qdepth: int, pvs: bool, inf: int,
            ctx: object, exact: bool, neighbours: tuple[tuple[int, ...], ...],
            /) -> tuple[int, int, int, bool]: ...
def new_context() -> object: ...
def history(ctx: object, /) -> dict[int, int]: ...
