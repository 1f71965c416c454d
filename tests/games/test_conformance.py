"""One conformance test for every engine (OpenSpiel's sim_game idea), parametrised over GAMES.

Seeded random playouts drawn by Hypothesis check, at every step: the state
survives dump/load, apply never mutates its input, every legal move survives
format → parse, the game keeps offering moves until it has an outcome, and
replaying the log from the start reproduces the final state.

The sixth game (tic-tac-toe, which lives in ``tests/sixth_game/`` and is not in the product's
registry) runs through the very same checks.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES
from bot.games.base import CHANCE, Chance, Outcome
from tests import sixth_game

SEATS = {"pylon": 2, "fireandice": 2, "eggcarton": 2, "eof": 3, "nomic": 3}
MAX_PLIES = 400


def initial(game):
    setup = getattr(game.module, "conformance_initial", None)
    if setup is not None:
        return setup(seats_of(game))
    return game.rules.initial({}, seats_of(game))


def seats_of(game):
    return SEATS.get(game.key, game.spec.min_seats)


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


GAME_KEYS = sorted(GAMES)
ENGINES = [pytest.param(GAMES[key], id=key) for key in GAME_KEYS] + [
    pytest.param(sixth_game.GAME, id=sixth_game.KEY)]


@pytest.mark.property
@pytest.mark.parametrize("game", ENGINES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playout_keeps_the_protocol(game, seed):
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


@pytest.mark.parametrize("game", ENGINES)
def test_spec_and_rules_text(game):
    from pathlib import Path

    key = game.key
    assert game.spec.key == key
    text = (Path(game.module.__file__).parent / "rules_text.md").read_text()
    assert 200 < len(text) <= 4096
    assert callable(game.render)
    if game.spec.ai_levels:
        assert callable(game.choose)
