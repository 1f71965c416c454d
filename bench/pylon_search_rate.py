"""Pylon hard's stacking search at the start of stacking: nodes a second, depth, and the time its nodes take.

Budget: hard's moves stay within ``ai.TIME_CAP`` (1.75 s, under the 2 s a move #32 allows); at the start
of stacking the nodes, not the cap, should decide how far it sees. The positions are random placements
(seeded), each searched by ``search.Search`` with hard's node budget and no time cap, so the figures are
the engine's speed alone ("now" is the compiled search where it was built, see ``boardscan.COMPILED``).
``--python`` also runs the pure-Python search (the same module with every compiled part off)
and ``--compare REV`` search.py of an older commit, in the same run, interleaved (the same positions, the
same load); each says whether it found the same moves as now.

Usage: .venv/bin/python bench/pylon_search_rate.py [--positions 6] [--after 0] [--nodes 600000] [--python]
       [--compare REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from types import ModuleType

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.games.pylon import boardscan, search  # noqa: E402
from bot.games.pylon.ai import LEVEL_WORK, TIME_CAP, choose  # noqa: E402
from bot.games.pylon.notation import Placement  # noqa: E402
from bot.games.pylon.rules import PIECES, RULES, PylonState  # noqa: E402


def start_of_stacking(count: int, seed: int, after: int = 0) -> list[PylonState]:
    """Boards just filled by random placements (``after``: then that many stackings, medium's greedy ones,
    which keep the stacks contested as real play does)."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 1000 + i)
        s = RULES.initial({}, 2)
        while s.placed < PIECES:
            s = RULES.apply(s, s.to_move, rng.choice(
                [m for m in RULES.legal_moves(s, s.to_move) if isinstance(m, Placement)]))[0]
        for _ in range(after):
            if RULES.to_act(s) is None:
                break
            s = RULES.apply(s, s.to_move, choose(s, s.to_move, rng, "medium"))[0]
        out.append(s)
    return out


def older(rev: str) -> ModuleType:
    """search.py as it was at ``rev``, loaded beside the current one."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:bot/games/pylon/search.py"],
                          check=True, capture_output=True, text=True).stdout
    path = pathlib.Path(tempfile.mkdtemp()) / "search_old.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("search_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--after", type=int, default=0, metavar="PLIES",
                   help="search after this many (greedy) stackings instead of at the start of stacking")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--nodes", type=int, default=LEVEL_WORK["hard"][0])
    p.add_argument("--compare", default=None, metavar="REV")
    p.add_argument("--python", action="store_true", help="also run the pure-Python search")
    args = p.parse_args()
    print(f"now: the {'compiled' if boardscan.COMPILED else 'pure-Python'} search")
    engines: dict[str, ModuleType] = {"now": search}
    if args.python:
        engines["python"] = search
    if args.compare:
        engines[args.compare] = older(args.compare)
    seconds: dict[str, list[float]] = {k: [] for k in engines}
    depths: dict[str, list[int]] = {k: [] for k in engines}
    moves: dict[str, list[int]] = {k: [] for k in engines}
    where = f"after {args.after} stackings" if args.after else "at the start of stacking"
    for s in start_of_stacking(args.positions, args.seed, args.after):
        for name, engine in engines.items():
            compiled = search.scan_full, search.QUIESCE, search.STACKINGS, search.ORDER, search.NEGAMAX
            if name == "python":  # every compiled part off
                search.scan_full, search.QUIESCE, search.STACKINGS, search.ORDER, search.NEGAMAX = (
                    boardscan.scan_full_python, None, None, None, None)
            try:
                t = time.perf_counter()
                found = engine.Search(s, args.nodes, 1e9)
                move, _value, depth, _exact = found.root(s.to_move, random.Random(1))
                seconds[name].append(time.perf_counter() - t)
            finally:
                search.scan_full, search.QUIESCE, search.STACKINGS, search.ORDER, search.NEGAMAX = compiled
            depths[name].append(depth)
            moves[name].append(move)
    for name in engines:
        mean = statistics.mean(seconds[name])
        print(f"{name}: {args.nodes / mean:,.0f} nodes/s {where}; {args.nodes:,} nodes "
              f"take {mean:.2f} s (max {max(seconds[name]):.2f} s; hard's cap {TIME_CAP} s); "
              f"depth {statistics.mean(depths[name]):.1f} ({args.positions} positions)")
    for other in engines:
        if other != "now":
            same = sum(a == b for a, b in zip(moves["now"], moves[other], strict=True))
            print(f"now against {other}: same move in {same} of {args.positions} positions; speed "
                  f"{statistics.mean(seconds[other]) / statistics.mean(seconds['now']):.2f}x")


if __name__ == "__main__":
    main()
