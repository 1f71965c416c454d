"""Each computer level against OpenSpiel's MCTS: wins / draws / losses with a 95% interval, seconds a move.

The yardstick is ``open_spiel.python.algorithms.mcts.MCTSBot`` unchanged: UCT c = 2, one random
rollout per leaf (``RandomRolloutEvaluator``), MCTS-Solver backups on (OpenSpiel's default), playing
the engine through bench/spiel_games.py. Seats alternate: game i gives the Parlor level seat i % 2.
Everything is seeded from --seed and the game's number, so a game replays the same (the levels'
time budgets aside: a level that stops on the clock can play differently on a busier machine).

Results go one JSON line per game to --out (default bench/_out/vs_mcts.jsonl, not committed);
a run skips the games its file already holds, so an interrupted run resumes where it stopped and
a later run with a larger --games adds games. --jobs plays games in parallel processes.

Experiments: --budget and --cap pass the level's work scale and time cap (seconds; as in the levels'
``choose``), and --set NAME=JSON sets a constant of the game's AI module before play (``search.NAME``:
of the module beside it), so a variant of a level is measured against the same yardstick without
editing the code, e.g. ``--budget 0.2 --cap 3 --set 'LEVEL_WORK={"hard": [140000, 32500]}'``. Give
each variant its own --tag (a run refuses to add to games of its tag played with other options).

Usage (needs the bench extra: pip install -e '.[bench]'):
  nice -n 15 .venv/bin/python bench/vs_mcts.py --game pylon --levels hard --sims 1000 --games 10 --jobs 1
  nice -n 15 .venv/bin/python bench/vs_mcts.py --game fire_and_ice --levels hard --sims 10000 --games 40
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import argparse
import importlib
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import numpy as np
import spiel_games
from open_spiel.python.algorithms import mcts

UCT_C = 2.0
DEFAULT_OUT = pathlib.Path(__file__).resolve().parent / "_out" / "vs_mcts.jsonl"


def apply_settings(key: str, settings: dict[str, Any]) -> None:
    """Set constants of ``key``'s AI module (``NAME``) or of a module beside it (``module.NAME``)."""
    ai = importlib.import_module(spiel_games.CODECS[key].choose.__module__)
    for name, value in settings.items():
        mod = ai
        if "." in name:
            sibling, name = name.rsplit(".", 1)
            mod = importlib.import_module(ai.__name__.rsplit(".", 1)[0] + "." + sibling)
        if not hasattr(mod, name):
            raise SystemExit(f"--set: {mod.__name__} has no {name}")
        if isinstance(getattr(mod, name), tuple) and isinstance(value, list):
            value = tuple(value)
        elif isinstance(getattr(mod, name), dict) and isinstance(value, dict):
            value = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
        setattr(mod, name, value)


def play_one(key: str, level: str, sims: int, index: int, seed: int,
             kwargs: dict[str, Any] | None = None, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game of ``level`` against MCTS-``sims``; the level has seat ``index % 2``.

    ``kwargs`` go to the level's ``choose`` (``budget``, ``cap``); ``settings`` to :func:`apply_settings`.
    """
    apply_settings(key, settings or {})
    codec = spiel_games.CODECS[key]
    game = spiel_games.game(key)
    state = game.new_initial_state()
    me = index % 2
    rs = np.random.RandomState((seed * 1_000_003 + index) % 2**32)
    bot = mcts.MCTSBot(game, UCT_C, sims, mcts.RandomRolloutEvaluator(1, rs), solve=True, random_state=rs)
    times: dict[str, list[float]] = {"level": [], "mcts": []}
    plies = 0
    actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        t = time.perf_counter()
        if seat == me:
            rng = random.Random(f"{seed}:{index}:ai:{plies}")
            action = state.action_of(codec.choose(state.inner, seat, rng, level, **(kwargs or {})))
            times["level"].append(time.perf_counter() - t)
        else:
            action = bot.step(state)
            times["mcts"].append(time.perf_counter() - t)
        state.apply_action(action)
        actions.append(int(action))
        plies += 1
    r = state.returns()[me]
    extra: dict[str, Any] = {}
    if key == "pylon":
        from bot.games.pylon.rules import scores
        sc = scores(state.inner)
        extra["margin"] = sc[me] - sc[1 - me]
    return {"game": key, "level": level, "sims": sims, "seed": seed, "index": index, "seat": me,
            "result": r, "plies": plies, "actions": actions, "level_s": times["level"],
            "mcts_s": times["mcts"], "options": {**(kwargs or {}), "set": settings or {}}, **extra}


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a share (points out of n; a draw counts half)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    w = sum(r["result"] > 0 for r in rows)
    d = sum(r["result"] == 0 for r in rows)
    lost = n - w - d
    pts = w + d / 2
    lo, hi = wilson(pts, n)
    lv = [t for r in rows for t in r["level_s"]]
    mc = [t for r in rows for t in r["mcts_s"]]

    def per(ts: list[float]) -> str:
        if not ts:
            return "-"
        return f"mean {statistics.fmean(ts):.2f} s, max {max(ts):.2f} s"

    head = f"{rows[0]['game']} {rows[0]['level']} vs MCTS-{rows[0]['sims']}" if rows else ""
    return (f"{head}: {n} games  W {w} D {d} L {lost}  points {pts / max(n, 1):.0%} "
            f"(95% CI {lo:.0%}-{hi:.0%})  level {per(lv)}; MCTS {per(mc)}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="pylon", choices=spiel_games.keys())
    p.add_argument("--levels", default="hard", help="comma-separated levels of the game's computer")
    p.add_argument("--sims", default="1000", help="comma-separated MCTS simulation counts")
    p.add_argument("--games", type=int, default=10, help="games per pairing (seats alternate)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    p.add_argument("--tag", default="", help="a label stored with each game (e.g. a commit)")
    p.add_argument("--budget", type=float, default=None, help="the level's work scaled to these seconds")
    p.add_argument("--cap", type=float, default=None, help="the level's time cap a move, in seconds")
    p.add_argument("--set", action="append", default=[], metavar="NAME=JSON",
                   help="set a constant of the game's AI module first (experiments; repeatable)")
    args = p.parse_args()
    kwargs = {k: v for k, v in (("budget", args.budget), ("cap", args.cap)) if v is not None}
    settings = {}
    for item in args.set:
        name, _, value = item.partition("=")
        settings[name] = json.loads(value)
    apply_settings(args.game, settings)  # a wrong name stops here, before any game

    levels = [x for x in args.levels.split(",") if x]
    sims = [int(x) for x in args.sims.split(",") if x]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done: dict[tuple[str, str, int, int, int, str], dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done[r["game"], r["level"], r["sims"], r["seed"], r["index"], r.get("tag", "")] = r
    options = {**kwargs, "set": settings}
    for k, r in done.items():
        if k[0] == args.game and k[3] == args.seed and k[5] == args.tag \
                and r.get("options", {"set": {}}) != options:
            raise SystemExit(f"{args.out} holds games tagged {args.tag!r} played with other options "
                             f"({r.get('options')}): give this variant its own --tag")
    todo = [(args.game, lv, n, i, args.seed) for lv in levels for n in sims for i in range(args.games)
            if (args.game, lv, n, args.seed, i, args.tag) not in done]
    had = args.games * len(levels) * len(sims) - len(todo)
    print(f"{len(todo)} games to play ({had} already in {args.out})", flush=True)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool, args.out.open("a") as f:
        futures = [pool.submit(play_one, *t, kwargs, settings) for t in todo]
        for fut in as_completed(futures):
            r = fut.result()
            r["tag"] = args.tag
            done[r["game"], r["level"], r["sims"], r["seed"], r["index"], r["tag"]] = r
            f.write(json.dumps(r) + "\n")
            f.flush()
            said = ["lost", "drew", "won"][int(r["result"]) + 1]
            print(f"  game {r['index']}: {r['level']} (seat {r['seat']}) {said}"
                  f"{' by ' + str(r['margin']) if 'margin' in r else ''} in {r['plies']} plies", flush=True)
    for lv in levels:
        for n in sims:
            rows = [r for k, r in sorted(done.items()) if k[:4] == (args.game, lv, n, args.seed)
                    and k[5] == args.tag and k[4] < args.games]
            print(summary(rows))


if __name__ == "__main__":
    main()
