"""Builders for EOF test positions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from bot.games.base import CHANCE, Chance, Event
from bot.games.eof.notation import Program
from bot.games.eof.pieces import (
    FULL,
    VALID_ORIENTS,
    Counts,
    Instruction,
    Piece,
    counts_of,
    parse_colour,
    pieces_of,
    sub,
)
from bot.games.eof.rules import RULES, EofState, Phase


def pieces(text: str) -> tuple[Piece, ...]:
    return tuple(Piece.parse(p) for p in text.split())


def program_state(file: str = "", *, colours: str = "red,yellow", pointers: tuple[int, ...] | None = None,
                  hands: Mapping[int, str] | None = None, pool: str | None = None, first: int = 0,
                  locking: str = "none", crash_penalty: bool = False, round: int = 1) -> EofState:
    """A consistent state at the start of programming.

    ``file`` and hands are piece lists ("R1 G2"); the pool defaults to every
    piece that is nowhere else (the bag then holds nothing), or holds exactly
    ``pool`` with the rest in the bag.
    """
    cols = tuple(parse_colour(c) for c in colours.split(","))
    n = len(cols)
    f = pieces(file)
    hands = hands or {}
    hand_counts = [counts_of(pieces(hands.get(t, ""))) for t in range(n)]
    rest: Counts = FULL
    rest = sub(rest, counts_of(f))
    rest = sub(rest, counts_of(Piece(c, 1) for c in cols))
    for h in hand_counts:
        rest = sub(rest, h)
    if any(x < 0 for x in rest):
        raise ValueError("more pieces than the set holds")
    pool_counts = rest if pool is None else counts_of(pieces(pool))
    bag = sub(rest, pool_counts)
    if any(x < 0 for x in bag):
        raise ValueError("pool holds pieces that are elsewhere")
    s = RULES.initial({"locking": locking, "crash_penalty": "on" if crash_penalty else "off",
                       "colours": colours}, n)
    return replace(s, phase=Phase.PROGRAM, first=first, round=round, file=f,
                   pointers=pointers if pointers is not None else (0,) * n, bag=bag, pool=pool_counts,
                   hands=tuple(hand_counts), draws=tuple(pieces_of(h) for h in hand_counts),
                   programs=tuple(None if sum(h) else Program(()) for h in hand_counts),
                   crashed=(-1,) * n, history=((0,) * n,) * (round - 1))


def run(s: EofState, programs: Mapping[int, str]) -> tuple[EofState, list[Event]]:
    """Submit the programs (seat order) and return the final state and all events."""
    events: list[Event] = []
    for seat in sorted(programs):
        move = RULES.parse(programs[seat], s, seat)
        s, ev = RULES.apply(s, seat, move)
        events += ev
    return s, events


def steps(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "step"]


def random_program(rng: random.Random, s: EofState, seat: int) -> Program:
    """A random program from the seat's hand, mostly with valid orientations."""
    hand = list(pieces_of(s.hands[seat]))
    rng.shuffle(hand)
    out = []
    for p in hand[:s.required_length(seat)]:
        o = rng.choice(sorted(VALID_ORIENTS[p.colour])) if rng.random() < 0.9 else rng.randrange(5)
        out.append(Instruction(p.colour, p.size, o))
    return Program(tuple(out))


def pick(rng: random.Random, s: EofState) -> tuple[int, object]:
    """A random (seat, move) for whoever acts in ``s``."""
    who = RULES.to_act(s)
    if isinstance(who, Chance):
        return CHANCE, rng.choices(who.outcomes, who.weights)[0]
    assert who
    seat = rng.choice(sorted(who))
    if s.phase is Phase.PROGRAM:
        if rng.random() < 0.05:
            moves = RULES.legal_moves(s, seat)
            return seat, moves[rng.randrange(len(moves))]
        return seat, random_program(rng, s, seat)
    moves = RULES.legal_moves(s, seat)
    return seat, moves[rng.randrange(len(moves))]
