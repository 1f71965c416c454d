"""Fit Pylon hard's learned evaluation: solve positions exactly, regress the final margin on the features.

Positions come from games between a mix of the computer's levels (mostly ``hard`` at a fiftieth of its
work, some ``medium`` and ``easy`` moves for variety), stopped in the stacking phase at 17-21 stacks,
where the search still proves the result within a few seconds. Each is solved exactly
(``bot.games.pylon.search``, 3 million nodes at most; the few it cannot prove are skipped) and stored
with its exact final margin for the side to move, one JSON line each in --out (resumable, not committed).

The fit is a ridge regression (numpy) of that margin on :func:`Search.features`; it prints the
cross-validated error next to the plain margin's and the old locked-stack evaluation's (after capture
quiescence, as the search uses it), and the weights to paste into ``search.WEIGHTS``.

The weights in the code came from the first 114 positions solved (sampled while the levels still used
the locked-stack evaluation, so a rerun today samples other positions). On 295 positions they agree in
sign with the exact result in 81% of them (rmse 2.6 pyramids), against 75% (3.5) for the locked-stack
evaluation after quiescence. A refit on all 295 had the same cross-validated error (2.7) and played
even with them (53% in 17 self-play games at a fifth of the work), so the weights were kept.

With --early it fits ``search.WEIGHTS_EARLY``, the weights at the start of stacking, where no position
can be solved: each of --games games (placements by ``hard`` at a tenth of its work, with 0, 10 or 25%
random placements for variety, then ``hard`` stacking for both sides) records every position from 30
down to 16 stacks, labelled with the game's final margin for the side to move. The games are played
with ``search.STAGED`` off (``WEIGHTS`` throughout), as they were for the fit in the code. The fit holds
the weights at 18 stacks at ``search.WEIGHTS`` and regresses the rest of the margin on ``t × features``
(``t`` rising from 0 at 18 stacks to 1 at 30, as ``search.weights_at`` blends them); it prints the
correlation with the outcome by stack count (5-fold, folds by game) and ``WEIGHTS_EARLY``. The weights
in the code came from 696 games, seed 1: at 26-30 stacks 0.42 against 0.36 for ``WEIGHTS`` alone.

Usage (the bench extra for numpy):
  nice -n 15 .venv/bin/python bench/pylon_fit.py --positions 300 --jobs 2
  .venv/bin/python bench/pylon_fit.py --fit-only
  nice -n 15 .venv/bin/python bench/pylon_fit.py --early --games 696 --jobs 2   (about 20 minutes on 2 cores)
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from bot.games.pylon import ai, search
from bot.games.pylon.rules import PylonState, initial_state, is_over, scores, successor
from bot.games.pylon.search import _QDEPTH, FEATURES, INF, WEIGHTS, WIN, Search

DEFAULT_OUT = pathlib.Path(__file__).resolve().parent / "_out" / "pylon_labels.jsonl"
EARLY_OUT = pathlib.Path(__file__).resolve().parent / "_out" / "pylon_early.jsonl"
EARLY_LO, EARLY_HI = 16, 30


def sample(rng: random.Random, lo: int = 17, hi: int = 21) -> PylonState | None:
    """A stacking position with lo..hi stacks from a game of mixed levels (None if the game ended first)."""
    s = initial_state()
    target = rng.randint(lo, hi)
    p_medium = rng.choice((0.1, 0.3, 0.5))
    while True:
        if not s.is_placement and sum(1 for b in s.board if b) <= target:
            return s
        if is_over(s):
            return None
        seat = s.to_move
        r = rng.random()
        level = "medium" if r < p_medium else ("easy" if r < p_medium + 0.05 else "hard")
        m = ai.choose(s, seat, rng, level, budget=0.02 if level == "hard" else None)
        s = successor(s, seat, m)


def label(seed: int, index: int) -> dict[str, Any] | None:
    """Position ``index`` of ``seed``, solved exactly (None if unproved within the node budget)."""
    s = sample(random.Random(seed * 100_000 + index))
    if s is None or is_over(s):
        return None
    found = Search(s, 3_000_000, 60)
    _m, v, _d, exact = found.root(s.to_move, random.Random(0))
    if not exact:
        return None
    margin = (v - WIN) // 2 if v > WIN // 2 else ((v + WIN) // 2 if v < -WIN // 2 else 0)
    return {"seed": seed, "index": index, "board": [[list(p) for p in st] for st in s.board],
            "to_move": s.to_move, "margin": margin}


def state_of(row: dict[str, Any]) -> PylonState:
    board = tuple(tuple((p[0], p[1]) for p in st) for st in row["board"])
    return PylonState(board, ((0, 0, 0), (0, 0, 0)))


def ridge(A: np.ndarray, b: np.ndarray, lam: float) -> np.ndarray:
    """The ridge regression's coefficients of ``b`` on the columns of ``A`` (penalty ``lam``)."""
    return np.linalg.solve(A.T @ A + lam * np.eye(A.shape[1]), A.T @ b)


def fit(rows: list[dict[str, Any]], lam: float = 1.0) -> None:
    X = np.array([Search(state_of(r), 10, 10).features(r["to_move"]) for r in rows], float)
    y = np.array([r["margin"] for r in rows], float)

    def quiesced(r: dict[str, Any]) -> float:
        import bot.games.pylon.search as search
        was, search.LEARNED = search.LEARNED, False
        try:
            return Search(state_of(r), 10**9, 100).quiesce(r["to_move"], -INF, INF, _QDEPTH) / 2
        finally:
            search.LEARNED = was

    q = np.array([quiesced(r) for r in rows])
    idx = np.arange(len(y))
    np.random.default_rng(0).shuffle(idx)
    pred = np.zeros(len(y))

    for k in range(5):
        te = idx[k::5]
        tr = np.setdiff1d(idx, te)
        pred[te] = X[te] @ ridge(X[tr], y[tr], lam)

    def line(name: str, p: np.ndarray) -> str:
        return (f"  {name:34s} rmse {np.sqrt(np.mean((p - y) ** 2)):5.2f} pyramids   "
                f"sign agreement {np.mean(np.sign(p) == np.sign(y)):.2f}")

    print(f"{len(y)} exactly solved positions (mean |margin| {np.abs(y).mean():.1f})")
    print(line("margin now", X[:, 0]))
    print(line("locked-stack evaluation, quiesced", q))
    print(line("learned, 5-fold cross-validated", pred))
    print(line("learned, weights in the code", X @ np.array(WEIGHTS)))
    w = ridge(X, y, lam)
    print("fitted on all: " + ", ".join(f"{n} {x:+.3f}" for n, x in zip(FEATURES, w, strict=True)))
    print("WEIGHTS = [" + ", ".join(f"{x:.3f}" for x in w) + "]")


def early_game(seed: int) -> list[dict[str, Any]]:
    """Every position of game ``seed`` from 30 down to 16 stacks, each with the final margin for its mover."""
    was, search.STAGED = search.STAGED, False
    try:
        rng = random.Random(seed)
        s = initial_state()
        p_random = rng.choice((0.0, 0.1, 0.25))
        rows: list[dict[str, Any]] = []
        while not is_over(s):
            seat = s.to_move
            level = "hard"
            if s.is_placement:
                level = "easy" if rng.random() < p_random else "hard"
            else:
                stacks = sum(1 for b in s.board if b)
                if stacks >= EARLY_LO:
                    rows.append({"seed": seed, "board": [[list(p) for p in st] for st in s.board],
                                 "to_move": seat, "stacks": stacks})
            m = ai.choose(s, seat, rng, level, budget=0.1 if level == "hard" else None, cap=3)
            s = successor(s, seat, m)
    finally:
        search.STAGED = was
    sc = scores(s)
    for r in rows:
        r["margin"] = sc[r["to_move"]] - sc[1 - r["to_move"]]
    return rows


def fit_early(rows: list[dict[str, Any]], lam: float = 1.0) -> None:
    X = np.array([Search(state_of(r), 10, 10).features(r["to_move"]) for r in rows], float)
    y = np.array([r["margin"] for r in rows], float)
    n = np.array([r["stacks"] for r in rows])
    lo, hi = search.EARLY_SPAN
    t = np.clip((n - lo) / (hi - lo), 0, 1)[:, None]
    base = X @ np.array(WEIGHTS)
    games = sorted({r["seed"] for r in rows})
    fold_of = {g: i % 5 for i, g in enumerate(games)}
    fold = np.array([fold_of[r["seed"]] for r in rows])
    D = X * t

    pred = base.copy()
    for k in range(5):
        te = fold == k
        pred[te] += D[te] @ ridge(D[~te], (y - base)[~te], lam)
    print(f"{len(y)} positions from {len(games)} games (mean |margin| {np.abs(y).mean():.1f})")
    print("  stacks   correlation with the outcome: WEIGHTS  staged (5-fold by game)")
    for a, b in ((26, 30), (22, 25), (18, 21), (EARLY_LO, 17)):
        m = (n >= a) & (n <= b)
        if m.sum() > 2:
            before, after = np.corrcoef(base[m], y[m])[0, 1], np.corrcoef(pred[m], y[m])[0, 1]
            print(f"  {a}-{b}     {before:.3f}   {after:.3f}")
    w = np.array(WEIGHTS) + ridge(D, y - base, lam)
    print("WEIGHTS_EARLY = [" + ", ".join(f"{x:.3f}" for x in w) + "]")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=300, help="positions to try to solve (seed's indexes)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    p.add_argument("--fit-only", action="store_true")
    p.add_argument("--early", action="store_true", help="fit WEIGHTS_EARLY on played-on games instead")
    p.add_argument("--games", type=int, default=696, help="--early: games to play (seed's indexes)")
    args = p.parse_args()
    if args.early:
        early(args)
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else []
    if not args.fit_only:
        done = {(r["seed"], r["index"]) for r in rows}
        todo = [i for i in range(args.positions) if (args.seed, i) not in done]
        with ProcessPoolExecutor(max(1, args.jobs)) as pool, args.out.open("a") as f:
            for r in pool.map(label, [args.seed] * len(todo), todo):
                if r is not None:
                    rows.append(r)
                    f.write(json.dumps(r) + "\n")
                    f.flush()
    fit(rows)


def early(args: argparse.Namespace) -> None:
    out = EARLY_OUT if args.out == DEFAULT_OUT else args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(x) for x in out.read_text().splitlines()] if out.exists() else []
    if not args.fit_only:
        done = {r["seed"] for r in rows}
        todo = [args.seed * 1000 + i for i in range(args.games) if args.seed * 1000 + i not in done]
        with ProcessPoolExecutor(max(1, args.jobs)) as pool, out.open("a") as f:
            for found in pool.map(early_game, todo):
                rows.extend(found)
                f.writelines(json.dumps(r) + "\n" for r in found)
                f.flush()
    fit_early(rows)


if __name__ == "__main__":
    main()
