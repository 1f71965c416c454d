"""Fire and Ice AI strength: hard vs medium and medium vs easy, alternating sides, handicap 0.

Prints each match-up's score (target: the stronger level wins >= 80%) and the hard
level's thinking time per move (p50/p99/max; budget 2 s).

Run: nice .venv/bin/python bench/fireandice_strength.py [games per match-up, default 100]
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.fire_and_ice import RULES, choose
from bot.games.fire_and_ice.ai import HARD_BUDGET

BUDGET_S = 2.0
TARGET = 0.80


def play(levels: tuple[str, str], seed: int, think: dict[str, list[float]]) -> tuple[int | None, int]:
    """One game; returns (winning seat or None, plies)."""
    rng = random.Random(seed)
    s = RULES.initial({"handicap": "0"}, 2)
    while RULES.outcome(s) is None:
        seat = s.to_move
        t0 = time.perf_counter()
        move = choose(s, seat, rng, levels[seat])
        think.setdefault(levels[seat], []).append(time.perf_counter() - t0)
        s, _ = RULES.apply(s, seat, move)
    out = RULES.outcome(s)
    assert out is not None
    return (min(out.winners) if out.winners else None), s.ply


def match(strong: str, weak: str, games: int, think: dict[str, list[float]]) -> tuple[float, str]:
    wins = as_fire = as_ice = draws = 0
    plies = []
    start = time.perf_counter()
    for g in range(games):
        strong_seat = g % 2  # alternate sides: even games the strong level is Fire
        levels = (strong, weak) if strong_seat == 0 else (weak, strong)
        winner, ply = play(levels, 1000 + g, think)
        plies.append(ply)
        if winner is None:
            draws += 1
        elif winner == strong_seat:
            wins += 1
            if strong_seat == 0:
                as_fire += 1
            else:
                as_ice += 1
        if (g + 1) % 10 == 0:
            print(f"  ... {strong} vs {weak}: {wins}/{g + 1}", file=sys.stderr, flush=True)
    rate = wins / games
    line = (
        f"{strong:>6} vs {weak:<6} {wins:3d}/{games} = {rate:5.1%} (as Fire {as_fire}/{(games + 1) // 2}, "
        f"as Ice {as_ice}/{games // 2}, draws {draws}) mean {statistics.mean(plies):.1f} plies, "
        f"{time.perf_counter() - start:.0f} s  {'OK' if rate >= TARGET else 'BELOW 80%'}"
    )
    return rate, line


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    think: dict[str, list[float]] = {}
    lines = [match("hard", "medium", games, think)[1], match("medium", "easy", games, think)[1]]
    print(
        f"fireandice strength, {games} games per match-up, alternating sides, handicap 0, "
        f"hard budget {HARD_BUDGET} s/move"
    )
    for line in lines:
        print(line)
    hard = sorted(think.get("hard", [0.0]))
    p99 = hard[min(len(hard) - 1, int(0.99 * len(hard)))]
    print(
        f"hard per-move p50={statistics.median(hard):.2f} s p99={p99:.2f} s max={hard[-1]:.2f} s "
        f"over {len(hard)} moves (budget {BUDGET_S:.0f} s) {'OK' if hard[-1] <= BUDGET_S else 'OVER BUDGET'}"
    )
    med = sorted(think.get("medium", [0.0]))
    print(f"medium per-move p50={statistics.median(med) * 1000:.1f} ms max={med[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
