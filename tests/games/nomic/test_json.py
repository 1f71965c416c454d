"""Nomic World state JSON: plain, versioned, round-tripping, and validated on load."""

from __future__ import annotations

import copy
import json

import pytest

from bot.games.nomic import RULES

from .helpers import BOB, game, move, play, propose, turn

pytestmark = pytest.mark.unit


def busy_state():
    """A game with every kind of entry: amendment, repeal, rejection, judgment, open vote, question."""
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "d8", "effect": "die=8"}')
    s = turn(s, proposal="repeal 104")
    s = turn(s, proposal="enact Nope.", yes=False)
    s, _ = play(s, BOB, "judge Q?")
    s, _ = play(s, s.question.judge, "ruling A.")
    s = propose(move(s, "NE"), "enact Open.")
    s, _ = play(s, BOB, "vote yes")
    s, _ = play(s, BOB, "judge Second question?")
    return s


def test_dump_is_plain_versioned_json_and_load_restores_it():
    s = busy_state()
    d = RULES.dump(s)
    assert d["v"] == 1
    text = json.dumps(d)
    assert RULES.load(json.loads(text)) == s
    assert RULES.load(RULES.dump(RULES.initial({}, 3))) == RULES.initial({}, 3)


def test_load_of_a_finished_game():
    s, _ = play(game(["a", "b"]), 0, "leave")
    assert RULES.load(RULES.dump(s)) == s


def corrupt(path, value):
    d = copy.deepcopy(RULES.dump(busy_state()))
    target = d
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


@pytest.mark.parametrize(("path", "value", "message"), [
    (("v",), 2, "schema version"),
    (("players",), "x", "players must be a list"),
    (("players", 0, "name"), 5, "name must be a string"),
    (("players", 1, "id"), 100, "same user id"),
    (("players", 0, "status"), "ghost", "status"),
    (("rules", 3, "number"), 999, "rule numbers"),
    (("rules", 15, "kind"), "decree", "kind"),
    (("rules", 15, "target"), 400, "target an earlier rule"),
    (("rules", 15, "effect"), {"kind": "die", "value": 99}, "sides"),
    (("rules", 15, "votes"), [[9, True]], "out of range"),
    (("effect_order",), [101], "effect_order"),
    (("current",), 7, "out of range"),
    (("phase",), "dance", "phase"),
    (("revealed",), [[0, 0, "Wood"]], "not the origin"),
    (("revealed",), [[1, 1, "Gold"]], "resource"),
    (("path",), [[0, 0], [2, 2]], "adjacent"),
    (("question",), {"asker": 0, "judge": 0}, "question text"),
    (("round",), KeyError, "round must be an integer"),
])
def test_load_rejects_inconsistent_json_with_a_reason(path, value, message):
    with pytest.raises(ValueError, match=message):
        RULES.load(corrupt(path, value))


def test_load_rejects_non_objects():
    with pytest.raises(ValueError):
        RULES.load([])  # type: ignore[arg-type]
