"""Budget: bytes and time per board picture, per game -- the palette PNG Parlor sends against the RGB PNG it
sent before (Pillow, compress_level=1): at most 60 % of the bytes, and render + encode p50 ≤ 5 ms per board.

Boards come from seeded random games of each engine (start, middle and end positions, with the last
action's events), drawn by the game's renderer as the bot does after a move: ``board_png``, straight onto
the family's palette (``bot.render.canvas``). The families are warmed on all the boards first, as the bot
warms them at start-up (a new family costs one palette build, ~10 ms, once per process). Also printed: the
same boards drawn in RGB and mapped to the palette whole (the path before the canvas, and the one a board
takes when its colours are new).

Usage: python bench/picture_bytes.py [games per engine = 6]
"""

from __future__ import annotations

import io
import pathlib
import statistics
import sys
import time
from functools import partial

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from PIL import Image

from bot.games import GAMES
from bot.games.samples import sample_positions
from bot.render import board_png, png_bytes

SEATS = {"pylon": 2, "fireandice": 2, "eggcarton": 2, "eof": 3, "nomic": 3}
NAMES = ("Alice", "Bob", "Carol")
GAMES_PER_ENGINE = int(sys.argv[1]) if len(sys.argv) > 1 else 6
BYTES_BUDGET = 0.60
MS_BUDGET = 5.0


def boards(key: str, seed: int) -> list[tuple[object, list[object]]]:
    """Every 9th position of one seeded random game, and its end."""
    return list(sample_positions(GAMES[key].rules, SEATS[key], seed, plies=range(0, 200, 9)))


def rgb_png(img: Image.Image) -> bytes:
    """How boards were encoded before: RGB, zlib level 1."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def main() -> None:
    print(
        f"{'game':<11} {'boards':>6}  {'RGB PNG':>9} {'palette PNG':>11} {'ratio':>6}   "
        f"{'render':>7} {'RGB enc':>8} {'pal enc':>8} {'render+pal':>10} {'on palette':>10}"
    )
    ok = True
    for key in SEATS:
        game = GAMES[key]
        cases = [c for seed in range(GAMES_PER_ENGINE) for c in boards(key, seed)]
        for view, events in cases:  # warm the fonts and the game's palette family, as the bot does
            board_png(partial(game.render, view, names=NAMES[: SEATS[key]], events=events), key)
        before, after, r_ms, old_ms, new_ms, direct_ms = [], [], [], [], [], []
        for view, events in cases:
            t0 = time.perf_counter()
            img = game.render(view, names=NAMES[: SEATS[key]], events=events)
            t1 = time.perf_counter()
            old = rgb_png(img)
            t2 = time.perf_counter()
            new = png_bytes(img, key=key)
            t3 = time.perf_counter()
            before.append(len(old))
            after.append(len(new))
            r_ms.append((t1 - t0) * 1e3)
            old_ms.append((t2 - t1) * 1e3)
            new_ms.append((t3 - t2) * 1e3)
            t4 = time.perf_counter()
            board_png(partial(game.render, view, names=NAMES[: SEATS[key]], events=events), key)
            direct_ms.append((time.perf_counter() - t4) * 1e3)
        b, a = statistics.mean(before), statistics.mean(after)
        total = statistics.median([r + n for r, n in zip(r_ms, new_ms, strict=True)])
        direct = statistics.median(direct_ms)
        good = a <= BYTES_BUDGET * b and direct <= MS_BUDGET
        ok &= good
        print(
            f"{key:<11} {len(cases):>6}  {b / 1024:>6.1f} KB {a / 1024:>8.1f} KB {a / b:>6.0%}   "
            f"{statistics.median(r_ms):>4.1f} ms {statistics.median(old_ms):>5.1f} ms "
            f"{statistics.median(new_ms):>5.1f} ms {total:>7.1f} ms {direct:>7.1f} ms  "
            f"{'OK' if good else 'OVER BUDGET'}"
        )
    print(
        f"budget: palette PNG ≤ {BYTES_BUDGET:.0%} of the RGB PNG's bytes and a board drawn on its palette "
        f"and encoded p50 ≤ {MS_BUDGET:.0f} ms, every game: {'OK' if ok else 'OVER BUDGET'} (means of bytes, "
        f"medians of times)"
    )


if __name__ == "__main__":
    main()
