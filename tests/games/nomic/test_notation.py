"""Nomic World notation: the variants rulings.md and rules_text.md promise, and canonical round trips."""

from __future__ import annotations

import json

import pytest

from bot.games.base import CHANCE, IllegalMove, InvalidNotation
from bot.games.nomic import RULES
from bot.games.nomic.moves import (
    Effect,
    End,
    Join,
    Judge,
    Lapse,
    Leave,
    Path,
    Propose,
    Reveal,
    Roll,
    Ruling,
    Skip,
    Start,
    Vote,
)
from bot.games.nomic.notation import all_paths, canonical_path, next_steps, read, read_effect, write

from .helpers import ALICE, BOB, game, move, roll

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "steps"), [
    ("NNE", "NNE"), ("nne", "NNE"), (" n n e ", "NNE"), ("N,N,E", "NNE"), ("2N E", "NNE"), ("2n1e", "NNE"),
    ("W", "W"), ("3s", "SSS"),
])
def test_paths_are_case_and_space_tolerant(text, steps):
    assert read(text) == Path(steps)


@pytest.mark.parametrize("text", ["NQ", "0N", "N2", "", "   "])
def test_bad_paths_are_invalid_notation(text):
    with pytest.raises(InvalidNotation):
        read(text)


@pytest.mark.parametrize(("text", "move"), [
    ("vote yes", Vote(True)), ("VOTE No", Vote(False)), ("yes", Vote(True)), ("no", Vote(False)),
    ("\u2705", Vote(True)), ("vote \u274c", Vote(False)), ("start", Start()), ("skip", Skip()),
    ("pass", Skip()),
    ("lapse", Lapse()), ("leave", Leave()), ("resign", Leave()), ("end", End()), ("roll 4", Roll(4)),
    ("reveal water", Reveal("Water")), ("join 123 Mary Ann", Join(123, "Mary Ann")),
    ("judge Is it   legal?", Judge("Is it   legal?")),
    ("judge\n  Two\nlines?", Judge("Two\nlines?")),
    ("propose\tenact\nNew  rule.", Propose("enact", None, "New  rule.")),
    ("ruling It is.\nSo ruled.", Ruling("It is.\nSo ruled.")),
    ("propose enact Be kind.", Propose("enact", None, "Be kind.")),
    ("enact Be kind.", Propose("enact", None, "Be kind.")),
    ("propose repeal 203", Propose("repeal", 203, "")),
    ("propose repeal #203 too silly", Propose("repeal", 203, "too silly")),
    ("propose amend 109 A d8 is rolled.", Propose("amend", 109, "A d8 is rolled.")),
    ('propose {"action": "amend", "rule": 109, "text": "d8", "effect": {"kind": "die", "value": 8}}',
     Propose("amend", 109, "d8", Effect("die", 8))),
    ('propose {"action": "ENACT", "text": " spaced ", "effect": "votes=2/3"}',
     Propose("enact", None, "spaced", Effect("votes", "two-thirds"))),
])
def test_readable_forms(text, move):
    assert read(text) == move


@pytest.mark.parametrize("text", [
    "vote maybe", "join abc Bob", "join 12", "roll x", "reveal Gold", "judge", "ruling", "start now",
    "propose", "propose {not json", 'propose {"action": "veto"}', 'propose {"action": "enact", "extra": 1}',
    'propose {"action": "repeal", "rule": "abc"}', "propose repeal", "propose amend x y", "hello world",
])
def test_unreadable_forms_say_why(text):
    with pytest.raises(InvalidNotation) as err:
        read(text)
    assert str(err.value)


@pytest.mark.parametrize(("value", "effect"), [
    ("die=8", Effect("die", 8)), ("d12", Effect("die", 12)), ("Die: 4", Effect("die", 4)),
    ("votes=majority", Effect("votes", "majority")), ("two-thirds", Effect("votes", "two-thirds")),
    ("unanimous", Effect("votes", "unanimous")), ("order=join", Effect("order", "join")),
    ("reverse", Effect("order", "reverse")), ("order = Z-A", Effect("order", "reverse")),
    ("phases=movement", Effect("phases", "movement")), ("rule-change only", Effect("phases", "rule-change")),
    ("end", Effect("end")), ("none", None), ("", None), (None, None),
    ({"kind": "die", "value": 20}, Effect("die", 20)), ({"die": "d6"}, Effect("die", 6)),
    ({"kind": "end"}, Effect("end")), ({"kind": "phases", "value": "both"}, Effect("phases", "both")),
])
def test_effects_read_from_text_or_json(value, effect):
    assert read_effect(value) == effect


@pytest.mark.parametrize("value", ["die=1", "d21", "votes=most", "order=height", "color=red", 7,
                                   {"kind": "end", "value": 1}, {"kind": "die", "value": 8, "x": 1}])
def test_bad_effects_are_refused(value):
    with pytest.raises(InvalidNotation):
        read_effect(value)


def test_effect_constructor_checks_the_catalogue():
    with pytest.raises(ValueError):
        Effect("die", 30)
    assert str(Effect("die", 8)) == "die=8" and Effect("end").describe() == "ends the game"


@pytest.mark.parametrize("move", [
    Path("NNE"), Join(5, "Zoë O'Brien \"Z\""), Start(), Roll(6), Reveal("Food"), Vote(True), Vote(False),
    Judge("Can I {jump}?"), Ruling("No: \"never\"."), Lapse(), Skip(), Leave(), End(),
    Propose("enact", None, "Quotes \" and {braces} and \u00e9", Effect("order", "join")),
    Propose("repeal", 101, ""), Propose("amend", 112, "Majority rules.", Effect("votes", "majority")),
    Propose("enact", None, "multi\nline", Effect("end")),
])
def test_write_then_read_round_trips(move):
    assert read(write(move)) == move


def test_canonical_proposal_is_json():
    text = write(Propose("amend", 109, "d8", Effect("die", 8)))
    assert text.startswith("propose ")
    assert json.loads(text[len("propose "):]) == {"action": "amend", "rule": 109, "text": "d8",
                                                   "effect": {"kind": "die", "value": 8}}


def test_parse_checks_legality_after_syntax():
    s = roll(game(), 2)
    assert RULES.parse("ne", s, ALICE) == Path("NE")
    with pytest.raises(IllegalMove):
        RULES.parse("nnn", s, ALICE)
    with pytest.raises(InvalidNotation):
        RULES.parse("nx", s, ALICE)
    assert RULES.parse("roll 3", game(), CHANCE) == Roll(3)


def test_every_legal_move_round_trips_through_format_and_parse():
    for s in (roll(game(), 4), move(game(), "N")):
        for m in RULES.legal_moves(s, s.current):
            assert RULES.parse(RULES.format(m, s), s, s.current) == m


def test_next_steps_keeps_paths_shortest():
    assert next_steps("", 2) == ("N", "E", "S", "W")
    assert next_steps("N", 3) == ("N", "E", "W")
    assert next_steps("NE", 3) == ("N", "E")
    assert next_steps("NE", 2) == ()


def test_all_paths_and_canonical_path():
    assert len(list(all_paths(4))) == 4 * 16 - 4 == len(set(all_paths(4)))
    assert canonical_path(-2, 3) == "WWNNN" and canonical_path(0, -1) == "S"


def test_join_only_by_the_next_seat():
    with pytest.raises(IllegalMove):
        RULES.parse("join 999 Someone", game(), BOB)


def test_unvote_reads_and_writes():
    from bot.games.nomic.moves import Unvote
    from bot.games.nomic.notation import read, write

    assert read("unvote") == read("vote withdraw") == read("VOTE none") == Unvote()
    assert write(Unvote()) == "unvote" and read(write(Unvote())) == Unvote()


def test_end_says_who_stopped_the_game():
    from bot.games.nomic.moves import End
    from bot.games.nomic.notation import read, write

    assert read("end") == End() == End("admin") and write(End()) == "end"
    assert read("end host") == End("host") and write(End("host")) == "end host"
    with pytest.raises(InvalidNotation):
        read("end now")
