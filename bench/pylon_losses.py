"""Where a Pylon game against MCTS was lost: a deep search's value along each game that hard did not win.

Reads the games ``bench/vs_mcts.py`` wrote (one JSON line each, with the actions), replays every Pylon
game the level did not win, and from the last placements on searches every --every plies with
--nodes nodes (no time cap, so the figures are the same on any machine). Each value is read from the
level's side, in pyramids of final margin: exact (``=``) once the search saw every line to the end,
otherwise the learned evaluation's estimate (``~``). The first ply from which the value stays below
zero is where the game slipped away.

Usage: .venv/bin/python bench/pylon_losses.py bench/_out/vs_mcts.jsonl [--sims 10000] [--nodes 1000000]
       [--every 2] [--from-ply 26] [--all]
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import argparse
import json
import random
from typing import Any

import spiel_games

from bot.games.pylon.search import WIN, search


def margin_of(value: int, exact: bool) -> str:
    """A search value (half-pyramids, ±WIN for a decided game) as pyramids of final margin."""
    if abs(value) >= WIN // 2:
        value -= WIN if value > 0 else -WIN
    return f"{'=' if exact else '~'}{value / 2:+.1f}"


def trace(row: dict[str, Any], nodes: int, every: int, from_ply: int) -> list[tuple[int, str, bool]]:
    """(ply, value from the level's side, exact) at each checkpoint of the game ``row``."""
    game = spiel_games.game("pylon")
    state = game.new_initial_state()
    me = row["seat"]
    out = []
    for ply, action in enumerate(row["actions"]):
        if ply >= from_ply and (ply - from_ply) % every == 0:
            s = state.inner
            side = state.current_player()
            _m, value, _depth, exact = search(s, side, random.Random(0), nodes, 10_000.0)
            out.append((ply, margin_of(value if side == me else -value, exact), exact))
            if exact:
                break  # the rest of the game is solved from here
        state.apply_action(action)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", type=pathlib.Path)
    p.add_argument("--sims", type=int, default=0, help="only games against this many simulations")
    p.add_argument("--nodes", type=int, default=1_000_000)
    p.add_argument("--every", type=int, default=2)
    p.add_argument("--from-ply", type=int, default=26)
    p.add_argument("--all", action="store_true", help="won games too")
    args = p.parse_args()
    rows = [json.loads(line) for line in args.games.read_text().splitlines() if line.strip()]
    rows = [
        r
        for r in rows
        if r["game"] == "pylon"
        and "actions" in r
        and (args.all or r["result"] <= 0)
        and (not args.sims or r["sims"] == args.sims)
    ]
    for r in sorted(rows, key=lambda r: (r["sims"], r["index"])):
        points = trace(r, args.nodes, args.every, args.from_ply)
        said = ["lost", "drew", "won"][int(r["result"]) + 1]
        print(
            f"game {r['index']} (MCTS-{r['sims']}, level seat {r['seat']}) {said} by {r['margin']}: "
            + "  ".join(f"{ply}:{v}" for ply, v, _ in points),
            flush=True,
        )


if __name__ == "__main__":
    main()
