"""Egg Carton rendering budgets: static board p50 ≤ 20 ms; sowing GIF ≤ 300 ms and ≤ 2 MB.

Usage: .venv/bin/python bench/eggcarton_render.py

The boards and moves are sampled from seeded random games (3 marbles), so a
"typical move" is the median of real moves; the longest sowing in the sample
is reported too.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.egg_carton import RULES, animate, render
from bot.render import gif_bytes, png_bytes


def sample_moves(games: int, seed: int = 1) -> list[tuple[object, list, object]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = RULES.initial({"marbles": "3"}, 2)
        while s.winner is None:
            move = rng.choice(RULES.legal_moves(s, s.to_move))
            t, events = RULES.apply(s, s.to_move, move)
            out.append((RULES.view(s, None), events, RULES.view(t, None)))
            s = t
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    moves = sample_moves(12)
    names, clocks = ["alice", "bob"], [272_000, 9_400]
    render(moves[0][2])
    animate(*moves[0], speed="normal")  # warm caches (fonts, sprite, palette)

    static, static_png = [], []
    for _before, events, after in moves[:200]:
        t0 = time.perf_counter()
        img = render(after, names=names, events=events, clocks=clocks)
        t1 = time.perf_counter()
        png_bytes(img)
        t2 = time.perf_counter()
        static.append((t1 - t0) * 1e3)
        static_png.append((t2 - t0) * 1e3)

    by_drops = sorted(moves, key=lambda m: sum(e.kind in ("drop", "off") for e in m[1]))
    typical = by_drops[len(by_drops) // 2]
    longest = by_drops[-1]
    gif_ms, gif_kb, frames_n = [], [], []
    for before, events, after in moves[:: max(1, len(moves) // 120)]:
        t0 = time.perf_counter()
        frames = animate(before, events, after, names=names, speed="normal", clocks=clocks)
        data = gif_bytes([f for f, _ in frames], [d for _, d in frames])
        gif_ms.append((time.perf_counter() - t0) * 1e3)
        gif_kb.append(len(data) / 1024)
        frames_n.append(len(frames))

    def one(move: tuple) -> tuple[float, float, int, int]:
        before, events, after = move
        t0 = time.perf_counter()
        frames = animate(before, events, after, names=names, speed="normal", clocks=clocks)
        data = gif_bytes([f for f, _ in frames], [d for _, d in frames])
        return (
            (time.perf_counter() - t0) * 1e3,
            len(data) / 1024,
            len(frames),
            sum(e.kind in ("drop", "off") for e in events),
        )

    t_ms, t_kb, t_fr, t_drops = min((one(typical) for _ in range(5)), key=lambda r: r[0])
    l_ms, l_kb, l_fr, l_drops = min((one(longest) for _ in range(3)), key=lambda r: r[0])

    print(
        f"eggcarton static board: render p50={statistics.median(static):.1f} ms "
        f"p99={pct(static, 0.99):.1f} ms; with PNG p50={statistics.median(static_png):.1f} ms "
        f"(budget p50 ≤ 20 ms, {len(static)} boards)"
    )
    print(
        f"eggcarton GIF typical move ({t_drops} marbles moved, {t_fr} frames): {t_ms:.0f} ms, "
        f"{t_kb:.0f} KB (budget ≤ 300 ms, ≤ 2048 KB)"
    )
    print(
        f"eggcarton GIF over {len(gif_ms)} sampled moves: p50={statistics.median(gif_ms):.0f} ms "
        f"p99={pct(gif_ms, 0.99):.0f} ms max={max(gif_ms):.0f} ms; size max={max(gif_kb):.0f} KB; "
        f"frames max={max(frames_n)}"
    )
    print(
        f"eggcarton GIF longest sampled sowing ({l_drops} marbles moved, {l_fr} frames): {l_ms:.0f} ms, "
        f"{l_kb:.0f} KB"
    )


if __name__ == "__main__":
    main()
