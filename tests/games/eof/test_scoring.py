"""Scoring: hand examples for every configuration and overlap, and a brute-force reference."""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.eof.pieces import Piece
from bot.games.eof.scoring import Configuration, score

pytestmark = pytest.mark.unit


def recs(text: str) -> list[Piece]:
    return [Piece.parse(p) for p in text.split()]


def kinds(configs: tuple[Configuration, ...]) -> list[tuple[str, tuple[int, ...], int]]:
    return [(c.kind, c.records, c.points) for c in configs]


# --- one configuration each ---------------------------------------------------------------------------

def test_unsorted_run_of_three_scores_three() -> None:
    assert score(recs("Y1 R1 R1 R2 Y1"), "red") == (3, (Configuration("run", (1, 2, 3), 3),))


def test_run_of_k_scores_k() -> None:
    pts, cfg = score(recs("Y1 R2 R2 R2 R2 R2 R2 Y1"), "red")
    assert pts == 6
    assert kinds(cfg) == [("run", (1, 2, 3, 4, 5, 6), 6)]


def test_three_consecutive_sorted_scores_five() -> None:
    assert kinds(score(recs("Y1 R1 R2 R3"), "R")[1]) == [("sorted", (1, 2, 3), 5)]
    assert score(recs("R3 R2 R1 Y1"), "red")[0] == 5


def test_three_non_consecutive_sorted_scores_four() -> None:
    pts, cfg = score(recs("R1 Y1 R2 Y2 R3"), "red")
    assert (pts, kinds(cfg)) == (4, [("spread", (0, 2, 4), 4)])


def test_spread_may_be_partly_adjacent() -> None:
    # R1 R2 adjacent, R3 further on: not all three consecutive, so a spread.
    assert kinds(score(recs("R1 R2 Y1 R3"), "red")[1]) == [("spread", (0, 1, 3), 4)]


def test_unsorted_triple_apart_scores_nothing() -> None:
    assert score(recs("R1 Y1 R3 Y2 R2"), "red") == (0, ())
    assert score(recs("R2 Y1 R2 Y2 R2"), "red") == (0, ())


def test_equal_sizes_are_not_sorted() -> None:
    assert score(recs("R1 R1 R2"), "red")[0] == 6  # whole file (all red)
    assert kinds(score(recs("R1 R1 R2 Y1"), "red")[1]) == [("run", (0, 1, 2), 3)]


def test_hill_scores_eight() -> None:
    assert kinds(score(recs("Y3 R1 R2 R3 R2 R1 Y3"), "red")[1]) == [("hill", (1, 2, 3, 4, 5), 8)]


def test_valley_scores_eight() -> None:
    assert kinds(score(recs("Y3 R3 R2 R1 R2 R3"), "red")[1]) == [("valley", (1, 2, 3, 4, 5), 8)]


def test_whole_file_scores_twice_its_length() -> None:
    assert score(recs("G2"), "green") == (2, (Configuration("file", (0,), 2),))
    assert score(recs("G1 G2 G3 G2 G1"), "green") == (10, (Configuration("file", (0, 1, 2, 3, 4), 10),))


def test_empty_file_and_other_colours_score_nothing() -> None:
    assert score([], "red") == (0, ())
    assert score(recs("Y1 Y2 Y3"), "red") == (0, ())


# --- overlaps -----------------------------------------------------------------------------------------

def test_hill_inside_a_longer_run_beats_the_run() -> None:
    # Seven reds: the run scores 7, the hill inside it 8 (the two spare R1s score nothing).
    pts, cfg = score(recs("Y2 R1 R1 R2 R3 R2 R1 R1 Y2"), "red")
    assert pts == 8
    assert kinds(cfg) == [("hill", (2, 3, 4, 5, 6), 8)]


def test_hill_plus_a_run_in_a_long_stretch() -> None:
    # R2 R2 R2 then a hill: run of 3 (3) + hill (8) = 11 > run of 8 (8).
    pts, cfg = score(recs("Y1 R2 R2 R2 R1 R2 R3 R2 R1 Y1"), "red")
    assert pts == 11
    assert kinds(cfg) == [("run", (1, 2, 3), 3), ("hill", (4, 5, 6, 7, 8), 8)]


def test_whole_file_replaces_its_parts() -> None:
    # Hill (8) + nothing else would be less than 2 x 5 = 10 for the whole file.
    pts, cfg = score(recs("B1 B2 B3 B2 B1"), "blue")
    assert pts == 10
    assert kinds(cfg) == [("file", (0, 1, 2, 3, 4), 10)]


def test_one_other_record_breaks_the_whole_file() -> None:
    pts, cfg = score(recs("B1 B2 B3 B2 B1 R1"), "blue")
    assert (pts, kinds(cfg)) == (8, [("hill", (0, 1, 2, 3, 4), 8)])


def test_a_pyramid_counts_once() -> None:
    # Overlapping candidates (a hill, sorted threes, runs, spreads) share records: the chosen
    # ones are disjoint and their total is the brute-force optimum.
    file = recs("R1 R2 R3 R2 R1 R2 R3 Y1")
    pts, cfg = score(file, "red")
    used = [r for c in cfg for r in c.records]
    assert len(used) == len(set(used))
    assert pts == brute_force(file, 0) == sum(c.points for c in cfg)


def test_sorted_consecutive_preferred_over_spread() -> None:
    # The same three adjacent records would be a "spread" worth 4 if adjacency were ignored.
    assert kinds(score(recs("R1 R2 R3 Y1"), "red")[1]) == [("sorted", (0, 1, 2), 5)]


def test_spreads_interleave_with_runs() -> None:
    # R1 _ R2 _ R3 spread (4) and a run R2 R2 R2 (3) elsewhere.
    pts, cfg = score(recs("R1 Y1 R2 Y1 R3 Y1 R2 R2 R2"), "red")
    assert pts == 7
    assert sorted(c.kind for c in cfg) == ["run", "spread"]


def test_colour_can_be_an_index_or_a_letter() -> None:
    file = recs("Y1 G1 G2 G3")
    assert score(file, 2) == score(file, "G") == score(file, "green")
    assert score([(2, 1), (2, 2), (2, 3), (0, 1)], 2)[0] == 5
    assert score(["G1", "G2", "G3", "R1"], 2)[0] == 5


def test_unknown_colour_is_an_error() -> None:
    with pytest.raises(ValueError, match="colour"):
        score([], "purple")


def test_describe_numbers_records_from_one() -> None:
    assert Configuration("hill", (2, 3, 4, 5, 6), 8).describe() == "hill at 3-7: 8"
    assert Configuration("spread", (0, 2, 4), 4).describe() == "spread three at 1, 3, 5: 4"
    assert Configuration("run", (1, 2, 3, 4), 4).describe() == "run of 4 at 2-5: 4"


# --- brute force --------------------------------------------------------------------------------------

def brute_force(file: list[Piece], colour: int) -> int:
    """Every configuration listed literally from the rulings, then the best disjoint packing."""
    n = len(file)
    if n and all(p.colour == colour for p in file):
        return 2 * n
    own = [p.colour == colour for p in file]
    size = [p.size for p in file]
    configs: list[tuple[frozenset[int], int]] = []
    for i in range(n):
        for j in range(i + 3, n + 1):
            if not all(own[i:j]):
                break
            seg = tuple(size[i:j])
            pairs = list(itertools.pairwise(seg))
            monotone = all(a < b for a, b in pairs) or all(a > b for a, b in pairs)
            if len(seg) == 3 and monotone:
                configs.append((frozenset(range(i, j)), 5))
            elif not monotone:
                configs.append((frozenset(range(i, j)), len(seg)))
            if seg in ((1, 2, 3, 2, 1), (3, 2, 1, 2, 3)):
                configs.append((frozenset(range(i, j)), 8))
    mine = [i for i in range(n) if own[i]]
    for a, b, c in itertools.combinations(mine, 3):
        t = (size[a], size[b], size[c])
        if (t[0] < t[1] < t[2] or t[0] > t[1] > t[2]) and not (b == a + 1 and c == b + 1):
            configs.append((frozenset((a, b, c)), 4))
    best = 0

    def search(k: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for m in range(k, len(configs)):
            cells, pts = configs[m]
            if not cells & used:
                search(m + 1, used | cells, total + pts)

    search(0, frozenset(), 0)
    return best


piece = st.builds(Piece, st.sampled_from([0, 0, 0, 1]), st.integers(1, 3))


@pytest.mark.property
@settings(max_examples=300, deadline=None)
@given(st.lists(piece, max_size=10))
def test_score_matches_brute_force(file: list[Piece]) -> None:
    pts, cfg = score(file, 0)
    assert pts == brute_force(file, 0)
    used = [r for c in cfg for r in c.records]
    assert len(used) == len(set(used))
    assert sum(c.points for c in cfg) == pts
    for c in cfg:  # every chosen configuration is a real one of red records
        assert all(file[r].colour == 0 for r in c.records)
        if c.kind == "spread":
            a, b, d = c.records
            assert not (b == a + 1 and d == b + 1)
            assert file[a].size + file[d].size == 4 and file[b].size == 2


def test_forty_record_file_scores_fast() -> None:
    import random

    rng = random.Random(7)
    worst = 0.0
    for _ in range(20):
        file = [Piece(rng.randrange(4), rng.randint(1, 3)) for _ in range(40)]
        for colour in range(4):
            t = time.perf_counter()
            score(file, colour)
            worst = max(worst, time.perf_counter() - t)
    assert worst < 0.05  # the budget is 5 ms; generous here for a loaded CI machine
