"""Fire and Ice: what the renderer and the Discord UI see of a position."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Seat
from bot.games.fire_and_ice.board import Move, Pass, side_name
from bot.games.fire_and_ice.geometry import ISLAND_LINES, island_line_name
from bot.i18n import _


@dataclass(frozen=True)
class FireIceView:
    """What the renderer and the Discord UI see (the same for every seat: nothing is hidden).

    ``board``: FIRE/ICE/EMPTY per point 0–48. ``to_move``: the seat to move, or
    ``None`` while handicap pieces are placed or once the game is over.
    ``controllers``: per island A–G the controlling seat or -1; ``control_lines``
    the index into ``LINES`` of the line that controls it (or ``None``).
    ``winner``/``winning_line``: the winning seat and index into
    ``ISLAND_LINES`` (islands), when won. ``legal``: notation of the legal moves
    of the side to move; ``movable``: points of its pieces that can move;
    ``handing_win``: legal moves that give the opponent the win (confirm first);
    ``winning_moves``: legal moves that win now. ``last_move``/``last_mover`` and
    ``added`` (an opponent piece appeared on the vacated point) for the arrow.
    """

    board: tuple[int, ...]
    to_move: Seat | None
    supply: tuple[int, int]
    on_board: tuple[int, int]
    controllers: tuple[int, ...]
    control_lines: tuple[int | None, ...]
    winner: Seat | None
    winning_line: int | None
    is_over: bool
    is_draw: bool
    detail: str
    last_move: Move | Pass | None
    last_mover: Seat | None
    added: bool
    legal: tuple[str, ...]
    movable: tuple[str, ...]
    handing_win: tuple[str, ...]
    winning_moves: tuple[str, ...]
    handicap: int
    setup: int
    ply: int
    viewer: Seat | None = None

    def destinations(self, src: str) -> tuple[str, ...]:
        """Legal destinations of the piece on ``src`` (e.g. ``"F6"`` -> ``("C6", "F1", ...)``)."""
        key = src.strip().upper() + "-"
        return tuple(m.split("-")[1] for m in self.legal if m.startswith(key))

    def is_losing(self, move: str) -> bool:
        """Whether the legal move ``move`` (canonical notation) hands the opponent the win."""
        return move in self.handing_win

    def detail_text(self) -> str:
        """:attr:`detail` in the current language: the rules' own words (a won line, the handicap set-up,
        whose turn) are written anew, as the view may have been built while another reader's language was
        current; a detail the platform put in (a resignation, a timeout) is kept as it is."""
        if self.is_over and self.winner is not None and self.winning_line is not None:
            return _("{side} controls {islands}", side=side_name(self.winner),
                     islands=island_line_name(ISLAND_LINES[self.winning_line]))
        if not self.is_over and self.to_move is None and self.setup > 0:
            return _("Placing handicap pieces ({placed} of {total} placed)",
                     placed=self.handicap - self.setup, total=self.handicap)
        if not self.is_over and self.to_move is not None:
            return _("{side} to move", side=side_name(self.to_move))
        return self.detail

    @property
    def must_pass(self) -> bool:
        return self.legal == ("pass",)
