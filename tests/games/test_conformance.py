"""One conformance test for every engine (OpenSpiel's sim_game idea), parametrised over GAMES.

Seeded random playouts drawn by Hypothesis check, at every step: the state
survives dump/load, apply never mutates its input, every legal move survives
format → parse, the game keeps offering moves until it has an outcome, and
replaying the log from the start reproduces the final state.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES, available
from bot.games.base import CHANCE, Chance, Outcome

SEATS = {"pylon": 2, "fireandice": 2, "eggcarton": 2, "eof": 3, "nomic": 3}
MAX_PLIES = 400


def initial(game):
    setup = getattr(game.module, "conformance_initial", None)
    if setup is not None:
        return setup(SEATS[game.key])
    return game.rules.initial({}, SEATS[game.key])


def step(rules, state, data_or_rng):
    """One random action: a chance outcome or a random legal move of a random seat to act."""
    who = rules.to_act(state)
    pick = data_or_rng
    if isinstance(who, Chance):
        outcome = pick(who.outcomes)
        return CHANCE, outcome
    seat = pick(sorted(who))
    moves = rules.legal_moves(state, seat)
    assert moves, f"{rules.spec.key}: seat {seat} is to act but has no legal move"
    return seat, pick(moves)  # moves may be a lazy sequence (EOF: millions of programs)


GAME_KEYS = sorted(available())


@pytest.mark.property
@pytest.mark.parametrize("key", GAME_KEYS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playout_keeps_the_protocol(key, seed):
    game = GAMES[key]
    rules = game.rules
    rng = random.Random(seed)
    state = initial(game)
    start = state
    log = []
    for _ in range(MAX_PLIES):
        if rules.outcome(state) is not None:
            assert rules.to_act(state) is None
            break
        assert rules.load(rules.dump(state)) == state
        seat, move = step(rules, state, rng.choice)
        text = rules.format(move, state)
        if seat != CHANCE:
            assert rules.parse(text, state, seat) == move, text
        frozen = rules.dump(state)
        new, events = rules.apply(state, seat, move)
        assert rules.dump(state) == frozen, "apply mutated its input"
        assert isinstance(events, list)
        log.append((seat, text))
        state = new
    out = rules.outcome(state)
    if out is not None:
        assert isinstance(out, Outcome) and len(out.ranks) >= 2
    replay = start
    for seat, text in log:
        move = rules.parse(text, replay, seat)
        replay, _ = rules.apply(replay, seat, move)
    assert replay == state


@pytest.mark.parametrize("key", GAME_KEYS)
def test_spec_and_rules_text(key):
    from pathlib import Path

    game = GAMES[key]
    assert game.spec.key == key
    text = (Path(game.module.__file__).parent / "rules_text.md").read_text()
    assert 200 < len(text) <= 4096
    assert callable(game.render)
    if game.spec.ai_levels:
        assert callable(game.choose)
