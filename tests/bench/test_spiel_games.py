"""The OpenSpiel adapter of bench/ (spiel_games.py) agrees with the engines on random games.

Needs the optional bench extra (open-spiel), which the README's test command installs; skipped without
it outside CI, a failure in CI.
"""

from __future__ import annotations

import random

import pytest

from tests.bench.extra import bench_script

spiel_games = bench_script("spiel_games", "pyspiel")
np = bench_script("numpy", "numpy")

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("key", ["pylon", "fire_and_ice", "egg_carton"])
def test_adapter_and_engine_agree_on_random_games(key: str) -> None:
    codec = spiel_games.CODECS[key]
    rules = codec.rules
    game = spiel_games.game(key)
    for seed in range(12):
        rng = random.Random(seed)
        st = game.new_initial_state()
        s = rules.initial(dict(codec.options), 2)
        plies = 0
        while True:
            act = rules.to_act(s)
            if act is None:
                assert st.is_terminal()
                break
            (seat,) = tuple(act)
            assert st.current_player() == seat
            engine = [m for m in rules.legal_moves(s, seat) if not isinstance(m, codec.skip)]
            actions = st.legal_actions()
            assert len(actions) == len(set(actions)) == len(engine)
            assert sorted(map(str, (st.move_of(a) for a in actions))) == sorted(map(str, engine))
            assert all(0 <= a < game.num_distinct_actions() for a in actions)
            move = rng.choice(engine)
            before, prev = st.clone(), rules.dump(s)
            st.apply_action(st.action_of(move))
            s, _ = rules.apply(s, seat, move)
            assert rules.dump(st.inner) == rules.dump(s)
            assert rules.dump(before.inner) == prev  # the clone is independent
            assert before.current_player() == seat
            plies += 1
            assert plies <= game.max_game_length()
        out = rules.outcome(s)
        ret = st.returns()
        if out.is_draw:
            assert ret == [0.0, 0.0]
        else:
            (winner,) = tuple(out.winners)
            assert ret[winner] == 1.0 and ret[1 - winner] == -1.0


@pytest.mark.parametrize("key", ["pylon", "fire_and_ice", "egg_carton"])
def test_openspiel_mcts_plays_the_adapted_game(key: str) -> None:
    from open_spiel.python.algorithms import mcts

    game = spiel_games.game(key)
    st = game.new_initial_state()
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    a = bot.step(st)
    assert a in st.legal_actions()
    st.apply_action(a)
    assert st.current_player() == 1


def test_the_bench_plays_a_level_against_mcts_deterministically() -> None:
    import vs_mcts

    one = vs_mcts.play_one("egg_carton", "novice", 10, 1, 5)
    two = vs_mcts.play_one("egg_carton", "novice", 10, 1, 5)
    assert one["result"] in (-1.0, 0.0, 1.0) and one["seat"] == 1
    assert (one["result"], one["plies"]) == (two["result"], two["plies"])
    lo, hi = vs_mcts.wilson(7, 10)
    assert 0.35 < lo < 0.7 < hi < 0.95
