"""Fire and Ice in words: the board picture's alt text and the text board, from the view the picture is
drawn from (islands A–G, points 1–7 on each: 1 top; 2, 3; 4 centre; 5, 6, 7 bottom)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.fire_and_ice.board import Move
from bot.games.fire_and_ice.geometry import EMPTY, FIRE, ISLANDS, LINES, N_POSITIONS, SIDE_NAMES
from bot.games.fire_and_ice.notation import point_name
from bot.games.fire_and_ice.view import FireIceView
from bot.i18n import _, pgettext
from bot.render.describing import Legal, clip_lines, fit_body, legal_lines, seat_names, with_side


def _sides() -> list[str]:
    return [_(s) for s in SIDE_NAMES]


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], _(SIDE_NAMES[seat]))


def _head(view: FireIceView, names: Sequence[str]) -> str:
    if view.is_over:
        if view.is_draw or view.winner is None:
            detail = view.detail_text()
            if detail:
                return _("Fire and Ice, game over: a draw; {detail}.", detail=detail)
            return _("Fire and Ice, game over: a draw.")
        if view.winning_line is not None:
            return _("Fire and Ice, game over: {player} wins with islands {islands}.",
                     player=_who(names, view.winner),
                     islands="-".join(ISLANDS[i] for i in LINES[view.winning_line]))
        return _("Fire and Ice, game over: {player} wins.", player=_who(names, view.winner))
    if view.to_move is None:
        return _("Fire and Ice, setting up: {placed} of {total} handicap pieces placed for Fire.",
                 placed=view.setup, total=view.handicap)
    return _("Fire and Ice, move {number}, {player} to move.", number=view.ply + 1,
             player=_who(names, view.to_move))


def _last(view: FireIceView, names: Sequence[str]) -> str:
    mv = view.last_move
    if mv is None:
        return ""
    who = names[view.last_mover] if view.last_mover in (0, 1) else _("Chance")
    if not isinstance(mv, Move):
        return _("Last: {player} passed.", player=who)
    src, dst = point_name(mv.src), point_name(mv.dst)
    if view.added and view.last_mover in (0, 1):
        if view.last_mover == FIRE:  # the piece that appeared is the other side's
            return _("Last: {player} moved {src} to {dst}, and an Ice piece appeared on {src}.",
                     player=who, src=src, dst=dst)
        return _("Last: {player} moved {src} to {dst}, and a Fire piece appeared on {src}.",
                 player=who, src=src, dst=dst)
    return _("Last: {player} moved {src} to {dst}.", player=who, src=src, dst=dst)


def _island(view: FireIceView, k: int, names: Sequence[str], *, empty: bool) -> str:
    """``A (Alice controls, line 1-2-5): Fire 1, 4; Ice 3`` (with ``empty``: every point named)."""
    ctl = view.controllers[k]
    head = _("Island {island}", island=ISLANDS[k]) if empty else ISLANDS[k]
    if ctl in (0, 1):
        li = view.control_lines[k]
        if li is not None:
            head = _("{island} ({player} controls, line {line})", island=head, player=names[ctl],
                     line="-".join(str(p + 1) for p in LINES[li]))
        else:
            head = _("{island} ({player} controls)", island=head, player=names[ctl])
    if empty:
        pts = [_("{position} empty", position=p + 1) if (c := view.board[k * N_POSITIONS + p]) == EMPTY
               else f"{p + 1} {_(SIDE_NAMES[c])}" for p in range(N_POSITIONS)]
        return f"{head}: " + ", ".join(pts)
    sides = []
    for side in (0, 1):
        pts = [str(p + 1) for p in range(N_POSITIONS) if view.board[k * N_POSITIONS + p] == side]
        if pts:
            sides.append(f"{_(SIDE_NAMES[side])} {', '.join(pts)}")
    return f"{head}: " + ("; ".join(sides) if sides else pgettext("island", "empty"))


def alt_text(view: FireIceView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Who is to move, each island's pieces and controller, pieces in supply, the last move."""
    nm = seat_names(names, _sides())
    supply = ", ".join(_("{player} {on_board} on the board, {supply} in supply", player=_who(nm, s),
                         on_board=view.on_board[s], supply=view.supply[s]) for s in (0, 1))
    islands = ". ".join(_island(view, k, nm, empty=False) for k in range(len(ISLANDS)))
    body = _("Islands {islands}. {supplies}.", islands=islands, supplies=supply)
    return fit_body(_head(view, nm), body, _last(view, nm))


def text_board(view: FireIceView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """One line per island with all seven points (Fire, Ice or empty) and who controls it, the
    supplies, and the legal moves (listed, or counted)."""
    nm = seat_names(names, _sides())
    lines = [_head(view, nm)]
    last = _last(view, nm)
    if last:
        lines.append(last)
    lines += [_island(view, k, nm, empty=True) + "." for k in range(len(ISLANDS))]
    lines += [_("{player}: {on_board} on the board, {supply} in supply.", player=_who(nm, s),
                on_board=view.on_board[s], supply=view.supply[s]) for s in (0, 1)]
    lines += legal_lines(legal, nm[view.to_move] if view.to_move is not None else "")
    return clip_lines(lines)
