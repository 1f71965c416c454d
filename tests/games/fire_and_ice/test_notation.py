"""Fire and Ice notation: pbmserv's F6-C6, its tolerated variants and its error messages."""

from __future__ import annotations

import pytest

from bot.games.base import CHANCE, IllegalMove, InvalidNotation
from bot.games.fire_and_ice.notation import parse_point, point_name, read
from bot.games.fire_and_ice.rules import RULES, Move, Pass, Place
from tests.games.fire_and_ice.util import position

pytestmark = pytest.mark.unit

F6, C6 = parse_point("F6"), parse_point("C6")


@pytest.mark.parametrize("text", ["F6-C6", "f6-c6", " F6 - C6 ", "F 6 - C 6", "F6 C6", "F6C6", "F6–C6",
                                  "F6—C6", "F6->C6", "F6→C6", "f6-C6\n"])
def test_move_variants(text: str) -> None:
    s = position({"F": "-----F-"})
    assert RULES.parse(text, s, 0) == Move(F6, C6)


def test_format_is_pbmserv_notation() -> None:
    s = position({"F": "-----F-"})
    assert RULES.format(Move(F6, C6), s) == "F6-C6"
    assert str(Pass()) == "pass" and str(Place(parse_point("B3"))) == "+B3"


def test_every_point_name_round_trips() -> None:
    for p in range(49):
        assert parse_point(point_name(p)) == p
        assert parse_point(point_name(p).lower()) == p


@pytest.mark.parametrize("text, message", [
    ("", "Empty move"),
    ("hello", "Can't read 'hello' as a move"),
    ("H1-A1", "there is no island H"),
    ("F8-C6", "positions are numbered 1–7"),
    ("F0-C6", "positions are numbered 1–7"),
    ("F66-C6", "positions are numbered 1–7"),
    ("F6", "names only one point"),
    ("F6-C6-C7", "Can't read"),
])
def test_invalid_notation_says_how_to_write_a_move(text: str, message: str) -> None:
    s = position({"F": "-----F-"})
    with pytest.raises(InvalidNotation, match=message):
        RULES.parse(text, s, 0)


def test_parse_checks_legality() -> None:
    s = position({"F": "-----F-", "C": "-----I-"})
    with pytest.raises(IllegalMove, match="C6 is occupied"):
        RULES.parse("f6-c6", s, 0)
    with pytest.raises(IllegalMove, match="F6 and C2 share neither island nor position"):
        RULES.parse("F6-C2", s, 0)
    with pytest.raises(IllegalMove, match="C6 is not yours"):
        RULES.parse("C6-C1", s, 0)
    with pytest.raises(IllegalMove, match="can't pass"):
        RULES.parse("PASS", s, 0)


def test_chance_placements_parse() -> None:
    s = RULES.initial({"handicap": "1"}, 2)
    assert RULES.parse("+B3", s, CHANCE) == Place(parse_point("B3"))
    assert RULES.parse("b3", s, CHANCE) == Place(parse_point("B3"))
    with pytest.raises(IllegalMove, match="never on D"):
        RULES.parse("+D3", s, CHANCE)


def test_read_is_context_free() -> None:
    assert read("pass") == ("pass",)
    assert read(" +a1 ") == ("place", 0)
    assert read("G7-A7") == ("move", 48, 6)
