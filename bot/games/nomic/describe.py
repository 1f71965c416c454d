"""Nomic World in words: the map picture's alt text and the text board, from the view the picture is drawn
from (x grows east, y grows north; the origin is 0,0). Nomic World hides nothing."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.nomic.moves import DIRECTIONS, Point
from bot.games.nomic.render import _header
from bot.games.nomic.view import NomicView
from bot.render.describing import Legal, clip_lines, fit_body, last_words, legal_lines, plural

WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _names(view: NomicView, names: Sequence[str] | None) -> list[str]:
    return [str(names[i]) if names is not None and i < len(names) and names[i] else p.name
            for i, p in enumerate(view.players)]


def _at(p: Point) -> str:
    return f"{p[0]},{p[1]}"


def _space(view: NomicView, p: Point, known: dict[Point, str]) -> str:
    what = known.get(p, "unknown")
    return f"{_at(p)} {what}{', the origin' if p == (0, 0) else ''}"


def _head(view: NomicView, nm: Sequence[str]) -> str:
    title, phase = _header(view, nm)
    return f"{title.replace(' · ', ', ')}: {phase.rstrip('.')}."


def _last(view: NomicView, nm: Sequence[str], events: Sequence[Event]) -> str:
    said = last_words(events, [p.name for p in view.players], nm, limit=3)
    return f"Last: {said}" if said else ""


def alt_text(view: NomicView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Whose turn and phase, every token's space, the revealed spaces, the last path, the last events."""
    nm = _names(view, names)
    known = dict(view.revealed)
    tokens = [f"{nm[p.seat]} at {_space(view, p.pos, known)}" for p in view.players
              if p.status != "left" and p.pos is not None]
    parts = []
    if tokens:
        parts.append("Tokens: " + "; ".join(tokens) + ".")
    if view.path and view.path_seat is not None:
        parts.append(f"Last path of {nm[view.path_seat]}: " + " to ".join(_at(p) for p in view.path) + ".")
    if view.revealed:
        parts.append(f"{plural(len(view.revealed), 'space')} revealed: "
                     + "; ".join(f"{_at(p)} {what}" for p, what in view.revealed) + ".")
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
        around = "; ".join(f"{WORDS[d]} {_space(view, (x + dx, y + dy), known)}"
                           for d, (dx, dy) in DIRECTIONS.items())
        lines.append(f"{nm[p.seat]} at {_space(view, p.pos, known)}. Around: {around}.")
    if view.path and view.path_seat is not None:
        lines.append(f"Last path of {nm[view.path_seat]}: " + " to ".join(_at(p) for p in view.path) + ".")
    if view.proposal is not None:
        pr = view.proposal
        lines.append(f"Proposal {pr.number} by {nm[pr.proposer]}: {pr.text[:200]} (votes: {len(pr.yes)} yes, "
                     f"{len(pr.no)} no, {len(pr.waiting)} waiting; {pr.needed}).")
    lines.append(f"Settings: d{view.die}, votes needed {view.votes_needed}, turn order {view.turn_order}.")
    who = ", ".join(nm[s] for s in ([view.current] if view.current is not None else []))
    lines += legal_lines(legal, who)
    return clip_lines(lines)
