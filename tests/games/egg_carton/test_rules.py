"""Rules of the Egg Carton Game: sowing, relays, rules A/B/C, winning, set-up, storage."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalMove, InvalidNotation, Reason
from bot.games.egg_carton import RULES, Pick
from bot.games.egg_carton.notation import SLOT_INDEX
from bot.games.egg_carton.rules import EggCartonState

from .helpers import counts, play, position

pytestmark = pytest.mark.unit

# The position of the rule text's worked example (top row N..I, bottom row A..F):
#   (N) (M) (L) (K) (J) (I)
#   | 4 | 2 | 1 |   | 6 | 1 |
#   | 7 | 3 | 4 | 1 |   | 1 |
#   (A) (B) (C) (D) (E) (F)
EXAMPLE = position("7 3 4 1 - 1", "4 2 1 - 6 1", off=(3, 3))


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# -- the worked example ------------------------------------------------------

def test_example_b_sows_c_d_e_and_ends_the_turn_in_empty_e():
    s, events = RULES.apply(EXAMPLE, 0, RULES.parse("B", EXAMPLE, 0))
    c = counts(s)
    assert (c["B"], c["C"], c["D"], c["E"]) == (0, 5, 2, 1)
    assert s.slots == (7, 0, 5, 2, 1, 1, 1, 6, 0, 1, 2, 4)
    assert s.off == (3, 3)
    assert s.to_move == 1 and not s.again and s.winner is None and s.turn == 2
    assert kinds(events) == ["pick", "drop", "drop", "drop", "end"]
    assert [e.data["slot"] for e in events if e.kind == "drop"] == ["C", "D", "E"]


def test_example_c_drops_its_last_marble_off_the_board_and_player_1_picks_again():
    s, events = RULES.apply(EXAMPLE, 0, RULES.parse("C", EXAMPLE, 0))
    c = counts(s)
    assert (c["C"], c["D"], c["E"], c["F"]) == (0, 2, 1, 2)
    assert s.off == (4, 3)
    assert s.to_move == 0 and s.again and s.turn == 1
    assert kinds(events) == ["pick", "drop", "drop", "drop", "off", "again"]
    assert RULES.to_act(s) == frozenset({0})


def test_example_a_relays_from_i_to_j_and_k():
    s, events = RULES.apply(EXAMPLE, 0, RULES.parse("A", EXAMPLE, 0))
    assert counts(s) == {"A": 0, "B": 4, "C": 5, "D": 2, "E": 1, "F": 2,
                         "I": 0, "J": 7, "K": 1, "L": 1, "M": 2, "N": 4}
    assert s.off == (4, 3)
    assert s.to_move == 1 and not s.again
    assert kinds(events) == ["pick"] + ["drop"] * 5 + ["off", "drop", "relay", "drop", "drop", "end"]
    relay = events[8]
    assert relay.data == {"seat": 0, "slot": "I", "count": 2}
    assert events[-1].data == {"seat": 0, "slot": "K"}


# -- relays and rule A ----------------------------------------------------------

def test_relay_started_on_the_opponents_side_continues_there():
    # Player 2 picks K (2): L (1 -> 2), M (1 -> 2): relay 2 from M: N, left zone -> pick again.
    s0 = position("1 1 1 1 1 1", "- 1 1 2 - -", to_move=1)
    s, events = RULES.apply(s0, 1, Pick(SLOT_INDEX["K"]))
    assert kinds(events) == ["pick", "drop", "drop", "relay", "drop", "off", "again"]
    assert events[3].data["slot"] == "M"
    assert counts(s)["M"] == 0 and counts(s)["N"] == 1 and counts(s)["L"] == 2
    assert s.off == (0, 1) and s.to_move == 1 and s.again


def test_relay_from_player_1s_side_into_player_2s_side():
    # Player 2 picks N (2): left zone, A (had 2 -> 3): relay 3 from A: B, C, D; D empty -> turn over.
    s0 = position("2 1 1 - 1 1", "2 1 1 1 1 1", to_move=1)
    s, events = RULES.apply(s0, 1, Pick(SLOT_INDEX["N"]))
    assert kinds(events) == ["pick", "off", "drop", "relay", "drop", "drop", "drop", "end"]
    assert counts(s)["A"] == 0 and counts(s)["D"] == 1 and s.to_move == 0


def test_rule_a_applies_when_a_relays_last_marble_goes_off_the_board():
    # D (1) -> E (1 -> 2): relay 2 from E: F, right zone -> Player 1 picks again, and may pick A.
    s0 = position("1 - - 1 1 -", "1 1 1 1 1 1")
    s, events = RULES.apply(s0, 0, Pick(SLOT_INDEX["D"]))
    assert kinds(events) == ["pick", "drop", "relay", "drop", "off", "again"]
    assert s.to_move == 0 and s.again and s.off == (1, 0)
    assert RULES.legal_moves(s, 0) == [Pick(0), Pick(5)]
    assert RULES.legal_moves(s, 1) == []
    s2, events2 = RULES.apply(s, 0, RULES.parse("A", s, 0))
    assert kinds(events2) == ["pick", "drop", "end"] and s2.to_move == 1


def test_relay_chain_crosses_both_corners_twice():
    # Player 2 picks N (9): left zone, A-F, right zone, I (3 -> 4): relay 4: J K L M (9 -> 10):
    # relay 10: N, left zone, A-F, right zone, I (emptied earlier -> 1): turn over.
    s0 = position("7 - - 1 1 9", "9 9 9 2 2 3", to_move=1, off=(4, 4), marbles=5)
    s, events = RULES.apply(s0, 1, Pick(SLOT_INDEX["N"]))
    zones = [e.data["zone"] for e in events if e.kind == "off"]
    assert zones == ["left", "right", "left", "right"]
    assert [e.data["slot"] for e in events if e.kind == "relay"] == ["I", "M"]
    assert counts(s) == {"A": 9, "B": 2, "C": 2, "D": 3, "E": 3, "F": 11,
                         "I": 1, "J": 3, "K": 3, "L": 10, "M": 0, "N": 1}
    assert s.off == (6, 6) and s.to_move == 0 and not s.again
    assert sum(s.slots) + sum(s.off) == 60


def test_start_with_one_marble_a_relays_round_the_whole_carton():
    s0 = RULES.initial({"marbles": "1"}, 2)
    s, events = RULES.apply(s0, 0, Pick(0))
    assert [e.data["slot"] for e in events if e.kind == "relay"] == ["B", "D", "F", "I", "K", "M"]
    assert s.slots == (0, 0, 2, 0, 2, 0, 0, 2, 0, 2, 0, 2)
    assert s.off == (1, 1) and s.again and s.to_move == 0


def test_start_with_six_marbles():
    s0 = RULES.initial({"marbles": "6"}, 2)
    s, events = RULES.apply(s0, 0, Pick(0))     # B-F, then the right zone: pick again
    assert s.slots == (0, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6) and s.again and s.off == (1, 0)
    s, events = RULES.apply(s, 0, Pick(5))      # F (7): zone, I-N; relay 7 from N: zone, A-F
    assert kinds(events)[-1] == "end" and events[-1].data["slot"] == "F"
    assert s.slots == (1, 8, 8, 8, 8, 1, 7, 7, 7, 7, 7, 0)
    assert s.off == (2, 1) and s.to_move == 1 and s.turn == 2


# -- winning -------------------------------------------------------------------

def test_last_marble_off_the_board_with_an_empty_side_wins_instead_of_picking_again():
    s0 = position("- - - - - 1", "1 1 1 1 1 1")
    s, events = RULES.apply(s0, 0, Pick(5))
    assert s.winner == 0 and RULES.to_act(s) is None
    assert kinds(events) == ["pick", "off", "win"]
    out = RULES.outcome(s)
    assert out is not None and out.winners == frozenset({0}) and out.reason is Reason.NORMAL
    assert RULES.legal_moves(s, 0) == []


def test_turn_ending_in_an_empty_slot_across_with_an_empty_side_wins():
    s0 = position("- - - - - 2", "1 1 1 1 1 -")
    s, events = RULES.apply(s0, 0, Pick(5))
    assert kinds(events) == ["pick", "off", "drop", "win"] and s.winner == 0


def test_player_2_wins_by_clearing_i_to_n():
    s0 = position("1 1 1 1 1 1", "1 - - - - -", to_move=1)
    s, _ = RULES.apply(s0, 1, Pick(SLOT_INDEX["N"]))
    assert s.winner == 1
    assert RULES.outcome(s).winners == frozenset({1})


def test_side_empty_only_in_the_middle_of_a_relay_is_no_win():
    # F (2): right zone, I (6 -> 7): relay 7: J-N, left zone, A (empty -> 1): turn over, A holds 1.
    s0 = position("- - - - - 2", "1 1 1 1 1 6")
    s, events = RULES.apply(s0, 0, Pick(5))
    assert kinds(events)[-1] == "end" and s.winner is None and counts(s)["A"] == 1


def test_no_win_while_the_side_still_holds_marbles():
    s0 = position("1 - - - - 1", "1 1 1 1 1 1")
    s, _ = RULES.apply(s0, 0, Pick(5))
    assert s.winner is None and s.again


# -- legality and messages --------------------------------------------------------

def test_cannot_pick_an_empty_slot():
    with pytest.raises(IllegalMove, match="E is empty") as err:
        RULES.parse("e", EXAMPLE, 0)
    assert err.value.legal == ("A", "B", "C", "D", "F")


def test_cannot_pick_on_the_opponents_side():
    with pytest.raises(IllegalMove, match=r"opponent's side.*A–F"):
        RULES.apply(EXAMPLE, 0, Pick(SLOT_INDEX["J"]))


def test_cannot_pick_out_of_turn():
    with pytest.raises(IllegalMove, match="Player 1's pick"):
        RULES.apply(EXAMPLE, 1, Pick(SLOT_INDEX["J"]))


def test_cannot_pick_after_the_game_is_over():
    s, _ = RULES.apply(position("- - - - - 1", "1 1 1 1 1 1"), 0, Pick(5))
    with pytest.raises(IllegalMove, match="game is over"):
        RULES.apply(s, 1, Pick(6))


def test_illegal_move_is_a_value_error_and_apply_leaves_the_state_alone():
    before = EXAMPLE
    with pytest.raises(ValueError):
        RULES.apply(EXAMPLE, 0, Pick(4))
    assert before == EXAMPLE
    assert RULES.apply(EXAMPLE, 0, Pick(1))[0] != EXAMPLE


@pytest.mark.parametrize("text", ["", "  ", "G", "h", "O", "z", "AB", "D E", "12", "slot"])
def test_bad_notation(text):
    with pytest.raises(InvalidNotation):
        RULES.parse(text, EXAMPLE, 0)


def test_several_letters_explain_one_pick_per_move():
    with pytest.raises(InvalidNotation, match="One slot per move: play D first"):
        RULES.parse("D E A B", RULES.initial({}, 2), 0)


@pytest.mark.parametrize("text", ["C", "c", " c ", "slot C", "(C)", "Slot c"])
def test_notation_variants(text):
    assert RULES.parse(text, EXAMPLE, 0) == Pick(2)


def test_format_is_the_letter_and_round_trips():
    for i, letter in enumerate("ABCDEFIJKLMN"):
        assert RULES.format(Pick(i), EXAMPLE) == letter == str(Pick(i))


# -- set-up, views, storage -------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 7))
def test_initial_position(n):
    s = RULES.initial({"marbles": str(n)}, 2)
    assert s.slots == (n,) * 12 and s.off == (0, 0) and s.to_move == 0 and s.turn == 1
    assert RULES.to_act(s) == frozenset({0})
    assert [str(m) for m in RULES.legal_moves(s, 0)] == list("ABCDEF")


def test_initial_defaults_to_three_and_ignores_platform_options():
    s = RULES.initial({"clock": "5m", "speed": "fast"}, 2)
    assert s.slots == (3,) * 12 and s.marbles == 3


@pytest.mark.parametrize("bad", ["0", "7", "three", "", "3.5"])
def test_initial_rejects_bad_marble_counts(bad):
    with pytest.raises(ValueError, match="marbles must be"):
        RULES.initial({"marbles": bad}, 2)


@pytest.mark.parametrize("seats", [1, 3, 4])
def test_initial_needs_two_players(seats):
    with pytest.raises(ValueError, match="exactly 2 players"):
        RULES.initial({}, seats)


def test_spec():
    spec = RULES.spec
    assert spec.key == "eggcarton" and spec.min_seats == spec.max_seats == 2
    assert spec.ai_levels == ("novice", "beginner", "intermediate", "expert")
    (opt,) = spec.options
    assert opt.name == "marbles" and opt.default == "3" and opt.choices == ("1", "2", "3", "4", "5", "6")


def test_view_lists_picks_and_sides_for_the_buttons():
    v = RULES.view(EXAMPLE, None)
    assert v.picks == (("A", 7), ("B", 3), ("C", 4), ("D", 1), ("F", 1))
    assert v.side(0) == (("A", 7), ("B", 3), ("C", 4), ("D", 1), ("E", 0), ("F", 1))
    assert v.side(1) == (("I", 1), ("J", 6), ("K", 0), ("L", 1), ("M", 2), ("N", 4))
    assert v.to_move == 0 and not v.again and v.winner is None and v.count("J") == 6
    assert RULES.view(EXAMPLE, 1) == RULES.view(EXAMPLE, 1)   # hashable, comparable
    won, _ = RULES.apply(position("- - - - - 1", "1 1 1 1 1 1"), 0, Pick(5))
    vw = RULES.view(won, 0)
    assert vw.to_move is None and vw.winner == 0 and vw.picks == () and vw.finished


def test_dump_load_round_trip():
    s, _ = play(RULES.initial({"marbles": "4"}, 2), "C D")
    d = RULES.dump(s)
    assert d["v"] == 1 and RULES.load(d) == s
    import json
    assert RULES.load(json.loads(json.dumps(d))) == s


@pytest.mark.parametrize("change", [
    {"v": 2}, {"slots": [3] * 11}, {"slots": [3] * 11 + [-3]}, {"slots": [3] * 11 + [4]},
    {"off": [0]}, {"to_move": 2}, {"to_move": True}, {"again": "no"}, {"winner": 3}, {"marbles": 7},
    {"turn": 0}, {"slots": [0] * 6 + [6] * 6}, {"winner": 0},
])
def test_load_rejects_broken_states(change):
    d = RULES.dump(RULES.initial({}, 2)) | change
    with pytest.raises(ValueError):
        RULES.load(d)


def test_load_rejects_missing_fields():
    d = RULES.dump(RULES.initial({}, 2))
    del d["slots"]
    with pytest.raises(ValueError, match="missing"):
        RULES.load(d)


def test_state_is_hashable_and_frozen():
    s = RULES.initial({}, 2)
    assert hash(s) == hash(EggCartonState(slots=(3,) * 12))
    with pytest.raises(AttributeError):
        s.turn = 5  # type: ignore[misc]
