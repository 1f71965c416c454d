"""Building Nomic World positions for tests from moves in notation."""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.base import CHANCE, Event
from bot.games.nomic import RULES
from bot.games.nomic.moves import Join, Start
from bot.games.nomic.state import State

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3
"""Seats of ``game()``'s default players: joined as Bob, alice, Carol... see NAMES."""
NAMES = ("alice", "Bob", "Carol", "dave")


def game(names: Iterable[str] = NAMES[:3]) -> State:
    """A started game; seat i is the i-th name, user id 100 + i."""
    names = list(names)
    s = RULES.initial({}, len(names))
    for i, n in enumerate(names):
        s, _ = RULES.apply(s, i, Join(100 + i, n))
    s, _ = RULES.apply(s, 0, Start())
    return s


def play(s: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Parse ``text`` as ``seat``'s move and apply it."""
    return RULES.apply(s, seat, RULES.parse(text, s, seat))


def run(s: State, *moves: tuple[int, str]) -> State:
    """Play several (seat, text) moves."""
    for seat, text in moves:
        s, _ = play(s, seat, text)
    return s


def roll(s: State, n: int) -> State:
    return play(s, CHANCE, f"roll {n}")[0]


def move(s: State, path: str, reveal: str = "Wood") -> State:
    """Roll len(path), walk it, and reveal ``reveal`` if the landing space is unknown."""
    s = roll(s, len(path))
    s, _ = play(s, s.current, path)  # type: ignore[arg-type]
    if RULES.to_act(s).__class__.__name__ == "Chance":
        s, _ = play(s, CHANCE, f"reveal {reveal}")
    return s


def propose(s: State, text: str) -> State:
    """The current player proposes (``text`` after ``propose``)."""
    return play(s, s.current, f"propose {text}")[0]  # type: ignore[arg-type]


def vote_all(s: State, yes: bool = True) -> State:
    """Every voter still to vote votes ``yes``."""
    word = "vote yes" if yes else "vote no"
    for seat in sorted(RULES.to_act(s)):  # type: ignore[arg-type]
        s, _ = play(s, seat, word)
        if s.phase != "vote":
            break
    return s


def turn(s: State, path: str = "N", proposal: str = "enact Be kind.", yes: bool = True) -> State:
    """A whole turn: move along ``path``, propose, everybody votes."""
    if s.phase == "roll":
        s = move(s, path)
    if s.phase == "propose":
        s = vote_all(propose(s, proposal), yes)
    return s
