# The compiled board scan, capture quiescence, move list and move order (_scan.c, built by setup.py where a
# C compiler is found): boardscan.scan_full_python and search.Search's quiesce, stackings and _order's sort,
# their arguments by position.
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
             neighbours: tuple[tuple[int, ...], ...], /) -> tuple[int, int]: ...
def uct(top: list[int], ts: list[int], stash: list[int], turn: int, sims: int, state: int, c: float,
        deadline: float, clock: Callable[[], float], neighbours: tuple[tuple[int, ...], ...],
        /) -> tuple[list[tuple[int, int, float]], int, int]: ...
