"""Pylon AI strength (hard vs medium, medium vs easy) and hard's thinking time per move.

Targets: hard beats medium in >= 80% of games, medium beats easy in >= 80%, over >= 100 games per
pairing with colours alternating; hard answers in <= 2 s per move (p50/p99 at its real budget).

The pairings run hard with its work scaled down to a --budget of seconds (default 0.1: a tenth of
its nodes and playouts) so the bench finishes in minutes on a shared 2-core machine; less work only
makes hard weaker. Its time per move at the real work is measured separately on a few full games
(--timing-games).

medium vs easy is cheap (no search), so it is played over more games (--easy-games, default 1000)
for a tighter estimate.

Usage: .venv/bin/python bench/pylon_strength.py [--games 100] [--easy-games 1000] [--budget 0.1]
       [--timing-games 4]

--match A,B plays only that pairing at the levels' real work, e.g. ``--match hard,old:hard``:
``old:LEVEL`` is LEVEL of the Pylon AI as it was at --old-ref (default: the commit before the
deterministic search, d7ff673), loaded from git.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import argparse
import random
import statistics
import subprocess
import time
import types

from bot.games.pylon import RULES, ai
from bot.games.pylon.rules import scores

OLD_REF = "d7ff673"
_old: list[types.ModuleType] = []


def old_ai(ref: str = OLD_REF) -> types.ModuleType:
    """The Pylon AI module as it was at git ``ref`` (it imports today's rules, which it shares)."""
    if not _old:
        root = pathlib.Path(__file__).resolve().parent.parent
        src = subprocess.run(["git", "show", f"{ref}:bot/games/pylon/ai.py"], cwd=root, check=True,
                             capture_output=True, text=True).stdout
        mod = types.ModuleType("old_pylon_ai")
        exec(compile(src, f"{ref}:bot/games/pylon/ai.py", "exec"), mod.__dict__)
        _old.append(mod)
    return _old[0]


def choose(level: str, s, seat: int, rng: random.Random, budget: float | None):  # type: ignore[no-untyped-def]
    if level.startswith("old:"):
        return old_ai().choose(s, seat, rng, level[4:], budget=budget)
    return ai.choose(s, seat, rng, level, budget=budget)


def play(levels: tuple[str, str], seed: int, budget: float | None,
         timed: str = "hard") -> tuple[tuple[int, int], list[float]]:
    """One game; returns the final scores and the seconds per move of the ``timed`` level."""
    s = RULES.initial({}, 2)
    hard_times = []
    ply = 0
    while RULES.to_act(s) is not None:
        seat = s.to_move
        rng = random.Random(f"{seed}:ai:{ply}")
        t = time.perf_counter()
        move = choose(levels[seat], s, seat, rng, budget)
        if levels[seat] == timed:
            hard_times.append(time.perf_counter() - t)
        s, _ = RULES.apply(s, seat, move)
        ply += 1
    return scores(s), hard_times


def pairing(a: str, b: str, games: int, budget: float | None) -> tuple[int, int, int, float]:
    """``a`` against ``b``, alternating who moves first; returns a's wins, draws, losses, mean margin."""
    wins = draws = losses = 0
    margins = []
    for i in range(games):
        if i % 2 == 0:
            sc, _ = play((a, b), i, budget)
            m = sc[0] - sc[1]
        else:
            sc, _ = play((b, a), i, budget)
            m = sc[1] - sc[0]
        margins.append(m)
        wins, draws, losses = wins + (m > 0), draws + (m == 0), losses + (m < 0)
    return wins, draws, losses, statistics.fmean(margins)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--easy-games", type=int, default=1000, help="games of medium vs easy")
    p.add_argument("--budget", type=float, default=0.1, help="hard's seconds per move in the pairings")
    p.add_argument("--timing-games", type=int, default=4)
    p.add_argument("--match", default="", help="only this pairing, e.g. hard,old:hard (real work)")
    p.add_argument("--old-ref", default=OLD_REF)
    p.add_argument("--match-budget", type=float, default=None,
                   help="with --match: both levels' work scaled to this many seconds a move")
    p.add_argument("--set", action="append", default=[],
                   help="with --match: NAME=VALUE sets a module constant of today's AI (experiments)")
    args = p.parse_args()

    if args.match:
        a, b = args.match.split(",")
        old_ai(args.old_ref)
        for kv in args.set:
            name, value = kv.split("=", 1)
            setattr(ai, name, type(getattr(ai, name))(value))
        t = time.perf_counter()
        times_a: list[float] = []
        w = d = lost = 0
        margins = []
        for i in range(args.games):
            first = (a, b) if i % 2 == 0 else (b, a)
            sc, ta = play(first, i, args.match_budget, timed=a)
            m = sc[0] - sc[1] if i % 2 == 0 else sc[1] - sc[0]
            times_a.extend(ta)
            margins.append(m)
            w, d, lost = w + (m > 0), d + (m == 0), lost + (m < 0)
            print(f"  game {i}: {a} {'won' if m > 0 else 'drew' if m == 0 else 'lost'} ({m:+d})", flush=True)
        pts = (w + d / 2) / args.games
        print(f"{a} vs {b}: {args.games} games  {w} won {d} drawn {lost} lost  points {pts:.0%}  "
              f"mean margin {statistics.fmean(margins):+.1f}  {a} s/move mean "
              f"{statistics.fmean(times_a):.2f} max {max(times_a):.2f}  [{time.perf_counter() - t:.0f} s]")
        return

    rows = []
    for a, b, budget, games in (
        ("hard", "medium", args.budget, args.games),
        ("medium", "easy", None, args.easy_games),
    ):
        t = time.perf_counter()
        w, d, lost, margin = pairing(a, b, games, budget)
        took = time.perf_counter() - t
        rate = w / games
        note = f" (hard's work scaled to {budget:g} s/move)" if a == "hard" else ""
        rows.append(
            f"{a:>6} vs {b:<6} {games:4d} games: {w:3d} won {d:3d} drawn {lost:3d} lost  "
            f"win rate {rate:6.1%}  mean margin {margin:+.1f}  {'OK' if rate >= 0.8 else 'BELOW 80%'}"
            f"{note}  [{took:.0f} s]"
        )
        print(rows[-1], flush=True)

    times: list[float] = []
    won = 0
    for i in range(args.timing_games):
        hard_seat = i % 2
        levels = ("hard", "medium") if hard_seat == 0 else ("medium", "hard")
        sc, ts = play(levels, 1000 + i, None)
        won += sc[hard_seat] > sc[1 - hard_seat]
        times.extend(ts)
    times.sort()
    if times:
        p50 = statistics.median(times)
        p99 = times[max(0, int(len(times) * 0.99) - 1)]
        print(
            f"hard time per move at the real budget ({ai.HARD_BUDGET:g} s): p50={p50:.2f} s p99={p99:.2f} s "
            f"max={times[-1]:.2f} s over {len(times)} moves in {args.timing_games} games vs medium "
            f"(won {won}/{args.timing_games}) (budget <= 2 s)"
        )


if __name__ == "__main__":
    main()
