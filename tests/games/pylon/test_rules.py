"""Pylon rules: placement, stacking legality edges, the end, agree-to-end, scores, JSON."""

from __future__ import annotations

import json

import pytest

from bot.games.base import IllegalMove, InvalidNotation, Reason
from bot.games.pylon.notation import AGREE, Placement, Stacking, parse_square
from bot.games.pylon.rules import (
    OVER,
    PLACEMENT,
    RULES,
    STACKING,
    can_agree,
    initial_state,
    is_over,
    legal_directions,
    movable_squares,
    phase,
    scores,
    stackings,
)
from tests.games.pylon.helpers import full_board, play_all, position

pytestmark = pytest.mark.unit

RED, BLUE = 0, 1


def sq(name: str) -> int:
    return parse_square(name)


# --- set-up and placement --------------------------------------------------------------------------------

def test_initial_position_is_empty_with_two_full_stashes() -> None:
    s = RULES.initial({}, 2)
    assert s == initial_state()
    assert all(st == () for st in s.board) and len(s.board) == 30
    assert s.stash == ((5, 5, 5), (5, 5, 5))
    assert s.to_move == RED and phase(s) == PLACEMENT
    assert RULES.to_act(s) == frozenset({RED})
    assert len(RULES.legal_moves(s, RED)) == 90  # 3 sizes x 30 squares
    assert RULES.legal_moves(s, BLUE) == []


def test_initial_rejects_other_seat_counts_and_options() -> None:
    with pytest.raises(ValueError, match="exactly 2 players"):
        RULES.initial({}, 3)
    with pytest.raises(ValueError, match="no options"):
        RULES.initial({"size": "big"}, 2)


def test_spec() -> None:
    spec = RULES.spec
    assert spec.key == "pylon" and spec.min_seats == spec.max_seats == 2
    assert spec.ai_levels == ("easy", "medium", "hard")
    assert spec.seat_names == ("Red", "Blue")


def test_placements_alternate_from_seat_0() -> None:
    s = play_all(RULES.initial({}, 2), "L c3")
    assert s.board[sq("c3")] == ((RED, 3),)
    assert s.stash == ((5, 5, 4), (5, 5, 5))
    assert s.to_move == BLUE
    s = play_all(s, "S c4")
    assert s.board[sq("c4")] == ((BLUE, 1),) and s.to_move == RED
    assert len(RULES.legal_moves(s, RED)) == 3 * 28


def test_placement_on_an_occupied_square_is_illegal() -> None:
    s = play_all(RULES.initial({}, 2), "L c3")
    with pytest.raises(IllegalMove, match="c3 is taken by a large Red pyramid"):
        RULES.parse("S c3", s, BLUE)


def test_no_pyramids_of_a_size_left() -> None:
    s = position({"a1": "R3"}, stash=((5, 5, 0), (5, 5, 0)))
    with pytest.raises(IllegalMove, match="you have no large pyramids left"):
        RULES.apply(s, s.to_move, Placement(3, sq("c3")))
    assert RULES.legal_moves(s, s.to_move)[-1].size == 2  # type: ignore[union-attr]


def test_placing_out_of_turn_is_illegal() -> None:
    s = RULES.initial({}, 2)
    with pytest.raises(IllegalMove, match="it is Red's turn, not Blue's"):
        RULES.apply(s, BLUE, Placement(1, 0))


def test_stacking_before_the_board_is_full_is_illegal() -> None:
    s = play_all(RULES.initial({}, 2), "L c3", "L c4")
    with pytest.raises(IllegalMove, match="stacking starts once all 30 pyramids are placed \\(28 still"):
        RULES.parse("c3-c4", s, RED)


def test_placing_after_placement_is_illegal() -> None:
    s = full_board()
    with pytest.raises(IllegalMove, match="all 30 pyramids are placed"):
        RULES.parse("S a1", s, s.to_move)


def test_the_thirtieth_placement_starts_stacking_with_the_last_placer() -> None:
    s = RULES.initial({}, 2)
    events = []
    for i in range(30):
        moves = RULES.legal_moves(s, s.to_move)
        s, events = RULES.apply(s, s.to_move, moves[0])
        assert (phase(s) == STACKING) == (i == 29)
    assert s.stash == ((0, 0, 0), (0, 0, 0))
    assert s.to_move == BLUE  # seat 1 placed the 30th pyramid
    assert [e.kind for e in events] == ["place", "phase"]
    assert "Blue moves first" in events[-1].text
    assert all(isinstance(m, Stacking) or m == AGREE for m in RULES.legal_moves(s, BLUE))


# --- stacking --------------------------------------------------------------------------------------------

def test_full_board_is_stacking_phase_with_blue_to_move() -> None:
    s = full_board()
    assert phase(s) == STACKING and s.to_move == BLUE
    assert scores(s) == (15, 15)


def test_the_whole_stack_moves_onto_an_adjacent_occupied_square() -> None:
    s = position({"c3": "R3 R2 B1", "c4": "B1", "d3": "B2"})
    ns, events = RULES.apply(s, s.to_move, Stacking(sq("c4"), sq("c3")))
    assert ns.board[sq("c4")] == ()
    assert ns.board[sq("c3")] == ((RED, 3), (RED, 2), (BLUE, 1), (BLUE, 1))
    assert events[0].kind == "stack" and events[0].data["height"] == 4


def test_equal_sizes_may_stack() -> None:
    s = position({"c3": "R2", "c4": "B2"})
    assert RULES.parse("c3-c4", s, s.to_move) == Stacking(sq("c3"), sq("c4"))
    assert RULES.parse("c4-c3", s, s.to_move) == Stacking(sq("c4"), sq("c3"))


def test_a_stack_cannot_move_onto_a_smaller_pyramid() -> None:
    s = position({"c3": "R3", "c4": "B1"})
    with pytest.raises(IllegalMove, match="a stack cannot move onto a smaller pyramid: bottom 3 > top 1"):
        RULES.parse("c3-c4", s, s.to_move)
    assert RULES.parse("c4-c3", s, s.to_move) == Stacking(sq("c4"), sq("c3"))


def test_the_bottom_of_the_moving_stack_counts_not_its_top() -> None:
    # the c3 stack has a small on top but a medium at the bottom: it cannot go onto a small
    s = position({"c3": "R2 B1", "c4": "B1"})
    with pytest.raises(IllegalMove, match="bottom 2 > top 1"):
        RULES.parse("c3-c4", s, s.to_move)
    # the top of the target counts, not its bottom: a small may go onto a stack topped by a small
    assert RULES.parse("c4-c3", s, s.to_move) == Stacking(sq("c4"), sq("c3"))


def test_a_stack_may_never_move_to_an_empty_square() -> None:
    s = position({"c3": "R1", "d3": "B3"})
    with pytest.raises(IllegalMove, match="c4 is empty, and a stack may never move to an empty square"):
        RULES.parse("c3-c4", s, s.to_move)


def test_moving_from_an_empty_square_is_illegal() -> None:
    s = position({"c3": "R1", "d3": "B3"})
    with pytest.raises(IllegalMove, match="c4 is empty, so there is no stack to move"):
        RULES.parse("c4-c3", s, s.to_move)


@pytest.mark.parametrize("move", ["c3-e3", "c3-d4", "c3-c5", "c3-c3"])
def test_only_orthogonal_neighbours(move: str) -> None:
    s = position({"c3": "R1", "e3": "B3", "d4": "B3", "c5": "B3", "c4": "R3"})
    with pytest.raises(IllegalMove, match="orthogonally adjacent") as info:
        RULES.parse(move, s, s.to_move)
    assert "c3-c4" in info.value.legal


def test_either_player_may_move_any_stack() -> None:
    s = position({"c3": "R1", "c4": "R3", "a1": "B1", "a2": "B3"})
    mover = s.to_move
    for seat_stack in ("c3-c4", "a1-a2"):
        ns = play_all(s, seat_stack)
        assert ns.to_move == 1 - mover
    assert RULES.legal_moves(s, mover) == [Stacking(sq("a1"), sq("a2")), Stacking(sq("c3"), sq("c4")), AGREE]


def test_moving_out_of_turn_is_illegal() -> None:
    s = full_board()
    with pytest.raises(IllegalMove, match="it is Blue's turn, not Red's"):
        RULES.parse("a1-b1", s, RED)


def test_capture_transfers_the_target_height_to_the_moving_top() -> None:
    s = position({"c3": "B3 B2", "c4": "R1", "f5": "B1"})
    assert scores(s) == (1, 3)
    ns, events = RULES.apply(s, s.to_move, Stacking(sq("c4"), sq("c3")))
    assert scores(ns) == (3, 1)
    assert events[0].data["captured"] == 2
    assert "Red takes 2 from Blue" in events[0].text


def test_stacks_are_always_large_to_small() -> None:
    s = full_board()
    for _ in range(29):
        moves = stackings(s)
        if not moves:
            break
        s, _ = RULES.apply(s, s.to_move, moves[len(moves) // 2])
        for st in s.board:
            assert all(st[i][1] >= st[i + 1][1] for i in range(len(st) - 1))


def test_turn_alternates_in_stacking_and_follows_the_stack_count() -> None:
    s = full_board()
    assert s.to_move == BLUE
    s = play_all(s, "a1-b1")
    assert s.to_move == RED
    s = play_all(s, "b1-c1")
    assert s.to_move == BLUE


def test_first_stacking_position_move_count() -> None:
    # Every adjacent pair can stack one way, or both ways when the sizes are equal: 49 pairs on the
    # board; here only columns b and e (all mediums) have equal neighbours, 4 pairs each: 49 + 8.
    s = full_board()
    n = len(stackings(s))
    assert n == 57
    assert sum(len(stackings(RULES.apply(s, BLUE, m)[0])) for m in stackings(s)) == 2971  # regression


# --- helpers the Discord UI uses ----------------------------------------------------------------------

def test_legal_directions_and_movable_squares() -> None:
    s = position({"c3": "R1", "c4": "B3", "d3": "B1", "b3": "R2", "c2": "B1", "f5": "R3", "f4": "B1"})
    assert legal_directions(s, sq("c3")) == ("N", "E", "S", "W")
    assert legal_directions(s, sq("c4")) == ()
    assert legal_directions(s, sq("b3")) == ()  # c3 holds a small
    assert legal_directions(s, sq("f4")) == ("N",)
    assert legal_directions(s, sq("a1")) == ()
    assert movable_squares(s) == tuple(sorted(sq(n) for n in ("c3", "d3", "c2", "f4")))
    view = RULES.view(s, None)
    assert dict(view.directions)[sq("c3")] == ("N", "E", "S", "W")
    assert dict(view.directions)[sq("d3")] == ("W",)
    assert sq("c4") not in dict(view.directions)


def test_view_during_placement_lists_sizes_and_empty_squares() -> None:
    s = position({"a1": "R3"}, stash=((4, 4, 5), (5, 0, 5)))  # 7 placed: Blue's turn
    v = RULES.view(s, None)
    assert v.phase == PLACEMENT and v.to_move == BLUE
    assert v.sizes_left == (1, 3)
    assert v.empty == tuple(range(1, 30))
    assert v.legal[0] == "S b1" and len(v.legal) == 2 * 29
    assert v.directions == () and v.can_agree == (False, False)
    assert v.to_place == 23
    assert v.last is None and v.last_squares == ()


def test_view_after_a_stacking_shows_last_move_and_scores() -> None:
    s = play_all(full_board(), "a1-b1")
    v = RULES.view(s, 0)
    assert v.seat == 0 and v.phase == STACKING and v.to_move == RED
    assert v.last == "a1-b1" and v.last_squares == (sq("a1"), sq("b1"))
    assert v.scores == (16, 14)
    assert v.board == s.board and v.stash == s.stash
    assert v.can_agree == (True, True) and v.agreed == (False, False)
    assert v.outcome is None
    hash(v)


# --- the end -----------------------------------------------------------------------------------------

def test_game_ends_right_after_the_move_that_leaves_none() -> None:
    # only c3-c4 is legal; afterwards the lone stacks are apart
    s = position({"c3": "R1", "c4": "B2", "a1": "B3", "f5": "R2"})
    assert stackings(s) == [Stacking(sq("c3"), sq("c4"))]
    ns, events = RULES.apply(s, s.to_move, Stacking(sq("c3"), sq("c4")))
    assert is_over(ns) and phase(ns) == OVER
    assert RULES.to_act(ns) is None
    assert RULES.legal_moves(ns, 0) == [] and RULES.legal_moves(ns, 1) == []
    outcome = RULES.outcome(ns)
    assert outcome is not None
    assert outcome.scores == (3, 1) and outcome.winners == frozenset({RED})
    assert outcome.reason == Reason.NORMAL
    assert events[-1].kind == "end" and "Red 3 – Blue 1; Red wins" in events[-1].text
    with pytest.raises(IllegalMove, match="the game is over"):
        RULES.apply(ns, ns.to_move, AGREE)


def test_fifteen_all_is_a_draw() -> None:
    s = position({"a1": "R3 R3 R3 R2 R2 R2 R1 R1 R1 R1 R1 B1 B1 B1 B1", "f5": "B3 B3 B3 B2 B2 B2 R1 B1 B1 B1 "
                                                                             "B1 B1 B1 B1 R1"})
    # not realistic sizes-wise, but scores only look at tops: 15 under Blue's top, 15 under Red's
    outcome = RULES.outcome(s)
    assert outcome is not None and outcome.is_draw and outcome.scores == (15, 15)
    assert "a draw" in outcome.detail


def test_outcome_is_none_while_playing() -> None:
    assert RULES.outcome(RULES.initial({}, 2)) is None
    assert RULES.outcome(full_board()) is None


# --- agree to end --------------------------------------------------------------------------------------

def test_agree_is_only_for_the_stacking_phase() -> None:
    s = RULES.initial({}, 2)
    assert not RULES.out_of_turn(s, BLUE, AGREE)
    with pytest.raises(IllegalMove, match="only agree to end the game during the stacking phase"):
        RULES.apply(s, RED, AGREE)


def test_both_agreeing_ends_the_game_by_agreement() -> None:
    s = full_board()  # Blue to move
    assert RULES.out_of_turn(s, RED, AGREE)
    assert not RULES.out_of_turn(s, RED, Stacking(0, 1))
    s, events = RULES.apply(s, RED, AGREE)
    assert s.agreed == (True, False) and not is_over(s)
    assert s.to_move == BLUE  # agreeing does not use a turn
    assert "Red offers to end" in events[0].text
    assert not can_agree(s, RED) and can_agree(s, BLUE)
    assert RULES.view(s, None).agreed == (True, False)
    with pytest.raises(IllegalMove, match="Red has already agreed to end; waiting for Blue"):
        RULES.apply(s, RED, AGREE)
    assert AGREE in RULES.legal_moves(s, BLUE)
    s, events = RULES.apply(s, BLUE, AGREE)
    assert is_over(s) and RULES.to_act(s) is None
    outcome = RULES.outcome(s)
    assert outcome is not None and outcome.reason == Reason.AGREEMENT and outcome.is_draw
    assert [e.kind for e in events] == ["agree", "end"]
    assert RULES.view(s, None).phase == OVER


def test_a_stacking_cancels_earlier_agreement() -> None:
    s = full_board()
    s, _ = RULES.apply(s, BLUE, AGREE)
    assert AGREE not in RULES.legal_moves(s, BLUE)
    s = play_all(s, "a1-b1")
    assert s.agreed == (False, False)
    s, _ = RULES.apply(s, BLUE, AGREE)
    assert not is_over(s)


# --- JSON ----------------------------------------------------------------------------------------------

def test_dump_is_plain_json_and_loads_back() -> None:
    s = play_all(full_board(), "a1-b1", "b1-c1")
    s, _ = RULES.apply(s, RED, AGREE)
    d = RULES.dump(s)
    assert d["v"] == 1 and d["last"] == "b1-c1" and d["agreed"] == [True, False]
    assert d["board"]["c1"] == [[0, 3], [1, 2], [0, 1]]
    assert "a1" not in d["board"]
    assert RULES.load(json.loads(json.dumps(d))) == s
    assert RULES.load(RULES.dump(RULES.initial({}, 2))) == RULES.initial({}, 2)


def good() -> dict:
    return RULES.dump(play_all(RULES.initial({}, 2), "L c3", "S c4", "M a1"))


@pytest.mark.parametrize(("change", "match"), [
    (lambda d: d.update(v=2), "\"v\": 1"),
    (lambda d: d.update(board=[]), "map square names"),
    (lambda d: d["board"].update(z9=[[0, 1]]), "bad square"),
    (lambda d: d["board"].update(c5=[]), "non-empty list"),
    (lambda d: d["board"].update(c5=[[2, 1]]), "bad pyramid"),
    (lambda d: d["board"].update(c5=[[0, 4]]), "bad pyramid"),
    (lambda d: d["board"].update(c5=[[True, 1]]), "bad pyramid"),
    (lambda d: d["board"].update(c5=[[0, 1]]), "should total 5"),
    (lambda d: d.update(stash=[[5, 5, 5]]), "two lists of three"),
    (lambda d: d.update(stash=[[5, 5, 4], [4, 5, 5], ]), "should total 5"),
    (lambda d: d.update(agreed=[True, False]), "only possible in the stacking phase"),
    (lambda d: d.update(agreed="yes"), "two booleans"),
    (lambda d: d.update(last="hello"), "bad last move"),
    (lambda d: d.update(last=3), "notation or null"),
])
def test_load_rejects_bad_json(change, match: str) -> None:
    d = good()
    change(d)
    with pytest.raises(ValueError, match=match):
        RULES.load(d)


def test_load_rejects_stacks_out_of_order_and_during_placement() -> None:
    d = RULES.dump(full_board())
    d["board"]["a1"], d["board"]["b1"] = [[0, 1], [1, 2]], []
    del d["board"]["b1"]
    with pytest.raises(ValueError, match="pyramid on a smaller one"):
        RULES.load(d)
    d = good()
    d["board"]["a1"] = [[0, 2], [1, 1]]
    d["board"].pop("c4")
    with pytest.raises(ValueError, match="stacks exist before all pyramids are placed"):
        RULES.load(d)


def test_load_rejects_uneven_stashes() -> None:
    d = good()  # Red placed 2, Blue 1
    d["board"]["d5"] = [[0, 1]]
    d["stash"][0][0] -= 1
    with pytest.raises(ValueError, match="uneven"):
        RULES.load(d)


def test_parse_gives_invalid_notation_for_syntax() -> None:
    with pytest.raises(InvalidNotation, match="c6 is off the board"):
        RULES.parse("L c6", RULES.initial({}, 2), RED)
    assert RULES.format(Placement(3, sq("c3")), RULES.initial({}, 2)) == "L c3"


def test_errors_list_legal_moves_from_the_same_source_first() -> None:
    s = position({"c3": "R3", "c4": "B1", "b3": "B3", "a1": "R1", "a2": "B2"})
    with pytest.raises(IllegalMove) as info:
        RULES.parse("c3-c4", s, s.to_move)
    assert info.value.legal[0] == "c3-b3"
    assert "Legal moves: c3-b3" in info.value.user_text()
