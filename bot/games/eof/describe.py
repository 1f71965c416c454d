"""EOF in words: the board picture's alt text and the text board, from the view the picture is drawn from.

The alt text is :func:`bot.games.eof.render.alt_text` (title, status line, file, scores) with the last
public events after it. Only the view is read: the channel's view has no hand and no program, so
neither can appear; a seat's own view (its DM, or an ephemeral answer) adds that seat's hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.eof.drawing import label, seat_name
from bot.games.eof.pieces import COLOUR_NAMES, iter_kinds
from bot.games.eof.render import alt_text as picture_alt
from bot.games.eof.views import EofView
from bot.render.describing import ALT_LIMIT, Legal, clip_lines, fit_body, last_words, legal_lines, plural

QUIET = frozenset({"execute", "step", "score"})
"""Event kinds the execution log tells (the alt text says the round was executed, not each step)."""


def _sides(view: EofView) -> list[str]:
    return [COLOUR_NAMES[p.colour].capitalize() for p in view.players]


def _last(view: EofView, names: Sequence[str] | None, events: Sequence[Event]) -> str:
    said = last_words([e for e in events if e.kind not in QUIET], _sides(view), names, limit=3)
    if not said and any(e.kind in QUIET for e in events):
        said = "the round's programs were executed."
    return f"Last: {said}" if said else ""


def alt_text(view: EofView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """The picture's own description (:func:`bot.games.eof.render.alt_text`), then the last events."""
    return fit_body("", picture_alt(view, names, events), _last(view, names, events), limit=ALT_LIMIT)


def _pointer(view: EofView, seat: int) -> str:
    pos = view.players[seat].pointer
    return "BOF" if pos <= 0 else "EOF" if pos > len(view.file) else f"record {pos}"


def text_board(view: EofView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """The round and phase, the file record by record, each player's pointer, score and hand size, the
    pool, the viewer's own hand (their own view only), and the legal moves (listed, or counted)."""
    head = picture_alt(view, names, ()).split(" File of ")[0].split(" The file is empty")[0]
    lines = [head]
    last = _last(view, names, ())
    if last:
        lines.append(last)
    if view.file:
        lines.append(f"File ({plural(len(view.file), 'record')}): "
                     + ", ".join(f"{i + 1} {label(p)}" for i, p in enumerate(view.file)) + ".")
    else:
        lines.append("The file is empty.")
    for t, pl in enumerate(view.players):
        run = f", ran {' '.join(str(i) for i in pl.revealed)}" if pl.revealed else ""
        crash = ", crashed" if pl.crashed else ""
        lines.append(f"{seat_name(view, names, t)} ({COLOUR_NAMES[pl.colour]}): score {pl.score}, pointer at "
                     f"{_pointer(view, t)}, {plural(pl.hand_size, 'piece')} in hand{run}{crash}.")
    pool = ", ".join(f"{label(p)} {n}" for p, n in iter_kinds(view.pool))
    lines.append(f"Pool: {pool}." if pool else "The pool is empty.")
    if view.hand is not None and view.seat is not None:
        hand = ", ".join(label(p) for p in view.hand) or "empty"
        lines.append(f"Your hand: {hand}.")
    who = ", ".join(seat_name(view, names, t) for t in view.to_act)
    lines += legal_lines(legal, who)
    return clip_lines(lines)
