"""Bench: a whole EOF round's execution and rendering, GIF included (budget 500 ms).

Four players with a 20-record file submit five valid instructions each; the
timed part is the last submission (which runs all 20 instructions and scores
the round), the animation frames (one per step plus the final still), the GIF
encoding and the final still as PNG.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time
from dataclasses import replace

from bot.games.eof import RULES, animate, render
from bot.games.eof.notation import Program
from bot.games.eof.pieces import FULL, VALID_ORIENTS, Instruction, Piece, counts_of, pieces_of, sub
from bot.games.eof.rules import EofState, Phase
from bot.render import gif_bytes, png_bytes

BUDGET_MS = 500.0


def setup(rng: random.Random) -> tuple[EofState, list[Program]]:
    """A programming-phase state with a 20-record file, the pool and hands dealt from the rest."""
    s = RULES.initial({"locking": "locks-nocrash"}, 4)
    rest = list(pieces_of(sub(FULL, counts_of(Piece(c, 1) for c in range(4)))))
    rng.shuffle(rest)
    file, hands, pool = rest[:20], [rest[20 + 5 * t : 25 + 5 * t] for t in range(4)], rest[40:]
    pointers = tuple(rng.randint(0, 21) for _ in range(4))
    s = replace(
        s,
        phase=Phase.PROGRAM,
        first=0,
        file=tuple(file),
        pointers=pointers,
        bag=(0,) * 12,
        pool=counts_of(pool),
        hands=tuple(counts_of(h) for h in hands),
        draws=tuple(tuple(h) for h in hands),
        programs=(None,) * 4,
        crashed=(-1,) * 4,
    )
    programs = []
    for h in hands:
        # Inserts and moves first so that most programs run all five instructions.
        ins = [Instruction(p.colour, p.size, rng.choice(sorted(VALID_ORIENTS[p.colour]))) for p in h]
        ins.sort(key=lambda i: (i.colour != 1, i.colour == 0))
        programs.append(Program(tuple(ins)))
    return s, programs


def one_round(rng: random.Random) -> tuple[float, int, int]:
    s, programs = setup(rng)
    for t in range(3):
        s, _ = RULES.apply(s, t, programs[t])
    before = RULES.view(s, None)
    t0 = time.perf_counter()
    after_state, events = RULES.apply(s, 3, programs[3])
    after = RULES.view(after_state, None)
    frames = animate(before, events, after)
    gif = gif_bytes([f for f, _ in frames], [ms for _, ms in frames])
    png_bytes(render(after, events=events))
    elapsed = (time.perf_counter() - t0) * 1000
    return elapsed, len(frames) - 1, len(gif)


def main() -> None:
    rng = random.Random(7)
    one_round(rng)  # warm-up (fonts, palette)
    runs = [one_round(rng) for _ in range(15)]
    ms = sorted(r[0] for r in runs)
    steps = statistics.median(r[1] for r in runs)
    size = statistics.median(r[2] for r in runs) / 1024
    print(
        f"eof round (4 players, {steps:.0f} steps; execution + {steps:.0f}+1 frames + GIF {size:.0f} KiB "
        f"+ PNG): p50={statistics.median(ms):.0f} ms max={ms[-1]:.0f} ms (budget {BUDGET_MS:.0f} ms)"
    )


if __name__ == "__main__":
    main()
