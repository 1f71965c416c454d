"""Fire and Ice in words: the board picture's alt text and the text board, from the view the picture is
drawn from (islands A–G, points 1–7 on each: 1 top; 2, 3; 4 centre; 5, 6, 7 bottom)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.fire_and_ice.board import Move
from bot.games.fire_and_ice.geometry import EMPTY, ISLANDS, LINES, N_POSITIONS, SIDE_NAMES
from bot.games.fire_and_ice.notation import point_name
from bot.games.fire_and_ice.view import FireIceView
from bot.render.describing import Legal, clip_lines, fit_body, legal_lines, seat_names, with_side


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], SIDE_NAMES[seat])


def _head(view: FireIceView, names: Sequence[str]) -> str:
    if view.is_over:
        if view.is_draw or view.winner is None:
            return f"Fire and Ice, game over: a draw{'; ' + view.detail if view.detail else ''}."
        line = ""
        if view.winning_line is not None:
            line = " with islands " + "-".join(ISLANDS[i] for i in LINES[view.winning_line])
        return f"Fire and Ice, game over: {_who(names, view.winner)} wins{line}."
    if view.to_move is None:
        return f"Fire and Ice, setting up: {view.setup} of {view.handicap} handicap pieces placed for Fire."
    return f"Fire and Ice, move {view.ply + 1}, {_who(names, view.to_move)} to move."


def _last(view: FireIceView, names: Sequence[str]) -> str:
    mv = view.last_move
    if mv is None:
        return ""
    who = names[view.last_mover] if view.last_mover in (0, 1) else "Chance"
    if not isinstance(mv, Move):
        return f"Last: {who} passed."
    text = f"Last: {who} moved {point_name(mv.src)} to {point_name(mv.dst)}"
    if view.added and view.last_mover in (0, 1):
        side = SIDE_NAMES[1 - view.last_mover]
        text += f", and {'an' if side[0] in 'AEIOU' else 'a'} {side} piece appeared on {point_name(mv.src)}"
    return text + "."


def _island(view: FireIceView, k: int, names: Sequence[str], *, empty: bool) -> str:
    """``A (Alice controls, line 1-2-5): Fire 1, 4; Ice 3`` (with ``empty``: every point named)."""
    ctl = view.controllers[k]
    how = ""
    if ctl in (0, 1):
        li = view.control_lines[k]
        line = "-".join(str(p + 1) for p in LINES[li]) if li is not None else ""
        how = f" ({names[ctl]} controls{', line ' + line if line else ''})"
    if empty:
        pts = [f"{p + 1} " + ("empty" if (c := view.board[k * N_POSITIONS + p]) == EMPTY else SIDE_NAMES[c])
               for p in range(N_POSITIONS)]
        return f"Island {ISLANDS[k]}{how}: " + ", ".join(pts)
    sides = []
    for side in (0, 1):
        pts = [str(p + 1) for p in range(N_POSITIONS) if view.board[k * N_POSITIONS + p] == side]
        if pts:
            sides.append(f"{SIDE_NAMES[side]} {', '.join(pts)}")
    return f"{ISLANDS[k]}{how}: " + ("; ".join(sides) if sides else "empty")


def alt_text(view: FireIceView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Who is to move, each island's pieces and controller, pieces in supply, the last move."""
    nm = seat_names(names, SIDE_NAMES)
    supply = ", ".join(f"{_who(nm, s)} {view.on_board[s]} on the board, {view.supply[s]} in supply"
                       for s in (0, 1))
    islands = ". ".join(_island(view, k, nm, empty=False) for k in range(len(ISLANDS)))
    body = f"Islands {islands}. {supply}."
    return fit_body(_head(view, nm), body, _last(view, nm))


def text_board(view: FireIceView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """One line per island with all seven points (Fire, Ice or empty) and who controls it, the
    supplies, and the legal moves (listed, or counted)."""
    nm = seat_names(names, SIDE_NAMES)
    lines = [_head(view, nm)]
    last = _last(view, nm)
    if last:
        lines.append(last)
    lines += [_island(view, k, nm, empty=True) + "." for k in range(len(ISLANDS))]
    lines += [f"{_who(nm, s)}: {view.on_board[s]} on the board, {view.supply[s]} in supply." for s in (0, 1)]
    lines += legal_lines(legal, nm[view.to_move] if view.to_move is not None else "")
    return clip_lines(lines)
