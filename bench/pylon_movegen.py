"""Pylon legal-move generation in the stacking phase, per position (budget: <= 0.2 ms)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import gc
import random
import statistics
import time

from bot.games.pylon import RULES


def stacking_positions(games: int) -> list:
    """Every stacking-phase position of random games (random placement, random stacking)."""
    rng = random.Random(7)
    out = []
    for _ in range(games):
        s = RULES.initial({}, 2)
        while RULES.to_act(s) is not None:
            moves = [m for m in RULES.legal_moves(s, s.to_move) if str(m) != "agree"]
            if not s.is_placement:
                out.append(s)
            s, _ = RULES.apply(s, s.to_move, rng.choice(moves))
    return out


def main() -> None:
    positions = stacking_positions(40)
    gc.collect()
    gc.freeze()  # the positions are long-lived test data: keep full collections of them out of the timing
    per_position = []
    for s in positions:
        seat = s.to_move
        t = time.perf_counter()
        for _ in range(20):
            RULES.legal_moves(s, seat)
        per_position.append((time.perf_counter() - t) / 20 * 1000)
    per_position.sort()
    mean = statistics.fmean(per_position)
    p50 = statistics.median(per_position)
    p99 = per_position[int(len(per_position) * 0.99) - 1]
    moves = statistics.fmean(len(RULES.legal_moves(s, s.to_move)) for s in positions)
    print(
        f"pylon movegen (stacking) mean={mean * 1000:.0f} us p50={p50 * 1000:.0f} us p99={p99 * 1000:.0f} us "
        f"per position over {len(positions)} positions, {moves:.0f} moves on average (budget 200 us)"
    )


if __name__ == "__main__":
    main()
