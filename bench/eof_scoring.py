"""Bench: EOF scoring of a 40-record file (budget 5 ms).

Files are drawn as they can occur in play: four colours, at most 14 records
of one colour (the rest of the 15 is the pointer). Each run scores one colour;
the worst case puts all 14 records of the scored colour in the file.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.eof.pieces import Piece
from bot.games.eof.scoring import score

BUDGET_MS = 5.0


def game_file(rng: random.Random, length: int = 40, favour: int | None = None) -> list[Piece]:
    """A random legal 40-record file; with ``favour`` that colour has all 14 of its pieces in it."""
    supply = [Piece(c, s) for c in range(4) for s in (1, 2, 3) for _ in range(5 if s > 1 else 4)]
    rng.shuffle(supply)
    if favour is not None:
        supply.sort(key=lambda p: p.colour != favour)
    file = supply[:length]
    rng.shuffle(file)
    return file


def measure(files: list[tuple[list[Piece], int]], repeat: int = 3) -> list[float]:
    """Milliseconds per file, best of ``repeat`` runs (the machine is shared: this drops scheduler noise)."""
    out = []
    for file, colour in files:
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            score(file, colour)
            best = min(best, time.perf_counter() - t)
        out.append(best * 1000)
    return out


def main() -> None:
    rng = random.Random(2024)
    typical = [(game_file(rng), rng.randrange(4)) for _ in range(400)]
    heavy = [(game_file(rng, favour=c), c) for c in range(4) for _ in range(100)]
    measure(typical[:20])  # warm-up
    for label, files in (("typical", typical), ("14 of one colour", heavy)):
        ms = sorted(measure(files))
        p50 = statistics.median(ms)
        p99 = ms[int(len(ms) * 0.99) - 1]
        print(
            f"eof scoring, 40-record file ({label}): p50={p50:.2f} ms p99={p99:.2f} ms max={ms[-1]:.2f} ms "
            f"(budget {BUDGET_MS:.0f} ms)"
        )


if __name__ == "__main__":
    main()
