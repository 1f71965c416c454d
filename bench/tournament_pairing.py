"""Budget: pairing one Swiss round of 512 players takes under 1 s.

A 512-player Swiss of 10 rounds with random results (wins, losses, draws); each round is paired
by ``bot.tournaments.pairing.swiss_round`` (networkx maximum-weight matching) and timed.
Prints every round's time, the worst, and the budget.
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bot.tournaments.model import Pairing, Result
from bot.tournaments.pairing import swiss_round

PLAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 512
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
BUDGET = 1.0


def main() -> None:
    rng = random.Random(17)
    players = list(range(1, PLAYERS + 1))
    history: list[Pairing] = []
    times = []
    for r in range(1, ROUNDS + 1):
        t0 = time.perf_counter()
        pairs = swiss_round(players, history, r, "bench", last_round=ROUNDS)
        times.append(time.perf_counter() - t0)
        met = {frozenset((p.white, p.black)) for p in history if p.black is not None}
        repeats = sum(1 for p in pairs if p.black is not None and frozenset((p.white, p.black)) in met)
        print(f"round {r:2}: {len(pairs)} boards in {times[-1] * 1000:7.1f} ms, repeats {repeats}")
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
            for p in pairs
        ]
    worst = max(times)
    print(
        f"Swiss round of {PLAYERS} players: worst {worst * 1000:.1f} ms, mean "
        f"{sum(times) / len(times) * 1000:.1f} ms "
        f"(budget {BUDGET * 1000:.0f} ms) -> {'OK' if worst < BUDGET else 'OVER BUDGET'}"
    )


if __name__ == "__main__":
    main()
