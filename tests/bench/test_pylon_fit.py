"""The data behind Pylon hard's early weights (bench/pylon_fit.py --early): played on as the fit says.

Needs numpy, from the optional bench extra, which the README's test command installs; skipped without
it outside CI, a failure in CI.
"""

from __future__ import annotations

import pytest

from bot.games.pylon import search
from tests.bench.extra import bench_script

pylon_fit = bench_script("pylon_fit", "numpy")

pytestmark = pytest.mark.unit


def test_an_early_game_records_30_down_to_16_stacks_labelled_with_its_own_outcome() -> None:
    search.STAGED = True  # the games behind the fit are played without the blend, whatever a bench set
    try:
        rows = pylon_fit.early_game(1003)
        assert search.STAGED  # put back after
    finally:
        search.STAGED = False
    assert not search.STAGED
    assert [r["stacks"] for r in rows] == list(range(30, 15, -1))
    assert rows == pylon_fit.early_game(1003)  # the same seed plays the same game
    final = {r["to_move"]: r["margin"] for r in rows}
    assert final[0] == -final[1]  # one outcome, read from each mover's side
    for r in rows:
        assert sum(len(st) for st in r["board"]) == 30
        assert sum(1 for st in r["board"] if st) == r["stacks"]
        assert r["margin"] == final[r["to_move"]]
