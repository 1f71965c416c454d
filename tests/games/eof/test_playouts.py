"""Random playouts: conservation of pieces at every step, notation, serialisation, hidden views, endings."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import CHANCE, Chance
from bot.games.eof.notation import Program
from bot.games.eof.pieces import FULL, KINDS, Counts, Piece, counts_of
from bot.games.eof.rules import LOCKING, RULES, EofState, Phase
from tests.games.eof.helpers import pick

pytestmark = pytest.mark.property


def total(*, file: tuple[Piece, ...], pool: Counts, bag: Counts, hands: tuple[Counts, ...],
          programs: tuple[Program | None, ...], colours: tuple[int, ...]) -> Counts:
    out = [0] * KINDS
    for c in (pool, bag, *hands, counts_of(file), counts_of(Piece(col, 1) for col in colours)):
        for k in range(KINDS):
            out[k] += c[k]
    for prog in programs:
        for ins in prog.instructions if prog else ():
            out[ins.piece.index] += 1
    return tuple(out)


def conserved(s: EofState) -> bool:
    return total(file=s.file, pool=s.pool, bag=s.bag, hands=s.hands, programs=s.programs,
                 colours=s.colours) == FULL


def execution_context(s: EofState, seat: int, move: object) -> tuple[Counts, tuple[Program | None, ...]]:
    """Bag and programs while the execution triggered by ``move`` runs (they do not change then)."""
    if isinstance(move, Program):
        used = counts_of(i.piece for i in move.instructions)
        bag = tuple(b + h - u for b, h, u in zip(s.bag, s.hands[seat], used, strict=True))
        programs = tuple(move if t == seat else p for t, p in enumerate(s.programs))
        return bag, programs
    return s.bag, s.programs


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), locking=st.sampled_from(LOCKING),
       penalty=st.booleans(), blind=st.booleans())
def test_random_games_conserve_pieces_and_end_after_four_rounds(seed: int, seats: int, locking: str,
                                                                penalty: bool, blind: bool) -> None:
    rng = random.Random(seed)
    s = RULES.initial({"locking": locking, "crash_penalty": "on" if penalty else "off",
                       "draw": "blind" if blind else "feel"}, seats)
    rounds_seen = {1}
    plies = 0
    while RULES.outcome(s) is None:
        plies += 1
        assert plies < 2000
        assert conserved(s)
        who = RULES.to_act(s)
        assert who is not None and ((isinstance(who, Chance) and who.outcomes) or who)
        seat, move = pick(rng, s)
        assert RULES.parse(RULES.format(move, s), s, seat) == move  # type: ignore[arg-type]
        before = RULES.dump(s)
        public_before = RULES.view(s, None)
        s2, events = RULES.apply(s, seat, move)  # type: ignore[arg-type]
        assert RULES.dump(s) == before  # apply never mutates its input
        assert RULES.view(s, None) == public_before
        bag, programs = execution_context(s, seat, move)
        for e in events:
            if e.kind == "step":
                file = tuple(Piece.parse(p) for p in e.data["file"])
                no_hands = tuple((0,) * KINDS for _ in range(seats))  # every hand is in a program by now
                assert total(file=file, pool=tuple(e.data["pool"]), bag=bag, hands=no_hands,
                             programs=programs, colours=s.colours) == FULL
                n = len(file)
                assert all(0 <= p <= (n + 1 if n else 0) for p in e.data["pointers"])
            if e.visible_to is None and e.kind == "program":
                assert "program (" in e.text  # public submission notes carry no instructions
        s = s2
        assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s
        v = RULES.view(s, None)
        assert v.hand is None and v.program is None
        for pl in v.players:
            assert len(pl.revealed) == sum(1 for step in v.steps if step.seat == pl.seat)
        rounds_seen.add(s.round)
        if s.phase is Phase.PROGRAM:
            for t in range(seats):
                if s.programs[t] is None:
                    assert len(s.draws[t]) == sum(s.hands[t])
    assert rounds_seen == {1, 2, 3, 4}
    assert s.phase is Phase.OVER and len(s.history) == 4
    out = RULES.outcome(s)
    assert out is not None and out.scores == s.scores
    assert s.scores == tuple(sum(h[t] for h in s.history) for t in range(seats))
    assert RULES.legal_moves(s, 0) == [] and RULES.legal_moves(s, CHANCE) == []


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_timeouts_always_move_the_game_on(seed: int) -> None:
    """Playing only the turn-limit moves (and chance) finishes every game."""
    rng = random.Random(seed)
    s = RULES.initial({"locking": "permission-crash"}, rng.randint(2, 4))
    for _ in range(3000):
        if RULES.outcome(s) is not None:
            break
        who = RULES.to_act(s)
        if isinstance(who, Chance):
            s, _ = RULES.apply(s, CHANCE, rng.choices(who.outcomes, who.weights)[0])
            continue
        moves = RULES.timeout_moves(s)
        assert moves
        for seat, move in moves:
            s, _ = RULES.apply(s, seat, move)
    assert s.phase is Phase.OVER and s.scores == (0,) * s.seats
