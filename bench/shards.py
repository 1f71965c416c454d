"""Issue 14's table: sustained moves per second and p99 move latency with 1,000 active Pylon matches, on
SQLite x1 process and PostgreSQL x1, x2, x4 processes (one shard per process), against the real
``python -m bot`` through the in-repo loopback Discord (tests/loopback). No kills; P players move
continuously (each only where it is its turn), for S seconds per row.

    python bench/shards.py                                   # P=40, 1,000 matches, 20 s per row
    python bench/shards.py --players 20 --matches 200 --seconds 10 --rows sqlite1,pg1
    PARLOR_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test python bench/shards.py

Each PostgreSQL row uses a throw-away database on the server of PARLOR_TEST_POSTGRES (default
postgresql://postgres@127.0.0.1:5432/test). The loopback server and the players run in this one Python
process, which shares the machine's cores with the bot processes: the figures are for this machine and
include that cost; read them side by side, not as absolute capacity.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback.load import LoadConfig, create_database, drop_database, run_load  # noqa: E402

ROWS = {
    "sqlite1": ("SQLite", 1),
    "pg1": ("PostgreSQL", 1),
    "pg2": ("PostgreSQL", 2),
    "pg4": ("PostgreSQL", 4),
}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", "-P", type=int, default=40)
    ap.add_argument("--matches", "-M", type=int, default=1000)
    ap.add_argument("--seconds", "-S", type=float, default=20.0)
    ap.add_argument("--rows", default="sqlite1,pg1,pg2,pg4", help=f"comma-separated, of {', '.join(ROWS)}")
    return ap.parse_args(argv)


async def one_row(key: str, a: argparse.Namespace, tmp: pathlib.Path) -> str:
    engine, procs = ROWS[key]
    label = f"{engine} x{procs}"
    admin = os.environ.get("PARLOR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    dbname = url = None
    try:
        if engine == "PostgreSQL":
            url, dbname = await create_database(admin)
        cfg = LoadConfig(
            players=a.players,
            matches=a.matches,
            seconds=a.seconds,
            kill_every=None,
            database=url,
            processes=procs,
        )
        r = await run_load(cfg, tmp / key)
    except Exception as exc:
        return f"| {label:<15} | {'—':>8} | {'—':>8} | {'—':>8} | not run: {str(exc).splitlines()[0][:90]} |"
    finally:
        if dbname:
            await drop_database(admin, dbname)
    problems = sum(r.refusals.values())
    note = f"{r.acked} acknowledged, {problems} refused, {r.lost} lost, {r.duplicated} duplicated"
    if r.refusals:
        note += " (" + ", ".join(f"{n} {why}" for why, n in r.refusals.most_common(3)) + ")"
    return (
        f"| {label:<15} | {r.moves_per_second:8.1f} | {r.pct(50) * 1000:8.1f} | {r.pct(99) * 1000:8.1f} "
        f"| {note} |"
    )


async def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    logging.basicConfig(level=logging.ERROR)
    print(
        f"{a.matches} active Pylon matches, {a.players} players moving continuously, {a.seconds:g} s per row"
    )
    print("| backend x processes | moves/s | p50 ms | p99 ms | notes |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="parlor-shards-") as tmp:
        for key in a.rows.split(","):
            print(await one_row(key.strip(), a, pathlib.Path(tmp)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
