# The compiled board scan (_scan.c, built by setup.py where a C compiler is found):
# boardscan.scan_full_python, its arguments by position.
def scan_full(h: list[int], top: list[int], ts: list[int], bs: list[int], side: int, caps: list[int] | None,
              weights: tuple[list[float], tuple[float, ...]],
              reach: list[tuple[tuple[int, ...], ...]], empty_reaches: bool = ..., /) -> tuple[int, bool]: ...
