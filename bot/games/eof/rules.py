"""EOF: the pure state machine (deal, secret programs, execution, scoring).

Two to four players (seats in join order, which is clockwise) each own a
colour; their file pointer is a small pyramid of it. The file is a row of
records (pyramids) between the BOF and EOF markers; it starts empty.

*A round.* Every pyramid that is neither a pointer nor in the file goes into
the bag. A piece is drawn to decide the first player (only pieces of the
players' colours count: drawing again until one comes out has the same
odds), then put back. Starting with the first player and going clockwise,
each player draws nine pieces (fewer if the bag runs out); with the ``feel``
option the player picks the size of each draw and a random piece of that
size comes out, with ``blind`` the size is random too. Every draw is public.
What is left in the bag becomes the public data pool.

*Programming* is simultaneous and secret: each player orders min(5, hand)
pieces of the hand, each with an orientation (Up, Down, Left, Right,
Standing); the unused pieces go back into the bag (not the pool).

*Execution* runs one instruction per turn, from the first player clockwise,
skipping crashed programs. Green moves the pointer (Up/Down: first/last
record; Left/Right n: n positions, landing on BOF/EOF is fine, beyond
crashes). Red Left/Right n deletes the current record and steps toward
BOF/EOF, n times (meeting BOF/EOF first crashes; deletions made stand). Blue
Standing n returns the current record to the pool and replaces it by the
player's own piece of size n from the pool; Blue Left/Right n swaps the
current record with the one n records away. Yellow Left/Right n takes the
player's own piece of size n from the pool and inserts it before/after the
current record; the pointer moves onto it. Other colour/orientation pairs
crash; so does a needed piece missing from the pool, and an update or swap
without a current record. A crashed player's pointer goes to BOF and the
program stops. Pointers stay on their records when others are inserted or
deleted; a pointer whose record is deleted goes to BOF; swaps move records,
not pointers.

*Record locking* (option): with ``locks-*`` a record holding another
player's pointer cannot be deleted; with ``permission-*`` each such player is
asked (moves ``allow``/``deny``; one denial blocks). A blocked delete crashes
the program (``-crash``) or ends the instruction with the pointer on the
blocked record (``-nocrash``).

*Scoring* (:mod:`bot.games.eof.scoring`) after each round; a crashed program
scores 0 (or −1 per instruction not executed, with ``crash_penalty``); a
player who submitted no program (``skip``, the turn-limit default) scores 0.
The file and the pointers carry over; after four rounds the highest total
wins, equal totals share the place.

*Layout.* This module holds the rules object (set-up, legality, notation,
views, serialisation); the state, its JSON and the constants are in
:mod:`.state`, the views in :mod:`.views`, the legal programs in
:mod:`.programs`, the deal and execution on a working copy in
:mod:`.execution`, the scoring search in :mod:`.scoring`. The names other
modules use are re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

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
    RulesBase,
    Seat,
)
from bot.games.eof.execution import DryRun, Work, dry_run
from bot.games.eof.notation import (
    ALLOW,
    DENY,
    SKIP,
    Answer,
    ChooseSize,
    Draw,
    Move,
    read_answer,
    read_draw,
    read_program,
    read_size,
)
from bot.games.eof.pieces import (
    ALL_KINDS,
    EMPTY,
    Instruction,
    counts_of,
    parse_colour,
    pieces_of,
    size_totals,
)
from bot.games.eof.programs import ProgramSpace, program_warnings
from bot.games.eof.state import (
    DEFAULT_COLOURS,
    HAND,
    LOCKING,
    PROGRAM_LENGTH,
    ROUNDS,
    EofState,
    Phase,
    RoundResult,
    Step,
    dump_state,
    load_state,
    result_sentence,
)
from bot.games.eof.views import EofView, Pending, PlayerView
from bot.games.eof.words import said
from bot.i18n import N_, _, ngettext, pgettext

__all__ = ["DEFAULT_COLOURS", "HAND", "LOCKING", "PROGRAM_LENGTH", "ROUNDS", "RULES", "DryRun", "EofRules",
           "EofState", "EofView", "Pending", "Phase", "PlayerView", "ProgramSpace", "RoundResult", "Step",
           "dry_run", "parse_colours", "program_warnings"]


def parse_colours(value: str, seats: int) -> tuple[int, ...]:
    """The ``colours`` option: a comma list in seat order ("red,blue"), or "" for the default.

    Raises:
        ValueError: unknown or repeated colours, or not one per seat.
    """
    if not value.strip() or value.strip().lower() in ("default", "auto"):
        return DEFAULT_COLOURS[:seats]
    parts = [p for p in value.replace(";", ",").replace(" ", ",").split(",") if p]
    cols = tuple(parse_colour(p) for p in parts)
    if len(cols) != seats:
        raise ValueError(f"colours: give one colour per player ({seats}), not {len(cols)}.")
    if len(set(cols)) != len(cols):
        raise ValueError("colours: each player needs a different colour.")
    return cols


class EofRules(RulesBase):
    """The EOF engine (see the module docstring for the rules)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="eof",
        order=4,
        title="EOF",  # not translated: game title
        min_seats=2,
        max_seats=4,
        ai_levels=(),
        hidden_information=True,
        options=(
            OptionSpec("locking", N_("Deleting a record that holds another player's pointer"), LOCKING,
                       "none"),
            OptionSpec("crash_penalty", N_("A crashed program loses 1 point per instruction not executed"),
                       ("off", "on"), "off"),
            OptionSpec("draw", N_("feel: pick the size of each draw; blind: sizes are random"),
                       ("feel", "blind"), "feel"),
        ),
    )

    # --- set-up ---------------------------------------------------------------------------------------
    def initial(self, options: Mapping[str, str], seats: int) -> EofState:
        """The empty file, all pointers at BOF, everything else in the bag; round 1 starts.

        Options: ``locking``, ``crash_penalty``, ``draw`` (see :attr:`spec`) and
        ``colours`` (comma list in seat order, default red, yellow, green,
        blue), missing ones take their defaults; unknown keys are ignored.

        Raises:
            ValueError: a bad seat count or option value.
        """
        if not 2 <= seats <= 4:
            raise ValueError(f"EOF is for 2 to 4 players, not {seats}.")
        values: dict[str, str] = {}
        for opt in self.spec.options:
            v = str(options.get(opt.name, opt.default)).strip().lower()
            if v not in opt.choices:
                raise ValueError(f"{opt.name} must be one of {', '.join(opt.choices)} (not {v!r}).")
            values[opt.name] = v
        colours = parse_colours(str(options.get("colours", "")), seats)
        s = EofState(colours=colours, locking=values["locking"],
                     crash_penalty=values["crash_penalty"] == "on", feel=values["draw"] == "feel",
                     pointers=(0,) * seats, scores=(0,) * seats)
        w = Work(s)
        w.start_round(1)
        return w.freeze()

    # --- who acts -------------------------------------------------------------------------------------
    def to_act(self, s: EofState) -> frozenset[Seat] | Chance | None:
        """A chance node (first-player draw, bag draws), the seats to act, or ``None`` when over."""
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.FIRST:
            kinds = [(Draw(k), s.bag[k.index]) for k in ALL_KINDS if k.colour in s.colours and s.bag[k.index]]
            return Chance(tuple(d for d, _n in kinds), tuple(float(n) for _d, n in kinds), _("first player"))
        if s.phase is Phase.DEAL:
            drawer = s.drawer
            assert drawer is not None
            if s.feel and s.size_choice < 0:
                return frozenset({drawer})
            kinds = [(Draw(k), s.bag[k.index]) for k in ALL_KINDS
                     if s.bag[k.index] and (s.size_choice <= 0 or k.size == s.size_choice)]
            return Chance(tuple(d for d, _n in kinds), tuple(float(n) for _d, n in kinds),
                          pgettext("chance", "draw"))
        if s.phase is Phase.PROGRAM:
            return frozenset(t for t in range(s.seats) if s.programs[t] is None)
        return frozenset(t for t in s.asked if t not in s.allowed)

    def legal_moves(self, s: EofState, seat: Seat) -> Sequence[Move]:
        """Sorted legal moves; for programming a lazy :class:`ProgramSpace` (``skip`` first)."""
        who = self.to_act(s)
        if who is None:
            return []
        if isinstance(who, Chance):
            return list(who.outcomes) if seat == CHANCE else []
        if seat not in who:
            return []
        if s.phase is Phase.DEAL:
            sizes = size_totals(s.bag)
            return [ChooseSize(0)] + [ChooseSize(z) for z in (1, 2, 3) if sizes[z - 1]]
        if s.phase is Phase.PROGRAM:
            return ProgramSpace(s.hands[seat], s.required_length(seat))
        return [DENY, ALLOW]

    # --- legality -------------------------------------------------------------------------------------
    def check(self, s: EofState, seat: Seat, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``seat`` may play ``move`` now.

        Raises:
            IllegalMove: with a sentence naming the move and the rule.
        """
        if s.phase is Phase.OVER:
            raise IllegalMove(_("The game is over."))
        who = self.to_act(s)
        if isinstance(move, Draw):
            if not isinstance(who, Chance) or seat != CHANCE:
                raise IllegalMove(_("{move} is a draw from the bag: only the platform plays those.",
                                    move=str(move)))
            if move not in who.outcomes:
                raise IllegalMove(_("{move} cannot come out of the bag now.", move=str(move)),
                                  legal=[str(d) for d in who.outcomes])
            return
        if seat == CHANCE or not 0 <= seat < s.seats:
            raise IllegalMove(_("Seat {seat} does not play in this match.", seat=seat))
        if isinstance(move, ChooseSize):
            if s.phase is not Phase.DEAL:
                raise IllegalMove(_("'{move}': the deal is over; {hint}", move=str(move),
                                    hint=self._phase_hint(s, seat)))
            if not s.feel:
                raise IllegalMove(_("'{move}': this match draws blind, sizes are random.", move=str(move)))
            drawer = s.drawer
            if seat != drawer:
                raise IllegalMove(_("'{move}': it is {player}'s draw, not yours.", move=str(move),
                                    player=s.name(drawer or 0)))
            if not isinstance(who, frozenset):
                raise IllegalMove(_("'{move}': you have already chosen; your piece is being drawn.",
                                    move=str(move)))
            sizes = size_totals(s.bag)
            if move.size and not sizes[move.size - 1]:
                legal = [str(m) for m in self.legal_moves(s, seat)]
                none_left = (N_("'{move}': the bag has no small pieces left."),
                             N_("'{move}': the bag has no medium pieces left."),
                             N_("'{move}': the bag has no large pieces left."))[move.size - 1]
                raise IllegalMove(_(none_left, move=str(move)), legal=legal)
            return
        if isinstance(move, Answer):
            if s.phase is not Phase.PERMISSION or seat not in s.asked:
                raise IllegalMove(_("'{move}': no permission request is waiting for you.", move=str(move)))
            if seat in s.allowed:
                raise IllegalMove(_("'{move}': you have already allowed this deletion.", move=str(move)))
            return
        # Program
        if s.phase in (Phase.FIRST, Phase.DEAL):
            raise IllegalMove(_("'{move}': programs are written after the deal; {hint}", move=str(move),
                                hint=self._phase_hint(s, seat)))
        if s.phase is not Phase.PROGRAM:
            raise IllegalMove(_("'{move}': your program for round {round} is already running; {hint}",
                                move=str(move), round=s.round, hint=self._phase_hint(s, seat)))
        if s.programs[seat] is not None:
            raise IllegalMove(_("You have already submitted your program for round {round}.", round=s.round))
        if move.skip:
            return
        need = s.required_length(seat)
        got = len(move.instructions)
        if got != need:
            raise IllegalMove(ngettext(
                "'{move}': your program must have {n} instruction (you gave {given}).",
                "'{move}': your program must have {n} instructions (you gave {given}).",
                need, move=str(move), given=got))
        hand = s.hands[seat]
        use = counts_of(i.piece for i in move.instructions)
        for k, (a, b) in enumerate(zip(use, hand, strict=True)):
            if a > b:
                piece = ALL_KINDS[k]
                mine = " ".join(map(str, pieces_of(hand)))
                if b:
                    raise IllegalMove(_("'{move}' uses {piece} {times} times but your hand has only {have}. "
                                        "Your hand: {hand}.", move=str(move), piece=str(piece), times=a,
                                        have=b, hand=mine))
                raise IllegalMove(_("'{move}' uses {piece} {times} times but your hand has none. Your hand: "
                                    "{hand}.", move=str(move), piece=str(piece), times=a, hand=mine))

    def _phase_hint(self, s: EofState, seat: Seat) -> str:
        if s.phase is Phase.FIRST:
            return _("the first player is being drawn.")
        if s.phase is Phase.DEAL:
            return _("{player} is drawing.", player=s.name(s.drawer or 0))
        if s.phase is Phase.PROGRAM:
            if s.programs[seat] is None:
                return _("write your program now.")
            return _("waiting for the others' programs.")
        if s.phase is Phase.PERMISSION:
            return _("execution is waiting for a permission answer.")
        return _("the game is over.")

    # --- moves ----------------------------------------------------------------------------------------
    def apply(self, s: EofState, seat: Seat, move: Move) -> tuple[EofState, list[Event]]:
        """Play ``move`` for ``seat`` (``CHANCE`` for draws); returns the new state and the events.

        The last program in starts the execution, which runs to the end of the
        round (scoring, the next round's set-up) unless a permission request
        stops it; events then carry the step log.

        Raises:
            IllegalMove: the move is not legal now (see :meth:`check`).
        """
        self.check(s, seat, move)
        w = Work(s)
        if isinstance(move, Draw):
            piece = move.piece
            if s.phase is Phase.FIRST:
                w.first = s.colours.index(piece.colour)
                w.event("first", said(N_("Drawn for the lead: {piece}. {player} plays first this round (the "
                                         "piece goes back into the bag)."), piece=str(piece),
                                      player=w.name(w.first)), seat=w.first, piece=str(piece))
                w.start_deal()
            else:
                t = s.drawer
                assert t is not None
                w.bag[piece.index] -= 1
                counts = list(w.hands[t])
                counts[piece.index] += 1
                w.hands[t] = tuple(counts)
                w.draws[t] = w.draws[t] + (piece,)
                w.size_choice = -1
                w.event("draw", said(N_("{player} draws {piece} ({count}/{hand})."), player=w.name(t),
                                     piece=str(piece), count=len(w.draws[t]), hand=HAND), seat=t,
                        piece=str(piece))
                w.advance_deal()
        elif isinstance(move, ChooseSize):
            w.size_choice = move.size
            feels = (N_("{player} feels for any piece."), N_("{player} feels for a small piece."),
                     N_("{player} feels for a medium piece."), N_("{player} feels for a large piece."))
            w.event("choose", said(feels[move.size], player=w.name(seat)), seat=seat, size=move.size)
        elif isinstance(move, Answer):
            if move.allow:
                w.allowed = tuple(sorted(set(s.allowed) | {seat}))
                w.event("answer", said(N_("{player} allows the deletion."), player=w.name(seat)), seat=seat,
                        allow=True)
                if set(w.allowed) >= set(s.asked):
                    w.verdict = 1
            else:
                w.event("answer", said(N_("{player} denies the deletion."), player=w.name(seat)), seat=seat,
                        allow=False)
                w.verdict = -1
            if w.verdict:
                w.phase = Phase.PROGRAM
                w.run()
        else:
            hand = s.hands[seat]
            used = counts_of(i.piece for i in move.instructions)
            w.bag = [b + h - u for b, h, u in zip(w.bag, hand, used, strict=True)]
            w.hands[seat] = EMPTY
            w.programs[seat] = move
            done = sum(p is not None for p in w.programs)
            w.event("program", said(N_("{player} has submitted a program ({count}/{seats} in)."),
                                    player=w.name(seat), count=done, seats=s.seats), seat=seat)
            w.event("program", said(N_("Your program for round {round}: {program}."), round=s.round,
                                    program=str(move)), visible_to=seat, seat=seat, program=str(move))
            if all(p is not None for p in w.programs):
                w.start_execution()
        return w.freeze(), w.events

    def outcome(self, s: EofState) -> Outcome | None:
        """After four rounds: ranked by total score, equal totals share the place."""
        if s.phase is not Phase.OVER:
            return None
        detail = result_sentence(s.scores, [s.name(t) for t in range(s.seats)]) + "."
        return Outcome.from_scores(s.scores, detail=detail)

    def timeout_moves(self, s: EofState) -> list[tuple[Seat, Move]] | None:
        """Turn limit: a missing program becomes ``skip`` (round score 0, no penalty); an unanswered
        permission request is denied; a pending size choice becomes ``draw any`` (a blind draw)."""
        if s.phase is Phase.PROGRAM:
            return [(t, SKIP) for t in range(s.seats) if s.programs[t] is None]
        if s.phase is Phase.PERMISSION:
            waiting = [t for t in s.asked if t not in s.allowed]
            return [(waiting[0], DENY)] if waiting else []
        if s.phase is Phase.DEAL and s.feel and s.size_choice < 0 and s.drawer is not None:
            return [(s.drawer, ChooseSize(0))]
        return []

    # --- notation -------------------------------------------------------------------------------------
    def parse(self, text: str, s: EofState, seat: Seat) -> Move:
        """Read ``text`` as a move of ``seat`` and check it (see :mod:`bot.games.eof.notation`).

        Raises:
            InvalidNotation: unreadable text.
            IllegalMove: readable but not legal now.
        """
        if seat == CHANCE:
            move: Move = read_draw(text)
        else:
            size = read_size(text)
            answer = read_answer(text)
            if s.phase is Phase.DEAL and size is not None:
                move = size
            elif s.phase is Phase.PERMISSION and answer is not None:
                move = answer
            elif s.phase is Phase.DEAL:
                raise InvalidNotation(_("{text}: during the deal, choose the size of your next draw: draw S, "
                                        "draw M, draw L or draw any.", text=repr(text.strip())))
            elif s.phase is Phase.PERMISSION:
                if answer is None and seat in s.asked:
                    raise InvalidNotation(_("{text}: answer the permission request with allow or deny.",
                                            text=repr(text.strip())))
                move = answer if answer is not None else read_program(text)
            elif answer is not None:
                move = answer
            else:
                move = read_program(text)
        self.check(s, seat, move)
        return move

    def format(self, move: Move, s: EofState) -> str:
        """The canonical notation (``Y1R G2L B3S R1R G1U``, ``skip``, ``draw S``, ``allow``, ``G2``)."""
        return str(move)

    # --- views ----------------------------------------------------------------------------------------
    def view(self, s: EofState, seat: Seat | None) -> EofView:
        """What ``seat`` may see (``None``: the public channel): own hand and program only."""
        if seat is not None and not 0 <= seat < s.seats:
            seat = None
        executing = s.phase in (Phase.PERMISSION,) or (s.phase is Phase.PROGRAM and s.turn > 0)
        revealed: list[list[Instruction]] = [[] for _seat in range(s.seats)]
        for st in s.steps:
            revealed[st.seat].append(st.instruction)
        players = []
        for t in range(s.seats):
            prog = s.programs[t] if s.programs else None
            crash_reason = next((st.crash for st in s.steps if st.seat == t and st.crash), "")
            players.append(PlayerView(
                seat=t, colour=s.colours[t], name=s.name(t), pointer=s.pointers[t], score=s.scores[t],
                round_scores=tuple(h[t] for h in s.history), hand_size=sum(s.hands[t]) if s.hands else 0,
                draws=s.draws[t] if s.draws else (), submitted=prog is not None,
                program_length=s.required_length(t) if s.draws else 0, revealed=tuple(revealed[t]),
                crashed=bool(s.crashed) and s.crashed[t] >= 0, crash_reason=crash_reason,
                skipped=executing and prog is not None and prog.skip))
        pending = None
        if s.phase is Phase.PERMISSION:
            j = s.turn % s.seats
            actor = (s.first + j) % s.seats
            prog = s.programs[actor]
            assert prog is not None
            p = s.pointers[actor]
            pending = Pending(actor, prog.instructions[s.turn // s.seats], p - 1, s.file[p - 1], s.asked,
                              s.allowed)
        who = self.to_act(s)
        return EofView(
            seat=seat, seats=s.seats, phase=s.phase.value, round=s.round, rounds=ROUNDS,
            first=s.first if s.first >= 0 and s.phase is not Phase.FIRST else None,
            order=s.order() if s.first >= 0 and s.phase is not Phase.FIRST else (),
            to_act=tuple(sorted(who)) if isinstance(who, frozenset) else (),
            file=s.file, pool=s.pool, players=tuple(players),
            drawing=s.drawer,
            size_choice=s.size_choice if s.phase is Phase.DEAL and s.size_choice >= 0 else None,
            bag_sizes=size_totals(s.bag) if s.phase in (Phase.DEAL, Phase.FIRST) else None,
            bag_total=sum(s.bag),
            hand=pieces_of(s.hands[seat]) if seat is not None else None,
            program=s.programs[seat] if seat is not None else None,
            program_length=s.required_length(seat) if seat is not None else 0,
            steps=s.steps, current=s.steps[-1] if s.steps else None, pending=pending,
            last_round=s.last_round, locking=s.locking, crash_penalty=s.crash_penalty,
            draw_mode="feel" if s.feel else "blind", finished=s.phase is Phase.OVER,
            scores=s.scores, pointers=s.pointers)

    # --- serialisation --------------------------------------------------------------------------------
    def dump(self, s: EofState) -> dict[str, JSON]:
        """Plain JSON with ``"v": 1`` (:func:`~bot.games.eof.state.dump_state`)."""
        return dump_state(s)

    def load(self, d: Mapping[str, JSON]) -> EofState:
        """Rebuild a state from :meth:`dump`, checking that it is consistent.

        Raises:
            ValueError: wrong version, missing or malformed fields, or pieces that do not add up.
        """
        return load_state(d)


RULES: Final = EofRules()
