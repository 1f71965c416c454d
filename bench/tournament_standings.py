"""Budget: rendering the standings of 128 players takes under 150 ms.

Standings (points, Buchholz, Sonneborn–Berger) of a 128-player, 7-round Swiss with random results,
then the table picture (Pillow) and its PNG encoding. Prints the median and worst of 20 runs.
"""

from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bot.render import png_bytes
from bot.tournaments.model import Format, Pairing, Result
from bot.tournaments.pairing import swiss_round
from bot.tournaments.render import render_standings
from bot.tournaments.standings import standings

PLAYERS = 128
BUDGET_MS = 150.0


def main() -> None:
    rng = random.Random(3)
    players = list(range(1, PLAYERS + 1))
    history: list[Pairing] = []
    for r in range(1, 8):
        history += [
            p
            if p.black is None
            else Pairing(
                p.round,
                p.board,
                p.white,
                p.black,
                rng.choice((Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)),
            )
            for p in swiss_round(players, history, r, "bench")
        ]
    names = {p: f"Player number {p}" for p in players}
    render_ms, total_ms = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        rows = standings(players, history, Format.SWISS)
        img = render_standings(
            rows, names, Format.SWISS, title="Tournament #1 standings", subtitle="after round 7"
        )
        t1 = time.perf_counter()
        data = png_bytes(img)
        t2 = time.perf_counter()
        render_ms.append((t1 - t0) * 1000)
        total_ms.append((t2 - t0) * 1000)
    print(f"standings of {PLAYERS} players ({img.width}x{img.height}, {len(data) // 1024} KiB PNG)")
    median = statistics.median(render_ms)
    print(
        f"standings + render: median {median:.1f} ms, worst {max(render_ms):.1f} ms "
        f"(budget {BUDGET_MS:.0f} ms for the median; the worst shows the machine's noise) -> "
        f"{'OK' if median < BUDGET_MS else 'OVER BUDGET'}"
    )
    print(f"with PNG encoding: median {statistics.median(total_ms):.1f} ms, worst {max(total_ms):.1f} ms")


if __name__ == "__main__":
    main()
