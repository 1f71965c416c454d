"""Pylon in words: the board picture's alt text and the text board, from the view the picture is drawn from.

>>> from bot.games.pylon import RULES
>>> alt_text(RULES.view(RULES.initial({}, 2), None), ("Alice", "Bob"))
'Pylon, placement phase, Alice (Red) to place; 30 pyramids left to place. The board is empty.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Event
from bot.games.pylon.notation import COLUMNS, ROWS, SIZE_WORDS, SQUARE_NAMES
from bot.games.pylon.rules import OVER, PLACEMENT, PylonView, Stack
from bot.render.describing import (
    Legal,
    clip_lines,
    fit_body,
    legal_lines,
    named,
    plural,
    seat_names,
    with_side,
)

SIDES = ("Red", "Blue")


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], SIDES[seat])


def _stack(st: Stack) -> str:
    size = SIZE_WORDS[st[-1][1]]
    return size if len(st) == 1 else f"{len(st)} high, {size} on top"


def _head(view: PylonView, names: Sequence[str]) -> str:
    if view.phase == OVER:
        a, b = view.scores
        oc = view.outcome
        how = " by agreement" if all(view.agreed) else ""
        if oc is None or oc.is_draw or not oc.winners:
            return f"Pylon, game over{how}: a draw, {a} to {b}."
        w = min(oc.winners)
        return f"Pylon, game over{how}: {_who(names, w)} wins, {max(a, b)} to {min(a, b)}."
    mover = view.to_move if view.to_move is not None else 0
    if view.phase == PLACEMENT:
        return (f"Pylon, placement phase, {_who(names, mover)} to place; "
                f"{plural(view.to_place, 'pyramid')} left to place.")
    agreed = [names[s] for s in (0, 1) if view.agreed[s]]
    offer = f" {agreed[0]} offers to end the game." if agreed else ""
    return f"Pylon, stacking phase, {_who(names, mover)} to move.{offer}"


def _last(view: PylonView, names: Sequence[str], events: Sequence[Event]) -> str:
    said: list[str] = []
    for e in events:
        d: Mapping[str, object] = e.data
        seat = d.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < 2 else "?"
        if e.kind == "place":
            size = SIZE_WORDS[int(str(d.get("size", 1)))]
            said.append(f"{who} placed a {size} pyramid on {d.get('square')}")
        elif e.kind == "stack":
            took = int(str(d.get("captured", 0)))
            said.append(f"{who} stacked {d.get('from')} onto {d.get('to')}, now {d.get('height')} high"
                        + (f", taking {took}" if took else ""))
        elif e.kind == "agree" and e.text:
            said.append(named(e.text.rstrip("."), SIDES, names))
    if said:
        return "Last: " + "; ".join(said) + "."
    if view.last is None:
        return ""
    if len(view.last_squares) == 2:
        a, b = (SQUARE_NAMES[q] for q in view.last_squares)
        return f"Last: {a} stacked onto {b}."
    if len(view.last_squares) == 1:
        sq = view.last_squares[0]
        st = view.board[sq]
        if st:
            return f"Last: {names[st[-1][0]]} placed a {SIZE_WORDS[st[-1][1]]} pyramid on {SQUARE_NAMES[sq]}."
    return f"Last: {view.last}."


def alt_text(view: PylonView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """What the picture shows, for a screen reader: phase and who is to move, each player's stacks
    (square, height and top pyramid) and score, the last move. At most 1,024 characters."""
    nm = seat_names(names, SIDES)
    parts: list[str] = []
    for seat in (0, 1):
        mine = [f"{SQUARE_NAMES[q]} {_stack(st)}" for q, st in enumerate(view.board)
                if st and st[-1][0] == seat]
        if mine:
            parts.append(f"{nm[seat]} tops {plural(len(mine), 'stack')}, score {view.scores[seat]}: "
                         + "; ".join(mine))
    body = ". ".join(parts) + "." if parts else "The board is empty."
    return fit_body(_head(view, nm), body, _last(view, nm, events))


def text_board(view: PylonView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """The position in short lines: the rows from 5 down to 1 (each square: empty, or whose top pyramid
    and how high), the stashes and scores, and the legal moves (listed, or counted)."""
    nm = seat_names(names, SIDES)
    lines = [_head(view, nm)]
    last = _last(view, nm, ())
    if last:
        lines.append(last)
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for col in range(COLUMNS):
            q = row * COLUMNS + col
            st = view.board[q]
            cells.append(f"{SQUARE_NAMES[q]} " + (f"{nm[st[-1][0]]} {_stack(st)}" if st else "empty"))
        lines.append(f"Row {row + 1}: " + "; ".join(cells) + ".")
    for seat in (0, 1):
        small, medium, large = view.stash[seat]
        left = (f", left to place: {small} small, {medium} medium, {large} large"
                if sum(view.stash[seat]) else "")
        lines.append(f"{_who(nm, seat)}: score {view.scores[seat]}{left}.")
    who = nm[view.to_move] if view.to_move is not None else ""
    lines += legal_lines(legal, who)
    return clip_lines(lines)
