"""Nomic World in words: the map picture's alt text and the text board, from the view the picture is drawn
from (x grows east, y grows north; the origin is 0,0). Nomic World hides nothing."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.nomic.moves import DIRECTIONS, Point, order_short, resource_name, vote_word
from bot.games.nomic.render import _header
from bot.games.nomic.view import NomicView
from bot.i18n import N_, _, ngettext, pgettext
from bot.render.describing import Legal, clip_lines, fit_body, last_words, legal_lines

WORDS = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
"""The directions in words (looked up with ``_()`` where used)."""


def _names(view: NomicView, names: Sequence[str] | None) -> list[str]:
    return [str(names[i]) if names is not None and i < len(names) and names[i] else p.name
            for i, p in enumerate(view.players)]


def _at(p: Point) -> str:
    return f"{p[0]},{p[1]}"


def _space(view: NomicView, p: Point, known: dict[Point, str]) -> str:
    what = resource_name(known[p]) if p in known else pgettext("space", "unknown")
    if p == (0, 0):
        return _("{space} {what}, the origin", space=_at(p), what=what)
    return f"{_at(p)} {what}"


def _path(view: NomicView) -> str:
    """The last path's spaces: ``0,0 to 1,0 to 1,1``."""
    return (" " + pgettext("between two spaces of a path", "to") + " ").join(_at(p) for p in view.path)


def _head(view: NomicView, nm: Sequence[str]) -> str:
    title, phase = _header(view, nm)
    return f"{title.replace(' · ', ', ')}: {phase.rstrip('.')}."


def _last(view: NomicView, nm: Sequence[str], events: Sequence[Event]) -> str:
    said = last_words(events, [p.name for p in view.players], nm, limit=3)
    return _("Last: {words}", words=said) if said else ""


def alt_text(view: NomicView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Whose turn and phase, every token's space, the revealed spaces, the last path, the last events."""
    nm = _names(view, names)
    known = dict(view.revealed)
    tokens = [_("{player} at {space}", player=nm[p.seat], space=_space(view, p.pos, known))
              for p in view.players if p.status != "left" and p.pos is not None]
    parts = []
    if tokens:
        parts.append(_("Tokens: {tokens}.", tokens="; ".join(tokens)))
    if view.path and view.path_seat is not None:
        parts.append(_("Last path of {player}: {path}.", player=nm[view.path_seat], path=_path(view)))
    if view.revealed:
        parts.append(ngettext("{n} space revealed: {spaces}.", "{n} spaces revealed: {spaces}.",
                              len(view.revealed),
                              spaces="; ".join(f"{_at(p)} {resource_name(what)}"
                                               for p, what in view.revealed)))
    return fit_body(_head(view, nm), " ".join(parts), _last(view, nm, events))


def text_board(view: NomicView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """Whose turn and phase, then the map around each token (its space and the four next to it), the
    open proposal, the settings in force, and the legal moves (listed, or counted)."""
    nm = _names(view, names)
    known = dict(view.revealed)
    lines = [_head(view, nm)]
    for p in view.players:
        if p.status == "left" or p.pos is None:
            continue
        x, y = p.pos
        around = "; ".join(f"{_(WORDS[d])} {_space(view, (x + dx, y + dy), known)}"
                           for d, (dx, dy) in DIRECTIONS.items())
        lines.append(_("{player} at {space}. Around: {around}.", player=nm[p.seat],
                       space=_space(view, p.pos, known), around=around))
    if view.path and view.path_seat is not None:
        lines.append(_("Last path of {player}: {path}.", player=nm[view.path_seat], path=_path(view)))
    if view.proposal is not None:
        pr = view.proposal
        lines.append(_("Proposal {number} by {player}: {text} (votes: {yes} yes, {no} no, {waiting} waiting; "
                       "{needed}).", number=pr.number, player=nm[pr.proposer], text=pr.text[:200],
                       yes=len(pr.yes), no=len(pr.no), waiting=len(pr.waiting), needed=vote_word(pr.needed)))
    lines.append(_("Settings: d{sides}, votes needed {votes}, turn order {order}.", sides=view.die,
                   votes=vote_word(view.votes_needed), order=order_short(view.turn_order)))
    who = ", ".join(nm[s] for s in ([view.current] if view.current is not None else []))
    lines += legal_lines(legal, who)
    return clip_lines(lines)
