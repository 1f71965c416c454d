"""Fire and Ice rules: the pure state machine.

Two sides, Fire (seat 0, moves first) and Ice (seat 1), each own 25 pieces.
The board is seven triangular islands ``A``–``G`` of seven points ``1``–``7``
(see :mod:`.geometry`). Fire starts with one piece on D4; with the
``handicap`` option ``h`` (1–6) the game opens with ``h`` chance nodes, each
placing one more Fire piece on a random point of a different island other
than D (taken from Fire's supply).

On a turn the player moves one of their pieces to an empty point that is
either on the same island or at the same position on another island; a piece
of the opponent then appears on the point just vacated (taken from the
opponent's supply; if that supply is empty the point stays empty). A player
*controls* an island while three of their pieces form a line or the ring on
it, and *wins* as soon as, after a whole turn, they control three islands on a
line of islands. A player with no legal move passes; two passes in a row draw
(neither happens in real play, but constructed positions are handled).

The state holds everything (there is no hidden information); the view adds
what the interface needs: legal moves, the pieces that can move, the moves that
hand the opponent the win, island controllers and the winning line.

Layout: moves, the position and what the board says are in :mod:`.board`, the
view dataclass in :mod:`.view`; this module holds the rules object, the
helpers for the UI and :func:`make_view`, and re-exports the board's names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.games.base import (
    CHANCE,
    JSON,
    Chance,
    Event,
    GameSpec,
    IllegalMove,
    InvalidNotation,
    OptionSpec,
    Outcome,
    Reason,
    RulesBase,
    Seat,
)
from bot.games.fire_and_ice.board import (
    FireIceMove,
    Move,
    Pass,
    Place,
    State,
    control_lines,
    controllers,
    islands_text,
    masks,
    moves_of,
    placements,
    play_unchecked,
    side_name,
    start_board,
    winning_line,
    winning_lines_after,
)
from bot.games.fire_and_ice.geometry import (
    EMPTY,
    FIRE,
    ICE,
    ISLAND_LINES,
    ISLANDS,
    LINES,
    N_ISLANDS,
    N_POINTS,
    NEIGHBOURS,
    PIECES,
    SIDE_NAMES,
    island_of,
    position_of,
)
from bot.games.fire_and_ice.notation import parse_point, point_name, read
from bot.games.fire_and_ice.view import FireIceView
from bot.i18n import N_, _, ngettext

MAX_HANDICAP = 6



# --------------------------------------------------------------------------- rules


class FireAndIceRules(RulesBase):
    """The Fire and Ice engine (see the module docstring for the rules)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="fireandice",
        order=2,
        title="Fire and Ice",  # not translated: game title
        min_seats=2,
        max_seats=2,
        ai_levels=("easy", "medium", "hard"),
        options=(
            OptionSpec("handicap", N_("Extra Fire pieces placed at random on different islands before the "
                                      "first move (0–6)"),
                       tuple(str(i) for i in range(MAX_HANDICAP + 1)), "0"),
        ),
        seat_names=SIDE_NAMES,
    )

    # -- set-up --------------------------------------------------------------

    def initial(self, options: Mapping[str, str], seats: int) -> State:
        """The start position: Fire on D4, ``handicap`` chance nodes pending.

        Unknown option names (platform options such as a turn limit) are ignored.

        Raises:
            ValueError: ``seats`` is not 2, or ``handicap`` is not a whole number 0–6.
        """
        if seats != 2:
            raise ValueError(f"Fire and Ice is a game for exactly 2 players, not {seats}.")
        raw = str(options.get("handicap", "0")).strip()
        if raw not in {str(i) for i in range(MAX_HANDICAP + 1)}:
            raise ValueError(f"The handicap must be a whole number from 0 to {MAX_HANDICAP}, not '{raw}'.")
        h = int(raw)
        return State(start_board(), FIRE, (PIECES - 1, PIECES), h, h, 0, 0, None)

    # -- turn protocol -------------------------------------------------------

    def to_act(self, s: State) -> frozenset[Seat] | Chance | None:
        """The side to move, a Chance node while handicap pieces are placed, or None once over."""
        if self.outcome(s) is not None:
            return None
        if s.setup > 0:
            return Chance(placements(s), label=_("handicap piece"))
        return frozenset({s.to_move})

    def legal_moves(self, s: State, seat: Seat) -> Sequence[FireIceMove]:
        """The moves ``seat`` may play, sorted; ``[Pass()]`` if it must pass; ``[]`` if not to act."""
        if self.outcome(s) is not None:
            return []
        if s.setup > 0:
            return list(placements(s)) if seat == CHANCE else []
        if seat != s.to_move:
            return []
        moves = moves_of(s.board, seat)
        return list(moves) if moves else [Pass()]

    def apply(self, s: State, seat: Seat, move: FireIceMove) -> tuple[State, list[Event]]:
        """Play ``move`` for ``seat`` and return the new state and what happened.

        Raises:
            IllegalMove: the game is over, it is not ``seat``'s turn, or the move
                breaks a rule (the message names the move and the rule).
        """
        if self.outcome(s) is not None:
            raise IllegalMove(_("The game is over: no more moves can be played."))
        if s.setup > 0:
            return self._apply_place(s, seat, move)
        if seat == CHANCE or isinstance(move, Place):
            raise IllegalMove(_("The handicap pieces are already placed; the players move now."))
        if seat != s.to_move:
            raise IllegalMove(_("It is {side}'s turn, not {other}'s.", side=side_name(s.to_move),
                                other=side_name(seat)))
        legal = moves_of(s.board, seat)
        if isinstance(move, Pass):
            if legal:
                raise IllegalMove(ngettext("You can't pass: {side} has {n} legal move.",
                                           "You can't pass: {side} has {n} legal moves.", len(legal),
                                           side=side_name(seat)), legal=[str(m) for m in legal])
            new = play_unchecked(s, move)
            events = [Event("pass", _("{side} has no legal move and passes.", side=side_name(seat)),
                            {"seat": seat})]
            if new.passes >= 2:
                events.append(Event("draw", _("Both sides passed in a row: the game is a draw."), {}))
            return new, events
        if not isinstance(move, Move):
            raise IllegalMove(_("'{move}' is not a Fire and Ice move.", move=move))
        self._check_move(s, seat, move, legal)
        return self._play(s, move)

    def _check_move(self, s: State, seat: Seat, move: Move, legal: list[Move]) -> None:
        src, dst = move.src, move.dst
        if not (0 <= src < N_POINTS and 0 <= dst < N_POINTS):
            raise IllegalMove(_("That move names a point that is not on the board."))
        a, b = point_name(src), point_name(dst)
        text = f"{a}-{b}"
        if s.board[src] != seat:
            why = {EMPTY: _("it is empty"), FIRE: _("it holds a Fire piece"),
                   ICE: _("it holds an Ice piece")}[s.board[src]]
            raise IllegalMove(_("Can't play {move}: {point} is not yours ({why}). Move one of your "
                                "{side} pieces.", move=text, point=a, why=why, side=side_name(seat)),
                              legal=[str(m) for m in legal])
        if src == dst:
            raise IllegalMove(_("Can't play {move}: a piece must move to another point.", move=text),
                              legal=[str(m) for m in legal if m.src == src])
        if island_of(src) != island_of(dst) and position_of(src) != position_of(dst):
            raise IllegalMove(_("Can't play {move}: {src} and {dst} share neither island nor position. A "
                                "piece moves to another point of its island or to the same position on "
                                "another island.", move=text, src=a, dst=b),
                              legal=[str(m) for m in legal if m.src == src])
        if s.board[dst] != EMPTY:
            raise IllegalMove(_("Can't play {move}: {point} is occupied (by a {side} piece); the destination "
                                "must be empty.", move=text, point=b, side=side_name(s.board[dst])),
                              legal=[str(m) for m in legal if m.src == src])

    def _play(self, s: State, move: Move) -> tuple[State, list[Event]]:
        seat, other = s.to_move, 1 - s.to_move
        new = play_unchecked(s, move)
        added = new.board[move.src] == other
        vacated = point_name(move.src)
        if added and other == ICE:
            text = _("{side} {move}; an Ice piece appears on {point}.", side=side_name(seat), move=move,
                     point=vacated)
        elif added:
            text = _("{side} {move}; a Fire piece appears on {point}.", side=side_name(seat), move=move,
                     point=vacated)
        else:
            text = _("{side} {move}; {other} has no pieces left, so {point} stays empty.",
                     side=side_name(seat), move=move, other=side_name(other), point=vacated)
        events = [Event("move", text, {"seat": seat, "from": point_name(move.src), "to": point_name(move.dst),
                                        "added": point_name(move.src) if added else None})]
        before, after = controllers(s.board), controllers(new.board)
        for k in range(N_ISLANDS):
            if before[k] != after[k]:
                if after[k] != EMPTY:
                    events.append(Event("control", _("{side} takes island {island}.",
                                                      side=side_name(after[k]), island=ISLANDS[k]),
                                        {"island": ISLANDS[k], "seat": after[k]}))
                else:
                    events.append(Event("control", _("{side} loses island {island}.",
                                                      side=side_name(before[k]), island=ISLANDS[k]),
                                        {"island": ISLANDS[k], "seat": None}))
        won = winning_line(new.board)
        if won is not None:
            winner, line = won
            islands = "".join(ISLANDS[i] for i in ISLAND_LINES[line])
            if winner == seat:
                wtext = _("{side} controls {islands} and wins!", side=side_name(winner),
                          islands=islands_text(line))
            else:
                wtext = _("{side}'s move hands {winner} the win: {winner} controls {islands}.",
                          side=side_name(seat), winner=side_name(winner), islands=islands_text(line))
            events.append(Event("win", wtext, {"seat": winner, "islands": islands}))
        return new, events

    def _apply_place(self, s: State, seat: Seat, move: FireIceMove) -> tuple[State, list[Event]]:
        if seat != CHANCE or not isinstance(move, Place):
            raise IllegalMove(_("The handicap pieces are still being placed; the first move comes after."))
        options = placements(s)
        if move not in options:
            raise IllegalMove(_("Can't place a handicap piece on {point}: handicap pieces go on different "
                                "islands, never on D.", point=point_name(move.point)),
                              legal=[str(p) for p in options])
        board = list(s.board)
        board[move.point] = FIRE
        new = State(tuple(board), s.to_move, (s.supply[0] - 1, s.supply[1]), s.handicap, s.setup - 1,
                    s.ply, 0, None)
        n = s.handicap - s.setup + 1
        text = _("Handicap piece {number} of {total}: a Fire piece is placed on {point}.", number=n,
                 total=s.handicap, point=point_name(move.point))
        return new, [Event("handicap", text,
                           {"point": point_name(move.point)})]

    def outcome(self, s: State) -> Outcome | None:
        """A win when a side controls three islands on a line; a draw after two passes in a row."""
        won = winning_line(s.board)
        if won is not None:
            winner, line = won
            return Outcome.win(winner, 2, detail=_("{side} controls {islands}", side=side_name(winner),
                                                   islands=islands_text(line)))
        if s.passes >= 2:
            return Outcome.draw(2, Reason.DRAW, detail=_("Both sides passed in a row"))
        return None

    # -- notation ------------------------------------------------------------

    def parse(self, text: str, s: State, seat: Seat) -> FireIceMove:
        """Read ``text`` (``F6-C6``, ``pass``, or ``+B3`` for a handicap placement) as a legal move.

        Raises:
            InvalidNotation: the text is not a move (the message shows how to write one).
            IllegalMove: the move is well-formed but not legal for ``seat`` now.
        """
        token = read(text)
        move: FireIceMove
        if len(token) == 3:  # ("move", src, dst)
            move = Move(token[1], token[2])
        elif len(token) == 1:  # ("pass",)
            move = Pass()
        else:  # ("place", point)
            if seat != CHANCE:
                name = point_name(token[1])
                raise InvalidNotation(_("'{text}' names only one point. Write a move as from-to: "
                                        "{point}-<destination>, for example F6-C6.", text=text.strip(),
                                        point=name))
            move = Place(token[1])
        self.apply(s, seat, move)  # legality check; raises IllegalMove with the reason
        return move

    def format(self, move: FireIceMove, s: State) -> str:
        """The canonical notation: ``F6-C6``, ``pass`` or ``+B3``."""
        return str(move)

    # -- views and serialisation ----------------------------------------------

    def view(self, s: State, seat: Seat | None) -> FireIceView:
        """Everything is public: every seat (and the channel) sees the same board and helpers."""
        return make_view(s, seat)

    def dump(self, s: State) -> dict[str, JSON]:
        """Plain JSON: islands as strings of ``F``/``I``/``-`` for positions 1–7."""
        chars = {FIRE: "F", ICE: "I", EMPTY: "-"}
        return {
            "v": 1,
            "board": {ISLANDS[k]: "".join(chars[s.board[k * 7 + i]] for i in range(7)) for k in range(7)},
            "to_move": s.to_move,
            "supply": [s.supply[0], s.supply[1]],
            "handicap": s.handicap,
            "setup": s.setup,
            "ply": s.ply,
            "passes": s.passes,
            "last": str(s.last) if s.last is not None else None,
        }

    def load(self, d: Mapping[str, JSON]) -> State:
        """Rebuild a state from :meth:`dump` output.

        Raises:
            ValueError: the data is not a valid Fire and Ice state (the message says what is wrong).
        """
        if not isinstance(d, Mapping) or d.get("v") != 1:
            raise ValueError("Not a Fire and Ice state (schema version 1 expected).")
        raw = d.get("board")
        if not isinstance(raw, Mapping) or sorted(raw) != list(ISLANDS):
            raise ValueError("Fire and Ice state: 'board' must map each island A–G to its 7 points.")
        values = {"F": FIRE, "I": ICE, "-": EMPTY}
        board: list[int] = []
        for k in ISLANDS:
            row = raw[k]
            if not isinstance(row, str) or len(row) != 7 or any(c not in values for c in row):
                raise ValueError(f"Fire and Ice state: island {k} must be 7 characters of F, I or -.")
            board.extend(values[c] for c in row)

        def integer(name: str, lo: int, hi: int) -> int:
            v = d.get(name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise ValueError(f"Fire and Ice state: '{name}' must be a whole number {lo}–{hi}.")
            return v

        to_move = integer("to_move", 0, 1)
        handicap = integer("handicap", 0, MAX_HANDICAP)
        setup = integer("setup", 0, handicap)
        ply = integer("ply", 0, 10**6)
        passes = integer("passes", 0, 2)
        sup = d.get("supply")
        if not (isinstance(sup, list) and len(sup) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                and 0 <= x <= PIECES for x in sup)):
            raise ValueError(f"Fire and Ice state: 'supply' must be two whole numbers 0–{PIECES}.")
        for seat in (FIRE, ICE):
            if board.count(seat) + sup[seat] != PIECES:
                raise ValueError(f"Fire and Ice state: {side_name(seat)} has {board.count(seat)} pieces "
                                 f"on the board and {sup[seat]} in supply; they must add up to {PIECES}.")
        if setup and (ply or to_move != FIRE):
            raise ValueError("Fire and Ice state: handicap pieces are placed before the first move.")
        last_raw = d.get("last")
        last: Move | Pass | None = None
        if last_raw is not None:
            if not isinstance(last_raw, str):
                raise ValueError("Fire and Ice state: 'last' must be a move like F6-C6, 'pass' or null.")
            try:
                token = read(last_raw)
            except InvalidNotation as e:
                raise ValueError(f"Fire and Ice state: bad last move: {e}") from None
            if token[0] == "pass":
                last = Pass()
            elif len(token) == 3:  # ("move", src, dst)
                src, dst = token[1], token[2]
                last = Move(src, dst)
                if dst not in NEIGHBOURS[src] or board[dst] != 1 - to_move:
                    raise ValueError(f"Fire and Ice state: last move {last} does not fit the board.")
            else:
                raise ValueError("Fire and Ice state: 'last' must be a move like F6-C6, 'pass' or null.")
        return State(tuple(board), to_move, (sup[0], sup[1]), handicap, setup, ply, passes, last)


RULES = FireAndIceRules()


# --------------------------------------------------------------------------- helpers for the UI


def _as_point(p: int | str) -> int:
    return parse_point(p) if isinstance(p, str) else p


def gives_opponent_win(s: State, move: Move) -> bool:
    """Whether ``move`` (by the side to move, assumed legal) hands the opponent the win.

    That happens when the opponent piece added on the vacated point completes
    their line of islands; the interface asks for confirmation before it.
    """
    if not isinstance(move, Move):
        return False
    won = winning_line(play_unchecked(s, move).board)
    return won is not None and won[0] != s.to_move


def wins_now(s: State, move: Move) -> bool:
    """Whether ``move`` (by the side to move, assumed legal) wins the game at once."""
    if not isinstance(move, Move):
        return False
    won = winning_line(play_unchecked(s, move).board)
    return won is not None and won[0] == s.to_move


def movable_pieces(s: State) -> tuple[str, ...]:
    """The points of the side to move's pieces that have at least one legal move."""
    if RULES.to_act(s) != frozenset({s.to_move}):
        return ()
    return tuple(sorted({point_name(m.src) for m in moves_of(s.board, s.to_move)}))


def destinations(s: State, src: int | str) -> tuple[str, ...]:
    """The legal destinations of the side to move's piece on ``src`` (``"F6"`` or 40)."""
    if RULES.to_act(s) != frozenset({s.to_move}):
        return ()
    p = _as_point(src)
    if s.board[p] != s.to_move:
        return ()
    return tuple(point_name(q) for q in NEIGHBOURS[p] if s.board[q] == EMPTY)




def make_view(s: State, seat: Seat | None = None) -> FireIceView:
    """Build the :class:`FireIceView` of ``s`` (``seat`` is only recorded)."""
    lines = control_lines(s.board)
    won = winning_line(s.board)
    out = RULES.outcome(s)
    over = out is not None
    to_move = None if over or s.setup > 0 else s.to_move
    legal: tuple[str, ...] = ()
    movable: tuple[str, ...] = ()
    handing: list[str] = []
    winning: list[str] = []
    if to_move is not None:
        moves = moves_of(s.board, to_move)
        if moves:
            legal = tuple(str(m) for m in moves)
            movable = tuple(sorted({point_name(m.src) for m in moves}))
            for m, w in zip(moves, winning_lines_after(s, moves), strict=True):
                if w is not None:
                    (winning if w[0] == to_move else handing).append(str(m))
        else:
            legal = ("pass",)
    last_mover = (1 - s.to_move) if s.last is not None else None
    added = isinstance(s.last, Move) and s.board[s.last.src] == s.to_move
    if over:
        detail = out.detail if out is not None else ""
    elif s.setup > 0:
        detail = _("Placing handicap pieces ({placed} of {total} placed)", placed=s.handicap - s.setup,
                   total=s.handicap)
    else:
        detail = _("{side} to move", side=side_name(s.to_move))
    return FireIceView(
        board=s.board,
        to_move=to_move,
        supply=s.supply,
        on_board=(s.board.count(FIRE), s.board.count(ICE)),
        controllers=tuple(c[0] if c is not None else EMPTY for c in lines),
        control_lines=tuple(c[1] if c is not None else None for c in lines),
        winner=won[0] if won is not None else None,
        winning_line=won[1] if won is not None else None,
        is_over=over,
        is_draw=bool(out is not None and out.is_draw),
        detail=detail,
        last_move=s.last,
        last_mover=last_mover,
        added=added,
        legal=legal,
        movable=movable,
        handing_win=tuple(handing),
        winning_moves=tuple(winning),
        handicap=s.handicap,
        setup=s.setup,
        ply=s.ply,
        viewer=seat,
    )


__all__ = ["ISLAND_LINES", "LINES", "RULES", "FireAndIceRules", "FireIceMove", "FireIceView", "Move", "Pass",
           "Place", "State", "control_lines", "controllers", "destinations", "gives_opponent_win",
           "make_view", "masks", "movable_pieces", "start_board", "winning_line", "wins_now"]
