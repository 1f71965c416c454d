"""Pairing: Swiss rounds by maximum-weight matching, round robin by the circle method.

Swiss. Players are ordered by score, then by their seeding; a graph joins players who have
not met, weighted so that a maximum-cardinality, maximum-weight matching
(``networkx.max_weight_matching``, the blossom algorithm) pairs

1. as many players as possible (everyone, whenever a pairing without repeats exists);
2. players of equal score, else from the next score group (crossing k group boundaries costs
   more than any number of pairings crossing fewer), the higher score groups kept whole first;
3. players whose first-move ("colour") preferences differ, so first moves alternate;
4. inside a score group, the top half against the bottom half (the Dutch system's shape).

With an odd number of players a virtual BYE node joins the graph. Only players with the
fewest byes so far may be joined to it (so nobody gets a second bye while someone active has
had none), and the lowest-placed of them is preferred. For speed (512 players in well under a
second) each player is joined only to a window of neighbours in the standings and around their
Dutch partner; the window doubles if it leaves anybody unpaired, and only when no pairing
without repeats exists at all are repeats allowed, at a heavy cost.

Everything is deterministic: the same players, history and seed give the same round.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]

from bot.tournaments.model import Pairing, Result

BYE = -1
_BASE = 9 * 10**18    # weights stay within 64 bits (fast integer arithmetic in the matching)
_REPEAT = 10**18      # a repeat pairing (only when nothing else is possible)
_FLOAT = 10**11  # a pairing across one score-group boundary; k boundaries cost (n + 1)^(k − 1) times more
_BRACKET = 10**8      # per half point of difference times the pair's total: keep the higher groups whole
_COLOUR_STRONG = 10**7
_COLOUR_MILD = 10**6
_BYE_RANK = 10**2    # per position above the bottom, for the bye


def default_swiss_rounds(players: int) -> int:
    """⌈log2 n⌉ + 1, but never more than a Swiss can pair without repeats (n − 1, or n when odd)."""
    if players < 2:
        return 1
    return max(1, min((players - 1).bit_length() + 1, max_swiss_rounds(players)))


def max_swiss_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def round_robin_rounds(players: int, double: bool = False) -> int:
    per_cycle = players - 1 if players % 2 == 0 else players
    return per_cycle * (2 if double else 1)


@dataclass(frozen=True)
class History:
    """What earlier rounds say about each player (scores in half points)."""

    score: dict[int, int]
    met: set[frozenset[int]]
    byes: dict[int, int]
    colours: dict[int, list[str]]   # "W"/"B" per game played, oldest first

    @classmethod
    def of(cls, pairings: Iterable[Pairing]) -> History:
        score: dict[int, int] = defaultdict(int)
        met: set[frozenset[int]] = set()
        byes: dict[int, int] = defaultdict(int)
        colours: dict[int, list[str]] = defaultdict(list)
        for p in sorted(pairings, key=lambda p: (p.round, p.board)):
            if p.black is None:
                byes[p.white] += 1
                if p.result is not None:
                    score[p.white] += p.points_of(p.white)
                continue
            met.add(frozenset((p.white, p.black)))
            if p.result is not None:
                score[p.white] += p.points_of(p.white)
                score[p.black] += p.points_of(p.black)
            if p.result is None or p.result.was_played:
                colours[p.white].append("W")
                colours[p.black].append("B")
        return cls(dict(score), met, dict(byes), dict(colours))

    def preference(self, player: int) -> tuple[str | None, int]:
        """(preferred first-move colour or None, strength 0/1/2)."""
        cols = self.colours.get(player, [])
        if not cols:
            return None, 0
        diff = cols.count("W") - cols.count("B")
        if abs(diff) >= 2 or (len(cols) >= 2 and cols[-1] == cols[-2]):
            want = "B" if diff > 0 or (diff == 0 and cols[-1] == "W") else "W"
            return want, 2
        if diff != 0:
            return ("B" if diff > 0 else "W"), 1
        return ("B" if cols[-1] == "W" else "W"), 1


def seed_order(players: Sequence[int], seed: str) -> list[int]:
    """A reproducible shuffled seeding (when nobody has a rating to seed by)."""
    out = list(players)
    random.Random(f"{seed}:seeding").shuffle(out)
    return out


def swiss_round(players: Sequence[int], history: Sequence[Pairing], round_no: int, seed: str, *,
                block: int = 48, last_round: int | None = None) -> list[Pairing]:
    """Pair round ``round_no`` of a Swiss event.

    ``players`` are the active players in seeding order (best seed first); ``history`` every
    pairing of the earlier rounds (withdrawn players' too: their scores count for their opponents).

    Raises:
        ValueError: fewer than two active players.
    """
    if len(players) < 2:
        raise ValueError("a round needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    h = History.of(history)
    seed_rank = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-h.score.get(p, 0), seed_rank[p]))
    pos = {p: i for i, p in enumerate(order)}
    matching = _match_blocks(order, h, block)
    if last_round is not None and round_no < last_round and len(order) <= block:
        matching = _look_ahead(order, h, matching)
    pairs: list[tuple[int, int | None]] = []
    for a, b in matching:
        if a == BYE or b == BYE:
            pairs.append((b if a == BYE else a, None))
        else:
            pairs.append(_colours(a, b, h, pos, seed, round_no))
    return _boards(pairs, h, pos, round_no)


def _next_round_possible(order: list[int], h: History, matching: set[tuple[int, int]]) -> bool:
    """Can the round after ``matching`` still be paired without a repeat (and with a fair bye)?"""
    met = set(h.met) | {frozenset(e) for e in matching if BYE not in e}
    byes = dict(h.byes)
    for e in matching:
        if BYE in e:
            p = e[0] if e[1] == BYE else e[1]
            byes[p] = byes.get(p, 0) + 1
    g = nx.Graph()
    g.add_nodes_from(order)
    g.add_edges_from(
        (a, b) for i, a in enumerate(order) for b in order[i + 1 :] if frozenset((a, b)) not in met
    )
    if len(order) % 2:
        fewest = min(byes.get(p, 0) for p in order)
        g.add_edges_from((p, BYE) for p in order if byes.get(p, 0) == fewest)
    found = nx.max_weight_matching(g, maxcardinality=True)
    return 2 * len(found) == len(order) + len(order) % 2


def _look_ahead(order: list[int], h: History, matching: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Prefer a pairing after which the next round is still possible (a Swiss can otherwise get stuck:
    six players after three rounds may be left in two triangles that nobody can pair)."""
    if _next_round_possible(order, h, matching):
        return matching
    fewest = min(h.byes.get(p, 0) for p in order)
    odd = len(order) % 2 == 1
    graph = _graph(order, h, len(order), odd, fewest, allow_repeats=False)
    # try the best matchings without one of the current edges (a few, deterministically)
    for edge in sorted(matching, key=lambda e: (min(e), max(e))):
        g = graph.copy()
        g.remove_edge(*edge)
        alt = nx.max_weight_matching(g, maxcardinality=True)
        if 2 * len(alt) == len(order) + (1 if odd else 0) and _next_round_possible(order, h, set(alt)):
            return set(alt)
    return matching


def _match(order: list[int], h: History, with_bye: bool, fewest: int) -> set[tuple[int, int]] | None:
    """A perfect matching of ``order`` (plus the BYE node), without repeats if possible, else None."""
    n = len(order)
    graph = _graph(order, h, n, with_bye, fewest, allow_repeats=False)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) == n + (1 if with_bye else 0):
        return set(matching)
    return None


def _match_blocks(order: list[int], h: History, block: int) -> set[tuple[int, int]]:
    """Match consecutive blocks of the standings; a block that cannot be paired merges with a neighbour.

    Big events are split into blocks of about ``block`` players (even sizes; the last block takes
    the odd player and the bye) so that every matching stays small and fast; a small event is one
    block, matched optimally as a whole.
    """
    n = len(order)
    odd = n % 2 == 1
    size = max(2, block - block % 2)
    fewest = min(h.byes.get(p, 0) for p in order)
    blocks = [order[a:a + size] for a in range(0, n, size)]
    done: list[set[tuple[int, int]]] = []
    i = 0
    while i < len(blocks):
        found = _match(blocks[i], h, odd and i == len(blocks) - 1, fewest)
        if found is not None:
            done.append(found)
            i += 1
            continue
        if i + 1 < len(blocks):
            blocks[i:i + 2] = [blocks[i] + blocks[i + 1]]
        elif i > 0:
            blocks[i - 1:i + 1] = [blocks[i - 1] + blocks[i]]
            done.pop()
            i -= 1
        else:  # the whole field cannot be paired without a repeat: allow the fewest, dearest repeats
            graph = _graph(order, h, n, odd, fewest, allow_repeats=True)
            return set(nx.max_weight_matching(graph, maxcardinality=True))
    return set().union(*done)


def _graph(
    order: list[int], h: History, window: int, odd: bool, fewest: int, allow_repeats: bool
) -> nx.Graph:
    n = len(order)
    g = nx.Graph()
    g.add_nodes_from(order)
    scores = [h.score.get(p, 0) for p in order]
    # score groups: first and last index of each score in the order
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, s in enumerate(scores):
        first.setdefault(s, i)
        last[s] = i
    prefs = {p: h.preference(p) for p in order}
    distinct = sorted(set(scores), reverse=True)
    group = [distinct.index(x) for x in scores]   # 0 = the top score group
    for i, a in enumerate(order):
        s = scores[i]
        size = last[s] - first[s] + 1
        ideal = first[s] + (i - first[s] + size // 2) % size if size > 1 else i
        candidates = set(range(i + 1, min(n, i + window + 1)))
        lo, hi = max(i + 1, ideal - window // 2), min(n, ideal + window // 2 + 1)
        candidates.update(range(lo, hi))
        if allow_repeats:
            candidates = set(range(i + 1, n))
        for j in sorted(candidates):
            b = order[j]
            repeat = frozenset((a, b)) in h.met
            if repeat and not allow_repeats:
                continue
            diff = s - scores[j]
            weight = (_BASE - _float_cost(group[j] - group[i], n) - _BRACKET * diff * (s + scores[j])
                      - (_REPEAT if repeat else 0))
            (pa, sa), (pb, sb) = prefs[a], prefs[b]
            if pa is not None and pa == pb:
                weight -= _COLOUR_STRONG if min(sa, sb) >= 2 else _COLOUR_MILD
            if scores[j] == s and size > 1:
                weight -= abs(j - ideal)
            g.add_edge(a, b, weight=weight)
    if odd:
        g.add_node(BYE)
        low = min(scores)
        for i, p in enumerate(order):
            if h.byes.get(p, 0) != fewest and not allow_repeats:
                continue
            extra = (h.byes.get(p, 0) - fewest) * _REPEAT
            diff = scores[i] - low
            g.add_edge(p, BYE, weight=_BASE - _float_cost(group[-1] - group[i], n)
                       - _BRACKET * diff * (scores[i] + low) - _BYE_RANK * (n - 1 - i) - extra)
    return g


def _float_cost(gap: int, n: int) -> int:
    """Pairing across ``gap`` score-group boundaries: more than any number of pairings across fewer."""
    if gap <= 0:
        return 0
    return int(_FLOAT * (n + 1) ** (min(gap, 3) - 1) * (1 + max(0, gap - 3)))


def _colours(a: int, b: int, h: History, pos: dict[int, int], seed: str, round_no: int) -> tuple[int, int]:
    """(first mover, second mover) for a pair, honouring the stronger preference."""
    if pos[b] < pos[a]:
        a, b = b, a  # a is the higher placed
    (pa, sa), (pb, sb) = h.preference(a), h.preference(b)
    if pa is None and pb is None:
        # nobody has played: the top seed of each board alternates, starting from a seeded coin
        coin = random.Random(f"{seed}:colour:{round_no}").random() < 0.5
        top_white = coin == (pos[a] // 2 % 2 == 0)
        return (a, b) if top_white else (b, a)
    if pa != pb:
        if pa is not None:
            return (a, b) if pa == "W" else (b, a)
        return (b, a) if pb == "W" else (a, b)
    # same preference: the stronger one gets it; equal strength: the higher placed
    da = abs(h.colours.get(a, []).count("W") - h.colours.get(a, []).count("B"))
    db = abs(h.colours.get(b, []).count("W") - h.colours.get(b, []).count("B"))
    a_wins = (sa, da) >= (sb, db)
    winner, loser = (a, b) if a_wins else (b, a)
    return (winner, loser) if pa == "W" else (loser, winner)


def _boards(
    pairs: list[tuple[int, int | None]], h: History, pos: dict[int, int], round_no: int
) -> list[Pairing]:
    def key(pair: tuple[int, int | None]) -> tuple[int, int, int]:
        a, b = pair
        if b is None:
            return (1, 0, pos[a])
        return (0, -max(h.score.get(a, 0), h.score.get(b, 0)), min(pos[a], pos[b]))

    return [Pairing(round_no, board, a, b, Result.BYE if b is None else None)
            for board, (a, b) in enumerate(sorted(pairs, key=key), start=1)]


def round_robin_round(players: Sequence[int], round_no: int, *, double: bool = False) -> list[Pairing]:
    """Round ``round_no`` (1-based) of a round robin among ``players`` (in seeding order), circle method.

    With an odd number of players the one paired with the empty seat has a bye. In a double
    round robin the second cycle repeats the first with the first move swapped.

    Raises:
        ValueError: the round is outside the event.
    """
    n = len(players)
    if n < 2:
        raise ValueError("a round robin needs at least two players")
    total = round_robin_rounds(n, double)
    if not 1 <= round_no <= total:
        raise ValueError(f"a round robin of {n} has rounds 1 to {total}")
    seats: list[int | None] = list(players) + ([None] if n % 2 else [])
    m = len(seats)
    per_cycle = m - 1
    cycle, r = divmod(round_no - 1, per_cycle)
    arr = list(seats)
    for _ in range(r):
        arr = [arr[0], arr[-1], *arr[1:-1]]
    pairs: list[tuple[int, int | None]] = []
    for i in range(m // 2):
        a, b = arr[i], arr[m - 1 - i]
        if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
            a, b = b, a
        if cycle % 2 == 1:
            a, b = b, a
        if a is None:
            a, b = b, None
        if a is None:  # pragma: no cover - only one empty seat exists
            continue
        pairs.append((a, b))
    real = [p for p in pairs if p[1] is not None]
    byes = [p for p in pairs if p[1] is None]
    return [Pairing(round_no, board, a, b, Result.BYE if b is None else None)
            for board, (a, b) in enumerate(real + byes, start=1)]
