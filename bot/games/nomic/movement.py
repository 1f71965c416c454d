"""Nomic World: the movement phase (rules 105-109): the die, the path, revealing a space.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import CHANCE, Event, IllegalMove, InvalidNotation, Seat
from bot.games.nomic.edits import emit, need_current, need_running, with_player
from bot.games.nomic.flow import next_turn
from bot.games.nomic.moves import DIRECTIONS, RESOURCES, Path, Point, Reveal, Roll, resource_name
from bot.games.nomic.state import MOVE, ORIGIN, PROPOSE, REVEAL, ROLL, State, name, settings
from bot.i18n import _, ngettext, pgettext


def example_paths(roll: int) -> list[str]:
    half = roll // 2
    paths = ["N" * roll, "E" * roll, "N" * half + "E" * (roll - half), "S" * roll, "W" * roll]
    return list(dict.fromkeys(paths))  # a roll of 1 would list "E" twice


def apply_roll(s: State, seat: Seat, m: Roll, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove(_("The bot rolls the die, not a player."))
    need_running(s, pgettext("infinitive", "roll"))
    if s.question is not None or s.phase != ROLL:
        raise IllegalMove(_("No die roll is due now."))
    sides = settings(s).die
    if type(m.n) is not int or not 1 <= m.n <= sides:
        raise IllegalMove(_("A d{sides} shows 1 to {sides}, not {n}.", sides=sides, n=m.n))
    s = replace(s, roll=m.n, phase=MOVE)
    text = _("{player} rolls the d{sides}: {n}.", player=name(s, s.current), sides=sides, n=m.n)
    emit(events, "roll", text, seat=s.current, n=m.n, sides=sides)
    return s


def apply_path(s: State, seat: Seat, m: Path, events: list[Event]) -> State:
    need_current(s, seat, MOVE, pgettext("infinitive", "move"))
    assert s.roll is not None and s.current is not None
    steps = m.steps
    bad = sorted({c for c in steps if c not in DIRECTIONS})
    if bad or not steps:
        raise InvalidNotation(_("A path uses the letters N, E, S, W only (got {got}).", got=repr(steps[:20])))
    if len(steps) != s.roll:
        raise IllegalMove(ngettext("{path} has {n} step but the die shows {roll}: give exactly {roll} "
                                   "(rule 109).",
                                   "{path} has {n} steps but the die shows {roll}: give exactly {roll} "
                                   "(rule 109).", len(steps), path=steps, roll=s.roll),
                          legal=example_paths(s.roll))
    if "N" in steps and "S" in steps:
        raise IllegalMove(_("{path} goes both north and south, so it is not a shortest path (rule 108): use "
                            "N or S, not both.", path=steps), legal=example_paths(s.roll))
    if "E" in steps and "W" in steps:
        raise IllegalMove(_("{path} goes both east and west, so it is not a shortest path (rule 108): use E "
                            "or W, not both.", path=steps), legal=example_paths(s.roll))
    start = s.players[seat].pos
    assert start is not None
    points = [start]
    for c in steps:
        dx, dy = DIRECTIONS[c]
        x, y = points[-1]
        points.append((x + dx, y + dy))
    dest = points[-1]
    s = replace(with_player(s, seat, pos=None), path_seat=seat, path=tuple(points))
    emit(events, "move", _("{player} moves {path} from {start} to {end}.", player=name(s, seat), path=steps,
                           start=_xy(start), end=_xy(dest)), seat=seat, path=steps, start=list(start),
         to=list(dest))
    if dest != ORIGIN and dest not in dict(s.revealed):
        return replace(s, phase=REVEAL)
    s = with_player(s, seat, pos=dest)
    if dest == ORIGIN:
        text = _("{player} lands on {space}: the origin.", player=name(s, seat), space=_xy(dest))
    else:
        text = _("{player} lands on {space}: {resource} (already known).", player=name(s, seat),
                 space=_xy(dest), resource=resource_name(dict(s.revealed)[dest]))
    emit(events, "land", text, seat=seat, to=list(dest))
    return _after_movement(s, events)


def _xy(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def apply_reveal(s: State, seat: Seat, m: Reveal, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove(_("The bot reveals resources, not a player."))
    need_running(s, pgettext("infinitive", "reveal"))
    if s.question is not None or s.phase != REVEAL:
        raise IllegalMove(_("No space is being revealed now."))
    if m.resource not in RESOURCES:
        raise IllegalMove(_("A resource is one of {resources}.", resources=", ".join(RESOURCES)))
    assert s.current is not None
    dest = s.path[-1]
    revealed = tuple(sorted((*s.revealed, (dest, m.resource))))
    s = with_player(replace(s, revealed=revealed), s.current, pos=dest)
    text = _("{player} lands on {space}, which provides {resource}.", player=name(s, s.current),
             space=_xy(dest), resource=resource_name(m.resource))
    emit(events, "reveal", text, seat=s.current, to=list(dest), resource=m.resource)
    return _after_movement(s, events)


def _after_movement(s: State, events: list[Event]) -> State:
    if settings(s).phases in ("both", "rule-change"):
        return replace(s, phase=PROPOSE)
    return next_turn(s, events)
