"""Egg Carton rendering budgets: static board p50 ≤ 20 ms; sowing GIF ≤ 300 ms and ≤ 2 MB.

Usage: .venv/bin/python bench/eggcarton_render.py

The boards and moves are sampled from seeded random games (3 marbles), so a
"typical move" is the median of real moves; the longest sowing in the sample
is reported too. The GIF is timed as the bot makes it (``sowing_gif``) two ways:
from nothing kept (every kept slot picture and encoded change forgotten before
each move), and as in a running bot (slot pictures warmed by the start-up's six
seeded games, then moves of other games, with the first frame encoded ahead
while the player thinks); and as the bot does now, every pick's sowing encoded
ahead while the player thinks (the pick then only takes it), with what that
costs per position. Against the computer an answer plays the player's pick and then each of the computer's
picks (``picks_gif``): timed with the player's pick encoded ahead (the computer's appended) and from nothing.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import random
import statistics
import time

from bot.games.egg_carton import RULES, picks_gif, prepare_sowing, render, sowing_gif, sowings_ahead
from bot.games.samples import sample_plays
from bot.render import png_bytes

R = sys.modules["bot.games.egg_carton.render"]
S = sys.modules["bot.games.egg_carton.sowing"]


def forget() -> None:
    for kept in (S._TILES, S._FRAME_DATA, S._AHEAD, S._READY):
        kept.clear()


def sample_moves(games: int, seed: int = 1) -> list[tuple[object, list, object]]:
    """Every move of ``games`` seeded random games (3 marbles): (view before, events, view after)."""
    return [play for g in range(games) for play in sample_plays(RULES, 2, seed * 1000 + g)]


def sample_games(games: int, seed: int) -> list[list[tuple[object, list, object, object]]]:
    """Seeded random games (3 marbles): per move (view before, events, view after, the move)."""
    out = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state, moves = RULES.initial({}, 2), []
        while RULES.outcome(state) is None:
            seat = RULES.view(state, None).to_move
            move = rng.choice(RULES.legal_moves(state, seat))
            after, events = RULES.apply(state, seat, move)
            moves.append((RULES.view(state, None), events, RULES.view(after, None), move))
            state = after
        out.append(moves)
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    moves = sample_moves(12)
    names, clocks = ["alice", "bob"], [272_000, 9_400]
    render(moves[0][2])
    sowing_gif(*moves[0], speed="normal")  # fonts, sprite, palette

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
        forget()
        t0 = time.perf_counter()
        data = sowing_gif(before, events, after, names=names, speed="normal", clocks=clocks)
        gif_ms.append((time.perf_counter() - t0) * 1e3)
        gif_kb.append(len(data) / 1024)
        frames_n.append(len(R._pictures(before, events, after, "normal")))

    forget()
    for seed in range(1, 7):  # the start-up's warm-up (cogs/egg_carton.py)
        for play in sample_plays(RULES, 2, seed):
            sowing_gif(*play, names=names)
    running = []
    for before, events, after in sample_moves(30, seed=99):  # games never seen
        prepare_sowing(before, names=names, speed="normal")
        t0 = time.perf_counter()
        sowing_gif(before, events, after, names=names, speed="normal")
        running.append((time.perf_counter() - t0) * 1e3)

    # as the bot does now: while the player thinks, every pick's sowing is encoded (cogs/egg_carton.py)
    ahead_ms, taken = [], []
    for g, game in enumerate(sample_games(30, seed=77)):
        state = RULES.initial({}, 2)
        for before, events, after, move in game:
            seat = before.to_move
            picks = [(ev, RULES.view(st, None)) for st, ev in
                     (RULES.apply(state, seat, RULES.parse(letter, state, seat))
                      for letter, count in before.side(seat) if count)]
            who = [f"p{2 * g}", f"p{2 * g + 1}"]
            t0 = time.perf_counter()
            prepare_sowing(before, names=who)
            for _ in sowings_ahead(before, picks, names=who):
                pass
            t1 = time.perf_counter()
            sowing_gif(before, events, after, names=who)
            taken.append((time.perf_counter() - t1) * 1e3)
            ahead_ms.append((t1 - t0) * 1e3)
            state = RULES.apply(state, seat, move)[0]

    # against the computer (seat 1): the answer to a pick that ends the player's turn plays that pick and
    # every pick of the computer's turn; the player's pick was encoded ahead while they thought
    answer_ms, answer_cold_ms, answer_picks = [], [], []
    for g, game in enumerate(sample_games(30, seed=55)):
        state = RULES.initial({}, 2)
        for i, (before, events, after, move) in enumerate(game):
            seat = before.to_move
            run = [(before, events, after)]
            for b, e, a, _m in game[i + 1:]:
                if b.to_move != 1:
                    break
                run.append((b, e, a))
            if seat == 0 and after.to_move == 1 and len(run) > 1:
                picks = [(ev, RULES.view(st, None)) for st, ev in
                         (RULES.apply(state, seat, RULES.parse(letter, state, seat))
                          for letter, count in before.side(seat) if count)]
                t0 = time.perf_counter()
                picks_gif(run, names=[f"r{g}", "Parlor"])  # names of their own: nothing ready
                answer_cold_ms.append((time.perf_counter() - t0) * 1e3)
                who = [f"q{2 * g}", f"q{2 * g + 1}"]
                prepare_sowing(before, names=who)
                for _ in sowings_ahead(before, picks, names=who):
                    pass
                t0 = time.perf_counter()
                picks_gif(run, names=who)
                answer_ms.append((time.perf_counter() - t0) * 1e3)
                answer_picks.append(len(run))
            state = RULES.apply(state, seat, move)[0]

    def one(move: tuple) -> tuple[float, float, int, int]:
        before, events, after = move
        forget()
        t0 = time.perf_counter()
        data = sowing_gif(before, events, after, names=names, speed="normal", clocks=clocks)
        return (
            (time.perf_counter() - t0) * 1e3,
            len(data) / 1024,
            len(R._pictures(before, events, after, "normal")),
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
        f"eggcarton GIF typical move, nothing kept ({t_drops} marbles moved, {t_fr} frames): {t_ms:.0f} ms, "
        f"{t_kb:.0f} KB (budget ≤ 300 ms, ≤ 2048 KB)"
    )
    print(
        f"eggcarton GIF as in a running bot ({len(running)} moves of unseen games): "
        f"p50={statistics.median(running):.1f} ms p99={pct(running, 0.99):.1f} ms"
    )
    print(
        f"eggcarton GIF with every pick encoded ahead ({len(taken)} moves of 30 games, names of their own): "
        f"pick p50={statistics.median(taken):.2f} ms p99={pct(taken, 0.99):.2f} ms; encoding ahead "
        f"(while the player thinks, a frame at a time) p50={statistics.median(ahead_ms):.0f} ms "
        f"p99={pct(ahead_ms, 0.99):.0f} ms per position"
    )
    print(
        f"eggcarton GIF answer against the computer ({len(answer_ms)} answers of 30 games, "
        f"{statistics.median(answer_picks):.0f}-{max(answer_picks)} picks): the player's pick encoded ahead "
        f"p50={statistics.median(answer_ms):.1f} ms p99={pct(answer_ms, 0.99):.1f} ms; not encoded ahead "
        f"p50={statistics.median(answer_cold_ms):.1f} ms p99={pct(answer_cold_ms, 0.99):.1f} ms"
    )
    print(
        f"eggcarton GIF from nothing kept, over {len(gif_ms)} sampled moves: "
        f"p50={statistics.median(gif_ms):.0f} ms "
        f"p99={pct(gif_ms, 0.99):.0f} ms max={max(gif_ms):.0f} ms; size max={max(gif_kb):.0f} KB; "
        f"frames max={max(frames_n)}"
    )
    print(
        f"eggcarton GIF longest sampled sowing ({l_drops} marbles moved, {l_fr} frames): {l_ms:.0f} ms, "
        f"{l_kb:.0f} KB"
    )


if __name__ == "__main__":
    main()
