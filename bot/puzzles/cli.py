"""``python -m bot puzzles``: build the puzzle file offline (run it with ``nice``; never on the bot's loop).

    python -m bot puzzles [--count N] [--seconds S] [--seed K] [--games pylon,fireandice,eggcarton]
                          [--from-db DATABASE] [--out PATH] [--verify]

Writes ``bot/puzzles/puzzles.json`` (or ``--out``) with about N puzzles per game, each proved by search
(:mod:`bot.puzzles.generate`); ``--from-db`` first searches every finished match of those games in a
Parlor database (the server's real games), then tops up from the engines' own games. ``--verify`` proves
the shipped file again instead and exits 1 if any puzzle does not hold.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

from bot.puzzles import PUZZLE_GAMES

DEFAULT_OUT = Path(__file__).with_name("puzzles.json")


async def finished_matches(url: str, games: tuple[str, ...]) -> dict[str, list[tuple[str, Any]]]:
    """``{game: [(source, positions)]}``: the finished matches of ``games`` stored at ``url``."""
    from bot.puzzles.generate import match_positions
    from bot.storage import open_store

    store = open_store(url)
    await store.open()
    out: dict[str, list[tuple[str, Any]]] = {}
    try:
        async with store._read() as db:  # type: ignore[attr-defined]  # a batch job's one plain query
            rows = await db.fetch("SELECT id FROM matches WHERE status = 'finished' ORDER BY id")
        for (match_id,) in rows:
            rec = await store.load_match(int(match_id))
            if rec is None or rec.game not in games:
                continue
            moves = [(m.seat, m.notation) for m in await store.moves(rec.id)]
            out.setdefault(rec.game, []).append(
                (f"match {rec.id}", list(match_positions(rec.game, moves, dict(rec.options)))))
    finally:
        await store.close()
    return out


def main(argv: list[str]) -> int:
    from bot.puzzles import all_puzzles, verify
    from bot.puzzles.generate import build, write

    ap = argparse.ArgumentParser(prog="parlor puzzles", description="Build the proved puzzle file.")
    ap.add_argument("--count", type=int, default=30, help="puzzles per game (default 30)")
    ap.add_argument("--seconds", type=float, default=60.0, help="search time per game (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(PUZZLE_GAMES))
    ap.add_argument("--from-db", dest="from_db", default=None, help="a Parlor database URL to mine first")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--verify", action="store_true", help="prove the shipped puzzles again and exit")
    args = ap.parse_args(argv)
    games = tuple(g for g in args.games.split(",") if g in PUZZLE_GAMES)
    if args.verify:
        bad = 0
        for p in all_puzzles():
            try:
                verify(p)
            except AssertionError as exc:
                bad += 1
                print(f"{p.id}: does not hold ({exc})")
        print(f"parlor: {len(all_puzzles()) - bad} of {len(all_puzzles())} puzzles proved again.")
        return 1 if bad else 0
    extra = asyncio.run(finished_matches(args.from_db, games)) if args.from_db else None
    started = time.monotonic()
    puzzles = build(games, args.count, args.seconds, args.seed, extra)
    write(puzzles, args.out)
    per = {g: sum(1 for p in puzzles if p["game"] == g) for g in games}
    print(f"parlor: wrote {len(puzzles)} puzzles to {args.out} in {time.monotonic() - started:.0f}s: {per}")
    return 0
