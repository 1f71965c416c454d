"""Fire and Ice rules: geometry, moves, control, winning, handicap, passes, JSON."""

from __future__ import annotations

import itertools

import pytest

from bot.games.base import CHANCE, Chance, IllegalMove, Reason
from bot.games.fire_and_ice import geometry as g
from bot.games.fire_and_ice.notation import parse_point, point_name
from bot.games.fire_and_ice.rules import (
    RULES,
    Move,
    Pass,
    Place,
    State,
    controllers,
    destinations,
    gives_opponent_win,
    make_view,
    movable_pieces,
    winning_line,
    wins_now,
)
from tests.games.fire_and_ice.util import island_from_art, position

pytestmark = pytest.mark.unit


def mv(text: str) -> Move:
    a, b = text.split("-")
    return Move(parse_point(a), parse_point(b))


# --------------------------------------------------------------------------- geometry


def test_lines_are_the_ones_in_the_rulings() -> None:
    names = {g.line_name(line) for line in g.LINES}
    assert names == {"1-2-5", "1-3-7", "5-6-7", "1-4-6", "3-4-5", "2-4-7", "2-3-6"}
    islands = {"".join(g.ISLANDS[i] for i in line) for line in g.ISLAND_LINES}
    assert islands == {"ABE", "ACG", "EFG", "ADF", "CDE", "BDG", "BCF"}


def test_lines_form_a_fano_plane() -> None:
    # every two points lie on exactly one line; every two lines meet in exactly one point
    for a, b in itertools.combinations(range(7), 2):
        assert sum(1 for line in g.LINES if a in line and b in line) == 1
    for l1, l2 in itertools.combinations(g.LINES, 2):
        assert len(set(l1) & set(l2)) == 1


def test_every_point_has_twelve_destinations() -> None:
    for p in range(g.N_POINTS):
        assert len(g.NEIGHBOURS[p]) == 12
        assert p not in g.NEIGHBOURS[p]
        for q in g.NEIGHBOURS[p]:
            assert g.island_of(p) == g.island_of(q) or g.position_of(p) == g.position_of(q)


def test_every_two_colouring_of_an_island_has_a_line() -> None:
    # why a full board always has a winner
    for colouring in range(128):
        fire, ice = colouring, 127 & ~colouring
        assert g.HAS_LINE[fire] != g.HAS_LINE[ice]


# --------------------------------------------------------------------------- start


def test_fire_starts_alone_on_d4_and_moves_first() -> None:
    s = RULES.initial({}, 2)
    assert s.board.count(g.FIRE) == 1 and s.board[parse_point("D4")] == g.FIRE
    assert s.board.count(g.ICE) == 0
    assert s.supply == (24, 25)
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.spec.seat_names == ("Fire", "Ice")
    assert [str(m) for m in RULES.legal_moves(s, 0)] == [
        "D4-A4", "D4-B4", "D4-C4", "D4-D1", "D4-D2", "D4-D3", "D4-D5", "D4-D6",
        "D4-D7", "D4-E4", "D4-F4", "D4-G4"]
    assert RULES.legal_moves(s, 1) == []


@pytest.mark.parametrize("seats", [1, 3, 4])
def test_fire_and_ice_needs_two_players(seats: int) -> None:
    with pytest.raises(ValueError, match="exactly 2 players"):
        RULES.initial({}, seats)


@pytest.mark.parametrize("value", ["7", "-1", "x", "1.5", ""])
def test_handicap_option_is_validated(value: str) -> None:
    with pytest.raises(ValueError, match="handicap must be a whole number from 0 to 6"):
        RULES.initial({"handicap": value}, 2)


def test_unknown_options_are_ignored() -> None:
    assert RULES.initial({"turn_limit": "1d"}, 2) == RULES.initial({}, 2)


# --------------------------------------------------------------------------- moving


def test_a_move_leaves_an_opponent_piece_on_the_vacated_point() -> None:
    s = RULES.initial({}, 2)
    s1, events = RULES.apply(s, 0, mv("D4-F4"))
    assert s1.board[parse_point("F4")] == g.FIRE
    assert s1.board[parse_point("D4")] == g.ICE
    assert s1.supply == (24, 24) and s1.to_move == 1 and s1.ply == 1
    assert events[0].kind == "move" and events[0].data["added"] == "D4"
    assert "an Ice piece appears on D4" in events[0].text
    assert s.board[parse_point("D4")] == g.FIRE  # the old state is untouched


def test_a_piece_may_move_within_its_island_or_to_the_same_position_elsewhere() -> None:
    s = position({"F": "-----F-"})
    dest = set(destinations(s, "F6"))
    assert dest == {"F1", "F2", "F3", "F4", "F5", "F7", "A6", "B6", "C6", "D6", "E6", "G6"}


def test_moving_a_piece_not_yours_is_illegal() -> None:
    s = position({"F": "-----I-", "D": "---F---"})
    with pytest.raises(IllegalMove, match="F6 is not yours") as info:
        RULES.apply(s, 0, mv("F6-C6"))
    assert "Ice piece" in str(info.value)
    assert "D4-A4" in info.value.legal
    with pytest.raises(IllegalMove, match=r"A1 is not yours.*empty"):
        RULES.apply(s, 0, mv("A1-A2"))


def test_destination_must_be_empty() -> None:
    s = position({"F": "-----F-", "C": "-----I-"})
    with pytest.raises(IllegalMove, match="C6 is occupied"):
        RULES.apply(s, 0, mv("F6-C6"))


def test_destination_must_share_island_or_position() -> None:
    s = position({"F": "-----F-"})
    with pytest.raises(IllegalMove, match="F6 and C2 share neither island nor position") as info:
        RULES.apply(s, 0, mv("F6-C2"))
    assert "F6-C6" in info.value.legal


def test_a_piece_must_move_somewhere_else() -> None:
    s = position({"F": "-----F-"})
    with pytest.raises(IllegalMove, match="another point"):
        RULES.apply(s, 0, mv("F6-F6"))


def test_only_the_side_to_move_may_move() -> None:
    s = RULES.initial({}, 2)
    with pytest.raises(IllegalMove, match="Fire's turn, not Ice's"):
        RULES.apply(s, 1, mv("D4-A4"))


def test_supply_exhausted_leaves_the_vacated_point_empty() -> None:
    # All 25 Fire pieces are on the board (A, B, C full and D1-D4: no line of islands); Ice moves E1-E2
    s = position({"A": "FFFFFFF", "B": "FFFFFFF", "C": "FFFFFFF", "D": "FFFF---", "E": "I------"},
                 to_move=1)
    assert s.supply == (0, 24) and RULES.outcome(s) is None
    s1, events = RULES.apply(s, 1, mv("E1-E2"))
    assert s1.board[parse_point("E1")] == g.EMPTY
    assert s1.supply == (0, 24)
    assert "Fire has no pieces left, so E1 stays empty" in events[0].text
    assert events[0].data["added"] is None
    assert not make_view(s1).added


# --------------------------------------------------------------------------- control


CONTROL_PATTERNS = [
    # the seven figures of the rule text ("the seven possible ways in which Fire may control an island")
    """
       / \\
      / # \\
     /     \\
    / #   - \\
   /    -    \\
  / #   -   - \\
""",
    """
       / \\
      / # \\
     /     \\
    / -   # \\
   /    -    \\
  / -   -   # \\
""",
    """
       / \\
      / - \\
     /     \\
    / -   - \\
   /    -    \\
  / #   #   # \\
""",
    """
       / \\
      / # \\
     /     \\
    / -   - \\
   /    #    \\
  / -   #   - \\
""",
    """
       / \\
      / - \\
     /     \\
    / -   # \\
   /    #    \\
  / #   -   - \\
""",
    """
       / \\
      / - \\
     /     \\
    / #   - \\
   /    #    \\
  / -   -   # \\
""",
    """
       / \\
      / - \\
     /     \\
    / #   # \\
   /    -    \\
  / -   #   - \\
""",
]


@pytest.mark.parametrize("art", CONTROL_PATTERNS, ids=["1-2-5", "1-3-7", "5-6-7", "1-4-6", "3-4-5", "2-4-7",
                                                       "ring 2-3-6"])
def test_the_seven_control_patterns_of_the_rule_text(art: str) -> None:
    island = island_from_art(art)
    for k in "ABCDEFG":
        s = position({k: island})
        assert controllers(s.board)[g.ISLANDS.index(k)] == g.FIRE
        # whatever stands on the four other points
        for filler in ("I", "F"):
            crowded = island.replace("-", filler)
            assert controllers(position({k: crowded}).board)[g.ISLANDS.index(k)] == g.FIRE


def test_patterns_cover_all_seven_lines() -> None:
    found = {g.LINE_TABLE[int("".join("1" if c == "F" else "0" for c in reversed(island_from_art(a))), 2)]
             for a in CONTROL_PATTERNS}
    assert found == set(range(7))


def test_two_of_a_line_is_not_control() -> None:
    for a, b, _ in g.LINES:
        island = "".join("F" if i in (a, b) else "-" for i in range(7))
        assert controllers(position({"C": island}).board)[2] == g.EMPTY


def test_at_most_one_controller_per_island() -> None:
    for colouring in range(3 ** 7):
        digits = []
        x = colouring
        for _ in range(7):
            digits.append("-FI"[x % 3])
            x //= 3
        island = "".join(digits)
        fire = g.HAS_LINE[sum(1 << i for i, c in enumerate(island) if c == "F")]
        ice = g.HAS_LINE[sum(1 << i for i, c in enumerate(island) if c == "I")]
        assert not (fire and ice)


# --------------------------------------------------------------------------- winning

# The rule text's sample game, final position (FIRE (#): 4 left, ICE (O): 5 left), read off its figure:
#   A: O / O O / # / O # O      B: # / # # / O / O # -      C: # / O O / # / # O #
#   D: - / # O / O / O - -      E: O / O - / - / # # #      F: # / # # / O / - O #
#   G: - / # # / # / O O O
SAMPLE = {"A": "IIIFIFI", "B": "FFFIIF-", "C": "FIIFFIF", "D": "-FIII--", "E": "II--FFF", "F": "FFFI-IF",
          "G": "-FFFIII"}


def test_sample_game_final_position_ice_wins_with_a_c_g() -> None:
    s = position(SAMPLE, to_move=0, ply=40)
    assert s.supply == (4, 5)  # the figure's header
    ctrl = controllers(s.board)
    assert [g.ISLANDS[k] for k in range(7) if ctrl[k] == g.ICE] == ["A", "C", "D", "G"]
    assert [g.ISLANDS[k] for k in range(7) if ctrl[k] == g.FIRE] == ["B", "E", "F"]
    won = winning_line(s.board)
    assert won is not None and won[0] == g.ICE and g.ISLAND_LINES[won[1]] == (0, 2, 6)
    out = RULES.outcome(s)
    assert out is not None and out.winners == frozenset({1}) and out.reason is Reason.NORMAL
    assert out.detail == "Ice controls A, C and G"
    assert RULES.to_act(s) is None and RULES.legal_moves(s, 0) == []
    with pytest.raises(IllegalMove, match="game is over"):
        RULES.apply(s, 0, mv("B6-B7"))


def test_completing_a_line_of_islands_wins_for_the_mover() -> None:
    # Fire controls A and B; E has Fire on 5 and 6, 7 is reachable from G7
    s = position({"A": "FF--F--", "B": "FF--F--", "E": "----FF-", "G": "------F", "D": "---I---"})
    move = mv("G7-E7")
    assert wins_now(s, move) and not gives_opponent_win(s, move)
    s1, events = RULES.apply(s, 0, move)
    assert events[-1].kind == "win" and events[-1].data == {"seat": 0, "islands": "ABE"}
    assert any(e.kind == "control" and e.data["island"] == "E" for e in events)
    out = RULES.outcome(s1)
    assert out is not None and out.winners == frozenset({0})


def test_a_move_can_hand_the_opponent_the_win() -> None:
    # Ice controls A and C; G has Ice on 5 and 6; Fire's piece on G7 must not move
    s = position({"A": "II--I--", "C": "II--I--", "G": "----IIF", "D": "F------"})
    losing = mv("G7-G1")
    assert gives_opponent_win(s, losing) and not wins_now(s, losing)
    assert not gives_opponent_win(s, mv("D1-D2"))
    view = make_view(s)
    assert "G7-G1" in view.handing_win and view.is_losing("G7-G1")
    assert "D1-D2" not in view.handing_win
    s1, events = RULES.apply(s, 0, losing)  # legal all the same
    assert "hands Ice the win" in events[-1].text
    out = RULES.outcome(s1)
    assert out is not None and out.winners == frozenset({1})


def test_control_is_lost_when_a_line_piece_moves() -> None:
    s = position({"B": "FF--F--", "C": "I------"})
    s1, events = RULES.apply(s, 0, mv("B1-B4"))
    assert controllers(s1.board)[1] == g.EMPTY
    assert any(e.kind == "control" and "Fire loses island B" in e.text for e in events)


# --------------------------------------------------------------------------- passing


def stuck_position() -> State:
    # Fire's only piece, A1, is hemmed in: every point it could reach is Ice.
    board = {k: "-------" for k in "ABCDEFG"}
    board["A"] = "FIIIIII"
    for k in "BCDEFG":
        board[k] = "I------"
    return position(board)


def test_a_player_without_moves_passes() -> None:
    s = stuck_position()
    assert RULES.legal_moves(s, 0) == [Pass()]
    assert make_view(s).legal == ("pass",) and make_view(s).must_pass
    s1, events = RULES.apply(s, 0, Pass())
    assert s1.to_move == 1 and s1.passes == 1 and s1.board == s.board and events[0].kind == "pass"
    assert RULES.outcome(s1) is None


def test_passing_with_moves_is_illegal() -> None:
    with pytest.raises(IllegalMove, match="can't pass"):
        RULES.apply(RULES.initial({}, 2), 0, Pass())


def test_two_passes_in_a_row_draw() -> None:
    # Constructed: Ice just passed and Fire is stuck. (From a real game both sides can only be
    # stuck on a full board, which always has a winner: the engine still handles it.)
    s = State(stuck_position().board, 0, (24, 12), passes=1, ply=7, last=Pass())
    s1, events = RULES.apply(s, 0, Pass())
    out = RULES.outcome(s1)
    assert out is not None and out.is_draw and out.reason is Reason.DRAW
    assert events[-1].kind == "draw"
    assert RULES.to_act(s1) is None and make_view(s1).is_draw


# --------------------------------------------------------------------------- handicap


def test_handicap_starts_with_chance_nodes() -> None:
    s = RULES.initial({"handicap": "3"}, 2)
    node = RULES.to_act(s)
    assert isinstance(node, Chance) and len(node.outcomes) == 42  # 6 islands x 7 points, never D
    assert all(g.island_of(p.point) != 3 for p in node.outcomes)
    assert RULES.legal_moves(s, 0) == []
    with pytest.raises(IllegalMove, match="still being placed"):
        RULES.apply(s, 0, mv("D4-A4"))
    with pytest.raises(IllegalMove, match="never on D"):
        RULES.apply(s, CHANCE, Place(parse_point("D1")))


@pytest.mark.parametrize("h", range(1, 7))
def test_handicap_placements_invariants(h: int) -> None:
    s = RULES.initial({"handicap": str(h)}, 2)
    count = 0
    while isinstance(RULES.to_act(s), Chance):
        node = RULES.to_act(s)
        assert isinstance(node, Chance)
        # pick the last outcome each time: a deterministic, varied choice
        s, events = RULES.apply(s, CHANCE, node.outcomes[(count * 17) % len(node.outcomes)])
        assert events[0].kind == "handicap"
        count += 1
    assert count == h
    fire_islands = [g.island_of(p) for p in range(49) if s.board[p] == g.FIRE]
    assert s.board[parse_point("D4")] == g.FIRE
    others = [k for k in fire_islands if k != 3]
    assert len(others) == h and len(set(others)) == h and 3 not in others
    assert s.supply == (24 - h, 25)
    assert controllers(s.board) == (g.EMPTY,) * 7
    assert RULES.to_act(s) == frozenset({0}) and s.ply == 0
    with pytest.raises(IllegalMove, match="already placed"):
        RULES.apply(s, CHANCE, Place(0))


def test_second_handicap_piece_goes_to_another_island() -> None:
    s = RULES.initial({"handicap": "2"}, 2)
    s, _ = RULES.apply(s, CHANCE, Place(parse_point("B3")))
    node = RULES.to_act(s)
    assert isinstance(node, Chance) and len(node.outcomes) == 35
    with pytest.raises(IllegalMove, match="different islands"):
        RULES.apply(s, CHANCE, Place(parse_point("B5")))


# --------------------------------------------------------------------------- helpers and view


def test_ui_helpers() -> None:
    s = position({"B": "F------", "C": "I------"})
    assert movable_pieces(s) == ("B1",)
    assert destinations(s, "B1") == ("A1", "B2", "B3", "B4", "B5", "B6", "B7", "D1", "E1", "F1", "G1")
    assert destinations(s, "C1") == ()
    v = make_view(s, 1)
    assert v.movable == ("B1",) and v.destinations("b1") == destinations(s, "B1")
    assert v.to_move == 0 and v.viewer == 1 and v.on_board == (1, 1) and v.supply == (24, 24)
    assert v.controllers == (g.EMPTY,) * 7 and v.winner is None and not v.is_over
    assert RULES.view(s, None) == make_view(s, None)


def test_view_after_a_move_reports_it() -> None:
    s = RULES.initial({}, 2)
    s1, _ = RULES.apply(s, 0, mv("D4-A4"))
    v = make_view(s1)
    assert v.last_move == mv("D4-A4") and v.last_mover == 0 and v.added
    assert v.detail == "Ice to move"


# --------------------------------------------------------------------------- JSON


def test_dump_load_round_trip() -> None:
    s = position(SAMPLE, to_move=0, ply=40, last="D4-D3")
    d = RULES.dump(s)
    assert d["v"] == 1 and d["board"]["A"] == "IIIFIFI" and d["last"] == "D4-D3"
    assert RULES.load(d) == s
    h = RULES.initial({"handicap": "4"}, 2)
    assert RULES.load(RULES.dump(h)) == h


@pytest.mark.parametrize("change, message", [
    ({"v": 2}, "schema version"),
    ({"board": {"A": "-------"}}, "each island"),
    ({"to_move": 2}, "to_move"),
    ({"supply": [24, 26]}, "supply"),
    ({"supply": [23, 25]}, "add up to 25"),
    ({"handicap": 9}, "handicap"),
    ({"last": "D4-X9"}, "bad last move"),
    ({"last": "D4-F1"}, "does not fit"),
    ({"passes": 3}, "passes"),
])
def test_load_rejects_bad_data(change: dict[str, object], message: str) -> None:
    d = RULES.dump(RULES.initial({}, 2)) | change
    with pytest.raises(ValueError, match=message):
        RULES.load(d)


def test_point_names() -> None:
    assert point_name(0) == "A1" and point_name(48) == "G7" and point_name(parse_point("d4")) == "D4"


def test_rules_text_fits_a_discord_embed() -> None:
    from pathlib import Path

    import bot.games.fire_and_ice as pkg

    text = (Path(pkg.__file__).parent / "rules_text.md").read_text(encoding="utf-8")
    assert len(text) <= 3800
    assert "F6-C6" in text and "handicap" in text
    assert not any(line.startswith("####") or line.startswith("|") for line in text.splitlines())
