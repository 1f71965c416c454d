"""Nomic World random playouts (Hypothesis): legal and out-of-turn moves mixed, invariants at each ply."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import CHANCE, Chance, IllegalMove
from bot.games.nomic import RULES
from bot.games.nomic.moves import Join, Judge, Leave, Path, Ruling, Vote
from bot.games.nomic.state import IN_EFFECT, record

from .helpers import game

pytestmark = pytest.mark.property

NAMES = st.lists(st.text(alphabet="abcABC xyz", min_size=1, max_size=6).map(str.strip).filter(bool),
                 min_size=2, max_size=5)


def extra_move(s, rng):
    """An out-of-turn move somebody might make now (may be illegal; the caller checks)."""
    kind = rng.choice(["judge", "ruling", "vote", "join", "leave"])
    seat = rng.randrange(len(s.players) + 1)
    if kind == "judge":
        return seat, Judge(f"Question {rng.randrange(100)}?")
    if kind == "ruling" and s.question is not None:
        return s.question.judge, Ruling(f"Ruling {rng.randrange(100)}.")
    if kind == "vote":
        return seat, Vote(rng.random() < 0.5)
    if kind == "join":
        return len(s.players), Join(1000 + len(s.players), rng.choice(["Zed", "amy", "Mo"]))
    if kind == "leave" and rng.random() < 0.2:
        return seat, Leave()
    return seat, Vote(True)


def check_invariants(s):
    assert RULES.load(RULES.dump(s)) == s
    who = RULES.to_act(s)
    if RULES.outcome(s) is not None:
        assert who is None
        return
    if isinstance(who, Chance):
        assert who.outcomes
    else:
        assert who, "somebody must be able to act"
        assert any(RULES.legal_moves(s, seat) for seat in who)
    rules_in_effect = [r.number for r in s.records if r.status == IN_EFFECT]
    assert sorted(s.effect_order) == rules_in_effect
    assert sum(r.status == "open" for r in s.records) == (s.phase == "vote")
    view = RULES.view(s, None)
    assert view.next_number == 201 + len(s.records) - 15
    if s.status == "running":
        assert view.judge in view.order and view.current in view.order


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=NAMES, rng=st.randoms(use_true_random=False))
def test_random_playouts_keep_the_invariants_and_replay(names, rng):
    s = game(names)
    start = s
    log = []
    for _ in range(150):
        if RULES.outcome(s) is not None:
            break
        check_invariants(s)
        who = RULES.to_act(s)
        if not isinstance(who, Chance) and rng.random() < 0.15:
            seat, move = extra_move(s, rng)
            if not RULES.out_of_turn(s, seat, move) and not (isinstance(move, Ruling) and seat in who):
                with pytest.raises(IllegalMove):
                    RULES.apply(s, seat, move)
                continue
        elif isinstance(who, Chance):
            seat, move = CHANCE, rng.choice(who.outcomes)
        else:
            seat = rng.choice(sorted(who))
            move = rng.choice(RULES.legal_moves(s, seat))
        text = RULES.format(move, s)
        assert RULES.parse(text, s, seat) == move
        before = copy.deepcopy(s)
        new, events = RULES.apply(s, seat, move)
        assert s == before
        if isinstance(move, Path):
            a, b = s.players[seat].pos, new.path[-1]
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == len(move.steps) == s.roll
        for e in events:
            assert e.text and e.visible_to is None
        log.append((seat, text))
        s = new
    replay = start
    for seat, text in log:
        replay, _ = RULES.apply(replay, seat, RULES.parse(text, replay, seat))
    assert replay == s


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_repeal_and_amend_history_is_consistent(rng):
    """Every rule's history agrees with its status: repealed once, amended as often as amendments applied."""
    s = game(["a", "b"])
    for _ in range(60):
        if s.status != "running":
            break
        who = RULES.to_act(s)
        if isinstance(who, Chance):
            s, _ = RULES.apply(s, CHANCE, rng.choice(who.outcomes))
            continue
        seat = min(who)
        moves = RULES.legal_moves(s, seat)
        move = Vote(rng.random() < 0.8) if s.phase == "vote" else rng.choice(moves)
        s, _ = RULES.apply(s, seat, move)
    for r in s.records:
        repeals = [n for n in r.history if n.what == "repealed"]
        assert len(repeals) == (r.status == "repealed")
        amended_by = [n.ref for n in r.history if n.what == "amended"]
        for ref in amended_by:
            amendment = record(s, ref)
            assert (amendment.kind, amendment.target, amendment.status) == ("amend", r.number, "applied")
