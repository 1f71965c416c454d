"""EOF rules: set-up, deal, programming, every instruction with the rulings' edge cases, rounds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.base import CHANCE, Chance, IllegalMove, Outcome
from bot.games.eof.notation import ALLOW, DENY, SKIP, ChooseSize, Draw, Program, read_program
from bot.games.eof.pieces import FULL, Piece, counts_of, size_totals
from bot.games.eof.rules import RULES, EofState, Phase, ProgramSpace, program_warnings
from tests.games.eof.helpers import pieces, program_state, run, steps

pytestmark = pytest.mark.unit


def file_text(s: EofState) -> str:
    return " ".join(map(str, s.file))


def only_step(events: list, seat: int = 0, n: int = 0):
    mine = [e for e in steps(events) if e.data["seat"] == seat]
    return mine[n]


# --- set-up and options -------------------------------------------------------------------------------

def test_initial_state_starts_with_the_first_player_draw() -> None:
    s = RULES.initial({}, 3)
    assert s.phase is Phase.FIRST and s.round == 1 and s.file == ()
    assert s.colours == (0, 1, 2) and s.pointers == (0, 0, 0)
    assert sum(s.bag) == 60 - 3  # everything but the three pointers
    who = RULES.to_act(s)
    assert isinstance(who, Chance)
    assert {d.piece.colour for d in who.outcomes} == {0, 1, 2}  # only the players' colours decide
    assert sum(who.weights or ()) == 14 * 3


def test_first_player_draw_puts_the_piece_back() -> None:
    s = RULES.initial({}, 2)
    s2, ev = RULES.apply(s, CHANCE, Draw(Piece(1, 3)))
    assert s2.first == 1 and s2.phase is Phase.DEAL and s2.bag == s.bag
    assert s2.drawer == 1
    assert "Yellow plays first" in ev[0].text


@pytest.mark.parametrize("bad", [{"locking": "sometimes"}, {"crash_penalty": "maybe"}, {"draw": "peek"},
                                 {"colours": "red,red"}, {"colours": "red"}, {"colours": "red,purple"}])
def test_bad_options_are_rejected(bad: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        RULES.initial(bad, 2)


@pytest.mark.parametrize("seats", [1, 5])
def test_two_to_four_players(seats: int) -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        RULES.initial({}, seats)


def test_colours_option_sets_each_seat_colour() -> None:
    s = RULES.initial({"colours": "blue, green"}, 2)
    assert s.colours == (3, 2) and s.name(0) == "Blue"
    assert RULES.initial({"colours": "B,R,Y"}, 3).colours == (3, 0, 1)


def test_spec() -> None:
    spec = RULES.spec
    assert (spec.key, spec.min_seats, spec.max_seats, spec.ai_levels) == ("eof", 2, 4, ())
    assert spec.hidden_information
    assert {o.name: o.default for o in spec.options} == {"locking": "none", "crash_penalty": "off",
                                                         "draw": "feel"}


# --- the deal -----------------------------------------------------------------------------------------

def test_feel_deal_lets_the_drawer_pick_a_size_then_chance_draws_that_size() -> None:
    s, _ = RULES.apply(RULES.initial({}, 2), CHANCE, Draw(Piece(0, 2)))
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.legal_moves(s, 0) == [ChooseSize(0), ChooseSize(1), ChooseSize(2), ChooseSize(3)]
    s, _ = RULES.apply(s, 0, ChooseSize(3))
    who = RULES.to_act(s)
    assert isinstance(who, Chance) and all(d.piece.size == 3 for d in who.outcomes)
    with pytest.raises(IllegalMove, match="cannot come out"):
        RULES.apply(s, CHANCE, Draw(Piece(0, 1)))
    s, ev = RULES.apply(s, CHANCE, Draw(Piece(2, 3)))
    assert s.draws[0] == (Piece(2, 3),) and "Red draws G3 (1/9)" in ev[0].text
    assert RULES.to_act(s) == frozenset({0})


def test_blind_deal_is_chance_only() -> None:
    s, _ = RULES.apply(RULES.initial({"draw": "blind"}, 2), CHANCE, Draw(Piece(0, 2)))
    who = RULES.to_act(s)
    assert isinstance(who, Chance) and {d.piece.size for d in who.outcomes} == {1, 2, 3}
    with pytest.raises(IllegalMove, match="blind"):
        RULES.apply(s, 0, ChooseSize(1))


def test_size_with_none_left_is_illegal() -> None:
    s, _ = RULES.apply(RULES.initial({}, 2), CHANCE, Draw(Piece(0, 2)))
    s = replace(s, bag=tuple(0 if k % 3 == 0 else v for k, v in enumerate(s.bag)))  # no small pieces
    assert ChooseSize(1) not in RULES.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="no small pieces"):
        RULES.apply(s, 0, ChooseSize(1))


def deal_all(s: EofState, size: int = 2) -> EofState:
    """Play the deal: every drawer asks for ``size`` (or any), chance takes the first outcome."""
    while s.phase is Phase.DEAL:
        who = RULES.to_act(s)
        if isinstance(who, Chance):
            s, _ = RULES.apply(s, CHANCE, who.outcomes[0])
        else:
            (seat,) = who
            legal = RULES.legal_moves(s, seat)
            move = ChooseSize(size) if ChooseSize(size) in legal else ChooseSize(0)
            s, _ = RULES.apply(s, seat, move)
    return s


def test_each_player_draws_nine_in_order_from_the_first_then_the_rest_is_the_pool() -> None:
    s, _ = RULES.apply(RULES.initial({}, 3), CHANCE, Draw(Piece(1, 1)))
    order = []
    while s.phase is Phase.DEAL:
        who = RULES.to_act(s)
        if not isinstance(who, Chance):
            order.append(next(iter(who)))
        s, _ = (RULES.apply(s, CHANCE, who.outcomes[0]) if isinstance(who, Chance)
                else RULES.apply(s, next(iter(who)), ChooseSize(0)))
    assert order == [1] * 9 + [2] * 9 + [0] * 9
    assert s.phase is Phase.PROGRAM
    assert [len(d) for d in s.draws] == [9, 9, 9]
    assert sum(s.pool) == 57 - 27 and sum(s.bag) == 0
    assert RULES.to_act(s) == frozenset({0, 1, 2})


def test_short_bag_gives_later_players_fewer_and_shorter_programs() -> None:
    s, _ = RULES.apply(RULES.initial({}, 2), CHANCE, Draw(Piece(0, 1)))
    # Leave only 12 pieces in the bag: seat 0 draws 9, seat 1 gets 3.
    keep = list(s.bag)
    total = 0
    for k in range(12):
        take = min(keep[k], max(0, 12 - total))
        total += take
        keep[k] = take
    rest = tuple(a - b for a, b in zip(s.bag, keep, strict=True))
    s = replace(s, bag=tuple(keep), file=tuple(Piece.of_index(k) for k in range(12) for _ in range(rest[k])))
    s = deal_all(s)
    assert [len(d) for d in s.draws] == [9, 3]
    assert sum(s.pool) == 0
    assert s.required_length(0) == 5 and s.required_length(1) == 3
    with pytest.raises(IllegalMove, match="3 instructions"):
        RULES.parse("G1U G1U G1U G1U G1U", s, 1)


def test_a_player_with_no_pieces_has_an_empty_program_already() -> None:
    s = program_state("", hands={0: "G1 G2 G3 G1 G2"})
    assert s.programs[1] == Program(())
    assert RULES.to_act(s) == frozenset({0})


# --- programming --------------------------------------------------------------------------------------

def test_program_is_checked_against_the_hand() -> None:
    s = program_state("", hands={0: "G1 G2 G3 R1 R2 Y1", 1: "B1 B1 B1 B1 B1"})
    with pytest.raises(IllegalMove, match="uses G3 2 times but your hand has only 1"):
        RULES.parse("G3R G3L G1U G2U R1L", s, 0)
    with pytest.raises(IllegalMove, match="uses B1 1 times but your hand has none"):
        RULES.parse("B1S G3L G1U G2U R1L", s, 0)
    with pytest.raises(IllegalMove, match="5 instructions"):
        RULES.parse("G1U G2U", s, 0)
    assert RULES.parse("g3r,g2l; g1u r1l y1r", s, 0) == RULES.parse("G3R G2L G1U R1L Y1R", s, 0)


def test_submitting_returns_unused_pieces_to_the_bag_not_the_pool() -> None:
    s = program_state("", hands={0: "G1 G2 G3 R1 R2 Y1 Y2 Y3 B1", 1: "B2 B2 B2 B2 B2"})
    pool = s.pool
    s2, ev = RULES.apply(s, 0, RULES.parse("G1U G2U G3U R1L R2L", s, 0))
    assert s2.pool == pool
    assert counts_of(pieces("Y1 Y2 Y3 B1")) == tuple(b - a for a, b in zip(s.bag, s2.bag, strict=True))
    assert sum(s2.hands[0]) == 0 and RULES.to_act(s2) == frozenset({1})
    public = [e for e in ev if e.visible_to is None]
    assert all("G1U" not in e.text for e in public)
    assert any(e.visible_to == 0 and "G1U G2U G3U R1L R2L" in e.text for e in ev)
    with pytest.raises(IllegalMove, match="already submitted"):
        RULES.apply(s2, 0, SKIP)


def test_invalid_orientations_may_be_programmed_and_crash() -> None:
    s = program_state("R1", hands={0: "R2 G1", 1: "Y1"})
    prog = RULES.parse("R2S G1S", s, 0)
    assert len(program_warnings(prog)) == 2
    s, ev = run(s, {0: "R2S G1S", 1: "Y1U"})
    assert only_step(ev, 0).data["crash"] == "red has no standing instruction"
    assert only_step(ev, 1).data["crash"] == "yellow has no up instruction"
    assert s.history[0] == (0, 0)


def test_program_space_lists_every_program_lazily() -> None:
    space = ProgramSpace(counts_of(pieces("G1 G1 R2")), 2)
    # skip + ordered pairs of kinds: (G1,G1), (G1,R2), (R2,G1) = 3 pairs x 25 orientations
    assert len(space) == 1 + 3 * 25
    progs = list(space)
    assert progs[0] == SKIP and progs[1:] == sorted(progs[1:]) and len(set(progs)) == len(progs)
    assert all(p in space for p in progs)
    big = ProgramSpace(counts_of(pieces("R1 R2 R3 Y1 Y2 Y3 G1 G2 G3")), 5)
    assert len(big) == 1 + 15120 * 5 ** 5
    assert big[-1] == read_program("G3S G2S G1S Y3S Y2S")
    assert big[1] == read_program("R1U R2U R3U Y1U Y2U")
    assert big[len(big) // 2] in big


# --- green: move --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("prog", "start", "end"), [
    ("G1U", 3, 1), ("G2D", 1, 4), ("G1L", 2, 1), ("G2L", 2, 0), ("G1R", 3, 4), ("G2R", 3, 5), ("G3R", 2, 5),
])
def test_green_moves(prog: str, start: int, end: int) -> None:
    s = program_state("Y1 Y2 Y3 Y1", pointers=(start, 0), hands={0: prog[:2]})
    s, ev = run(s, {0: prog})
    assert not only_step(ev).data["crash"]
    assert only_step(ev).data["pointers"][0] == end


@pytest.mark.parametrize(("prog", "start", "why"), [
    ("G3L", 2, "passes BOF"), ("G3R", 3, "passes EOF"), ("G1R", 5, "passes EOF"), ("G1L", 0, "passes BOF"),
])
def test_green_past_bof_or_eof_crashes(prog: str, start: int, why: str) -> None:
    s = program_state("Y1 Y2 Y3 Y1", pointers=(start, 0), hands={0: prog[:2]})
    s, ev = run(s, {0: prog})
    assert why in only_step(ev).data["crash"]
    assert s.pointers[0] == 0


def test_green_in_an_empty_file() -> None:
    _s, ev = run(program_state("", hands={0: "G1 G2"}), {0: "G1U G2D"})
    assert [e.data["crash"] for e in steps(ev)] == ["", ""]
    _s, ev = run(program_state("", hands={0: "G1"}), {0: "G1R"})
    assert "passes EOF" in only_step(ev).data["crash"]


# --- red: delete --------------------------------------------------------------------------------------

def test_red_right_deletes_and_steps_toward_eof() -> None:
    s0 = program_state("Y1 Y2 Y3 G1", colours="red,yellow,green", pointers=(2, 0, 4), hands={0: "R2"})
    s, ev = run(s0, {0: "R2R"})
    assert file_text(s) == "Y1 G1"
    assert only_step(ev).data["pointers"] == [2, 0, 2]  # now on G1, green's record moved left
    y2 = Piece(1, 2).index
    assert only_step(ev).data["pool"][y2] == s0.pool[y2] + 1  # deleted records go to the pool


def test_red_left_deletes_and_steps_toward_bof() -> None:
    s = program_state("Y1 Y2 Y3 Y1", pointers=(3, 0), hands={0: "R2"})
    s, ev = run(s, {0: "R2L"})
    assert file_text(s) == "Y1 Y1" and only_step(ev).data["pointers"][0] == 1


def test_red_reaching_eof_crashes_but_deletions_stand() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(2, 0), hands={0: "R3"})
    s, ev = run(s, {0: "R3R"})
    assert file_text(s) == "Y1"
    assert "reached EOF after deleting Y2 Y3" in only_step(ev).data["crash"]
    assert s.pointers[0] == 0


def test_red_at_bof_crashes() -> None:
    _s, ev = run(program_state("Y1", pointers=(0, 0), hands={0: "R1"}), {0: "R1R"})
    assert "no record to delete at BOF" in only_step(ev).data["crash"]


def test_deleting_the_last_record_leaves_pointers_on_the_single_position() -> None:
    s = program_state("Y1", pointers=(1, 2), hands={0: "R1"})
    s, _ev = run(s, {0: "R1R"})
    assert s.file == () and s.pointers == (0, 0)


def test_pointer_on_a_deleted_record_goes_to_bof() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(2, 2), hands={0: "R1"})
    s, ev = run(s, {0: "R1L"})
    assert only_step(ev).data["pointers"] == [1, 0]


@pytest.mark.parametrize("locking", ["locks-crash", "locks-nocrash"])
def test_locks_protect_records_with_other_pointers(locking: str) -> None:
    s = program_state("Y1 Y2 Y3", pointers=(1, 2), hands={0: "R3"}, locking=locking)
    s, ev = run(s, {0: "R3R"})
    st = only_step(ev)
    assert file_text(s) == "Y2 Y3"  # Y1 deleted, then Y2 is locked by yellow
    if locking == "locks-crash":
        assert "locked by Yellow" in st.data["crash"] and s.pointers[0] == 0
        assert s.history[-1][0] == 0
    else:
        assert not st.data["crash"] and "stopped" in st.data["result"]
        assert st.data["pointers"][0] == 1  # left on the blocked record (Y2, now record 1)


def test_without_locking_others_pointers_do_not_protect() -> None:
    s = program_state("Y1 Y2", pointers=(1, 1), hands={0: "R1"})
    s, ev = run(s, {0: "R1R"})
    assert file_text(s) == "Y2" and only_step(ev).data["pointers"] == [1, 0]


def permission_state(locking: str, colours: str = "red,yellow", pointers: tuple[int, ...] = (1, 1),
                     file: str = "Y1 Y2 Y3") -> EofState:
    n = len(colours.split(","))
    hands = {0: "R2"} | {t: "G1" for t in range(1, n)}
    s = program_state(file, colours=colours, pointers=pointers, hands=hands, locking=locking)
    s, _ = run(s, {0: "R2R"} | {t: "G1L" for t in range(1, n)})
    return s


def test_permission_request_waits_for_the_asked_player() -> None:
    s = permission_state("permission-crash")
    assert s.phase is Phase.PERMISSION
    assert RULES.to_act(s) == frozenset({1})
    assert RULES.legal_moves(s, 1) == [DENY, ALLOW]
    assert RULES.legal_moves(s, 0) == []
    v = RULES.view(s, None)
    assert v.pending is not None and v.pending.record == 0 and v.pending.asked == (1,)
    with pytest.raises(IllegalMove, match="no permission request"):
        RULES.apply(s, 0, ALLOW)


def test_permission_allowed_deletes_and_execution_continues() -> None:
    s = permission_state("permission-crash")
    s, ev = RULES.apply(s, 1, ALLOW)
    assert s.phase is Phase.FIRST and s.round == 2  # round over
    st = only_step(ev, 0)
    assert not st.data["crash"] and st.data["result"].startswith("deleted Y1 Y2")
    assert file_text(s) == "Y3"


@pytest.mark.parametrize("locking", ["permission-crash", "permission-nocrash"])
def test_permission_denied_blocks(locking: str) -> None:
    s = permission_state(locking)
    s, ev = RULES.apply(s, 1, DENY)
    st = only_step(ev, 0)
    assert file_text(s) == "Y1 Y2 Y3"
    if locking.endswith("-crash") and not locking.endswith("nocrash"):
        assert "refused by Yellow" in st.data["crash"]
    else:
        assert not st.data["crash"] and "deleted nothing" in st.data["result"]


def test_permission_asks_every_player_on_the_record_and_one_denial_is_enough() -> None:
    s = permission_state("permission-nocrash", colours="red,yellow,green", pointers=(1, 1, 1))
    assert RULES.to_act(s) == frozenset({1, 2})
    s2, _ = RULES.apply(s, 2, ALLOW)
    assert s2.phase is Phase.PERMISSION and RULES.to_act(s2) == frozenset({1})
    with pytest.raises(IllegalMove, match="already allowed"):
        RULES.apply(s2, 2, ALLOW)
    _s3, ev = RULES.apply(s2, 1, DENY)
    assert "deleted nothing" in only_step(ev, 0).data["result"]
    _s4, ev = RULES.apply(s, 1, DENY)  # the first denial decides at once
    assert "deleted nothing" in only_step(ev, 0).data["result"]


def test_permission_mid_instruction_keeps_earlier_deletions() -> None:
    # Red deletes Y1 freely, then needs Yellow's permission for Y2.
    s = permission_state("permission-nocrash", pointers=(1, 2))
    assert s.phase is Phase.PERMISSION and file_text(s) == "Y2 Y3" and s.deleted == (Piece(1, 1),)
    s, ev = RULES.apply(s, 1, DENY)
    st = only_step(ev, 0)
    assert st.data["result"].startswith("deleted Y1; stopped")


def test_timeout_denies_permission_and_skips_programs() -> None:
    s = permission_state("permission-crash", colours="red,yellow,green", pointers=(1, 1, 1))
    assert RULES.timeout_moves(s) == [(1, DENY)]
    p = program_state("", hands={0: "G1", 1: "G2"})
    assert RULES.timeout_moves(p) == [(0, SKIP), (1, SKIP)]


# --- blue: update -------------------------------------------------------------------------------------

def test_blue_standing_replaces_with_own_piece_from_the_pool() -> None:
    s = program_state("Y1 Y2", pointers=(2, 2), hands={0: "B3"})
    s, ev = run(s, {0: "B3S"})
    assert file_text(s) == "Y1 R3" and s.pointers == (2, 2)
    assert "replaced Y2 at record 2 by R3" in only_step(ev).data["result"]


def test_blue_standing_can_use_the_record_it_returns() -> None:
    s = program_state("R2 Y1", pointers=(1, 0), hands={0: "B2"}, pool="Y3")
    s, ev = run(s, {0: "B2S"})
    assert not only_step(ev).data["crash"] and file_text(s) == "R2 Y1"


def test_blue_standing_without_the_piece_crashes_and_changes_nothing() -> None:
    s = program_state("Y1", pointers=(1, 0), hands={0: "B2"}, pool="Y3")
    s, ev = run(s, {0: "B2S"})
    assert "no R2 in the data pool" in only_step(ev).data["crash"]
    assert file_text(s) == "Y1"


@pytest.mark.parametrize(("prog", "start", "after"), [
    ("B1L", 2, "Y2 Y1 Y3 G1"), ("B2R", 1, "Y3 Y2 Y1 G1"), ("B3R", 1, "G1 Y2 Y3 Y1"),
])
def test_blue_swaps_records_not_pointers(prog: str, start: int, after: str) -> None:
    s = program_state("Y1 Y2 Y3 G1", colours="red,yellow,green", pointers=(start, 3, 4), hands={0: prog[:2]})
    s, ev = run(s, {0: prog})
    assert file_text(s) == after and only_step(ev).data["pointers"] == [start, 3, 4]


@pytest.mark.parametrize(("prog", "start", "why"), [
    ("B2L", 1, "no record 2 to the left"), ("B1R", 4, "no record 1 to the right"),
    ("B1R", 0, "no current record to swap at BOF"), ("B1S", 5, "no current record to replace at EOF"),
])
def test_blue_without_a_target_crashes(prog: str, start: int, why: str) -> None:
    s = program_state("Y1 Y2 Y3 Y1", pointers=(start, 0), hands={0: prog[:2]})
    s, ev = run(s, {0: prog})
    assert why in only_step(ev).data["crash"]


# --- yellow: insert -----------------------------------------------------------------------------------

def test_yellow_left_inserts_before_and_moves_onto_it() -> None:
    s = program_state("G1 G2", colours="red,yellow", pointers=(2, 2), hands={0: "Y3"})
    s, _ev = run(s, {0: "Y3L"})
    assert file_text(s) == "G1 R3 G2" and s.pointers == (2, 3)  # yellow stays on G2


def test_yellow_right_inserts_after() -> None:
    s = program_state("G1 G2", pointers=(1, 2), hands={0: "Y2"})
    s, _ev = run(s, {0: "Y2R"})
    assert file_text(s) == "G1 R2 G2" and s.pointers == (2, 3)


def test_yellow_at_bof_and_eof() -> None:
    s, ev = run(program_state("G1", pointers=(0, 0), hands={0: "Y1"}), {0: "Y1R"})
    assert file_text(s) == "R1 G1" and only_step(ev).data["pointers"] == [1, 0]
    s, ev = run(program_state("G1", pointers=(2, 2), hands={0: "Y1"}), {0: "Y1L"})
    assert file_text(s) == "G1 R1" and only_step(ev).data["pointers"] == [2, 3]
    s, ev = run(program_state("G1", pointers=(0, 0), hands={0: "Y1"}), {0: "Y1L"})
    assert "before BOF" in only_step(ev).data["crash"]
    s, ev = run(program_state("G1", pointers=(2, 0), hands={0: "Y1"}), {0: "Y1R"})
    assert "after EOF" in only_step(ev).data["crash"]


@pytest.mark.parametrize("prog", ["Y1L", "Y1R"])
def test_yellow_in_an_empty_file_inserts_the_first_record(prog: str) -> None:
    s, ev = run(program_state("", hands={0: "Y1"}), {0: prog})
    assert file_text(s) == "R1" and only_step(ev).data["pointers"] == [1, 0]  # others on BOF


def test_yellow_without_the_piece_crashes() -> None:
    _s, ev = run(program_state("G1", pointers=(1, 0), hands={0: "Y2"}, pool="R1"), {0: "Y2L"})
    assert "no R2 in the data pool" in only_step(ev).data["crash"]


# --- execution order, crashes, scoring ------------------------------------------------------------------

def test_execution_alternates_from_the_first_player_and_skips_crashed_programs() -> None:
    s = program_state("", colours="red,yellow,green", first=1,
                      hands={0: "Y1 Y1", 1: "G1 Y2", 2: "R1 G1"})
    s, ev = run(s, {0: "Y1R Y1R", 1: "G1U Y2R", 2: "R1R G1U"})
    order = [(e.data["seat"], e.data["index"]) for e in steps(ev)]
    assert order == [(1, 0), (2, 0), (0, 0), (1, 1), (0, 1)]  # green crashed at once (nothing to delete)


def test_crash_penalty_counts_the_crashing_and_remaining_instructions() -> None:
    s = program_state("", hands={0: "G1 G1 G1 G1 G1", 1: "G2 G2 G2 G2 G2"}, crash_penalty=True)
    s, _ev = run(s, {0: "G1U G1U G1R G1U G1U", 1: "G2U G2U G2U G2U G2U"})
    assert s.history[0] == (-3, 0)
    s2 = program_state("", hands={0: "G1 G1 G1 G1 G1", 1: "G2 G2 G2 G2 G2"})
    s2, _ = run(s2, {0: "G1U G1U G1R G1U G1U", 1: "G2U G2U G2U G2U G2U"})
    assert s2.history[0] == (0, 0)


def test_round_scores_configurations_of_each_colour() -> None:
    s = program_state("R1 R2 Y1 Y1", pointers=(2, 0), hands={0: "Y3", 1: "G1"})
    s, ev = run(s, {0: "Y3R", 1: "G1U"})
    score = next(e for e in ev if e.kind == "score")
    assert score.data["points"] == [5, 0]
    assert s.scores == (5, 0)
    assert s.last_round is not None and s.last_round.configurations[0][0].kind == "sorted"
    assert "sorted three at 1-3: 5" in score.text


def test_skipped_program_scores_zero_even_with_configurations() -> None:
    s = program_state("R1 R2 R3 Y1", hands={0: "G1", 1: "G2"}, crash_penalty=True)
    s, _ = run(s, {0: "skip", 1: "G2U"})
    assert s.history[0] == (0, 0)


def test_next_round_gathers_everything_but_file_and_pointers_into_the_bag() -> None:
    s = program_state("R1 R2", pointers=(1, 2), hands={0: "Y3 G1", 1: "G1"})
    s, _ = run(s, {0: "Y3R G1D", 1: "G1U"})
    assert s.round == 2 and s.phase is Phase.FIRST
    assert s.file == pieces("R1 R3 R2") and s.pointers == (3, 1)  # pointers carry over
    assert sum(s.pool) == 0 and all(sum(h) == 0 for h in s.hands)
    assert sum(s.bag) == 60 - 3 - 2
    placed = counts_of((*s.file, Piece(0, 1), Piece(1, 1)))
    assert tuple(a + b for a, b in zip(s.bag, placed, strict=True)) == FULL


def test_four_rounds_end_the_game_with_ranks_by_score() -> None:
    s = program_state("R1 R2 R3 Y1", hands={0: "G1", 1: "G2"}, round=4)
    s = replace(s, scores=(3, 8))
    s, ev = run(s, {0: "G1U", 1: "G2U"})
    assert s.phase is Phase.OVER and RULES.to_act(s) is None
    out = RULES.outcome(s)
    assert out == Outcome.from_scores((8, 8), detail="Draw: Red and Yellow tie with 8.")
    assert out is not None and out.is_draw
    assert ev[-1].kind == "over"
    assert ev[-1].text == "The game is over after 4 rounds. Draw: Red and Yellow tie with 8."
    with pytest.raises(IllegalMove, match="over"):
        RULES.apply(s, 0, SKIP)


def test_no_players_colour_in_the_bag_passes_the_lead_clockwise() -> None:
    # Every red and yellow piece except the pointers is in the file.
    file = " ".join(["R1"] * 4 + ["R2"] * 5 + ["R3"] * 5 + ["Y1"] * 4 + ["Y2"] * 5 + ["Y3"] * 5)
    s = program_state(file, hands={0: "G1", 1: "G2"}, first=1)
    s, _ev = run(s, {0: "G1U", 1: "G2U"})
    assert s.round == 2 and s.first == 0 and s.phase is Phase.DEAL
    assert size_totals(s.bag) == (10, 10, 10)


def test_apply_does_not_mutate_its_input() -> None:
    s = program_state("Y1 Y2", pointers=(1, 2), hands={0: "R2 G1", 1: "G1"})
    d = RULES.dump(s)
    s1, _ = RULES.apply(s, 0, RULES.parse("R2R G1U", s, 0))
    RULES.apply(s1, 1, RULES.parse("G1U", s1, 1))
    assert RULES.dump(s) == d


# --- the builder's dry run (issue 13) ---------------------------------------------------------------------

def test_dry_run_tells_what_an_instruction_would_do_to_the_file_as_it_stands() -> None:
    from bot.games.eof.pieces import Instruction
    from bot.games.eof.rules import dry_run

    s = program_state("R1 R2 Y1", pointers=(1, 0), hands={0: "G2 B1 R3 Y1", 1: "G1"})
    before = RULES.dump(s)
    ok = dry_run(s, 0, Instruction(2, 2, 3))  # G2R from record 1: record 3
    assert not ok.crash and "record 3" in ok.text
    bad = dry_run(s, 0, Instruction(2, 2, 2))  # G2L from record 1 passes BOF
    assert "passes BOF" in bad.crash
    assert "no current record" in dry_run(s, 1, Instruction(3, 1, 4)).crash  # yellow is on BOF
    assert "has no" in dry_run(s, 0, Instruction(0, 3, 0)).crash  # red has no Up
    assert RULES.dump(s) == before  # nothing changed
    # a delete of a record holding another pointer asks, under the permission rule
    s2 = program_state("Y1 Y2", pointers=(1, 1), hands={0: "R1", 1: "G1"}, locking="permission-crash")
    asks = dry_run(s2, 0, Instruction(0, 1, 3))
    assert asks.asks and "Yellow" in asks.text and not asks.crash


def test_dry_run_after_the_seats_own_earlier_instructions() -> None:
    from bot.games.eof.pieces import Instruction
    from bot.games.eof.rules import dry_run

    s = program_state("R1 R2 Y1", pointers=(0, 0), hands={0: "G2 G1 B1", 1: "G1"})
    g1r, g2r, b1s = Instruction(2, 1, 3), Instruction(2, 2, 3), Instruction(3, 1, 4)
    assert "no current record" in dry_run(s, 0, b1s).crash  # on BOF now
    after = dry_run(s, 0, b1s, [g1r])  # after moving right 1: record 1 is there to replace
    assert not after.crash and "record 1" in after.text
    first_crashes = dry_run(s, 0, b1s, [Instruction(2, 1, 2)])  # G1L from BOF crashes first
    assert "would crash first" in first_crashes.text and first_crashes.crash
    assert "record 3" in dry_run(s, 0, g1r, [g2r]).text
