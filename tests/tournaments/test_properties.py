"""Property tests over random events: whatever the results, pairings stay valid."""

from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Format, Pairing, Result
from bot.tournaments.pairing import (
    History,
    default_swiss_rounds,
    round_robin_round,
    round_robin_rounds,
    swiss_round,
)
from bot.tournaments.standings import standings

pytestmark = pytest.mark.property

OUTCOMES = st.sampled_from([Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_FORFEIT_WIN])


def repeat_free_possible(active, h):
    g = nx.Graph()
    g.add_nodes_from(active)
    g.add_edges_from((a, b) for a in active for b in active if a < b and frozenset((a, b)) not in h.met)
    if len(active) % 2:
        fewest = min(h.byes.get(p, 0) for p in active)
        g.add_edges_from((p, -1) for p in active if h.byes.get(p, 0) == fewest)
    return 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == len(active) + len(active) % 2


@settings(max_examples=80, deadline=None)
@given(n=st.integers(3, 14), data=st.data(), seed=st.text(min_size=1, max_size=6))
def test_random_swiss_events(n, data, seed):
    players = list(range(1, n + 1))
    rounds = data.draw(st.integers(1, default_swiss_rounds(n)))
    withdraw_at = data.draw(st.one_of(st.none(), st.integers(2, max(2, rounds))))
    history: list[Pairing] = []
    active = list(players)
    for r in range(1, rounds + 1):
        if withdraw_at == r and len(active) > 3:
            active = active[1:]
        h = History.of(history)
        pairs = swiss_round(active, history, r, seed, last_round=rounds)
        assert pairs == swiss_round(active, history, r, seed, last_round=rounds)  # deterministic
        seen = [x for p in pairs for x in (p.white, p.black) if x is not None]
        assert sorted(seen) == sorted(active)
        byes = [p.white for p in pairs if p.black is None]
        assert len(byes) == len(active) % 2
        for b in byes:
            assert h.byes.get(b, 0) == min(h.byes.get(p, 0) for p in active)
        if withdraw_at is None:   # the look-ahead never lets an event of the default length get stuck
            assert repeat_free_possible(active, h)
        if repeat_free_possible(active, h):   # (a withdrawal can leave no way without a repeat)
            for p in pairs:
                if p.black is not None:
                    assert frozenset((p.white, p.black)) not in h.met
        history += [p if p.black is None else Pairing(p.round, p.board, p.white, p.black, data.draw(OUTCOMES))
                    for p in pairs]
    rows = standings(players, history, Format.SWISS)
    assert sorted(r.player for r in rows) == players
    assert sum(r.points for r in rows) == sum(sum(p.result.half_points()) for p in history if p.result)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 12), double=st.booleans())
def test_random_round_robins_meet_everyone(n, double):
    players = list(range(10, 10 + n))
    meetings = Counter()
    for r in range(1, round_robin_rounds(n, double) + 1):
        for p in round_robin_round(players, r, double=double):
            if p.black is not None:
                meetings[frozenset((p.white, p.black))] += 1
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {2 if double else 1}
