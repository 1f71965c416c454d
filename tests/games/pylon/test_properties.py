"""Pylon playouts drawn by Hypothesis: phases, conservation, scores, JSON, notation, replay."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pylon.notation import Agree, Placement, Stacking
from bot.games.pylon.rules import RULES, PylonState, is_over, scores, stackings

pytestmark = pytest.mark.property


def conserved(s: PylonState) -> bool:
    counts = Counter(p for stack in s.board for p in stack)
    return all(counts[(seat, size)] + s.stash[seat][size - 1] == 5 for seat in (0, 1) for size in (1, 2, 3))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_playouts_keep_every_invariant(data: st.DataObject) -> None:
    s = RULES.initial({}, 2)
    log: list[tuple[int, str]] = []
    placements = 0
    while (act := RULES.to_act(s)) is not None:
        (seat,) = act
        moves = RULES.legal_moves(s, seat)
        assert moves, "legal moves until the game is over"
        assert moves == sorted(moves, key=lambda m: (isinstance(m, Agree), m))
        # every legal move applies and survives the notation round trip
        for m in moves:
            assert RULES.parse(RULES.format(m, s), s, seat) == m
            RULES.apply(s, seat, m)
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        before = RULES.dump(s)
        ns, events = RULES.apply(s, seat, move)
        assert RULES.dump(s) == before, "apply never changes its input"
        assert events
        if isinstance(move, Placement):
            placements += 1
            assert s.is_placement
        elif isinstance(move, Stacking):
            assert not s.is_placement
            assert sum(1 for x in ns.board if x) == sum(1 for x in s.board if x) - 1
        log.append((seat, RULES.format(move, s)))
        s = ns
        assert conserved(s)
        assert sum(scores(s)) == s.placed
        assert all(stack[i][1] >= stack[i + 1][1] for stack in s.board for i in range(len(stack) - 1))
        assert RULES.load(RULES.dump(s)) == s
        if s.is_placement:
            assert s.to_move == s.placed % 2
    # 30 placements, then stacking until no move is left (random play never agrees from both sides)
    assert placements == 30
    assert not stackings(s) and is_over(s)
    assert sum(scores(s)) == 30
    outcome = RULES.outcome(s)
    assert outcome is not None and outcome.scores == scores(s)
    assert outcome.is_draw == (scores(s) == (15, 15))
    # replaying the log from the start reproduces the final state
    r = RULES.initial({}, 2)
    for seat, text in log:
        r, _ = RULES.apply(r, seat, RULES.parse(text, r, seat))
    assert r == s


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_every_legal_stacking_applies_and_illegal_pairs_are_refused(data: st.DataObject) -> None:
    s = RULES.initial({}, 2)
    while s.is_placement:
        moves = RULES.legal_moves(s, s.to_move)
        s, _ = RULES.apply(s, s.to_move, moves[data.draw(st.integers(0, len(moves) - 1))])
    for _ in range(data.draw(st.integers(0, 15))):
        moves = stackings(s)
        if not moves:
            break
        s, _ = RULES.apply(s, s.to_move, moves[data.draw(st.integers(0, len(moves) - 1))])
    legal = set(stackings(s))
    for src in range(30):
        for dst in range(30):
            m = Stacking(src, dst)
            if m in legal:
                RULES.apply(s, s.to_move, m)
            elif not is_over(s):
                with pytest.raises(ValueError):
                    RULES.apply(s, s.to_move, m)
