"""EOF in words: the board picture's alt text and the text board, from the view the picture is drawn from.

The alt text is :func:`bot.games.eof.render.alt_text` (title, status line, file, scores) with the last
public events after it, all in the current language (a public picture's is made inside ``public()``).
Only the view is read: the channel's view has no hand and no program, so
neither can appear; a seat's own view (its DM, or an ephemeral answer) adds that seat's hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Event
from bot.games.eof.drawing import label, seat_name
from bot.games.eof.pieces import iter_kinds
from bot.games.eof.render import alt_parts
from bot.games.eof.render import alt_text as picture_alt
from bot.games.eof.views import EofView
from bot.games.eof.words import colour_name, colour_word, tr
from bot.i18n import _, ngettext
from bot.render.describing import ALT_LIMIT, Legal, clip_lines, fit_body, last_words, legal_lines

QUIET = frozenset({"execute", "step", "score"})
"""Event kinds the execution log tells (the alt text says the round was executed, not each step)."""


def _sides(view: EofView) -> list[str]:
    return [colour_name(p.colour) for p in view.players]


def _last(view: EofView, names: Sequence[str] | None, events: Sequence[Event]) -> str:
    told = [replace(e, text=tr(e.text)) for e in events if e.kind not in QUIET]  # in the reader's language
    said = last_words(told, _sides(view), names, limit=3)
    if not said and any(e.kind in QUIET for e in events):
        said = _("the round's programs were executed.")
    return _("Last: {events}", events=said) if said else ""


def alt_text(view: EofView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """The picture's own description (:func:`bot.games.eof.render.alt_text`), then the last events."""
    return fit_body("", picture_alt(view, names, events), _last(view, names, events), limit=ALT_LIMIT)


def _pointer(view: EofView, seat: int) -> str:
    pos = view.players[seat].pointer
    if pos <= 0:
        return "BOF"  # not translated: the file's markers are the game's names
    if pos > len(view.file):
        return "EOF"  # not translated: the file's markers are the game's names
    return _("record {record}", record=pos)


def text_board(view: EofView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """The round and phase, the file record by record, each player's pointer, score and hand size, the
    pool, the viewer's own hand (their own view only), and the legal moves (listed, or counted)."""
    lines = [alt_parts(view, names, ())[0]]
    last = _last(view, names, ())
    if last:
        lines.append(last)
    if view.file:
        records = ", ".join(f"{i + 1} {label(p)}" for i, p in enumerate(view.file))
        lines.append(ngettext("File ({n} record): {records}.", "File ({n} records): {records}.",
                              len(view.file), records=records))
    else:
        lines.append(_("The file is empty."))
    for t, pl in enumerate(view.players):
        ran = (_(", ran {instructions}", instructions=" ".join(str(i) for i in pl.revealed)) if pl.revealed
               else "")
        crash = _(", crashed") if pl.crashed else ""
        lines.append(ngettext("{player} ({colour}): score {score}, pointer at {pointer}, {n} piece in "
                              "hand{ran}{crashed}.",
                              "{player} ({colour}): score {score}, pointer at {pointer}, {n} pieces in "
                              "hand{ran}{crashed}.", pl.hand_size, player=seat_name(view, names, t),
                              colour=colour_word(pl.colour), score=pl.score, pointer=_pointer(view, t),
                              ran=ran, crashed=crash))
    pool = ", ".join(f"{label(p)} {n}" for p, n in iter_kinds(view.pool))
    lines.append(_("Pool: {pieces}.", pieces=pool) if pool else _("The pool is empty."))
    if view.hand is not None and view.seat is not None:
        hand = ", ".join(label(p) for p in view.hand) or _("empty")
        lines.append(_("Your hand: {pieces}.", pieces=hand))
    who = ", ".join(seat_name(view, names, t) for t in view.to_act)
    lines += legal_lines(legal, who)
    return clip_lines(lines)
