"""Pylon hard against a variant of itself: wins / draws / losses with a 95% interval, seconds a move.

An A/B of an AI change without the yardstick's cost (MCTS-10,000 takes about 17 s a move): both sides are
today's hard level; side B plays with --b settings (``NAME=JSON``, a constant of ``bot.games.pylon.ai``,
or ``search.NAME``, as bench/vs_mcts.py's --set), side A with --a settings (default: as shipped). Games
come in pairs from the same seed with the seats swapped, so an opening that favours a seat counts once
for each side. Self-play measures one version against the other, not against an outside yardstick:
confirm a change that wins here with bench/vs_mcts.py.

Usage: nice -n 15 .venv/bin/python bench/pylon_selfplay.py --games 40 --jobs 2 \
           --b 'LEVEL_WORK={"hard": [600000, 60000]}' --a 'LEVEL_WORK={"hard": [600000, 6500]}'
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from vs_mcts import _mean_and_half, _pairs, apply_settings, wilson

from bot.games.pylon import RULES, ai
from bot.games.pylon.rules import scores


def play_one(index: int, seed: int, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Game ``index``: B has seat ``index % 2``; the pair ``index // 2`` shares its random states."""
    b_seat = index % 2
    s = RULES.initial({}, 2)
    times: dict[str, list[float]] = {"a": [], "b": []}
    ply = 0
    while RULES.to_act(s) is not None:
        seat = s.to_move
        side = "b" if seat == b_seat else "a"
        before = apply_settings("pylon", b if side == "b" else a)
        rng = random.Random(f"{seed}:{index // 2}:ai:{ply}")
        t = time.perf_counter()
        move = ai.choose(s, seat, rng, "hard")
        times[side].append(time.perf_counter() - t)
        apply_settings("pylon", before)
        s, _ = RULES.apply(s, seat, move)
        ply += 1
    sc = scores(s)
    margin = sc[b_seat] - sc[1 - b_seat]
    return {"index": index, "b_seat": b_seat, "margin": margin, "plies": ply, "times": times}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="games (pairs of seeds, seats swapped)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--a", action="append", default=[], metavar="NAME=JSON", help="side A's settings")
    p.add_argument("--b", action="append", default=[], metavar="NAME=JSON", help="side B's settings")
    args = p.parse_args()
    a, b = _pairs(args.a), _pairs(args.b)
    apply_settings("pylon", apply_settings("pylon", {**a, **b}))  # a wrong name stops here
    rows = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(play_one, i, args.seed, a, b) for i in range(args.games)]
        for fut in as_completed(futures):
            r = fut.result()
            rows.append(r)
            word = "won" if r["margin"] > 0 else "drew" if r["margin"] == 0 else "lost"
            print(f"  game {r['index']}: B (seat {r['b_seat']}) {word} by {abs(r['margin'])}"
                  f" in {r['plies']} plies", flush=True)
    n = len(rows)
    w = sum(r["margin"] > 0 for r in rows)
    d = sum(r["margin"] == 0 for r in rows)
    pts = w + d / 2
    lo, hi = wilson(pts, n)
    m, half = _mean_and_half([float(r["margin"]) for r in rows])
    by_seat = {seat: sum((r["margin"] > 0) + (r["margin"] == 0) / 2 for r in rows if r["b_seat"] == seat)
               / max(1, sum(r["b_seat"] == seat for r in rows)) for seat in (0, 1)}

    def per(side: str) -> str:
        ts = sorted(t for r in rows for t in r["times"][side])
        p99 = ts[int(len(ts) * 0.99) - 1]
        return f"mean {statistics.fmean(ts):.2f} s, p99 {p99:.2f} s, max {ts[-1]:.2f} s"

    print(f"B {args.b} vs A {args.a or 'as shipped'}: {n} games  W {w} D {d} L {n - w - d}  "
          f"B's points {pts / n:.0%} (95% CI {lo:.0%}-{hi:.0%}); as the first player {by_seat[0]:.0%}, "
          f"as the second {by_seat[1]:.0%}; margin {m:+.2f} a game "
          f"(95% CI {m - half:+.2f} to {m + half:+.2f})")
    print(f"  B s/move {per('b')}; A s/move {per('a')}  [{time.perf_counter() - t0:.0f} s]")


if __name__ == "__main__":
    main()
