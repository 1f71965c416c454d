"""bench/vs_mcts.py's paired comparison: a game forked at a ply plays on from the same position and the same
random states, so a variant that changes nothing plays the very same game, and the variant's settings are
put back afterwards.

Needs the optional bench extra (open-spiel), as test_spiel_games.py does.
"""

from __future__ import annotations

import pytest

from bot.games.pylon import search
from tests.bench.extra import bench_script

vs_mcts = bench_script("vs_mcts", "pyspiel")

pytestmark = pytest.mark.unit

WORK = {"budget": 0.01, "cap": 30.0}  # a node and playout count, far from the cap: deterministic


@pytest.mark.parametrize("index", [0, 1])
def test_a_fork_with_nothing_changed_replays_the_same_game(index: int) -> None:
    row = vs_mcts.play_one("pylon", "hard", 20, index, 7, WORK, {}, 28, {})
    other = row["variant"]
    assert row["fork"] == row["options"]["fork"] == 28 and other["seat"] == row["seat"] == index % 2
    assert other["actions"] == row["actions"] and other["result"] == row["result"]
    assert len(row["actions"]) > 30  # the game went on well past the fork


def test_a_variant_shares_the_moves_before_the_fork_and_its_settings_are_put_back() -> None:
    shipped = search.STAGED
    plain = vs_mcts.play_one("pylon", "hard", 20, 0, 7, WORK, {}, None, None)
    row = vs_mcts.play_one("pylon", "hard", 20, 0, 7, WORK, {}, 28, {"search.STAGED": not shipped})
    assert search.STAGED is shipped
    assert row["actions"] == plain["actions"]  # the base game is the unforked game
    assert row["variant"]["actions"][:28] == row["actions"][:28]
    assert row["variant"]["options"]["set"] == {"search.STAGED": not shipped}
    assert "variant" not in plain


def test_the_paired_summary_counts_the_variant_s_points_minus_the_base_s() -> None:
    rows = [{"seat": i % 2, "result": r, "variant": {"result": v}}
            for i, (r, v) in enumerate([(-1.0, 1.0), (0.0, 0.0), (1.0, 0.0), (-1.0, -1.0)])]
    text = vs_mcts.paired(rows)
    assert text.startswith("variant minus base: +12% of the points a game")
    assert "over 4 paired games, 2 with another result" in text
    assert "as the first player +0.5 points, as the second +0.0" in text
    assert "margin" not in text  # the rows carry none
    for r, (base, variant) in zip(rows, [(-2, 4), (0, 0), (6, 0), (-4, -2)], strict=True):
        r["margin"], r["variant"]["margin"] = base, variant
    assert vs_mcts.paired(rows).endswith("; margin +0.50 a game (95% CI -4.40 to +5.40)")
