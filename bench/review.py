"""Budget (issue #29, "where it turned"): the review of a 60-move Fire and Ice game within 60 s at the
strongest level, without slowing another match's moves.

1. A 60-move Fire and Ice game (hard-ish vs medium, seeded; played on past a won position when it would
   end sooner) reviewed by :func:`bot.review.review`: wall and CPU seconds (budget: 60 s).
2. Typed moves of another Pylon match (``/pylon move``) through the real bot and the Discord double: p50 /
   p99 idle, while reviews run in the review process (as the button does), and while they run in a
   thread of the bot's process (what the process avoids).

Usage: nice -n 15 python bench/review.py [moves=30]
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _world import make_bot, pct

from bot.games.fire_and_ice import RULES, choose
from bot.review import FIRE_NODES, ReviewJob, Turn, review, review_off_loop, stop_review_process
from tests.discord_double import DiscordDouble

MOVES = int(sys.argv[1]) if len(sys.argv) > 1 else 30


def game(seed: int) -> ReviewJob:
    """A Fire and Ice game between two medium levels (seeded)."""
    rng = random.Random(seed)
    s = RULES.initial({"handicap": "0"}, 2)
    turns = []
    while RULES.outcome(s) is None and len(turns) < 80:
        seat = s.to_move
        mv = choose(s, seat, rng, "medium")
        turns.append(Turn(len(turns) + 1, seat, s, RULES.format(mv, s)))
        s, _ = RULES.apply(s, seat, mv)
    return ReviewJob("fireandice", tuple(turns), s)


def sixty_moves() -> ReviewJob:
    """60 positions to review. Fire and Ice games rarely pass move 48 (the supplies run out and someone
    wins: medium against medium ends by move 32-48), so: the longest of 12 seeded games, then the last
    positions (the dearest to search) of the second longest, 60 in all."""
    games = sorted((game(seed) for seed in range(12)), key=lambda j: -len(j.turns))
    first, second = games[0], games[1]
    extra = second.turns[len(second.turns) - (60 - len(first.turns)):]
    turns = first.turns + tuple(Turn(len(first.turns) + i + 1, t.seat, t.state, t.played)
                                for i, t in enumerate(extra))
    return ReviewJob("fireandice", turns, second.after)


async def main() -> None:
    job = sixty_moves()
    t, c = time.perf_counter(), time.process_time()
    rv = review(job)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    kinds = {k: sum(m.kind == k for m in rv.marks) for k in ("inaccuracy", "mistake", "blunder")}
    ok = "OK" if wall <= 60 else "OVER"
    print(f"review of {len(job.turns)} Fire and Ice moves ({FIRE_NODES:,} nodes a position): "
          f"{wall:5.1f} s wall, {cpu:5.1f} s CPU   (budget 60 s: {ok})  marks {kinds}")

    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("games")
            alice, bob = dd.create_user("alice"), dd.create_user("bob")
            for u in (alice, bob):
                guild.add_member(u)
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            await dd.connect(bot)
            by_id = {alice.id: alice, bob.id: bob}
            rng = random.Random(5)
            live: list[Any] = []

            async def new_match() -> None:
                await alice.slash(chan, "pylon new", opponent=bob)
                invite = await chan.wait_for(lambda m: "Accept" in m.button_labels())
                await bob.click(invite, "Accept")
                await dd.settle()
                live[:] = [(await bot.service.find_here(guild.threads[-1].id))[0].id, guild.threads[-1]]

            async def typed_moves(n: int) -> list[float]:
                out = []
                for _ in range(n):
                    if not live or (await bot.service.get(live[0])).status.value != "running":
                        await new_match()
                    m = await bot.service.get(live[0])
                    (seat,) = sorted(m.to_act())
                    move = rng.choice(m.rules.legal_moves(m.state, seat))
                    t = time.perf_counter()
                    await by_id[m.seats[seat].user_id].slash(live[1], "pylon move",
                                                             notation=m.rules.format(move, m.state))
                    out.append(time.perf_counter() - t)
                    await dd.settle()
                return out

            short = ReviewJob("fireandice", job.turns[:12], job.turns[12].state)
            await review_off_loop(short)  # (the process started and warm: its start-up is not the point)
            idle = await typed_moves(MOVES)
            results = {}
            for how, make in (("the review process", review_off_loop),
                              ("a worker thread", lambda j: asyncio.to_thread(review, j))):
                busy = [True]

                async def reviews(make: Any = make, busy: list[bool] = busy) -> int:
                    made = 0
                    while busy[0]:
                        await make(short)
                        made += 1
                    return made

                task = asyncio.create_task(reviews())
                await asyncio.sleep(0.05)
                results[how] = await typed_moves(MOVES)
                busy[0] = False
                await task
            print(f"typed moves idle                  p50 {pct(idle, 50) * 1000:6.1f} ms  "
                  f"p99 {pct(idle, 99) * 1000:6.1f} ms")
            for how, busy_moves in results.items():
                ok = "OK" if pct(busy_moves, 99) <= 3 * pct(idle, 99) else "OVER"
                print(f"typed moves during reviews in {how:18s} p50 {pct(busy_moves, 50) * 1000:6.1f} ms  "
                      f"p99 {pct(busy_moves, 99) * 1000:6.1f} ms   (p99 ≤ 3× idle, as a move's budget: {ok})")
            stop_review_process()
            await dd.disconnect()


if __name__ == "__main__":
    asyncio.run(main())
