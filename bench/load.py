"""Issue 11's load: P players moving continuously across M Pylon matches for S seconds, with a kill -9 of
the bot every K seconds, against the real ``python -m bot`` through the in-repo loopback Discord
(tests/loopback). Prints moves acknowledged, stored, lost, duplicated, refusals by reason, p50/p99 latency.

    python bench/load.py                       # P=20 M=100 S=60 K=10, SQLite
    python bench/load.py --players 6 --matches 20 --seconds 20 --kill-every 0
    python bench/load.py --database postgresql://postgres@127.0.0.1:5432/test   # a throw-away database there

Budget (issue 11): 0 lost, 0 duplicated, no "something went wrong" refusals; every refusal is a kill's
in-flight move ("no answer").
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback.load import LoadConfig, create_database, drop_database, run_load  # noqa: E402


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", "-P", type=int, default=20)
    ap.add_argument("--matches", "-M", type=int, default=100)
    ap.add_argument("--seconds", "-S", type=float, default=60.0)
    ap.add_argument("--kill-every", "-K", type=float, default=10.0, help="seconds between kill -9s; 0: none")
    ap.add_argument("--processes", type=int, default=1, help="shard processes (needs PostgreSQL above 1)")
    ap.add_argument(
        "--database",
        default="",
        help="PostgreSQL server URL for a throw-away database; default: a fresh SQLite file",
    )
    return ap.parse_args(argv)


async def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    logging.basicConfig(level=logging.ERROR)  # the loopback's per-violation warnings would flood the output
    with tempfile.TemporaryDirectory(prefix="parlor-load-") as tmp:
        dbname = None
        url = None
        if a.database:
            url, dbname = await create_database(a.database)
        try:
            cfg = LoadConfig(
                players=a.players,
                matches=a.matches,
                seconds=a.seconds,
                kill_every=a.kill_every or None,
                database=url,
                processes=a.processes,
            )
            report = await run_load(cfg, pathlib.Path(tmp))
        finally:
            if dbname:
                await drop_database(a.database, dbname)
    print("\n".join(report.lines()))
    bad = report.refusals.get("something went wrong (internal error)", 0)
    ok = report.lost == 0 and report.duplicated == 0 and bad == 0
    print(f"budget: 0 lost, 0 duplicated, 0 internal errors -> {'OK' if ok else 'OVER'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
