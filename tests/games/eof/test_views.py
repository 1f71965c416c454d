"""Hidden information: what each view shows, and serialisation."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.games.base import CHANCE
from bot.games.eof.notation import Draw, read_program
from bot.games.eof.pieces import Piece
from bot.games.eof.rules import RULES, EofState, Phase
from tests.games.eof.helpers import program_state, run

pytestmark = pytest.mark.unit


def submitted(program: str) -> EofState:
    s = program_state("Y1 Y2", pointers=(1, 2), hands={0: "R1 R2 G1 G2 B3 Y3", 1: "G3 B1"})
    s, _ = RULES.apply(s, 0, RULES.parse(program, s, 0))
    return s


def test_public_view_has_no_hand_and_no_program() -> None:
    s = submitted("R1R G1U B3S Y3L G2D")
    v = RULES.view(s, None)
    assert v.seat is None and v.hand is None and v.program is None
    assert v.players[0].submitted and not v.players[1].submitted
    assert v.players[0].revealed == () and v.players[0].program_length == 5
    assert v.players[1].hand_size == 2 and v.players[1].draws == (Piece(2, 3), Piece(3, 1))
    assert v.to_act == (1,)
    assert "R1R" not in repr(v)


def test_own_view_shows_own_hand_and_program_only() -> None:
    s = submitted("R1R G1U B3S Y3L G2D")
    mine = RULES.view(s, 0)
    assert mine.program == read_program("R1R G1U B3S Y3L G2D") and mine.hand == ()
    theirs = RULES.view(s, 1)
    assert theirs.program is None and theirs.hand == (Piece(2, 3), Piece(3, 1))
    assert theirs.program_length == 2


def test_other_views_do_not_depend_on_a_secret_program() -> None:
    a, b = submitted("R1R G1U B3S Y3L G2D"), submitted("G2D Y3L B3S G1U R1L")
    assert a != b
    assert RULES.view(a, None) == RULES.view(b, None)
    assert RULES.view(a, 1) == RULES.view(b, 1)
    assert RULES.view(a, 0) != RULES.view(b, 0)


def test_unexecuted_instructions_stay_hidden_during_a_permission_wait() -> None:
    def waiting(rest: str) -> EofState:
        s = program_state("Y1 Y2 Y3", pointers=(1, 1), hands={0: "R2 G1 G2", 1: "G3"},
                          locking="permission-crash")
        s, _ = run(s, {0: "R2R " + rest, 1: "G3L"})
        return s

    a, b = waiting("G1U G2D"), waiting("G2L G1R")
    assert a.phase is b.phase is Phase.PERMISSION
    assert RULES.view(a, None) == RULES.view(b, None) and RULES.view(a, 1) == RULES.view(b, 1)
    v = RULES.view(a, None)
    assert v.players[0].revealed == () and v.pending is not None and v.pending.seat == 0


def test_executed_instructions_are_revealed_in_the_step_log() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(1, 1), hands={0: "G1 R2 G2", 1: "G3 G1"},
                      locking="permission-crash")
    s, _ = run(s, {0: "G1R R2R G2U", 1: "G1R G3L"})
    v = RULES.view(s, None)
    assert s.phase is Phase.PERMISSION
    assert [str(i) for i in v.players[0].revealed] == ["G1R"]
    assert [str(i) for i in v.players[1].revealed] == ["G1R"]
    assert [st.seat for st in v.steps] == [0, 1]
    assert v.current == v.steps[-1]


def test_deal_view_shows_draws_and_bag_sizes() -> None:
    s, _ = RULES.apply(RULES.initial({}, 2), CHANCE, Draw(Piece(1, 2)))
    v = RULES.view(s, None)
    assert v.drawing == 1 and v.first == 1 and v.order == (1, 0)
    assert v.bag_sizes == (18, 20, 20)  # all but the two small pointers
    assert v.size_choice is None


def test_last_round_results_are_in_the_view() -> None:
    s = program_state("R1 R2 Y1", pointers=(2, 0), hands={0: "Y3", 1: "G1"})
    s, _ = run(s, {0: "Y3R", 1: "G1U"})
    v = RULES.view(s, None)
    assert v.last_round is not None and v.last_round.points == (5, 0)
    assert v.players[0].round_scores == (5,) and v.scores == (5, 0)


def test_a_seat_outside_the_match_sees_the_public_view() -> None:
    s = submitted("R1R G1U B3S Y3L G2D")
    assert RULES.view(s, 7) == RULES.view(s, None)


# --- dump / load --------------------------------------------------------------------------------------

def test_dump_is_plain_json_and_round_trips() -> None:
    for s in (RULES.initial({}, 4), submitted("R1R G1U B3S Y3L G2D")):
        d = RULES.dump(s)
        assert d["v"] == 1
        assert RULES.load(json.loads(json.dumps(d))) == s


def test_dump_round_trips_a_permission_wait_and_a_finished_round() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(1, 2), hands={0: "R2 G1", 1: "G3"}, locking="permission-nocrash")
    s, _ = run(s, {0: "R2R G1U", 1: "G3L"})
    assert s.phase is Phase.PERMISSION and s.deleted
    assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s
    s, _ = RULES.apply(s, 1, RULES.parse("allow", s, 1))
    assert s.last_round is not None
    assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s


@pytest.mark.parametrize(("change", "match"), [
    ({"v": 2}, "version"),
    ({"file": "R1 R1 R1 R1 R1 R1"}, "add up"),
    ({"pointers": [0, 9]}, "outside the file"),
    ({"phase": "lunch"}, "lunch"),
    ({"colours": "RR"}, "distinct"),
    ({"locking": "maybe"}, "locking"),
    ({"scores": [0]}, "per-seat"),
])
def test_load_rejects_bad_states(change: dict[str, object], match: str) -> None:
    d = RULES.dump(submitted("R1R G1U B3S Y3L G2D")) | change
    with pytest.raises(ValueError, match=match):
        RULES.load(d)


def test_load_rejects_missing_fields() -> None:
    d = RULES.dump(RULES.initial({}, 2))
    del d["bag"]
    with pytest.raises(ValueError, match="not an EOF state"):
        RULES.load(d)


def test_states_are_hashable_and_comparable() -> None:
    s = RULES.initial({}, 2)
    assert hash(s) == hash(replace(s))
    assert {s: 1}[RULES.load(RULES.dump(s))] == 1
