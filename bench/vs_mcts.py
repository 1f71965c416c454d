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

Paired comparisons: --fork PLY --variant NAME=JSON plays each game as usual and also plays it on from
ply PLY (the same position, the same random states of both sides) with the variant's settings on top of
--set. A variant that only changes the level's play from that ply on (for Pylon's stacking search,
ply 28: the last placements the search makes) is then compared on the same positions, game by game: the
run prints the base's row, the variant's row and the variant's points minus the base's with a 95%
interval. The games before the fork are played once, which also saves their time.

Usage (needs the bench extra: pip install -e '.[bench]'):
  nice -n 15 .venv/bin/python bench/vs_mcts.py --game pylon --levels hard --sims 1000 --games 10 --jobs 1
  nice -n 15 .venv/bin/python bench/vs_mcts.py --game fire_and_ice --levels hard --sims 10000 --games 40
  nice -n 15 .venv/bin/python bench/vs_mcts.py --sims 10000 --games 20 --jobs 2 --seed 3 --tag staged \
      --fork 28 --variant search.STAGED=true
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import argparse
import copy
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


def apply_settings(key: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Set constants of ``key``'s AI module (``NAME``) or of a module beside it (``module.NAME``); returns
    the values they had, so that a second call puts them back."""
    ai = importlib.import_module(spiel_games.CODECS[key].choose.__module__)
    before: dict[str, Any] = {}
    for name, value in settings.items():
        mod, attr = ai, name
        if "." in name:
            sibling, attr = name.rsplit(".", 1)
            mod = importlib.import_module(ai.__name__.rsplit(".", 1)[0] + "." + sibling)
        if not hasattr(mod, attr):
            raise SystemExit(f"--set: {mod.__name__} has no {attr}")
        old = before[name] = getattr(mod, attr)
        if isinstance(old, tuple) and isinstance(value, list):
            value = tuple(value)
        elif isinstance(old, dict) and isinstance(value, dict):
            value = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
        setattr(mod, attr, value)
    return before


class _Game:
    """One game in progress against MCTS: the state, the yardstick's random state, the moves and times."""

    def __init__(self, key: str, level: str, sims: int, index: int, seed: int,
                 kwargs: dict[str, Any]) -> None:
        self.key, self.level, self.sims, self.index, self.seed = key, level, sims, index, seed
        self.kwargs = kwargs
        self.game = spiel_games.game(key)
        self.state = self.game.new_initial_state()
        self.me = index % 2
        self.rs = np.random.RandomState((seed * 1_000_003 + index) % 2**32)
        self.plies = 0
        self.actions: list[int] = []
        self.times: dict[str, list[float]] = {"level": [], "mcts": []}

    def fork(self) -> _Game:
        """A copy that plays on independently from here (same position, same random states)."""
        other = copy.copy(self)
        other.state = self.state.clone()
        other.rs = np.random.RandomState()
        other.rs.set_state(self.rs.get_state())
        other.actions = list(self.actions)
        other.times = {k: list(v) for k, v in self.times.items()}
        return other

    def play(self, until: int | None = None) -> None:
        """Play on to the end of the game (or to ply ``until``)."""
        codec = spiel_games.CODECS[self.key]
        bot = mcts.MCTSBot(self.game, UCT_C, self.sims, mcts.RandomRolloutEvaluator(1, self.rs), solve=True,
                           random_state=self.rs)
        state = self.state
        while not state.is_terminal() and (until is None or self.plies < until):
            seat = state.current_player()
            t = time.perf_counter()
            if seat == self.me:
                rng = random.Random(f"{self.seed}:{self.index}:ai:{self.plies}")
                action = state.action_of(codec.choose(state.inner, seat, rng, self.level, **self.kwargs))
                self.times["level"].append(time.perf_counter() - t)
            else:
                action = bot.step(state)
                self.times["mcts"].append(time.perf_counter() - t)
            state.apply_action(action)
            self.actions.append(int(action))
            self.plies += 1

    def row(self, settings: dict[str, Any]) -> dict[str, Any]:
        state, me = self.state, self.me
        extra: dict[str, Any] = {}
        if self.key == "pylon":
            from bot.games.pylon.rules import scores
            sc = scores(state.inner)
            extra["margin"] = sc[me] - sc[1 - me]
        return {"game": self.key, "level": self.level, "sims": self.sims, "seed": self.seed,
                "index": self.index, "seat": me, "result": state.returns()[me], "plies": self.plies,
                "actions": self.actions, "level_s": self.times["level"], "mcts_s": self.times["mcts"],
                "options": {**self.kwargs, "set": settings}, **extra}


def play_one(key: str, level: str, sims: int, index: int, seed: int,
             kwargs: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
             fork: int | None = None, variant: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game of ``level`` against MCTS-``sims``; the level has seat ``index % 2``.

    ``kwargs`` go to the level's ``choose`` (``budget``, ``cap``); ``settings`` to :func:`apply_settings`.
    With ``fork`` (a ply), the game is also played on from that ply with ``variant`` set on top of
    ``settings`` (the same position and random states), and that game's row is the result's ``variant``.
    """
    settings = settings or {}
    apply_settings(key, settings)
    g = _Game(key, level, sims, index, seed, kwargs or {})
    g.play(fork)
    other = g.fork() if fork is not None else None
    g.play()
    row = g.row(settings)
    if other is not None:
        before = apply_settings(key, variant or {})
        try:
            other.play()
        finally:
            apply_settings(key, before)
        row["variant"] = other.row({**settings, **(variant or {})})
        row["fork"] = fork
        row["options"] = {**row["options"], "fork": fork, "variant": variant or {}}
    return row


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


def paired(rows: list[dict[str, Any]]) -> str:
    """The variant's points minus the base's over games forked from the same position, with a 95% interval
    (normal, from the spread of the per-game differences)."""
    d = [(r["variant"]["result"] - r["result"]) / 2 for r in rows]
    n = len(d)
    mean, half = _mean_and_half(d)
    changed = sum(1 for x in d if x)
    by_seat = {seat: sum(x for x, r in zip(d, rows, strict=True) if r["seat"] == seat) for seat in (0, 1)}
    text = (f"variant minus base: {mean:+.0%} of the points a game "
            f"(95% CI {mean - half:+.0%} to {mean + half:+.0%})"
            f" over {n} paired games, {changed} with another result; as the first player {by_seat[0]:+.1f}"
            f" points, as the second {by_seat[1]:+.1f}")
    if n > 1 and all("margin" in r and "margin" in r["variant"] for r in rows):
        m, h = _mean_and_half([r["variant"]["margin"] - r["margin"] for r in rows])
        text += f"; margin {m:+.2f} a game (95% CI {m - h:+.2f} to {m + h:+.2f})"
    return text


def _mean_and_half(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (1 with a single value)."""
    n = len(xs)
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(n) if n > 1 else 1.0


def told(r: dict[str, Any]) -> str:
    """A game's row in words, from the level's side: ``won by 4 in 49 plies``."""
    by = f" by {r['margin']}" if "margin" in r else ""
    return f"{['lost', 'drew', 'won'][int(r['result']) + 1]}{by} in {r['plies']} plies"


def _pairs(items: list[str]) -> dict[str, Any]:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = json.loads(value)
    return out


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
    p.add_argument("--fork", type=int, default=None, metavar="PLY",
                   help="also play each game on from this ply with --variant set (a paired comparison)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                   help="with --fork: what the variant sets on top of --set (repeatable)")
    args = p.parse_args()
    kwargs = {k: v for k, v in (("budget", args.budget), ("cap", args.cap)) if v is not None}
    settings, variant = _pairs(args.set), _pairs(args.variant)
    if variant and args.fork is None:
        raise SystemExit("--variant needs --fork")
    apply_settings(args.game, apply_settings(args.game, {**settings, **variant}))  # a wrong name stops here

    levels = [x for x in args.levels.split(",") if x]
    sims = [int(x) for x in args.sims.split(",") if x]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done: dict[tuple[str, str, int, int, int, str], dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done[r["game"], r["level"], r["sims"], r["seed"], r["index"], r.get("tag", "")] = r
    options: dict[str, Any] = {**kwargs, "set": settings}
    if args.fork is not None:
        options["fork"], options["variant"] = args.fork, variant
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
        futures = [pool.submit(play_one, *t, kwargs, settings, args.fork, variant) for t in todo]
        for fut in as_completed(futures):
            r = fut.result()
            r["tag"] = args.tag
            done[r["game"], r["level"], r["sims"], r["seed"], r["index"], r["tag"]] = r
            f.write(json.dumps(r) + "\n")
            f.flush()
            print(f"  game {r['index']}: {r['level']} (seat {r['seat']}) {told(r)}", flush=True)
            if "variant" in r:
                print(f"      variant from ply {args.fork}: {told(r['variant'])}", flush=True)
    for lv in levels:
        for n in sims:
            rows = [r for k, r in sorted(done.items()) if k[:4] == (args.game, lv, n, args.seed)
                    and k[5] == args.tag and k[4] < args.games]
            print(summary(rows))
            if args.fork is not None and rows:
                print("variant " + summary([r["variant"] for r in rows]))
                print(paired(rows))


if __name__ == "__main__":
    main()
