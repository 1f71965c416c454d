"""Pylon render time for a typical mid-game board (budget: p50 <= 20 ms)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.pylon import RULES, choose, render
from bot.render import png_bytes


def mid_game(seed: int) -> tuple[object, list]:
    """A position 8 stackings into the game (medium vs medium), with the last move's events."""
    rng = random.Random(seed)
    s = RULES.initial({}, 2)
    events: list = []
    for _ in range(38):
        s, events = RULES.apply(s, s.to_move, choose(s, s.to_move, rng, "medium"))
        if RULES.to_act(s) is None:
            break
    return RULES.view(s, None), events


def main() -> None:
    cases = [mid_game(seed) for seed in range(10)]
    render(*cases[0][:1])  # warm the font and background caches
    times, png_times = [], []
    for i in range(200):
        view, events = cases[i % len(cases)]
        t = time.perf_counter()
        img = render(view, names=("Alice", "Bob"), events=events, clocks=(240_000, 185_000))
        times.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        png_bytes(img)
        png_times.append((time.perf_counter() - t) * 1000)
    times.sort()
    png_times.sort()
    p50, p99 = statistics.median(times), times[int(len(times) * 0.99) - 1]
    print(
        f"pylon render p50={p50:.1f} ms p99={p99:.1f} ms (budget 20 ms p50); "
        f"png encode p50={statistics.median(png_times):.1f} ms"
    )


if __name__ == "__main__":
    main()
