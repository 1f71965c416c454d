# The compiled board scan and capture quiescence (_scan.c, built by setup.py where a C compiler is found):
# boardscan.scan_full_python and search.Search.quiesce, their arguments by position.
from collections.abc import Callable

def scan_full(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, caps: list[int] | None,
              weights: tuple[list[float], tuple[float, ...]],
              reach: list[tuple[tuple[int, ...], ...]], empty_reaches: bool = ..., /) -> tuple[int, bool]: ...
def quiesce(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, alpha: int, beta: int,
            depth: int, stacks: int, table: list[tuple[list[float], tuple[float, ...]]],
            reach: list[tuple[tuple[int, ...], ...]], nodes: int, budget: int, deadline: float,
            clock: Callable[[], float], win: int, /) -> tuple[int, int, int]: ...
