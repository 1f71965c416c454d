"""Swiss and round-robin pairing: no repeats, byes spread, equal or adjacent scores, complete round robins."""

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments.model import Pairing, Result
from bot.tournaments.pairing import (
    History,
    default_swiss_rounds,
    max_swiss_rounds,
    round_robin_round,
    round_robin_rounds,
    swiss_round,
)

pytestmark = pytest.mark.unit

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def play(pairs, rng):
    return [
        p if p.black is None else Pairing(p.round, p.board, p.white, p.black, rng.choice(RESULTS))
        for p in pairs
    ]


def run_swiss(n, rounds, seed="s", rng_seed=0):
    players = list(range(100, 100 + n))
    rng = random.Random(rng_seed)
    history = []
    per_round = []
    for r in range(1, rounds + 1):
        pairs = swiss_round(players, history, r, seed, last_round=rounds)
        per_round.append((History.of(history), pairs))
        history += play(pairs, rng)
    return players, history, per_round


def test_default_rounds():
    assert default_swiss_rounds(3) == 3      # ⌈log2 3⌉ + 1 = 3, within n
    assert default_swiss_rounds(5) == 4
    assert default_swiss_rounds(8) == 4
    assert default_swiss_rounds(9) == 5
    assert default_swiss_rounds(4) == 3      # capped at n − 1
    assert max_swiss_rounds(5) == 5 and max_swiss_rounds(6) == 5


@pytest.mark.parametrize("n", [3, 4, 5, 7, 8, 9, 16, 33])
def test_swiss_no_repeat_pairings_over_a_whole_event(n):
    rounds = min(default_swiss_rounds(n) + 1, max_swiss_rounds(n))
    players, history, _ = run_swiss(n, rounds)
    met = [frozenset((p.white, p.black)) for p in history if p.black is not None]
    assert len(met) == len(set(met))
    for r in range(1, rounds + 1):
        seen = [x for p in history if p.round == r for x in (p.white, p.black) if x is not None]
        assert sorted(seen) == players  # everyone exactly once per round


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_byes_are_spread_one_per_round(n):
    rounds = max_swiss_rounds(n)
    _, history, _ = run_swiss(n, rounds, rng_seed=n)
    byes = Counter(p.white for p in history if p.black is None)
    assert sum(byes.values()) == rounds  # one per round
    assert max(byes.values()) == 1       # n rounds among n players: nobody twice


def test_bye_never_twice_while_someone_has_none():
    _, _history, per_round = run_swiss(7, 7, rng_seed=3)
    for h, pairs in per_round:
        bye = next(p.white for p in pairs if p.black is None)
        fewest = min(h.byes.get(p, 0) for p in range(100, 107))
        assert h.byes.get(bye, 0) == fewest


@pytest.mark.parametrize("n", [8, 16, 32])
def test_scores_equal_or_adjacent(n):
    _, _, per_round = run_swiss(n, default_swiss_rounds(n), rng_seed=7)
    for h, pairs in per_round:
        scores = sorted({h.score.get(p, 0) for p in range(100, 100 + n)})
        for p in pairs:
            if p.black is None:
                continue
            a, b = h.score.get(p.white, 0), h.score.get(p.black, 0)
            # equal, or neighbouring score groups; further only when the higher player has met
            # everyone in the groups in between
            if abs(scores.index(a) - scores.index(b)) > 1:
                hi, lo = (p.white, p.black) if a > b else (p.black, p.white)
                between = [q for q in range(100, 100 + n)
                           if h.score.get(lo, 0) < h.score.get(q, 0) < h.score.get(hi, 0)]
                assert all(frozenset((hi, q)) in h.met for q in between)


def test_first_round_top_half_meets_bottom_half():
    pairs = swiss_round(list(range(1, 9)), [], 1, "x")
    assert sorted(tuple(sorted((p.white, p.black))) for p in pairs) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_first_moves_alternate():
    players, history, _ = run_swiss(8, 4, rng_seed=5)
    for pl in players:
        cols = [("W" if p.white == pl else "B") for p in sorted(history, key=lambda p: p.round)
                if pl in (p.white, p.black) and p.black is not None]
        assert abs(cols.count("W") - cols.count("B")) <= 2
        assert "WWW" not in "".join(cols) and "BBB" not in "".join(cols)


def test_swiss_is_deterministic_for_the_same_standings_and_seed():
    _, history, _ = run_swiss(12, 3, seed="abc", rng_seed=11)
    players = list(range(100, 112))
    assert swiss_round(players, history, 4, "abc") == swiss_round(players, history, 4, "abc")
    assert swiss_round(list(players), list(reversed(history)), 4, "abc") == swiss_round(
        players, history, 4, "abc"
    )


def test_withdrawn_players_are_not_paired_but_their_games_count():
    players, history, _ = run_swiss(6, 2, rng_seed=2)
    active = players[1:]
    pairs = swiss_round(active, history, 3, "s")
    assert players[0] not in {x for p in pairs for x in (p.white, p.black)}
    assert sum(1 for p in pairs if p.black is None) == 1


@pytest.mark.parametrize(
    "n,double", [(3, False), (4, False), (5, False), (6, False), (8, False), (4, True), (5, True)]
)
def test_round_robin_complete(n, double):
    players = list(range(1, n + 1))
    total = round_robin_rounds(n, double)
    games = Counter()
    byes = Counter()
    firsts = Counter()
    for r in range(1, total + 1):
        pairs = round_robin_round(players, r, double=double)
        seen = [x for p in pairs for x in (p.white, p.black) if x is not None]
        assert sorted(seen) == players
        for p in pairs:
            if p.black is None:
                byes[p.white] += 1
            else:
                games[frozenset((p.white, p.black))] += 1
                firsts[(p.white, p.black)] += 1
    times = 2 if double else 1
    assert set(games) == {frozenset(c) for c in combinations(players, 2)}
    assert set(games.values()) == {times}
    if n % 2:
        assert set(byes.values()) == {times} and len(byes) == n
    if double:  # each pair has each first move once
        assert set(firsts.values()) == {1}


def test_round_robin_colours_balanced():
    players = list(range(1, 7))
    whites = Counter()
    for r in range(1, 6):
        for p in round_robin_round(players, r):
            whites[p.white] += 1
    assert all(2 <= whites[p] <= 3 for p in players)


def test_round_robin_refuses_rounds_outside_the_event():
    with pytest.raises(ValueError):
        round_robin_round([1, 2, 3, 4], 4)
