"""Nomic World map: names beside their tokens never overprint each other, a token or the origin (issue 27)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.nomic import RULES, render
from bot.games.nomic.labels import ELLIPSIS, Wanted, layout_labels, overlaps
from bot.games.nomic.render import INK, geometry, label_layout, token_colour, token_spots

from .helpers import game

pytestmark = pytest.mark.golden

NAMES = ("Carol", "Bob", "Dave", "alice", "Eve", "Mallory", "Trent", "Peggy")


def placed(spots, names=NAMES, revealed=()):
    """A game whose players stand on ``spots`` (one per player); its view."""
    s = game(names[: len(spots)])
    s = replace(s, players=tuple(replace(p, pos=spots[i]) for i, p in enumerate(s.players)),
                revealed=tuple(revealed))
    return RULES.view(s, None)


def assert_clear(view, names=None):
    labels, marks = label_layout(view, names)
    for a, b in combinations(labels, 2):
        assert not overlaps(a.rect, b.rect), (a, b)
    for lab in labels:
        for m in marks:
            assert not overlaps(lab.rect, m), (lab, m)
    return labels, marks


def w10(text):
    return 10.0 * len(text), 16.0


# --- the layout itself ------------------------------------------------------------------------------------

def test_a_label_goes_right_of_its_space_when_free():
    [lab] = layout_labels([Wanted((0, 0), "Carol", (100, 100, 140, 140))], [], (0, 0, 1000, 1000), w10)
    assert lab.rect == (143, 112, 193, 128) and lab.text == "Carol" and lab.leader is None


def test_a_taken_spot_sends_the_next_label_to_another_side():
    near_a, near_b = (100, 100, 140, 140), (140, 100, 180, 140)  # neighbouring spaces
    a, b = layout_labels([Wanted((0, 0), "Carol", near_a), Wanted((1, 0), "Bob", near_b)],
                         [near_a, near_b], (0, 0, 1000, 1000), w10)
    assert a.rect[0] < near_a[0]  # Carol's right is Bob's space: she goes left
    assert b.rect[0] >= near_b[2]  # Bob's right is free
    assert not overlaps(a.rect, b.rect)


def test_with_no_room_beside_it_a_label_stands_away_with_a_leader_line():
    near = (100, 100, 140, 140)
    around = [(0, 0, 97, 1000), (97, 0, 1000, 97), (97, 143, 1000, 1000),  # left, above, below: taken
              (143, 112, 180, 119), (143, 121, 180, 128)]  # right beside it too, but for a line's corridor
    [lab] = layout_labels([Wanted((0, 0), "Carol", near)], around, (0, 0, 1000, 1000), w10, step=40)
    assert lab.rect == (183, 112, 233, 128) and lab.leader == (140, 120, 183, 120)
    blocked = [*around, (150, 119.5, 160, 120.5)]  # a marker on that line: no place at all
    assert layout_labels([Wanted((0, 0), "Carol", near)], blocked, (0, 0, 1000, 1000), w10, step=40) == []


def test_a_name_too_long_for_any_spot_is_shortened_with_an_ellipsis():
    near = (100, 100, 140, 140)
    bounds = (80, 80, 160, 160)  # 20 pixels each side: above or below is the widest spot
    [lab] = layout_labels([Wanted((0, 0), "Bartholomew", near)], [], bounds, w10)
    assert lab.text == "Barthol" + ELLIPSIS and lab.rect == (80, 81, 160, 97)


def test_a_name_that_fits_nowhere_is_left_out():
    near = (100, 100, 140, 140)
    assert layout_labels([Wanted((0, 0), "Carol", near)], [], near, w10) == []


# --- on the map ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spots", [
    [(1, 0), (2, 0)],
    [(1, 0), (2, 0), (1, 1)],
    [(1, 0), (2, 0), (1, 1), (0, 1)],            # four neighbours around the origin
    [(0, 0), (1, 0)],                            # at the origin and beside it
    [(0, 0), (0, 0), (1, 0), (0, 1)],
    [(0, 0), (0, 0), (0, 0), (0, 0)],
    [(-1, 0), (1, 0), (0, 1), (0, -1)],          # the four spaces around the origin
    [(0, 0), (1, 1), (-1, -1), (1, -1)],
])
def test_names_on_neighbouring_spaces_and_the_origin_overlap_nothing(spots):
    view = placed(spots)
    labels, _ = assert_clear(view)
    # everybody is named, in full: a small map has room
    named = {n for lab in labels for n in lab.text.split(", ")}
    assert named == set(NAMES[: len(spots)])


def test_the_drawn_names_are_where_the_layout_says_and_tokens_stay_visible():
    view = placed([(1, 0), (2, 0), (1, 1), (0, 1)], revealed=(((1, 0), "Water"), ((2, 0), "Wood")))
    img = render(view)
    labels, _ = label_layout(view)
    for lab in labels:  # light letters inside every box
        left, top, right, bottom = (int(v) for v in lab.rect)
        assert any(img.getpixel((x, y)) == INK for x in range(left, right) for y in range(top, bottom)), lab
    for spots in token_spots(view, geometry(view)).values():  # no name over a token
        for seat, cx, cy, rad in spots:
            assert img.getpixel((int(cx), int(cy - rad * 0.75))) == token_colour(seat)


def test_long_names_on_a_crowded_small_map_are_shortened_not_overprinted():
    long = tuple(f"{n} the Magnificent of Somewh"[:32] for n in NAMES)
    view = placed([(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1)], names=long)
    labels, _ = assert_clear(view)
    assert any(lab.text.endswith(ELLIPSIS) for lab in labels)


coords = st.tuples(st.integers(-4, 4), st.integers(-4, 4))


@settings(max_examples=60, deadline=None)
@given(spots=st.lists(coords, min_size=2, max_size=8),
       far=st.booleans(),
       lengths=st.lists(st.integers(1, 24), min_size=8, max_size=8))
def test_random_positions_never_overprint(spots, far, lengths):
    if far:  # a wide world: small spaces
        spots = [(x * 6, y * 6) for x, y in spots]
    names = tuple((n * 5)[:k] for n, k in zip(NAMES, lengths, strict=True))
    assert_clear(placed(spots, names=names))
