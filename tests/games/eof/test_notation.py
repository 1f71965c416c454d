"""EOF notation: canonical formats, accepted variants, and clear errors."""

from __future__ import annotations

import pytest

from bot.games.base import CHANCE, Chance, IllegalMove, InvalidNotation
from bot.games.eof.notation import (
    ALLOW,
    DENY,
    SKIP,
    ChooseSize,
    Draw,
    Program,
    read_instruction,
    read_program,
)
from bot.games.eof.pieces import Instruction, Piece
from bot.games.eof.rules import RULES
from tests.games.eof.helpers import program_state, run

pytestmark = pytest.mark.unit


def deal_state():
    s, _ = RULES.apply(RULES.initial({}, 2), CHANCE, Draw(Piece(0, 1)))
    return s


@pytest.mark.parametrize(("text", "canonical"), [
    ("Y1R G2L B3S R1R G1U", "Y1R G2L B3S R1R G1U"),
    ("y1r g2l b3s r1r g1u", "Y1R G2L B3S R1R G1U"),
    ("  Y1R,G2L;B3S  R1R\tG1U ", "Y1R G2L B3S R1R G1U"),
    ("Y1RG2LB3SR1RG1U", "Y1R G2L B3S R1R G1U"),
    ("Y 1 R, G 2 L, B 3 S, R 1 R, G 1 U", "Y1R G2L B3S R1R G1U"),
    ("skip", "skip"), ("SKIP", "skip"), ("none", "skip"),
])
def test_program_variants(text: str, canonical: str) -> None:
    s = program_state("", hands={0: "Y1 G2 B3 R1 G1", 1: "G3"})
    move = RULES.parse(text, s, 0)
    assert RULES.format(move, s) == canonical
    assert RULES.parse(canonical, s, 0) == move


@pytest.mark.parametrize(("text", "size"), [
    ("draw S", 1), ("draw s", 1), ("S", 1), ("small", 1), ("1", 1), ("Draw  M", 2), ("m", 2), ("medium", 2),
    ("draw L", 3), ("large", 3), ("draw 3", 3), ("draw any", 0), ("any", 0), ("draw", 0), ("random", 0),
])
def test_size_variants(text: str, size: int) -> None:
    s = deal_state()
    move = RULES.parse(text, s, 0)
    assert move == ChooseSize(size)
    assert RULES.parse(RULES.format(move, s), s, 0) == move


def test_canonical_size_and_answer_and_draw_formats() -> None:
    s = deal_state()
    assert [RULES.format(m, s) for m in RULES.legal_moves(s, 0)] == ["draw any", "draw S", "draw M", "draw L"]
    assert str(ALLOW) == "allow" and str(DENY) == "deny" and str(SKIP) == "skip"
    assert str(Draw(Piece(2, 3))) == "G3"
    s2, _ = RULES.apply(s, 0, ChooseSize(2))
    assert RULES.parse("g2", s2, CHANCE) == Draw(Piece(2, 2))
    who = RULES.to_act(s2)
    assert isinstance(who, Chance)
    for d in who.outcomes:
        assert RULES.parse(RULES.format(d, s2), s2, CHANCE) == d


@pytest.mark.parametrize(("text", "answer"), [("allow", ALLOW), ("Yes", ALLOW), ("y", ALLOW), ("DENY", DENY),
                                              ("no", DENY), ("n", DENY)])
def test_answer_variants(text: str, answer: object) -> None:
    s = program_state("Y1 Y2", pointers=(1, 1), hands={0: "R1", 1: "G1"}, locking="permission-crash")
    s, _ = run(s, {0: "R1R", 1: "G1U"})
    assert RULES.parse(text, s, 1) == answer


@pytest.mark.parametrize(("text", "match"), [
    ("G4R", "Could not read 'G4R'"), ("P1R", "Could not read 'P1R'"), ("G1X G1U", "Could not read 'G1X'"),
    ("Y1R hello", "Could not read 'HELLO'"), ("", "Empty program"),
])
def test_bad_program_text(text: str, match: str) -> None:
    s = program_state("", hands={0: "G1", 1: "G1"})
    with pytest.raises(InvalidNotation, match=match):
        RULES.parse(text, s, 0)


def test_error_messages_explain_the_notation() -> None:
    with pytest.raises(InvalidNotation, match=r"orientation U/D/L/R/S, e.g. G2R"):
        read_program("G2")
    with pytest.raises(InvalidNotation, match="choose the size of your next draw"):
        RULES.parse("G1U", deal_state(), 0)
    with pytest.raises(InvalidNotation, match="not a piece"):
        RULES.parse("X9", deal_state(), CHANCE)


def test_out_of_phase_moves_are_illegal_with_a_reason() -> None:
    s = program_state("", hands={0: "G1", 1: "G1"})
    with pytest.raises(IllegalMove, match="no permission request"):
        RULES.parse("allow", s, 0)
    d = deal_state()
    with pytest.raises(IllegalMove, match="Red's draw, not yours"):
        RULES.parse("draw S", d, 1)
    with pytest.raises(IllegalMove, match="only the platform"):
        RULES.apply(d, 0, Draw(Piece(0, 1)))


def test_read_instruction() -> None:
    assert read_instruction(" g2r ") == Instruction(2, 2, 3)
    with pytest.raises(InvalidNotation):
        read_instruction("G2")


def test_program_str_is_its_notation() -> None:
    assert str(Program((Instruction(1, 1, 3), Instruction(3, 3, 4)))) == "Y1R B3S"
