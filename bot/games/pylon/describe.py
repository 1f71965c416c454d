"""Pylon in words: the board picture's alt text and the text board, from the view the picture is drawn from.

>>> from bot.games.pylon import RULES
>>> alt_text(RULES.view(RULES.initial({}, 2), None), ("Alice", "Bob"))
'Pylon, placement phase, Alice (Red) to place; 30 pyramids left to place. The board is empty.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Event
from bot.games.pylon.notation import COLUMNS, ROWS, SQUARE_NAMES, size_word
from bot.games.pylon.rules import OVER, PLACEMENT, SEAT_NAMES, PylonView, Stack
from bot.i18n import _, ngettext, pgettext
from bot.render.describing import (
    Legal,
    clip_lines,
    fit_body,
    legal_lines,
    named,
    seat_names,
    with_side,
)

SIDES = SEAT_NAMES
"""The sides' names in English (:func:`_sides` in the current language)."""


def _sides() -> list[str]:
    return [_(s) for s in SIDES]


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], _(SIDES[seat]))


class _Stacks:
    """Stacks in words (``large``, ``3 high, small on top``), the words looked up once per description: a
    board has up to thirty stacks."""

    def __init__(self) -> None:
        self.sizes = {size: size_word(size) for size in (1, 2, 3)}
        self.high = _("{height} high, {size} on top")  # filled in below, for each stack
        self.empty = pgettext("square", "empty")

    def __call__(self, st: Stack) -> str:
        size = self.sizes[st[-1][1]]
        return size if len(st) == 1 else self.high.format(height=len(st), size=size)


def _head(view: PylonView, names: Sequence[str]) -> str:
    if view.phase == OVER:
        a, b = view.scores
        oc = view.outcome
        by_agreement = all(view.agreed)
        if oc is None or oc.is_draw or not oc.winners:
            if by_agreement:
                return _("Pylon, game over by agreement: a draw, {score} to {other}.", score=a, other=b)
            return _("Pylon, game over: a draw, {score} to {other}.", score=a, other=b)
        w = min(oc.winners)
        high, low = max(a, b), min(a, b)
        if by_agreement:
            return _("Pylon, game over by agreement: {player} wins, {score} to {other}.",
                     player=_who(names, w), score=high, other=low)
        return _("Pylon, game over: {player} wins, {score} to {other}.", player=_who(names, w), score=high,
                 other=low)
    mover = view.to_move if view.to_move is not None else 0
    if view.phase == PLACEMENT:
        return ngettext("Pylon, placement phase, {player} to place; {n} pyramid left to place.",
                        "Pylon, placement phase, {player} to place; {n} pyramids left to place.",
                        view.to_place, player=_who(names, mover))
    offering = [names[s] for s in (0, 1) if view.agreed[s]]
    if offering:
        return _("Pylon, stacking phase, {player} to move. {other} offers to end the game.",
                 player=_who(names, mover), other=offering[0])
    return _("Pylon, stacking phase, {player} to move.", player=_who(names, mover))


def _last(view: PylonView, names: Sequence[str], events: Sequence[Event]) -> str:
    said: list[str] = []
    for e in events:
        d: Mapping[str, object] = e.data
        seat = d.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < 2 else "?"
        if e.kind == "place":
            size = size_word(int(str(d.get("size", 1))))
            said.append(_("{player} placed a {size} pyramid on {square}", player=who, size=size,
                          square=d.get("square")))
        elif e.kind == "stack":
            took = int(str(d.get("captured", 0)))
            if took:
                said.append(_("{player} stacked {source} onto {target}, now {height} high, taking {count}",
                              player=who, source=d.get("from"), target=d.get("to"), height=d.get("height"),
                              count=took))
            else:
                said.append(_("{player} stacked {source} onto {target}, now {height} high", player=who,
                              source=d.get("from"), target=d.get("to"), height=d.get("height")))
        elif e.kind == "agree" and e.text:
            said.append(named(e.text.rstrip("."), _sides(), names))
    if said:
        return _("Last: {moves}.", moves="; ".join(said))
    if view.last is None:
        return ""
    if len(view.last_squares) == 2:
        a, b = (SQUARE_NAMES[q] for q in view.last_squares)
        return _("Last: {source} stacked onto {target}.", source=a, target=b)
    if len(view.last_squares) == 1:
        sq = view.last_squares[0]
        st = view.board[sq]
        if st:
            return _("Last: {player} placed a {size} pyramid on {square}.", player=names[st[-1][0]],
                     size=size_word(st[-1][1]), square=SQUARE_NAMES[sq])
    return _("Last: {moves}.", moves=view.last)


def alt_text(view: PylonView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """What the picture shows, for a screen reader: phase and who is to move, each player's stacks
    (square, height and top pyramid) and score, the last move. At most 1,024 characters."""
    nm = seat_names(names, _sides())
    stack = _Stacks()
    parts: list[str] = []
    for seat in (0, 1):
        mine = [f"{SQUARE_NAMES[q]} {stack(st)}" for q, st in enumerate(view.board)
                if st and st[-1][0] == seat]
        if mine:
            parts.append(ngettext("{player} tops {n} stack, score {score}: {stacks}",
                                  "{player} tops {n} stacks, score {score}: {stacks}", len(mine),
                                  player=nm[seat], score=view.scores[seat], stacks="; ".join(mine)))
    body = ". ".join(parts) + "." if parts else _("The board is empty.")
    return fit_body(_head(view, nm), body, _last(view, nm, events))


def text_board(view: PylonView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """The position in short lines: the rows from 5 down to 1 (each square: empty, or whose top pyramid
    and how high), the stashes and scores, and the legal moves (listed, or counted)."""
    nm = seat_names(names, _sides())
    stack = _Stacks()
    lines = [_head(view, nm)]
    last = _last(view, nm, ())
    if last:
        lines.append(last)
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for col in range(COLUMNS):
            q = row * COLUMNS + col
            st = view.board[q]
            cells.append(f"{SQUARE_NAMES[q]} " + (f"{nm[st[-1][0]]} {stack(st)}" if st else stack.empty))
        lines.append(_("Row {row}: {squares}.", row=row + 1, squares="; ".join(cells)))
    for seat in (0, 1):
        small, medium, large = view.stash[seat]
        if sum(view.stash[seat]):
            lines.append(_("{player}: score {score}, left to place: {small} small, {medium} medium, "
                           "{large} large.", player=_who(nm, seat), score=view.scores[seat], small=small,
                           medium=medium, large=large))
        else:
            lines.append(_("{player}: score {score}.", player=_who(nm, seat), score=view.scores[seat]))
    who = nm[view.to_move] if view.to_move is not None else ""
    lines += legal_lines(legal, who)
    return clip_lines(lines)
