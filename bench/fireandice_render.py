"""Fire and Ice render speed: p50/p99 of render(view) over a few positions (budget 20 ms p50).

Run: .venv/bin/python bench/fireandice_render.py [iterations]
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.fire_and_ice import RULES, choose, render
from bot.games.fire_and_ice.rules import make_view
from bot.render import png_bytes

BUDGET_MS = 20.0


def positions() -> list[tuple[object, list[object]]]:
    """A start position, a few mid-game positions (with their last events) and a finished game."""
    out = []
    rng = random.Random(7)
    s = RULES.initial({}, 2)
    out.append((make_view(s), []))
    while RULES.outcome(s) is None:
        s, events = RULES.apply(s, s.to_move, choose(s, s.to_move, rng, "medium"))
        if s.ply % 8 == 0 or RULES.outcome(s) is not None:
            out.append((make_view(s), events))
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    cases = positions()
    render(cases[0][0])  # warm the font and background caches
    times, with_png = [], []
    for i in range(n):
        view, events = cases[i % len(cases)]
        t0 = time.perf_counter()
        img = render(view, names=("Fire player", "Ice player"), events=events, clocks=(290_000, 301_000))
        t1 = time.perf_counter()
        png_bytes(img)
        t2 = time.perf_counter()
        times.append((t1 - t0) * 1000)
        with_png.append((t2 - t0) * 1000)
    view_ms = []
    for _ in range(n):
        s = RULES.initial({}, 2)
        t0 = time.perf_counter()
        make_view(s)
        view_ms.append((time.perf_counter() - t0) * 1000)
    p50 = statistics.median(times)
    print(
        f"fireandice render p50={p50:.1f} ms p99={percentile(times, 0.99):.1f} ms "
        f"(budget {BUDGET_MS:.0f} ms) "
        f"{'OK' if p50 <= BUDGET_MS else 'OVER BUDGET'}; {len(cases)} positions x {n} renders, 900x1000"
    )
    print(
        f"fireandice render+png p50={statistics.median(with_png):.1f} ms "
        f"p99={percentile(with_png, 0.99):.1f} ms"
    )


if __name__ == "__main__":
    main()
