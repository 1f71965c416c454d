"""Egg Carton levels against exact play on solved endgame positions, and time per turn.

Usage: nice -n 15 .venv/bin/python bench/eggcarton_exact.py [--positions N] [--max-marbles M]
           [--min-marbles L] [--seed S] [--midgame K] [--levels L1,L2] [--compare [REV]] [--wall]

1. Draws N turn-start positions with at most M marbles on the board (default
   300 and 16) from random games started with 2–6 marbles per slot, and solves
   each exactly (``bot/games/egg_carton/solver.py``, no budget).
2. For every position that is won for the player to move, lets each level play
   its whole turn (rng seeded per position) and counts the *thrown wins*: the
   turn ends in a position that is won for the opponent. The expert must
   throw none in range.
3. Time per whole turn (all its picks; a turn is the unit of the 1 s budget):
   on those positions, on the first turn at 1–6 marbles per slot, and on K
   mid-game positions (3–6 marbles per slot, 2–20 random turns in).

``--compare REV`` runs the same on the ai.py of git revision REV (default
d7ff673, the last commit before the endgame solver), imported under another
name, so before and after come from the same machine in the same run.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from types import ModuleType  # noqa: E402

from bot.games.egg_carton import RULES  # noqa: E402
from bot.games.egg_carton import ai as new_ai  # noqa: E402
from bot.games.egg_carton.ai import to_board  # noqa: E402
from bot.games.egg_carton.rules import EggCartonState  # noqa: E402
from bot.games.egg_carton.solver import Solver  # noqa: E402

LEVELS = ("novice", "beginner", "intermediate", "expert")
OLD_REV = "d7ff673"

CPU = True
"""Time with ``time.process_time`` (CPU seconds of this process: what the turn costs, whatever else
runs on the machine); ``--wall`` uses ``time.perf_counter``."""


def old_module(rev: str) -> ModuleType:
    """The ai.py of git revision ``rev`` as module ``egg_ai_<rev>``."""
    src = subprocess.run(["git", "show", f"{rev}:bot/games/egg_carton/ai.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    name = f"egg_ai_{rev}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    exec(compile(src, f"{rev}:ai.py", "exec"), mod.__dict__)
    return mod


def endgame_positions(n: int, max_marbles: int, seed: int, min_marbles: int = 0) -> list[EggCartonState]:
    """``n`` distinct turn-start positions with min..max marbles on the board (random games)."""
    rng = random.Random(seed)
    out: list[EggCartonState] = []
    seen: set[tuple[int, ...]] = set()
    while len(out) < n:
        s = RULES.initial({"marbles": str(rng.randint(2, 6))}, 2)
        starts = []
        while s.winner is None:
            if not s.again and min_marbles <= sum(s.slots) <= max_marbles:
                starts.append(s)
            s, _ = RULES.apply(s, s.to_move, rng.choice(RULES.legal_moves(s, s.to_move)))
        if starts:
            s = rng.choice(starts)
            key = to_board(s)
            if key not in seen:
                seen.add(key)
                out.append(s)
    return out


def play_turn(s: EggCartonState, ai: ModuleType, level: str,
              rng: random.Random) -> tuple[EggCartonState, float]:
    """``level`` plays one whole turn from a cold plan cache; the state after it and the seconds spent."""
    clock = time.process_time if CPU else time.perf_counter
    ai._PLANS.clear()
    seat, spent = s.to_move, 0.0
    while True:
        t0 = clock()
        move = ai.choose(s, seat, rng, level)
        spent += clock() - t0
        s, _ = RULES.apply(s, seat, move)
        if s.winner is not None or s.to_move != seat:
            return s, spent


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def times(xs: list[float]) -> str:
    return f"p50 {pct(xs, 0.5) * 1e3:7.1f}  p99 {pct(xs, 0.99) * 1e3:7.1f}  max {max(xs) * 1e3:7.1f} ms"


def midgame_positions(n: int, seed: int) -> list[EggCartonState]:
    rng = random.Random(seed)
    out: list[EggCartonState] = []
    while len(out) < n:
        s = RULES.initial({"marbles": str(rng.randint(3, 6))}, 2)
        stop = rng.randint(2, 20)
        while s.winner is None and s.turn < stop:
            s, _ = RULES.apply(s, s.to_move, rng.choice(RULES.legal_moves(s, s.to_move)))
        if s.winner is None and not s.again:
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--max-marbles", type=int, default=16)
    ap.add_argument("--min-marbles", type=int, default=0, help="e.g. 17 to look beyond the exact range")
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--midgame", type=int, default=60, help="mid-game positions timed (0: skip)")
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--compare", nargs="?", const=OLD_REV, default=None, metavar="REV")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = ap.parse_args()
    global CPU
    CPU = not args.wall
    levels = args.levels.split(",")

    t0 = time.perf_counter()
    positions = endgame_positions(args.positions, args.max_marbles, args.seed, args.min_marbles)
    solver = Solver(max_entries=50_000_000)
    won = [s for s in positions if solver.wins(bytes(to_board(s)))]
    print(f"eggcarton exact: {len(positions)} turn-start positions with "
          f"{args.min_marbles}..{args.max_marbles} marbles "
          f"(seed {args.seed}), {len(won)} won for the side to move; solved exactly in "
          f"{time.perf_counter() - t0:.1f} s ({len(solver.table):,} positions)")

    engines: list[tuple[str, ModuleType]] = [("new", new_ai)]
    if args.compare:
        engines.insert(0, (f"old {args.compare}", old_module(args.compare)))
    clock = "CPU" if CPU else "wall-clock"
    print(f"  {'engine':<14}{'level':<14}{'thrown':>8}{'rate':>8}   "
          f"{clock} time per whole turn on these positions")
    for tag, ai in engines:
        for level in levels:
            thrown, spent = 0, []
            for i, s in enumerate(won):
                t, dt = play_turn(s, ai, level, random.Random(args.seed * 1000 + i))
                spent.append(dt)
                lost = solver.wins(bytes(to_board(t))) if t.winner is None else t.winner != s.to_move
                thrown += lost
            print(f"  {tag:<14}{level:<14}{thrown:>8}{thrown / len(won):>8.1%}   {times(spent)}")

    print(f"  {clock} time per whole turn, first turn (marbles per slot 1..6, 3 seeds) "
          "and mid-game positions:")
    mids = midgame_positions(args.midgame, args.seed + 1) if args.midgame else []
    for tag, ai in engines:
        for level in levels[1:] if levels[0] == "novice" else levels:
            first, mid = [], []
            for m in range(1, 7):
                for k in range(3):
                    first.append(play_turn(RULES.initial({"marbles": str(m)}, 2), ai, level,
                                           random.Random(k))[1])
            worst6 = max(first[-3:])
            for i, s in enumerate(mids):
                mid.append(play_turn(s, ai, level, random.Random(i))[1])
            line = f"  {tag:<14}{level:<14}first turns: {times(first)} (6 marbles: max {worst6 * 1e3:.0f} ms)"
            if mid:
                line += f"\n  {'':<28}{len(mids)} mid-game: {times(mid)}"
            print(line)
    print(f"  total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
