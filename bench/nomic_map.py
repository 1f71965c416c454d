"""Nomic World map render time: 10 players spread over 40x40 spaces (budget: 30 ms p50).

Run from the repository root: .venv/bin/python bench/nomic_map.py
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time
from dataclasses import replace

from bot.games.nomic import RULES, Join, Start, render
from bot.render import png_bytes

RUNS = 200
BUDGET_MS = 30.0


def spread_state(seed: int = 7):
    """Ten players over -20..20 x -20..20, 150 revealed spaces, a 6-step last path."""
    rng = random.Random(seed)
    s = RULES.initial({}, 10)
    for i in range(10):
        s, _ = RULES.apply(s, i, Join(1000 + i, f"Player {chr(65 + i)}"))
    s, _ = RULES.apply(s, 0, Start())
    corners = [(-20, -20), (20, 20), (-20, 20), (20, -20)]
    spots = corners + [(rng.randint(-20, 20), rng.randint(-20, 20)) for _ in range(6)]
    revealed = {}
    while len(revealed) < 150:
        p = (rng.randint(-20, 20), rng.randint(-20, 20))
        if p != (0, 0):
            revealed[p] = rng.choice(("Wood", "Metal", "Water", "Food"))
    x, y = spots[4]
    path = ((x - 3, y - 3), (x - 2, y - 3), (x - 1, y - 3), (x, y - 3), (x, y - 2), (x, y - 1), (x, y))
    players = tuple(replace(p, pos=spots[i]) for i, p in enumerate(s.players))
    return replace(s, players=players, revealed=tuple(sorted(revealed.items())), path=path, path_seat=4)


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    view = RULES.view(spread_state(), None)
    render(view)  # warm up fonts
    render_ms, png_ms = [], []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        img = render(view)
        t1 = time.perf_counter()
        png_bytes(img)
        t2 = time.perf_counter()
        render_ms.append((t1 - t0) * 1000)
        png_ms.append((t2 - t1) * 1000)
    p50 = statistics.median(render_ms)
    print(
        f"nomic map render (10 players over 40x40, {img.width}x{img.height}) p50={p50:.1f} ms "
        f"p99={percentile(render_ms, 0.99):.1f} ms (budget {BUDGET_MS:.0f} ms p50) "
        f"{'OK' if p50 <= BUDGET_MS else 'OVER BUDGET'}"
    )
    print(
        f"nomic map PNG encode p50={statistics.median(png_ms):.1f} ms p99={percentile(png_ms, 0.99):.1f} ms"
    )


if __name__ == "__main__":
    main()
