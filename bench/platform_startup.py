"""Budgets: startup with 10,000 stored matches (1,000 active) ready in ≤ 5 s; memory ≤ 150 MB RSS with 1,000
active matches.

Fills a database with 9,000 finished and 1,000 running Pylon matches (mid-game states, seats, move logs),
then starts the real bot on it against the in-process Discord double and times `connect` (login, migrations,
cogs, command sync, scheduler armed, READY) — what a restart costs. Then one move is played in each of the
1,000 active matches through the service (so every one is loaded, changed and stored) and the process's RSS
is read.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

from _world import make_bot

from bot.games import GAMES
from bot.storage.sqlite import SqliteStore
from tests.discord_double import DiscordDouble

TOTAL, ACTIVE = 10_000, 1_000


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fill(db: Path, guild_id: int, channel_id: int) -> None:
    rules = GAMES["pylon"].rules
    rng = random.Random(1)
    states = []
    for _ in range(50):  # a few realistic mid-game positions to reuse
        s = rules.initial({}, 2)
        log = []
        for _ in range(rng.randrange(4, 20)):
            seat = sorted(rules.to_act(s))[0]
            mv = rng.choice(rules.legal_moves(s, seat))
            log.append((seat, rules.format(mv, s)))
            s, _ = rules.apply(s, seat, mv)
        states.append((json.dumps(rules.dump(s)), log))
    con = sqlite3.connect(db)
    now = time.time()
    match_rows, seat_rows, move_rows = [], [], []
    for i in range(1, TOTAL + 1):
        active = i > TOTAL - ACTIVE
        state, log = states[i % len(states)]
        match_rows.append(
            (
                i,
                "pylon",
                guild_id,
                channel_id,
                None,
                None,
                "running" if active else "finished",
                "{}",
                state,
                len(log) + 1,
                f"{i:016x}",
                1000 + i,
                1,
                86400,
                now + 86400 if active else None,
                None,
                None,
                json.dumps({"plies": len(log)}),
                now,
                now,
                None if active else now,
            )
        )
        seat_rows += [
            (i, 0, 1000 + 2 * i, f"p{2 * i}", None, "{}"),
            (i, 1, 1001 + 2 * i, f"p{2 * i + 1}", None, "{}"),
        ]
        move_rows += [(i, ply, seat, 1000 + 2 * i + seat, text, now) for ply, (seat, text) in enumerate(log)]
    con.executemany("INSERT INTO matches VALUES (" + ",".join("?" * 21) + ")", match_rows)
    con.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)", seat_rows)
    con.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", move_rows)
    con.commit()
    con.close()


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "big.sqlite3"
        store = SqliteStore(str(db))
        await store.open()  # creates the schema
        await store.close()
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("games")
            fill(db, guild.id, chan.id)
            base = rss_mb()
            bot = make_bot(dd, db, guild.id)
            t0 = time.perf_counter()
            await dd.connect(bot)
            ready = time.perf_counter() - t0
            n_active = len(await bot.store.active_ids_with_components())
            print(
                f"startup with {TOTAL:,} stored matches ({n_active:,} active): ready in {ready:.2f} s "
                "(budget 5 s)"
            )
            rules = GAMES["pylon"].rules
            t0 = time.perf_counter()
            played = 0
            for mid in await bot.store.active_ids_with_components():
                m = await bot.service.get(mid)
                seat = sorted(m.to_act())[0]
                mv = rules.legal_moves(m.state, seat)[0]
                await bot.service.play(mid, m.seats[seat].user_id, rules.format(mv, m.state))
                played += 1
            took = time.perf_counter() - t0
            print(
                f"one move in each of {played:,} active matches through the service: {took:.1f} s "
                f"({took / played * 1000:.2f} ms per move, DB + engine, no Discord)"
            )
            print(
                f"RSS with {ACTIVE:,} active matches: {rss_mb():.0f} MB (budget 150 MB; "
                f"the process incl. the Discord double; {base:.0f} MB before the bot started)"
            )
            await dd.disconnect()


asyncio.run(main())
