"""Random playouts (Hypothesis picks the moves): the engine's invariants hold in every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import CHANCE, Chance
from bot.games.fire_and_ice import ai
from bot.games.fire_and_ice.board import moves_of, play_unchecked, winning_line, winning_lines_after
from bot.games.fire_and_ice.geometry import EMPTY, FIRE, ICE, PIECES, control_mask
from bot.games.fire_and_ice.rules import RULES, Move, State, controllers, make_view, masks

pytestmark = pytest.mark.property


def _check_invariants(s: State) -> None:
    for seat in (FIRE, ICE):
        assert s.board.count(seat) + s.supply[seat] == PIECES  # pieces are conserved
    fire, ice = masks(s.board)
    assert control_mask(fire) & control_mask(ice) == 0  # at most one controller per island
    controlled = [c for c in controllers(s.board) if c != EMPTY]
    assert len(controlled) == bin(control_mask(fire) | control_mask(ice)).count("1")
    assert RULES.load(RULES.dump(s)) == s


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_the_views_move_results_agree_with_the_boards(seed: int) -> None:
    """The view's hand-over warning reads each move's winning line from the masks, without building the
    board the move gives: the same lines on random boards from sparse to crowded (islands held, lines won,
    either side to move, supplies run out or not)."""
    rng = random.Random(seed)
    for _ in range(200):
        crowd = rng.uniform(0.2, 0.7)  # from a few islands held to lines won: where one move decides
        board = tuple(rng.choice((FIRE, ICE)) if rng.random() < crowd else EMPTY for _p in range(49))
        s = State(board, rng.choice((FIRE, ICE)), (rng.randint(0, 1), rng.randint(0, 1)))
        moves = moves_of(s.board, s.to_move)
        assert winning_lines_after(s, moves) == [winning_line(play_unchecked(s, m).board) for m in moves]


@settings(max_examples=25, deadline=None)
@given(data=st.data(), handicap=st.integers(0, 6))
def test_random_games_keep_the_invariants(data: st.DataObject, handicap: int) -> None:
    s = RULES.initial({"handicap": str(handicap)}, 2)
    log: list[tuple[int, str]] = []
    moves_by = [0, 0]
    while (who := RULES.to_act(s)) is not None:
        if isinstance(who, Chance):
            seat = CHANCE
            options = list(who.outcomes)
        else:
            (seat,) = who
            options = list(RULES.legal_moves(s, seat))
            assert options  # legal moves are never empty until the game ends
        move = options[data.draw(st.integers(0, len(options) - 1), label="move")]
        text = RULES.format(move, s)
        assert RULES.parse(text, s, seat) == move
        before = s
        dumped = RULES.dump(s)
        s, _events = RULES.apply(s, seat, move)
        assert RULES.dump(before) == dumped  # apply never changes its input
        log.append((seat, text))
        if seat != CHANCE:
            assert isinstance(move, Move)  # nobody is ever stuck in a real game
            moves_by[seat] += 1
            # the AI's mask model agrees with the engine
            me, op = masks(before.board)[seat], masks(before.board)[1 - seat]
            nme, nop, nsop = ai._result(me, op, before.supply[1 - seat], move.src, move.dst)
            assert (nme, nop) == (masks(s.board)[seat], masks(s.board)[1 - seat])
            assert nsop == s.supply[1 - seat]
        _check_invariants(s)
    out = RULES.outcome(s)
    assert out is not None and len(out.winners) == 1  # every game has a winner...
    assert max(moves_by) <= 24  # ...within 24 moves per player
    assert make_view(s).winner in (FIRE, ICE)
    # replaying the log reproduces the state
    r = RULES.initial({"handicap": str(handicap)}, 2)
    for seat, text in log:
        r, _ = RULES.apply(r, seat, RULES.parse(text, r, seat))
    assert r == s


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_view_helpers_match_the_engine(data: st.DataObject) -> None:
    s = RULES.initial({}, 2)
    for _ in range(data.draw(st.integers(0, 30), label="plies")):
        if RULES.outcome(s) is not None:
            break
        legal = RULES.legal_moves(s, s.to_move)
        s, _ = RULES.apply(s, s.to_move, legal[data.draw(st.integers(0, len(legal) - 1))])
    v = make_view(s)
    if v.is_over:
        assert v.legal == () and v.to_move is None
        return
    legal = RULES.legal_moves(s, s.to_move)
    assert v.legal == tuple(str(m) for m in legal)
    assert set(v.movable) == {str(m).split("-")[0] for m in legal}
    for m in legal:
        after, _ = RULES.apply(s, s.to_move, m)
        out = RULES.outcome(after)
        hands = out is not None and out.winners == frozenset({1 - s.to_move})
        assert (str(m) in v.handing_win) == hands
        assert (str(m) in v.winning_moves) == (out is not None and out.winners == frozenset({s.to_move}))
