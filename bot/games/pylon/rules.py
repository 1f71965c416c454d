"""Pylon: the pure state machine (placement, stacking, agree-to-end, scores).

Two players each own a stash of 15 pyramids (5 small, 5 medium, 5 large) and
share a 6×5 board (columns a–f, rows 1–5).

*Placement phase.* Seat 0 places first; the players alternate putting one
pyramid of their own stash on any empty square until all 30 are placed, so
seat 1 places the last one.

*Stacking phase.* Seat 1 (who placed last) moves first, then the players
alternate. A move takes a whole stack (one pyramid or more, any colour) and
puts it on top of the stack on an orthogonally adjacent square. The target
must be occupied (a vacated square stays empty for good) and the moving
stack's bottom pyramid may be no larger than the target's top pyramid
(equal is fine). Both players choose from the same moves. Because of that
rule every stack is ordered large-to-small from bottom to top.

*End.* The game ends right after a stacking that leaves no legal stacking, or
once both players have played ``agree`` since the last stacking (either may
agree when it is not their turn). A player scores the pyramids in the stacks
whose top pyramid is theirs; the two scores always sum to 30, and 15–15 is a
draw.

*Layout.* The position and the queries on it that the engine, the AI and the
Discord UI share are in :mod:`.state` (re-exported here); this module holds
the legality checks, what a move does and says, the view, the serialisation
and the rules object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from bot.games.base import (
    JSON,
    Event,
    GameSpec,
    IllegalMove,
    InvalidNotation,
    Outcome,
    Reason,
    RulesBase,
    Seat,
)
from bot.games.pylon.notation import (
    AGREE,
    DIRECTIONS,
    NEIGHBOURS,
    SIZE_WORDS,
    SQUARE_NAMES,
    SQUARES,
    Agree,
    Move,
    Placement,
    Stacking,
    parse_square,
    read,
    size_word,
)
from bot.games.pylon.state import (
    OVER,
    PER_SIZE,
    PIECES,
    PLACEMENT,
    STACKING,
    Piece,
    PylonState,
    Stack,
    Stash,
    can_agree,
    can_stack,
    empty_squares,
    initial_state,
    is_over,
    legal_directions,
    movable_squares,
    phase,
    scores,
    sizes_left,
    stackings,
    successor,
)
from bot.i18n import N_, _, ngettext, pgettext

__all__ = ["OVER", "PER_SIZE", "PIECES", "PLACEMENT", "RULES", "SEAT_NAMES", "STACKING", "Piece", "Pylon",
           "PylonState", "PylonView", "Stack", "Stash", "can_agree", "can_stack", "check", "empty_squares",
           "initial_state", "is_over", "legal_directions", "movable_squares", "phase", "play", "scores",
           "sizes_left", "stackings", "successor"]

SEAT_NAMES: Final = (N_("Red"), N_("Blue"))
"""The sides' names in English (look each up with ``_()`` where it is written)."""

# Every move object exists once: legal-move generation only filters these (the stackings: :mod:`.state`).
_PLACEMENTS: Final = {(size, sq): Placement(size, sq) for size in (1, 2, 3) for sq in range(SQUARES)}


def _seat_name(seat: Seat) -> str:
    """The side's name in the current language."""
    return _(SEAT_NAMES[seat])


def _sizes_word(size: int) -> str:
    """A size as said of several pyramids ("no small pyramids"; Spanish and Portuguese agree in number)."""
    if size == 1:
        return pgettext("pyramids", "small")
    if size == 2:
        return pgettext("pyramids", "medium")
    return pgettext("pyramids", "large")


def _describe_stack(st: Stack) -> str:
    if not st:
        return pgettext("square", "empty")
    owner, size = st[-1]
    if len(st) == 1:
        return _("a {size} {side} pyramid", size=size_word(size), side=_seat_name(owner))
    return _("a stack of {height} topped by a {size} {side} pyramid", height=len(st), size=size_word(size),
             side=_seat_name(owner))


def _legal_texts(s: PylonState, seat: Seat, source: int | None = None) -> tuple[str, ...]:
    """Legal moves in notation for an error message; those from ``source`` first."""
    moves = Pylon.legal_moves(RULES, s, seat)
    if source is not None:
        moves = sorted(moves, key=lambda m: not (isinstance(m, Stacking) and m.source == source))
    return tuple(str(m) for m in moves)


def check(s: PylonState, seat: Seat, move: Move) -> None:
    """Raise :class:`IllegalMove` if ``seat`` may not play ``move`` in ``s``.

    Raises:
        IllegalMove: with a sentence naming the move and the rule it breaks.
    """
    if seat not in (0, 1):
        raise IllegalMove(_("Seat {seat} does not play Pylon (seats are 0 and 1).", seat=seat))
    if is_over(s):
        raise IllegalMove(_("{move}: the game is over.", move=move))
    if isinstance(move, Agree):
        if s.is_placement:
            raise IllegalMove(_("{move}: the players can only agree to end the game during the stacking "
                                "phase.", move=move))
        if s.agreed[seat]:
            raise IllegalMove(_("{move}: {side} has already agreed to end; waiting for {other}.", move=move,
                                side=_seat_name(seat), other=_seat_name(1 - seat)))
        return
    if seat != s.to_move:
        raise IllegalMove(_("{move}: it is {side}'s turn, not {other}'s.", move=move,
                            side=_seat_name(s.to_move), other=_seat_name(seat)))
    if isinstance(move, Placement):
        if not s.is_placement:
            raise IllegalMove(_("{move}: all 30 pyramids are placed; now move a stack onto a neighbour, "
                                "e.g. c3-c4.", move=move), legal=_legal_texts(s, seat))
        if move.size not in (1, 2, 3) or not 0 <= move.square < SQUARES:
            raise IllegalMove(_("{move}: no such pyramid or square.", move=move))
        if s.stash[seat][move.size - 1] == 0:
            have = ", ".join(_sizes_word(z) for z in sizes_left(s, seat))
            raise IllegalMove(_("{move}: you have no {size} pyramids left (you still have: {sizes}).",
                                move=move, size=_sizes_word(move.size), sizes=have))
        if s.board[move.square]:
            raise IllegalMove(_("{move}: {square} is taken by {stack}; place on an empty square.",
                                move=move, square=SQUARE_NAMES[move.square],
                                stack=_describe_stack(s.board[move.square])))
        return
    if isinstance(move, Stacking):
        if s.is_placement:
            left = PIECES - s.placed
            raise IllegalMove(ngettext("{move}: stacking starts once all 30 pyramids are placed "
                                       "({n} still to place).",
                                       "{move}: stacking starts once all 30 pyramids are placed "
                                       "({n} still to place).", left, move=move), legal=_legal_texts(s, seat))
        src, dst = move.source, move.target
        if not (0 <= src < SQUARES and 0 <= dst < SQUARES):
            raise IllegalMove(_("{move}: no such square.", move=move))
        a, b = s.board[src], s.board[dst]
        if not a:
            raise IllegalMove(_("{move}: {square} is empty, so there is no stack to move.", move=move,
                                square=SQUARE_NAMES[src]), legal=_legal_texts(s, seat))
        if dst not in NEIGHBOURS[src]:
            raise IllegalMove(_("{move}: a stack moves only onto an orthogonally adjacent square "
                                "(N, E, S or W of {square}).", move=move, square=SQUARE_NAMES[src]),
                              legal=_legal_texts(s, seat, src))
        if not b:
            raise IllegalMove(_("{move}: {square} is empty, and a stack may never move to an empty square.",
                                move=move, square=SQUARE_NAMES[dst]), legal=_legal_texts(s, seat, src))
        if a[0][1] > b[-1][1]:
            raise IllegalMove(_("{move}: a stack cannot move onto a smaller pyramid: bottom {bottom} > "
                                "top {top}.", move=move, bottom=a[0][1], top=b[-1][1]),
                              legal=_legal_texts(s, seat, src))
        return
    raise IllegalMove(_("{move} is not a Pylon move.", move=repr(move)))


def play(s: PylonState, seat: Seat, move: Move) -> tuple[PylonState, list[Event]]:
    """Apply a move already known to be legal (no checks: for search and replays of checked logs)."""
    name = _seat_name(seat)
    events: list[Event] = []
    if isinstance(move, Agree):
        agreed = (True, s.agreed[1]) if seat == 0 else (s.agreed[0], True)
        ns = PylonState(s.board, s.stash, agreed, s.last)
        if all(agreed):
            events.append(Event("agree", _("{side} agrees to end the game.", side=name), {"seat": seat}))
        else:
            offer = _("{side} offers to end the game now; it ends if {other} agrees before the next "
                      "stacking.", side=name, other=_seat_name(1 - seat))
            events.append(Event("agree", offer, {"seat": seat}))
    elif isinstance(move, Placement):
        ns = successor(s, seat, move)
        events.append(Event("place", _("{side} places a {size} pyramid on {square}.", side=name,
                                       size=size_word(move.size), square=SQUARE_NAMES[move.square]),
                            {"seat": seat, "size": move.size, "square": SQUARE_NAMES[move.square],
                             "move": str(move)}))
        if not ns.is_placement:
            events.append(Event("phase", _("All 30 pyramids are placed. Stacking begins: {side} moves first.",
                                           side=_seat_name(ns.to_move)),
                                {"phase": STACKING, "to_move": ns.to_move}))
    else:
        a, b = s.board[move.source], s.board[move.target]
        ns = successor(s, seat, move)
        top_owner = a[-1][0]
        captured = len(b) if b[-1][0] != top_owner else 0
        source, target, stack = SQUARE_NAMES[move.source], SQUARE_NAMES[move.target], _describe_stack(b + a)
        if captured:
            text = _("{side} moves {source} onto {target}: {stack} ({taker} takes {count} from {other}).",
                     side=name, source=source, target=target, stack=stack, taker=_seat_name(top_owner),
                     count=captured, other=_seat_name(1 - top_owner))
        else:
            text = _("{side} moves {source} onto {target}: {stack}.", side=name, source=source, target=target,
                     stack=stack)
        events.append(Event("stack", text,
                            {"seat": seat, "from": SQUARE_NAMES[move.source], "to": SQUARE_NAMES[move.target],
                             "height": len(a) + len(b), "captured": captured, "top": list(a[-1]),
                             "move": str(move)}))
    if is_over(ns):
        sc = scores(ns)
        if all(ns.agreed):
            text = _("Both players agreed to end: {result}", result=_result_text(sc))
        else:
            text = _("No stacking is left: {result}", result=_result_text(sc))
        events.append(Event("end", text, {"scores": list(sc)}))
    return ns, events


def _score_line(sc: tuple[int, int]) -> str:
    return f"{_seat_name(0)} {sc[0]} – {_seat_name(1)} {sc[1]}"


def _score_text(sc: tuple[int, int]) -> str:
    line = _score_line(sc)
    return _("{score}, a draw.", score=line) if sc[0] == sc[1] else f"{line}."


def _result_text(sc: tuple[int, int]) -> str:
    line = _score_line(sc)
    if sc[0] == sc[1]:
        return _("{score}, a draw.", score=line)
    return _("{score}; {side} wins.", score=line, side=_seat_name(0 if sc[0] > sc[1] else 1))


@dataclass(frozen=True)
class PylonView:
    """What the channel (or a seat) sees of a Pylon game; Pylon hides nothing.

    ``board[square]`` is the stack on that square, bottom first, as
    ``(owner, size)`` pairs (square index: ``row * 6 + column``, ``a1`` = 0).
    The legal-move fields describe the seat to move (``to_move``):

    * ``sizes_left`` — sizes it may still place; ``empty`` — where (placement);
    * ``directions`` — ``(source, ("N", "E", ...))`` per stack that can move
      (stacking), and ``legal`` — every legal move in notation, sorted;
    * ``can_agree[seat]`` — whether that seat may press "agree to end" now.
    """

    seat: Seat | None
    board: tuple[Stack, ...]
    stash: tuple[Stash, Stash]
    phase: str
    to_move: Seat | None
    scores: tuple[int, int]
    agreed: tuple[bool, bool]
    last: str | None
    last_squares: tuple[int, ...]
    legal: tuple[str, ...]
    sizes_left: tuple[int, ...]
    empty: tuple[int, ...]
    directions: tuple[tuple[int, tuple[str, ...]], ...]
    can_agree: tuple[bool, bool]
    outcome: Outcome | None
    seat_names: tuple[str, str] = SEAT_NAMES

    @property
    def to_place(self) -> int:
        """Pyramids still to place (0 once stacking has begun)."""
        return sum(self.stash[0]) + sum(self.stash[1])


def _last_squares(move: Move | None) -> tuple[int, ...]:
    if isinstance(move, Placement):
        return (move.square,)
    if isinstance(move, Stacking):
        return (move.source, move.target)
    return ()


class Pylon(RulesBase):
    """The Pylon engine (see the module docstring for the rules)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="pylon",
        order=1,
        title="Pylon",  # not translated: game title
        min_seats=2,
        max_seats=2,
        ai_levels=("easy", "medium", "hard"),
        hidden_information=False,
        options=(),
        seat_names=SEAT_NAMES,
    )

    def initial(self, options: Mapping[str, str], seats: int) -> PylonState:
        """The start position.

        Raises:
            ValueError: ``seats`` is not 2, or an option is given (Pylon has none).
        """
        if seats != 2:
            raise ValueError(f"Pylon is for exactly 2 players, not {seats}.")
        if options:
            names = ", ".join(sorted(options))
            raise ValueError(f"Pylon has no options (got: {names}).")
        return initial_state()

    def to_act(self, s: PylonState) -> frozenset[Seat] | None:
        if is_over(s):
            return None
        return frozenset((s.to_move,))

    def legal_moves(self, s: PylonState, seat: Seat) -> list[Move]:
        """The seat's legal moves, sorted: placements by size then square; stackings by
        source then target, then ``agree`` if allowed. ``[]`` when it is not the seat's turn
        (``agree`` out of turn goes through :meth:`out_of_turn`)."""
        if is_over(s) or seat != s.to_move:
            return []
        if s.is_placement:
            st = s.stash[seat]
            empty = [i for i, x in enumerate(s.board) if not x]
            return [_PLACEMENTS[size, sq] for size in (1, 2, 3) if st[size - 1] for sq in empty]
        moves: list[Move] = list(stackings(s))
        if not s.agreed[seat]:
            moves.append(AGREE)
        return moves

    def apply(self, s: PylonState, seat: Seat, move: Move) -> tuple[PylonState, list[Event]]:
        """Play ``move`` for ``seat``; returns the new state and what happened.

        Raises:
            IllegalMove: the move breaks a rule (the message says which).
        """
        check(s, seat, move)
        return play(s, seat, move)

    def outcome(self, s: PylonState) -> Outcome | None:
        if not is_over(s):
            return None
        sc = scores(s)
        reason = Reason.AGREEMENT if all(s.agreed) else Reason.NORMAL
        # the platform says who won; the detail is the score (the end event, a sentence alone, keeps both)
        return Outcome.from_scores(sc, reason, detail=_score_text(sc))

    def out_of_turn(self, s: PylonState, seat: Seat, move: Move) -> bool:
        """``agree`` may be played by the seat not to move (stacking phase)."""
        return isinstance(move, Agree) and seat in (0, 1) and can_agree(s, seat)

    def view(self, s: PylonState, seat: Seat | None) -> PylonView:
        over = is_over(s)
        mover = None if over else s.to_move
        legal = tuple(str(m) for m in self.legal_moves(s, mover)) if mover is not None else ()
        placement = s.is_placement
        dirs: list[tuple[int, tuple[str, ...]]] = []
        if not placement and not over:
            by_source: dict[int, list[str]] = {}
            for m in stackings(s):
                by_source.setdefault(m.source, []).append(m.direction or "")
            dirs = [(src, tuple(d for d in DIRECTIONS if d in ds)) for src, ds in sorted(by_source.items())]
        return PylonView(
            seat=seat,
            board=s.board,
            stash=s.stash,
            phase=OVER if over else (PLACEMENT if placement else STACKING),
            to_move=mover,
            scores=scores(s),
            agreed=s.agreed,
            last=str(s.last) if s.last is not None else None,
            last_squares=_last_squares(s.last),
            legal=legal,
            sizes_left=sizes_left(s, mover) if placement and mover is not None else (),
            empty=empty_squares(s) if placement else (),
            directions=tuple(dirs),
            can_agree=(can_agree(s, 0), can_agree(s, 1)),
            outcome=self.outcome(s),
        )

    def dump(self, s: PylonState) -> dict[str, JSON]:
        """Plain JSON: occupied squares by name (stacks bottom first as ``[owner, size]``), stashes
        as ``[small, medium, large]``, agreements, and the last move's notation."""
        return {
            "v": 1,
            "board": {SQUARE_NAMES[i]: [list(p) for p in st] for i, st in enumerate(s.board) if st},
            "stash": [list(s.stash[0]), list(s.stash[1])],
            "agreed": list(s.agreed),
            "last": str(s.last) if s.last is not None else None,
        }

    def load(self, d: Mapping[str, JSON]) -> PylonState:
        """Rebuild a state from :meth:`dump`'s JSON, checking that it is a reachable-looking position.

        Raises:
            ValueError: wrong version, malformed fields, pyramids not conserved, a stack that is
                not large-to-small, stacks during placement, or agreements during placement.
        """
        if not isinstance(d, Mapping) or d.get("v") != 1:
            raise ValueError("Pylon state: expected a JSON object with \"v\": 1.")
        raw_board = d.get("board")
        if not isinstance(raw_board, Mapping):
            raise ValueError("Pylon state: \"board\" must map square names to stacks.")
        board: list[Stack] = [()] * SQUARES
        for name, raw in raw_board.items():
            try:
                sq = parse_square(str(name))
            except InvalidNotation as e:
                raise ValueError(f"Pylon state: bad square {name!r}: {e}") from None
            if not isinstance(raw, list) or not raw:
                raise ValueError(f"Pylon state: the stack on {name} must be a non-empty list.")
            pieces: list[Piece] = []
            for p in raw:
                if (not isinstance(p, list) or len(p) != 2 or p[0] not in (0, 1) or p[1] not in (1, 2, 3)
                        or isinstance(p[0], bool) or isinstance(p[1], bool)):
                    raise ValueError(f"Pylon state: bad pyramid {p!r} on {name} "
                                     "(want [owner 0/1, size 1-3]).")
                pieces.append((int(p[0]), int(p[1])))
            if any(pieces[i][1] < pieces[i + 1][1] for i in range(len(pieces) - 1)):
                raise ValueError(f"Pylon state: the stack on {name} has a pyramid on a smaller one.")
            board[sq] = tuple(pieces)
        raw_stash = d.get("stash")
        if (not isinstance(raw_stash, list) or len(raw_stash) != 2
                or not all(isinstance(x, list) and len(x) == 3 and all(type(n) is int and 0 <= n <= PER_SIZE
                                                                       for n in x) for x in raw_stash)):
            raise ValueError("Pylon state: \"stash\" must be two lists of three counts 0-5.")
        stash = (tuple(raw_stash[0]), tuple(raw_stash[1]))
        for seat in (0, 1):
            for size in (1, 2, 3):
                on_board = sum(1 for st in board for p in st if p == (seat, size))
                if on_board + stash[seat][size - 1] != PER_SIZE:
                    raise ValueError(f"Pylon state: {SEAT_NAMES[seat]} has {on_board} {SIZE_WORDS[size]} "
                                     f"pyramids on the board and {stash[seat][size - 1]} in the stash "
                                     f"(should total {PER_SIZE}).")
        raw_agreed = d.get("agreed", [False, False])
        if not isinstance(raw_agreed, list) or len(raw_agreed) != 2 or not all(isinstance(x, bool)
                                                                               for x in raw_agreed):
            raise ValueError("Pylon state: \"agreed\" must be two booleans.")
        agreed = (raw_agreed[0], raw_agreed[1])
        placed = PIECES - sum(stash[0]) - sum(stash[1])
        if placed < PIECES:
            if any(len(st) > 1 for st in board):
                raise ValueError("Pylon state: stacks exist before all pyramids are placed.")
            if sum(stash[1]) - sum(stash[0]) not in (0, 1):
                raise ValueError("Pylon state: the stashes are uneven for alternating placement.")
            if any(agreed):
                raise ValueError("Pylon state: agreements are only possible in the stacking phase.")
        raw_last = d.get("last")
        last: Move | None = None
        if raw_last is not None:
            if not isinstance(raw_last, str):
                raise ValueError("Pylon state: \"last\" must be a move in notation or null.")
            try:
                last = read(raw_last)
            except InvalidNotation as e:
                raise ValueError(f"Pylon state: bad last move: {e}") from None
        return PylonState(tuple(board), stash, agreed, last)

    def parse(self, text: str, s: PylonState, seat: Seat) -> Move:
        """Read ``text`` (see :func:`bot.games.pylon.notation.read`) and check it is legal for ``seat``.

        Raises:
            InvalidNotation: not a move, or a square off the board.
            IllegalMove: a well-formed move the rules forbid now.
        """
        move = read(text)
        check(s, seat, move)
        return move

    def format(self, move: Move, s: PylonState) -> str:
        return str(move)


RULES: Final = Pylon()
