"""Hypothesis properties: playouts conserve marbles, turns and games end, sides are never emptied."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.egg_carton import RULES, Pick
from bot.games.egg_carton.notation import SLOT_NAMES
from bot.games.egg_carton.rules import EggCartonState, side_slots

from .helpers import reference_sow

pytestmark = pytest.mark.property

MAX_PICKS = 2000


def replay_events(s: EggCartonState, events: list) -> tuple[list[int], list[int]]:
    """Rebuild the counts from the events alone, as the animation does."""
    slots, off = list(s.slots), list(s.off)
    hand = 0
    for e in events:
        if e.kind in ("pick", "relay"):
            i = SLOT_NAMES.index(e.data["slot"])
            assert hand == 0 and slots[i] == e.data["count"] > 0
            hand, slots[i] = slots[i], 0
        elif e.kind == "drop":
            i = SLOT_NAMES.index(e.data["slot"])
            slots[i] += 1
            hand -= 1
            assert slots[i] == e.data["count"]
        elif e.kind == "off":
            z = 0 if e.data["zone"] == "right" else 1
            off[z] += 1
            hand -= 1
            assert off[z] == e.data["count"]
    assert hand == 0
    return slots, off


@settings(max_examples=40, deadline=None)
@given(marbles=st.integers(1, 6), data=st.data())
def test_random_playouts(marbles, data):
    s = RULES.initial({"marbles": str(marbles)}, 2)
    total = 12 * marbles
    picks = 0
    while RULES.outcome(s) is None:
        seat = s.to_move
        assert RULES.to_act(s) == frozenset({seat})
        moves = RULES.legal_moves(s, seat)
        assert moves, "a player to move always has a pick"
        assert RULES.legal_moves(s, 1 - seat) == []
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="pick")]
        assert RULES.parse(RULES.format(move, s), s, seat) == move
        t, events = RULES.apply(s, seat, move)
        # marbles on the board plus off the board are conserved, and the events tell the same story
        assert sum(t.slots) + sum(t.off) == total
        assert min(t.slots) >= 0 and t.off[0] >= s.off[0] and t.off[1] >= s.off[1]
        assert replay_events(s, events) == (list(t.slots), list(t.off))
        assert events[0].kind == "pick" and events[-1].kind in ("again", "end", "win")
        # no pick ever empties the opponent's side (rulings); the mover wins exactly when theirs is empty
        assert t.side_count(1 - seat) > 0
        assert (t.winner == seat) == (t.side_count(seat) == 0)
        if t.winner is None:
            assert t.to_move == (seat if events[-1].kind == "again" else 1 - seat)
            assert t.again == (events[-1].kind == "again")
        assert RULES.load(RULES.dump(t)) == t
        s = t
        picks += 1
        assert picks < MAX_PICKS, "the game must end"
    assert RULES.to_act(s) is None and RULES.outcome(s).winners == frozenset({s.winner})


counts = st.lists(st.integers(0, 9), min_size=12, max_size=12)


@settings(max_examples=150, deadline=None)
@given(slots=counts, seat=st.integers(0, 1), data=st.data())
def test_sowing_matches_a_reference_on_any_position(slots, seat, data):
    own = [i for i in side_slots(seat) if slots[i]]
    other = [i for i in side_slots(1 - seat) if slots[i]]
    if not own or not other:
        slots[side_slots(seat)[0]] += 1
        slots[side_slots(1 - seat)[0]] += 1
        own = [i for i in side_slots(seat) if slots[i]]
    pick = data.draw(st.sampled_from(own), label="slot")
    total = sum(slots)
    s = EggCartonState(slots=tuple(slots), off=(0, 0), to_move=seat, marbles=max(1, min(6, total // 12)))
    t, events = RULES.apply(s, seat, Pick(pick))
    ref_slots, ref_off = list(slots), [0, 0]
    stop = reference_sow(ref_slots, ref_off, pick)
    assert list(t.slots) == ref_slots and list(t.off) == ref_off
    assert t.side_count(1 - seat) > 0, "a pick never empties the opponent's side"
    if t.winner is None:
        assert events[-1].kind == stop
    else:
        assert t.winner == seat and t.side_count(seat) == 0
