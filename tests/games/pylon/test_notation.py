"""Pylon notation: the variants rulings.md accepts, canonical strings, and syntax errors."""

from __future__ import annotations

import pytest

from bot.games.base import InvalidNotation
from bot.games.pylon.notation import (
    AGREE,
    NEIGHBOURS,
    SQUARE_NAMES,
    SQUARES,
    Placement,
    Stacking,
    direction_between,
    parse_square,
    read,
    square_name,
    step,
)

pytestmark = pytest.mark.unit

C3, C4 = parse_square("c3"), parse_square("c4")


def test_square_indices_run_row_by_row_from_a1() -> None:
    assert parse_square("a1") == 0
    assert parse_square("f1") == 5
    assert parse_square("a2") == 6
    assert parse_square("F5") == 29
    assert [parse_square(square_name(i)) for i in range(SQUARES)] == list(range(SQUARES))


@pytest.mark.parametrize("text", ["L c3", "Lc3", "3c3", "l C3", "  L   c3 ", "large c3", "3 c3"])
def test_placement_variants_read_the_same(text: str) -> None:
    assert read(text) == Placement(3, C3)


@pytest.mark.parametrize(
    ("text", "size"), [("S a1", 1), ("1a1", 1), ("m a1", 2), ("2A1", 2), ("small a1", 1)]
)
def test_placement_sizes(text: str, size: int) -> None:
    assert read(text) == Placement(size, 0)


@pytest.mark.parametrize("text", ["c3-c4", "C3 - C4", "c3c4", "c3 c4", "c3–c4", "c3>c4", "c3 N", "c3-n",
                                  "c3 north", "c3 up"])
def test_stacking_variants_read_the_same(text: str) -> None:
    assert read(text) == Stacking(C3, C4)


@pytest.mark.parametrize("text", ["agree", "AGREE", " Agree ", "agree to end"])
def test_agree(text: str) -> None:
    assert read(text) == AGREE


def test_canonical_strings() -> None:
    assert str(Placement(1, C3)) == "S c3"
    assert str(Placement(2, C3)) == "M c3"
    assert str(Placement(3, 29)) == "L f5"
    assert str(Stacking(C3, C4)) == "c3-c4"
    assert str(AGREE) == "agree"


def test_every_move_reads_back_from_its_string() -> None:
    for sq in range(SQUARES):
        for size in (1, 2, 3):
            assert read(str(Placement(size, sq))) == Placement(size, sq)
        for n in NEIGHBOURS[sq]:
            assert read(str(Stacking(sq, n))) == Stacking(sq, n)


@pytest.mark.parametrize(("text", "match"), [
    ("L c6", "c6 is off the board"),
    ("L g1", "g1 is off the board"),
    ("c3-c9", "c9 is off the board"),
    ("S a0", "a0 is off the board"),
    ("a1 S", "would leave the board"),
    ("f3 E", "would leave the board"),
])
def test_squares_off_the_board_are_named(text: str, match: str) -> None:
    with pytest.raises(InvalidNotation, match=match):
        read(text)


@pytest.mark.parametrize("text", ["", "   ", "hello", "X c3", "c3", "L", "c3-", "4c3", "L c3 c4"])
def test_garbage_is_invalid_notation_with_a_hint(text: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        read(text)
    assert "c3" in str(info.value)  # every message shows an example


def test_directions_and_neighbours() -> None:
    assert step(C3, "N") == C4
    assert step(C3, "S") == parse_square("c2")
    assert step(C3, "E") == parse_square("d3")
    assert step(C3, "W") == parse_square("b3")
    assert step(0, "S") is None and step(0, "W") is None
    assert direction_between(C3, C4) == "N"
    assert direction_between(C3, parse_square("d4")) is None
    assert len(NEIGHBOURS[0]) == 2 and len(NEIGHBOURS[C3]) == 4 and len(NEIGHBOURS[1]) == 3
    assert sum(len(n) for n in NEIGHBOURS) == 98  # 49 adjacent pairs, both ways
    assert SQUARE_NAMES[14] == "c3"
