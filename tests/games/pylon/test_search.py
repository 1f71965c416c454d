"""Pylon hard's search: the learned evaluation's fast sum, and the null-window search's equivalence."""

from __future__ import annotations

import random

import pytest

from bot.games.pylon import boardscan, search
from bot.games.pylon.rules import PIECES, RULES, PylonState, stackings
from bot.games.pylon.search import FEATURES, WEIGHTS, WEIGHTS_EARLY, Search, weights_at
from tests.games.pylon.helpers import position

pytestmark = pytest.mark.unit


def random_positions(count: int, seed: int) -> list[PylonState]:
    """Positions from random games: every placement count and every stack count, both sides to move."""
    rng = random.Random(seed)
    out: list[PylonState] = []
    while len(out) < count:
        s = RULES.initial({}, 2)
        while RULES.to_act(s) is not None:
            if rng.random() < 0.3:
                out.append(s)
            moves = [m for m in RULES.legal_moves(s, s.to_move) if str(m) != "agree"]
            s, _ = RULES.apply(s, s.to_move, rng.choice(moves))
    return out[:count]


@pytest.fixture(params=[False, True], ids=["one set of weights", "staged weights"])
def staged(request: pytest.FixtureRequest) -> object:
    was, search.STAGED = search.STAGED, request.param
    yield request.param
    search.STAGED = was


def test_the_fast_evaluation_is_the_weighted_sum_of_the_features(staged: bool) -> None:
    for s in random_positions(300, 1):
        found = Search(s, 10, 10)
        weights = weights_at(PIECES if s.is_placement else found.stacks)
        for side in (0, 1):
            slow = 2 * sum(w * x for w, x in zip(weights, found.features(side), strict=True))
            assert abs(found.evaluate(side) - slow) <= 0.5 + 1e-9, RULES.dump(s)  # rounded to an int


def test_staged_weights_move_from_the_early_fit_to_the_late_one_across_the_stacking() -> None:
    assert WEIGHTS_EARLY != WEIGHTS
    assert weights_at(PIECES) == pytest.approx(WEIGHTS)  # off, as it ships
    search.STAGED = True
    try:
        staged_weights_blend()
    finally:
        search.STAGED = False
    assert Search(RULES.initial({}, 2), 10, 10).weights()[0] == pytest.approx([2 * w for w in WEIGHTS])


def staged_weights_blend() -> None:
    assert weights_at(PIECES) == pytest.approx(WEIGHTS_EARLY)   # the start of stacking, and placement
    assert weights_at(18) == pytest.approx(WEIGHTS)             # the fit on exactly solved positions
    assert weights_at(5) == pytest.approx(WEIGHTS)
    halfway = [(a + b) / 2 for a, b in zip(WEIGHTS, WEIGHTS_EARLY, strict=True)]
    assert weights_at(24) == pytest.approx(halfway)
    # a bench switches the blend with a module constant: the table the search reads follows at once
    assert Search(RULES.initial({}, 2), 10, 10).weights()[0] == pytest.approx([2 * w for w in WEIGHTS_EARLY])


def test_features_read_the_board_as_a_player_would() -> None:
    # Read from Red's view (features take the side as an argument; the search only reads the board).
    # b2: a Red stack of 3 topped by a small; c2 Blue small next to it can climb on (a capture for Blue);
    # e5: a Red large alone in a corner with no neighbour left: locked.
    s = position({"b2": "R3 R2 R1", "c2": "B1", "e5": "R3", "a5": "B2"})
    f = dict(zip(FEATURES, Search(s, 10, 10).features(0), strict=True))
    assert f["margin"] == 4 - 2
    assert f["locked"] == 1 - 1 - 1            # e5 (Red) and a5 (Blue) have no neighbours; nothing fits on c2
    assert f["cap_them"] == 3 and f["maxcap_them"] == 3   # Blue's c2 small can take b2's stack of 3
    assert f["cap_me"] == 0                    # c2 (top small) only takes bottoms of small: b2's is large
    assert f["mob"] == 0 - 1                   # only c2 -> b2 is a legal stacking
    assert f["bot1"] == -1                     # Blue's c2 is a small-bottomed stack


def test_the_null_window_search_finds_what_the_full_window_finds() -> None:
    rng = random.Random(5)
    positions = [s for s in random_positions(200, 2) if not s.is_placement and len(stackings(s)) > 8]
    for s in rng.sample(positions, 12):
        found = []
        for pvs in (False, True):
            search.PVS = pvs
            try:
                engine = Search(s, 10**7, 60)
                engine.remaining = lambda: 3  # type: ignore[method-assign]  # a fixed depth of 3
                _m, value, depth, _exact = engine.root(s.to_move, random.Random(0))
            finally:
                search.PVS = True
            found.append((value, depth))
        assert found[0] == found[1], RULES.dump(s)


def python_scan(e: Search, side: int, caps: list[int] | None) -> tuple[int, bool]:
    """The pure-Python scan of ``e``'s position, every neighbour of every square (fresh reach lists)."""
    reach = boardscan.reach_lists(e.bs)
    return boardscan.scan_full_python(e.h, e.top, e.ts, e.bs, side, caps, e.weights(), reach, True)


def scan_every_neighbour(e: Search) -> None:
    """Make ``e`` scan the whole board at every position in pure Python, with no cache and no kept lists."""
    def plain(side: int, caps: list[int] | None) -> tuple[int, bool]:
        e.exact = False
        return python_scan(e, side, caps)
    e.scan = plain  # type: ignore[method-assign]


def test_the_scan_cache_changes_no_move_and_no_value() -> None:
    # A position met again by another move order reuses its board scan: same moves, values, depths.
    rng = random.Random(9)
    positions = [s for s in random_positions(200, 3) if not s.is_placement and len(stackings(s)) > 8]
    for s in rng.sample(positions, 8):
        cached = Search(s, 20_000, 60)
        plain = Search(s, 20_000, 60)
        scan_every_neighbour(plain)
        assert cached.root(s.to_move, random.Random(0)) == plain.root(s.to_move, random.Random(0))
        assert len(cached.scans) < cached.nodes  # some positions were met twice


def test_the_full_board_scan_reads_what_the_scan_reads(staged: bool) -> None:
    # Once the board is full, the scan walks only the neighbours whose bottom fits each top (reach lists
    # built once, compiled where it was built): the same value, the same "any stacking left", the same
    # captures in the same order as the pure-Python scan of every neighbour.
    boards = [s for s in random_positions(400, 4) if not s.is_placement]
    assert len(boards) > 100
    for s in boards:
        e = Search(s, 10, 10)
        assert e.reach is not None
        for side in (0, 1):
            slow: list[int] = []
            fast: list[int] = []
            want = python_scan(e, side, slow)
            assert boardscan.scan_full(e.h, e.top, e.ts, e.bs, side, fast, e.weights(), e.reach) == want
            assert fast == slow, RULES.dump(s)


def test_a_search_across_the_last_placements_reads_the_board_it_fills() -> None:
    # From the last two placements the search places and then stacks: the reach lists are built when
    # its placement fills the board and dropped when it takes the placement back: the same search as one
    # that scans every neighbour.
    positions = [s for s in random_positions(2000, 5) if s.is_placement and PIECES - s.placed <= 2]
    assert len(positions) >= 6
    for s in positions[:6]:
        fast = Search(s, 20_000, 60)
        plain = Search(s, 20_000, 60)
        scan_every_neighbour(plain)
        assert fast.root(s.to_move, random.Random(0)) == plain.root(s.to_move, random.Random(0))
