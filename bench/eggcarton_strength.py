"""Egg Carton AI strength and speed: each level against the one below.

Usage: .venv/bin/python bench/eggcarton_strength.py [games per pairing, default 200]

Budgets (issue 5): each level wins ≥ 75 % of ≥ 200 games against the level
below (3 marbles, first player alternating); a whole turn takes intermediate
≤ 200 ms and expert ≤ 1 s. Games between expert and intermediate end in one
or two turns (the expert finds the first-turn win, or a win on its first
turn), so the expert's time is also measured on mid-game positions taken
from random games, where it has to search several turns deep.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import itertools
import random
import time
from collections import defaultdict

from bot.games.egg_carton import RULES, choose
from bot.games.egg_carton.rules import LEVELS

BUDGET_MS = {"intermediate": 200, "expert": 1000}


def play(levels: tuple[str, str], rng: random.Random, turn_ms: dict[str, list[float]]) -> tuple[int, int]:
    """One game at 3 marbles; returns (winner seat, turns played). Records each whole turn's thinking time."""
    s = RULES.initial({"marbles": "3"}, 2)
    spent = 0.0
    while True:
        seat = s.to_move
        t0 = time.perf_counter()
        move = choose(s, seat, rng, levels[seat])
        spent += time.perf_counter() - t0
        s, _ = RULES.apply(s, seat, move)
        if s.winner is not None or s.to_move != seat:
            turn_ms[levels[seat]].append(spent * 1e3)
            spent = 0.0
        if s.winner is not None:
            return s.winner, s.turn


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def midgame_positions(n: int, seed: int = 5) -> list:
    """Positions at the start of a turn, 2–20 turns into random games, where no win is at hand."""
    from bot.games.egg_carton.ai import LEVEL_SETTINGS, Searcher, to_board

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = RULES.initial({"marbles": "3"}, 2)
        stop = rng.randint(2, 20)
        while s.winner is None and s.turn < stop:
            s, _ = RULES.apply(s, s.to_move, rng.choice(RULES.legal_moves(s, s.to_move)))
        if (
            s.winner is None
            and not s.again
            and Searcher(LEVEL_SETTINGS["expert"]).options(to_board(s), None).win is None
        ):
            out.append(s)
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(2024)
    turn_ms: dict[str, list[float]] = defaultdict(list)
    rows = []
    t_start = time.perf_counter()
    for weaker, stronger in itertools.pairwise(LEVELS):
        wins = first_wins = turns = 0
        for g in range(games):
            if g % 2 == 0:
                w, t = play((stronger, weaker), rng, turn_ms)
                wins += w == 0
                first_wins += w == 0
            else:
                w, t = play((weaker, stronger), rng, turn_ms)
                wins += w == 1
            turns += t
        half = games / 2
        rows.append(
            (
                f"{stronger} vs {weaker}",
                wins / games,
                first_wins / half,
                (wins - first_wins) / half,
                turns / games,
            )
        )
    print(
        f"eggcarton strength: 3 marbles, {games} games per pairing, first player alternating "
        f"({time.perf_counter() - t_start:.0f} s)"
    )
    print(f"  {'pairing':<28}{'wins':>7}{'as 1st':>8}{'as 2nd':>8}{'turns':>7}  verdict (≥ 75%)")
    for name, w, w1, w2, t in rows:
        print(f"  {name:<28}{w:>7.1%}{w1:>8.1%}{w2:>8.1%}{t:>7.1f}  {'ok' if w >= 0.75 else 'FAIL'}")
    print("  time per whole turn in those games:")
    for level in LEVELS[1:]:
        xs = turn_ms[level]
        budget = f" (budget {BUDGET_MS[level]} ms)" if level in BUDGET_MS else ""
        print(
            f"    {level:<13} p50={pct(xs, 0.5):7.1f} ms  p99={pct(xs, 0.99):7.1f} ms  "
            f"max={max(xs):7.1f} ms  turns={len(xs)}{budget}"
        )
    positions = midgame_positions(150)
    for level in ("intermediate", "expert"):
        xs = []
        for s in positions:
            seat, spent = s.to_move, 0.0
            while True:
                t0 = time.perf_counter()
                move = choose(s, seat, rng, level)
                spent += time.perf_counter() - t0
                s, _ = RULES.apply(s, seat, move)
                if s.winner is not None or s.to_move != seat:
                    break
            xs.append(spent * 1e3)
        print(
            f"  {level} on {len(positions)} mid-game positions without a win at hand: "
            f"p50={pct(xs, 0.5):.1f} ms p99={pct(xs, 0.99):.1f} ms max={max(xs):.1f} ms "
            f"(budget {BUDGET_MS[level]} ms)"
        )


if __name__ == "__main__":
    main()
