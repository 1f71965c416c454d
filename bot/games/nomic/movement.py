"""Nomic World: the movement phase (rules 105-109): the die, the path, revealing a space.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import CHANCE, Event, IllegalMove, InvalidNotation, Seat
from bot.games.nomic.edits import emit, need_current, need_running, with_player
from bot.games.nomic.flow import next_turn
from bot.games.nomic.moves import DIRECTIONS, OPPOSITE, RESOURCES, Path, Point, Reveal, Roll
from bot.games.nomic.state import MOVE, ORIGIN, PROPOSE, REVEAL, ROLL, State, name, settings

_WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}


def example_paths(roll: int) -> list[str]:
    half = roll // 2
    paths = ["N" * roll, "E" * roll, "N" * half + "E" * (roll - half), "S" * roll, "W" * roll]
    return list(dict.fromkeys(paths))  # a roll of 1 would list "E" twice


def apply_roll(s: State, seat: Seat, m: Roll, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove("The bot rolls the die, not a player.")
    need_running(s, "roll")
    if s.question is not None or s.phase != ROLL:
        raise IllegalMove("No die roll is due now.")
    sides = settings(s).die
    if type(m.n) is not int or not 1 <= m.n <= sides:
        raise IllegalMove(f"A d{sides} shows 1 to {sides}, not {m.n}.")
    s = replace(s, roll=m.n, phase=MOVE)
    emit(events, "roll", f"{name(s, s.current)} rolls the d{sides}: {m.n}.", seat=s.current, n=m.n,
          sides=sides)
    return s


def apply_path(s: State, seat: Seat, m: Path, events: list[Event]) -> State:
    need_current(s, seat, MOVE, "move")
    assert s.roll is not None and s.current is not None
    steps = m.steps
    bad = sorted({c for c in steps if c not in DIRECTIONS})
    if bad or not steps:
        raise InvalidNotation(f"A path uses the letters N, E, S, W only (got {steps[:20]!r}).")
    if len(steps) != s.roll:
        plural = "s" if len(steps) != 1 else ""
        raise IllegalMove(f"{steps} has {len(steps)} step{plural} but the die shows {s.roll}: give exactly "
                          f"{s.roll} (rule 109).", legal=example_paths(s.roll))
    for a in "NE":
        if a in steps and OPPOSITE[a] in steps:
            b = OPPOSITE[a]
            raise IllegalMove(f"{steps} goes both {_WORD[a]} and {_WORD[b]}, so it is not a shortest path "
                              f"(rule 108): use {a} or {b}, not both.", legal=example_paths(s.roll))
    start = s.players[seat].pos
    assert start is not None
    points = [start]
    for c in steps:
        dx, dy = DIRECTIONS[c]
        x, y = points[-1]
        points.append((x + dx, y + dy))
    dest = points[-1]
    s = replace(with_player(s, seat, pos=None), path_seat=seat, path=tuple(points))
    emit(events, "move", f"{name(s, seat)} moves {steps} from {_xy(start)} to {_xy(dest)}.", seat=seat,
          path=steps, start=list(start), to=list(dest))
    if dest != ORIGIN and dest not in dict(s.revealed):
        return replace(s, phase=REVEAL)
    s = with_player(s, seat, pos=dest)
    what = "the origin" if dest == ORIGIN else f"{dict(s.revealed)[dest]} (already known)"
    emit(events, "land", f"{name(s, seat)} lands on {_xy(dest)}: {what}.", seat=seat, to=list(dest))
    return _after_movement(s, events)


def _xy(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def apply_reveal(s: State, seat: Seat, m: Reveal, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove("The bot reveals resources, not a player.")
    need_running(s, "reveal")
    if s.question is not None or s.phase != REVEAL:
        raise IllegalMove("No space is being revealed now.")
    if m.resource not in RESOURCES:
        raise IllegalMove(f"A resource is one of {', '.join(RESOURCES)}.")
    assert s.current is not None
    dest = s.path[-1]
    revealed = tuple(sorted((*s.revealed, (dest, m.resource))))
    s = with_player(replace(s, revealed=revealed), s.current, pos=dest)
    emit(events, "reveal", f"{name(s, s.current)} lands on {_xy(dest)}, which provides {m.resource}.",
          seat=s.current, to=list(dest), resource=m.resource)
    return _after_movement(s, events)


def _after_movement(s: State, events: list[Event]) -> State:
    if settings(s).phases in ("both", "rule-change"):
        return replace(s, phase=PROPOSE)
    return next_turn(s, events)
