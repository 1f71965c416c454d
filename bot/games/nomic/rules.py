"""Nomic World's rules engine: the Initial Set (rules 101-115) as a pure state machine.

Lifecycle. ``initial(options, seats)`` opens a lobby expecting ``seats``
players. The platform plays ``join <user id> <name>`` for each of them (seat
``k`` joins as the ``k``-th player), then ``start`` (any player; at least two
players). Later joins are still the ``join`` move, out of turn, by the next
seat: before ``start`` the player plays at once, afterwards from the next
round on (rule 101: players join before the game or at the beginning of a
round).

A round (rule 102): every active player has one turn, in the order the
settings say (alphabetical by name at first, case-insensitive, user id
breaking ties), recomputed at the beginning of every turn among the players
who have not played yet this round. A turn (rule 103) has a movement phase
and a rule-change phase unless an effect removed one.

Movement (rules 105-109): a die is rolled (a chance node, seat ``CHANCE``);
the current player gives a path of exactly that many steps that never uses
both N and S nor both E and W (a shortest path). The player is in movement
(located nowhere) until landing; landing on an unknown space other than the
origin reveals its resource (another chance node: Wood, Metal, Water, Food
with equal chances). Passing through reveals nothing.

Rule-change (rules 110-112): the current player proposes one rule-change:
enact a new rule, repeal a rule in effect, or amend one (new text). Every
proposal takes the next number from 201, adopted or not. The players at the
time of the proposal vote (``vote yes|no``, out of turn; ``unvote`` withdraws
a vote). A vote can be changed or withdrawn until every voter has voted: the
proposal is decided then (by default adopted when all said yes), or rejected
when the turn ends first. Either way the turn ends, and an adopted change takes effect at the
beginning of the next turn (rule 111).

Effects. A proposal may carry an effect from a small catalogue (die size,
votes needed, turn order, phases of a turn, end of the game; see
:mod:`bot.games.nomic.moves`). The bot enforces the effects of the rules in
effect; when several rules set the same thing the lowest number wins (rule
113), so rule 109 (d6) must be amended or repealed to change the die; a
proposal whose effect could never apply is refused with that advice.
Amending a rule without giving an effect keeps the rule's effect.

Judgment (rule 114): any player may ``judge <question>`` during a turn; the
Judge is the player preceding the current one in this round's order (the
last one for the first turn). Play waits until the Judge gives
``ruling <text>``, which becomes a rule at once (next number, in effect), or
the question lapses (``lapse``, played at the turn limit).

Turn limit (``timeout_moves``): a pending judgment lapses; otherwise the
current player's turn ends (``skip``): a movement not made is skipped (the
player stays), no proposal is made, and an open proposal is rejected.

A player may ``leave`` at any time; when fewer than two players (active or
waiting for the next round) remain, the game ends. ``end`` stops the game (an
admin's command). The game also ends when a rule with the ``end`` effect
takes effect. Nobody wins: the outcome ranks everybody equal (unrated).

Layout. This module holds the rules object and dispatches each move to its
handler: :mod:`.players` (join, start, skip, leave, end), :mod:`.movement`,
:mod:`.proposals` (proposals and votes), :mod:`.judgment`; :mod:`.flow` ends
a turn and starts the next, :mod:`.edits` holds what the handlers share.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from bot.games.base import (
    CHANCE,
    JSON,
    Chance,
    Event,
    GameError,
    GameSpec,
    IllegalMove,
    InvalidNotation,
    Outcome,
    Reason,
    RulesBase,
    Seat,
)
from bot.games.nomic.flow import end_text, tally
from bot.games.nomic.judgment import apply_judge, apply_lapse, apply_ruling
from bot.games.nomic.movement import apply_path, apply_reveal, apply_roll
from bot.games.nomic.moves import (
    ORDER_RULES,
    PHASE_SETS,
    RESOURCES,
    VOTE_RULES,
    Effect,
    End,
    Join,
    Judge,
    Lapse,
    Leave,
    Move,
    Path,
    Propose,
    Reveal,
    Roll,
    Ruling,
    Skip,
    Start,
    Unvote,
    Vote,
)
from bot.games.nomic.notation import all_paths, canonical_path
from bot.games.nomic.notation import read as read_move
from bot.games.nomic.notation import write as write_move
from bot.games.nomic.players import apply_end, apply_join, apply_leave, apply_skip, apply_start
from bot.games.nomic.proposals import apply_propose, apply_unvote, apply_vote
from bot.games.nomic.state import (
    ACTIVE,
    LOBBY,
    MOVE,
    OVER,
    PROPOSE,
    REVEAL,
    ROLL,
    RUNNING,
    VOTE,
    State,
    dump_state,
    initial_state,
    load_state,
    open_proposal,
    seats_with,
    setting_holder,
    settings,
)
from bot.games.nomic.view import NomicView, build_view
from bot.i18n import ENGLISH, _, speaking

SAMPLE_TEXT = "Players should greet each other at the start of every round."  # not translated: a move
SAMPLE_RULING = "The Judge rules that play continues as it stands."  # not translated: a move
_FULL_PATHS_UP_TO = 8
"""legal_moves lists every path up to this roll, and one path per destination beyond it."""


class NomicRules(RulesBase):
    """Nomic World: the Initial Set as a pure, deterministic state machine (see the module docstring)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="nomic", title="Nomic World",  # not translated: game title
        min_seats=2, max_seats=None, ai_levels=(), hidden_information=False, options=(), rated=False, order=5)

    # ------------------------------------------------------------ protocol

    def initial(self, options: Mapping[str, str], seats: int) -> State:
        """The lobby, expecting ``seats`` players to join before ``start``.

        Raises:
            ValueError: an option was given (Nomic World has none: its players change the rules
                instead), or ``seats`` is negative.
        """
        if options:
            given = ", ".join(sorted(options))
            raise ValueError(f"Nomic World has no match options (got {given}); its players change the rules "
                             "in play instead.")
        if type(seats) is not int or seats < 0:
            raise ValueError(f"seats must be a whole number of players (got {seats!r}).")
        return initial_state(seats)

    def to_act(self, s: State) -> frozenset[Seat] | Chance | None:
        """Who acts: the joining seat or the starter in the lobby, the Judge while a question is
        open, the die or the reveal (chance), the current player, or the voters still to vote."""
        if s.status == OVER:
            return None
        if s.status == LOBBY:
            active = seats_with(s, ACTIVE)
            if len(s.players) < s.seats or len(active) < 2:
                return frozenset({len(s.players)})
            return frozenset({active[0]})
        if s.question is not None:
            return frozenset({s.question.judge})
        if s.phase == ROLL:
            sides = settings(s).die
            return Chance(tuple(Roll(n) for n in range(1, sides + 1)),
                          label=_("movement die (d{sides})", sides=sides))
        if s.phase == REVEAL:
            return Chance(tuple(Reveal(r) for r in RESOURCES), label=_("resource"))
        if s.phase == VOTE:
            p = open_proposal(s)
            assert p is not None
            voted = {v for v, _yes in p.votes}
            return frozenset(v for v in p.voters if v not in voted)
        assert s.current is not None
        return frozenset({s.current})

    def legal_moves(self, s: State, seat: Seat) -> list[Move]:
        """The legal moves of ``seat`` if it is to act, sorted by notation.

        Free-text moves cannot be listed, so ``join``, ``ruling`` and proposals
        are represented by samples (a placeholder join, a stock ruling, one
        enactment, one change of every setting, a repeal of every rule in
        effect, an end of the game). Paths are all listed up to a roll of 8 and
        one per destination beyond.
        """
        who = self.to_act(s)
        if who is None:
            return []
        if isinstance(who, Chance):
            return list(who.outcomes) if seat == CHANCE else []
        if seat not in who:
            return []
        moves: list[Move] = []
        if s.status == LOBBY:
            if seat == len(s.players):
                taken = {p.user_id for p in s.players}
                uid = next(i for i in range(seat + 1, seat + len(taken) + 2) if i not in taken)
                moves.append(Join(uid, f"Player {seat + 1}"))
            elif len(seats_with(s, ACTIVE)) >= 2:
                moves.append(Start())
        elif s.question is not None:
            moves += [Ruling(SAMPLE_RULING), Lapse()]
        elif s.phase == MOVE:
            assert s.roll is not None
            if s.roll <= _FULL_PATHS_UP_TO:
                moves += [Path(p) for p in all_paths(s.roll)]
            else:
                r = s.roll
                offsets = {(dx, sy * (r - abs(dx))) for dx in range(-r, r + 1) for sy in (1, -1)}
                moves += [Path(canonical_path(dx, dy)) for dx, dy in sorted(offsets)]
            moves.append(Skip())
        elif s.phase == PROPOSE:
            moves += _sample_proposals(s)
            moves.append(Skip())
        elif s.phase == VOTE:
            moves += [Vote(True), Vote(False)]
        return sorted(moves, key=write_move)

    def apply(self, s: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        """Play ``move`` for ``seat``; returns the new state and what happened.

        Raises:
            IllegalMove: the rules forbid the move now (the message says which rule).
            InvalidNotation: the move object itself is malformed (an unknown direction).
        """
        events: list[Event] = []
        if s.status == OVER:
            raise IllegalMove(_("The game is over."))
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise InvalidNotation(_("Not a Nomic World move: {move}.", move=repr(move)))
        return handler(s, seat, move, events), events

    def outcome(self, s: State) -> Outcome | None:
        """``None`` while the game runs; at the end everybody shares the same place (unrated)."""
        if s.status != OVER:
            return None
        return Outcome.draw(len(s.players), Reason(s.end_reason), detail=end_text(s.end_detail))

    def view(self, s: State, seat: Seat | None) -> NomicView:
        """Everything is public in Nomic World: the same view for everyone (``viewer`` set)."""
        return build_view(s, seat)

    def dump(self, s: State) -> dict[str, JSON]:
        return dump_state(s)

    def load(self, d: Mapping[str, JSON]) -> State:
        """A state from :meth:`dump` (checked).

        Raises:
            ValueError: not a valid Nomic World state.
        """
        return load_state(d)

    def parse(self, text: str, s: State, seat: Seat) -> Move:
        """Read ``text`` as a move of ``seat`` and check it is legal now.

        Raises:
            InvalidNotation: not readable as a move.
            IllegalMove: readable but not legal now.
        """
        move = read_move(text)
        self.apply(s, seat, move)
        return move

    def format(self, move: Move, s: State | None = None) -> str:
        """The canonical notation of ``move``."""
        return write_move(move)

    def timeout_moves(self, s: State) -> list[tuple[Seat, Move]] | None:
        """At the turn limit: a pending question lapses; otherwise the current player's turn ends
        (``skip``: no movement, no proposal, an open proposal rejected). Nothing in the lobby."""
        if s.status != RUNNING:
            return []
        if s.question is not None:
            return [(s.question.judge, Lapse())]
        if s.phase in (MOVE, PROPOSE, VOTE):
            assert s.current is not None
            return [(s.current, Skip())]
        return []

    def out_of_turn(self, s: State, seat: Seat, move: Move) -> bool:
        """Joins, votes, judgments, leaving, ``end`` and the current player's ``skip`` need no turn."""
        if not isinstance(move, (Join, Vote, Unvote, Judge, Leave, End, Skip)):
            return False
        try:
            self.apply(s, seat, move)
        except GameError:
            return False
        return True


def _sample_proposals(s: State) -> list[Move]:
    """A representative set of legal proposals (the space of texts is unbounded). Their texts are moves
    (a rule's words), the same in every language."""
    out: list[Move] = [Propose("enact", None, SAMPLE_TEXT),
                       Propose("enact", None, "The game ends.", Effect("end"))]  # not translated: a move
    now_rules = settings(s)
    options: dict[str, tuple[int | str, ...]] = {
        "die": (4, 8, 12), "votes": VOTE_RULES, "order": ORDER_RULES, "phases": PHASE_SETS}
    current = {"die": now_rules.die, "votes": now_rules.votes, "order": now_rules.order,
               "phases": now_rules.phases}
    for kind, values in options.items():
        holder = setting_holder(s, kind)
        for v in values:
            if v == current[kind]:
                continue
            effect = Effect(kind, v)
            with speaking(ENGLISH):
                text = f"The bot's setting changes: {effect.describe()}."  # not translated: a move
            if holder is None:
                out.append(Propose("enact", None, text, effect))
            else:
                out.append(Propose("amend", holder.number, text, effect))
    out += [Propose("repeal", n, "") for n in s.effect_order]
    return out


# Each handler takes its own move type; the dict is keyed by that type, so ``Any`` is safe here.
_HANDLERS: dict[type, Callable[[State, Seat, Any, list[Event]], State]] = {
    Join: apply_join, Start: apply_start, Roll: apply_roll, Path: apply_path, Reveal: apply_reveal,
    Propose: apply_propose, Vote: apply_vote, Unvote: apply_unvote, Judge: apply_judge, Ruling: apply_ruling,
    Lapse: apply_lapse, Skip: apply_skip, Leave: apply_leave, End: apply_end,
}

RULES = NomicRules()
"""The engine instance the platform uses (``bot.games.GAMES["nomic"].rules``)."""

__all__ = ["RULES", "NomicRules", "tally"]
