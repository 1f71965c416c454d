"""Nomic World engine cost per action as the platform runs it: load, parse + apply a vote, dump.

Measured on a long game (100 rulebook entries past the Initial Set, 6 players).
Run from the repository root: .venv/bin/python bench/nomic_engine.py
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import json
import random
import statistics
import time

from bot.games.base import CHANCE, Chance
from bot.games.nomic import RULES, Join, Start, Vote

RUNS = 300


def long_game(entries: int = 100, seed: int = 3):
    rng = random.Random(seed)
    s = RULES.initial({}, 6)
    for i in range(6):
        s, _ = RULES.apply(s, i, Join(500 + i, f"Player {i}"))
    s, _ = RULES.apply(s, 0, Start())
    while len(s.records) - 15 < entries or s.phase != "vote":
        who = RULES.to_act(s)
        if isinstance(who, Chance):
            s, _ = RULES.apply(s, CHANCE, rng.choice(who.outcomes))
        elif s.phase == "vote":
            if len(s.records) - 15 >= entries:
                break
            s, _ = RULES.apply(s, min(who), Vote(rng.random() < 0.9))
        else:
            seat = min(who)
            moves = [
                m
                for m in RULES.legal_moves(s, seat)
                if type(m).__name__ != "Skip"
                and not (getattr(m, "effect", None) and m.effect.kind in ("end", "phases"))
            ]
            s, _ = RULES.apply(s, seat, rng.choice(moves))
    return s


def main() -> None:
    s = long_game()
    stored = json.dumps(RULES.dump(s))
    seat = min(RULES.to_act(s))
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        state = RULES.load(json.loads(stored))
        move = RULES.parse("vote yes", state, seat)
        new, _ = RULES.apply(state, seat, move)
        json.dumps(RULES.dump(new))
        RULES.view(new, None)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    print(
        f"nomic action (load + parse + apply + dump + view, {len(s.records)} rulebook entries, "
        f"{len(stored) // 1024} KiB JSON) p50={statistics.median(times):.2f} ms "
        f"p99={times[int(0.99 * RUNS)]:.2f} ms"
    )


if __name__ == "__main__":
    main()
