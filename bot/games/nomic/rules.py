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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

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
from bot.games.nomic import notation
from bot.games.nomic.moves import (
    ACTIONS,
    DIRECTIONS,
    MAX_NAME,
    MAX_QUESTION,
    MAX_TEXT,
    OPPOSITE,
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
    Point,
    Propose,
    Reveal,
    Roll,
    Ruling,
    Skip,
    Start,
    Unvote,
    Vote,
)
from bot.games.nomic.state import (
    ACTIVE,
    ADOPTED,
    APPLIED,
    IN_EFFECT,
    JUDGMENT,
    LEFT,
    LOBBY,
    MOVE,
    OPEN,
    ORIGIN,
    OVER,
    PENDING,
    PROPOSE,
    REJECTED,
    REPEALED,
    REVEAL,
    ROLL,
    RUNNING,
    VOTE,
    Note,
    Player,
    Question,
    Record,
    State,
    dump_state,
    initial_state,
    judge_of,
    load_state,
    name,
    next_number,
    now,
    open_proposal,
    record,
    seats_with,
    setting_holder,
    settings,
    sort_turns,
)
from bot.games.nomic.view import NomicView, build_view

_WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
_KIND_WHAT = {"die": "the movement die", "votes": "the votes needed", "order": "the turn order",
              "phases": "the phases of a turn"}
SAMPLE_TEXT = "Players should greet each other at the start of every round."
SAMPLE_RULING = "The Judge rules that play continues as it stands."
_FULL_PATHS_UP_TO = 8
"""legal_moves lists every path up to this roll, and one path per destination beyond it."""


def tally(rule: str, voters: int, yes: int, no: int) -> str | None:
    """``"adopted"``, ``"rejected"`` or ``None`` (undecided) for a vote under ``rule``.

    >>> tally("unanimous", 3, 2, 0), tally("unanimous", 3, 2, 1), tally("majority", 4, 2, 2)
    (None, 'rejected', 'rejected')
    """
    if rule == "unanimous":
        return "rejected" if no else ("adopted" if yes >= voters else None)
    if rule == "majority":
        return "adopted" if 2 * yes > voters else ("rejected" if 2 * no >= voters else None)
    # two-thirds
    return "adopted" if 3 * yes >= 2 * voters else ("rejected" if 3 * (voters - no) < 2 * voters else None)


def _emit(events: list[Event], kind: str, text: str, **data: JSON) -> None:
    events.append(Event(kind, text, data))


def _with_player(s: State, seat: Seat, **changes: object) -> State:
    players = list(s.players)
    players[seat] = replace(players[seat], **changes)  # type: ignore[arg-type]
    return replace(s, players=tuple(players))


def _with_record(s: State, rec: Record) -> State:
    records = list(s.records)
    for i in range(len(records) - 1, -1, -1):
        if records[i].number == rec.number:
            records[i] = rec
            return replace(s, records=tuple(records))
    raise KeyError(rec.number)


def _noted(s: State, rec: Record, what: str, seat: Seat | None = None, ref: int | None = None,
           text: str = "") -> Record:
    r, t = now(s)
    return replace(rec, history=(*rec.history, Note(r, t, what, seat, ref, text)))


def _clean(text: str, what: str, limit: int, *, required: bool = True) -> None:
    if text != text.strip():
        raise IllegalMove(f"The {what} must not start or end with spaces.")
    if required and not text:
        raise IllegalMove(f"The {what} is empty: write it out.")
    if len(text) > limit:
        raise IllegalMove(f"The {what} is {len(text)} characters long; the limit is {limit}.")


def _example_paths(roll: int) -> list[str]:
    half = roll // 2
    paths = ["N" * roll, "E" * roll, "N" * half + "E" * (roll - half), "S" * roll, "W" * roll]
    return list(dict.fromkeys(paths))  # a roll of 1 would list "E" twice


class NomicRules(RulesBase):
    """Nomic World: the Initial Set as a pure, deterministic state machine (see the module docstring)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="nomic", title="Nomic World", min_seats=2, max_seats=None, ai_levels=(),
        hidden_information=False, options=())

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
            return Chance(tuple(Roll(n) for n in range(1, sides + 1)), label=f"movement die (d{sides})")
        if s.phase == REVEAL:
            return Chance(tuple(Reveal(r) for r in RESOURCES), label="resource")
        if s.phase == VOTE:
            p = open_proposal(s)
            assert p is not None
            voted = {v for v, _ in p.votes}
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
                moves += [Path(p) for p in notation.all_paths(s.roll)]
            else:
                r = s.roll
                offsets = {(dx, sy * (r - abs(dx))) for dx in range(-r, r + 1) for sy in (1, -1)}
                moves += [Path(notation.canonical_path(dx, dy)) for dx, dy in sorted(offsets)]
            moves.append(Skip())
        elif s.phase == PROPOSE:
            moves += _sample_proposals(s)
            moves.append(Skip())
        elif s.phase == VOTE:
            moves += [Vote(True), Vote(False)]
        return sorted(moves, key=notation.write)

    def apply(self, s: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        """Play ``move`` for ``seat``; returns the new state and what happened.

        Raises:
            IllegalMove: the rules forbid the move now (the message says which rule).
            InvalidNotation: the move object itself is malformed (an unknown direction).
        """
        events: list[Event] = []
        if s.status == OVER:
            raise IllegalMove("The game is over.")
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise InvalidNotation(f"Not a Nomic World move: {move!r}.")
        return handler(s, seat, move, events), events

    def outcome(self, s: State) -> Outcome | None:
        """``None`` while the game runs; at the end everybody shares the same place (unrated)."""
        if s.status != OVER:
            return None
        return Outcome.draw(len(s.players), Reason(s.end_reason), detail=s.end_detail)

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
        move = notation.read(text)
        self.apply(s, seat, move)
        return move

    def format(self, move: Move, s: State | None = None) -> str:
        """The canonical notation of ``move``."""
        return notation.write(move)

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


# ---------------------------------------------------------------- handlers

def _need_running(s: State, verb: str) -> None:
    if s.status != RUNNING:
        raise IllegalMove(f"You can {verb} only once the game has started.")


def _question_blocks(s: State) -> None:
    if s.question is not None:
        q = s.question
        raise IllegalMove(f"Judgment is pending: {name(s, q.judge)}, the Judge, must first rule on "
                          f"\u201c{q.text[:80]}\u201d (rule 114).")


def _need_current(s: State, seat: Seat, phase: str, verb: str) -> None:
    _need_running(s, verb)
    _question_blocks(s)
    if seat != s.current:
        raise IllegalMove(f"It is {name(s, s.current)}'s turn: only the current player can {verb} "
                          "(rule 103).")
    if s.phase != phase:
        raise IllegalMove(f"You cannot {verb} now: {_phase_text(s)}.")


def _phase_text(s: State) -> str:
    who = name(s, s.current)
    return {ROLL: "the die is about to be rolled", MOVE: f"{who} must give a path of {s.roll} steps",
            REVEAL: "the space just landed on is being revealed",
            PROPOSE: f"{who} must propose a rule-change",
            VOTE: "the players are voting on the proposal"}.get(s.phase, "the game is not in a turn")


def _apply_join(s: State, seat: Seat, m: Join, events: list[Event]) -> State:
    if seat != len(s.players):
        raise IllegalMove(f"A new player takes seat {len(s.players)} (the next free one), not seat {seat}.")
    if type(m.user_id) is not int or not 0 < m.user_id < 2**64:
        raise IllegalMove("A player's user id is a positive number.")
    for i, p in enumerate(s.players):
        if p.user_id == m.user_id:
            if p.status == LEFT:
                raise IllegalMove(f"{p.name} left this game and cannot rejoin it.")
            raise IllegalMove(f"{p.name} is already in this game (seat {i}).")
    _clean(m.name, "display name", MAX_NAME)
    if any(c in m.name for c in "\n\r\t"):
        raise IllegalMove("A display name is one line.")
    status = ACTIVE if s.status == LOBBY else PENDING
    s = replace(s, players=(*s.players, Player(m.user_id, m.name, status, ORIGIN)))
    when = "joins the game" if status == ACTIVE else f"joins and plays from round {s.round + 1} (rule 101)"
    _emit(events, "join", f"{m.name} {when}.", seat=seat, pending=status == PENDING)
    return s


def _apply_start(s: State, seat: Seat, m: Start, events: list[Event]) -> State:
    if s.status != LOBBY:
        raise IllegalMove("The game has already started.")
    active = seats_with(s, ACTIVE)
    if seat not in active:
        raise IllegalMove("Only a player in the lobby can start the game.")
    if len(s.players) < s.seats:
        raise IllegalMove(f"Waiting for {s.seats - len(s.players)} more player(s) to join.")
    if len(active) < 2:
        raise IllegalMove("Nomic World needs at least two players to start.")
    s = replace(s, status=RUNNING)
    _emit(events, "start", f"The game begins with {len(active)} players; the Initial Set (rules 101-115) "
                           "is in effect.")
    return _next_turn(s, events)


def _apply_roll(s: State, seat: Seat, m: Roll, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove("The bot rolls the die, not a player.")
    _need_running(s, "roll")
    if s.question is not None or s.phase != ROLL:
        raise IllegalMove("No die roll is due now.")
    sides = settings(s).die
    if type(m.n) is not int or not 1 <= m.n <= sides:
        raise IllegalMove(f"A d{sides} shows 1 to {sides}, not {m.n}.")
    s = replace(s, roll=m.n, phase=MOVE)
    _emit(events, "roll", f"{name(s, s.current)} rolls the d{sides}: {m.n}.", seat=s.current, n=m.n,
          sides=sides)
    return s


def _apply_path(s: State, seat: Seat, m: Path, events: list[Event]) -> State:
    _need_current(s, seat, MOVE, "move")
    assert s.roll is not None and s.current is not None
    steps = m.steps
    bad = sorted({c for c in steps if c not in DIRECTIONS})
    if bad or not steps:
        raise InvalidNotation(f"A path uses the letters N, E, S, W only (got {steps[:20]!r}).")
    if len(steps) != s.roll:
        plural = "s" if len(steps) != 1 else ""
        raise IllegalMove(f"{steps} has {len(steps)} step{plural} but the die shows {s.roll}: give exactly "
                          f"{s.roll} (rule 109).", legal=_example_paths(s.roll))
    for a in "NE":
        if a in steps and OPPOSITE[a] in steps:
            b = OPPOSITE[a]
            raise IllegalMove(f"{steps} goes both {_WORD[a]} and {_WORD[b]}, so it is not a shortest path "
                              f"(rule 108): use {a} or {b}, not both.", legal=_example_paths(s.roll))
    start = s.players[seat].pos
    assert start is not None
    points = [start]
    for c in steps:
        dx, dy = DIRECTIONS[c]
        x, y = points[-1]
        points.append((x + dx, y + dy))
    dest = points[-1]
    s = replace(_with_player(s, seat, pos=None), path_seat=seat, path=tuple(points))
    _emit(events, "move", f"{name(s, seat)} moves {steps} from {_xy(start)} to {_xy(dest)}.", seat=seat,
          path=steps, start=list(start), to=list(dest))
    if dest != ORIGIN and dest not in dict(s.revealed):
        return replace(s, phase=REVEAL)
    s = _with_player(s, seat, pos=dest)
    what = "the origin" if dest == ORIGIN else f"{dict(s.revealed)[dest]} (already known)"
    _emit(events, "land", f"{name(s, seat)} lands on {_xy(dest)}: {what}.", seat=seat, to=list(dest))
    return _after_movement(s, events)


def _xy(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def _apply_reveal(s: State, seat: Seat, m: Reveal, events: list[Event]) -> State:
    if seat != CHANCE:
        raise IllegalMove("The bot reveals resources, not a player.")
    _need_running(s, "reveal")
    if s.question is not None or s.phase != REVEAL:
        raise IllegalMove("No space is being revealed now.")
    if m.resource not in RESOURCES:
        raise IllegalMove(f"A resource is one of {', '.join(RESOURCES)}.")
    assert s.current is not None
    dest = s.path[-1]
    revealed = tuple(sorted((*s.revealed, (dest, m.resource))))
    s = _with_player(replace(s, revealed=revealed), s.current, pos=dest)
    _emit(events, "reveal", f"{name(s, s.current)} lands on {_xy(dest)}, which provides {m.resource}.",
          seat=s.current, to=list(dest), resource=m.resource)
    return _after_movement(s, events)


def _after_movement(s: State, events: list[Event]) -> State:
    if settings(s).phases in ("both", "rule-change"):
        return replace(s, phase=PROPOSE)
    return _next_turn(s, events)


def _rule_target(s: State, number: int | None, action: str) -> Record:
    """The rule a repeal or amendment may target, or a clear refusal."""
    if number is None:
        raise IllegalMove(f"Say which rule to {action}: give its number.")
    rec = record(s, number)
    if rec is None:
        last = next_number(s) - 1
        known = "101-115" + (f" and 201-{last}" if last >= 201 else "")
        raise IllegalMove(f"There is no rule {number} (numbers so far: {known}).")
    if rec.kind in ("repeal", "amend"):
        raise IllegalMove(f"{number} is a proposal to {rec.kind} rule {rec.target}, not a rule: "
                          f"{action} rule {rec.target} itself.")
    if rec.status == REPEALED:
        by = next((n.ref for n in reversed(rec.history) if n.what == "repealed"), None)
        raise IllegalMove(f"Rule {number} was repealed{f' by {by}' if by else ''}, so it can no longer be "
                          f"{'repealed' if action == 'repeal' else 'amended'}; enact a new rule instead.")
    if rec.status != IN_EFFECT:
        raise IllegalMove(f"Proposal {number} was not adopted ({rec.status}), so there is no rule {number}.")
    return rec


def _dead_effect(s: State, effect: Effect | None, number: int) -> None:
    """Refuse an effect that a lower-numbered rule in effect overrides (rule 113)."""
    if effect is None or effect.kind == "end":
        return
    holder = setting_holder(s, effect.kind)
    if holder is not None and holder.number < number:
        raise IllegalMove(
            f"Rule {holder.number} already sets {_KIND_WHAT[effect.kind]} and, having the lower number, "
            f"takes precedence (rule 113): amend rule {holder.number} with this effect, or repeal it first.")


def _check_proposal(s: State, m: Propose) -> None:
    if m.action not in ACTIONS:
        raise IllegalMove(f"A rule-change is an enactment, a repeal or an amendment (rule 110), "
                          f"not {m.action!r}.")
    if m.effect is not None and not isinstance(m.effect, Effect):
        raise IllegalMove("The effect is not one the bot knows.")
    number = next_number(s)
    if m.action == "enact":
        if m.rule is not None:
            raise IllegalMove(f"An enactment makes a new rule (it will be number {number}): give no rule "
                              f"number, or amend rule {m.rule} instead.")
        _clean(m.text, "new rule's text", MAX_TEXT)
        _dead_effect(s, m.effect, number)
        return
    target = _rule_target(s, m.rule, m.action)
    if m.action == "repeal":
        if m.effect is not None:
            raise IllegalMove("A repeal carries no effect: the repealed rule's effect simply stops.")
        _clean(m.text, "reason", MAX_TEXT, required=False)
        return
    _clean(m.text, "amended text", MAX_TEXT)
    _dead_effect(s, m.effect, target.number)
    if m.text == target.text and m.effect in (None, target.effect):
        raise IllegalMove(f"That amendment would leave rule {target.number} as it is: change its text or "
                          "its effect.")


def _apply_propose(s: State, seat: Seat, m: Propose, events: list[Event]) -> State:
    _need_current(s, seat, PROPOSE, "propose")
    _check_proposal(s, m)
    number = next_number(s)
    voters = seats_with(s, ACTIVE)
    rec = Record(number, m.action, m.text, OPEN, effect=m.effect, target=m.rule, proposer=seat, voters=voters)
    rec = _noted(s, rec, "proposed", seat)
    s = replace(s, records=(*s.records, rec), phase=VOTE)
    what = {"enact": "to enact a new rule", "repeal": f"to repeal rule {m.rule}",
            "amend": f"to amend rule {m.rule}"}[m.action]
    extra = f" (effect: {m.effect.describe()})" if m.effect else ""
    _emit(events, "propose", f"{name(s, seat)} proposes {number}: {what}{extra}. Votes needed: "
                             f"{settings(s).votes}.", seat=seat, number=number, action=m.action, rule=m.rule)
    return s


def _apply_vote(s: State, seat: Seat, m: Vote, events: list[Event]) -> State:
    _need_running(s, "vote")
    _question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove("There is no proposal to vote on right now.")
    if seat not in p.voters:
        if 0 <= seat < len(s.players) and s.players[seat].status == PENDING:
            raise IllegalMove(f"You joined during round {s.round}: you vote from round {s.round + 1} on.")
        raise IllegalMove(f"Only the players at the time of proposal {p.number} vote on it.")
    votes = dict(p.votes)
    if votes.get(seat) is m.yes:
        raise IllegalMove(f"You already voted {'yes' if m.yes else 'no'} on proposal {p.number}.")
    changed = seat in votes
    votes[seat] = m.yes
    s = _with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    _emit(events, "vote", f"{name(s, seat)} {'changes their vote to' if changed else 'votes'} "
                          f"{'yes' if m.yes else 'no'} on {p.number}.", seat=seat, number=p.number, yes=m.yes)
    return _count(s, events)


def _apply_unvote(s: State, seat: Seat, m: Unvote, events: list[Event]) -> State:
    _need_running(s, "withdraw a vote")
    _question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove("There is no proposal to vote on right now.")
    votes = dict(p.votes)
    if seat not in votes:
        raise IllegalMove(f"You have not voted on proposal {p.number}.")
    del votes[seat]
    s = _with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    _emit(events, "unvote", f"{name(s, seat)} withdraws their vote on {p.number}.", seat=seat, number=p.number)
    return s


def _count(s: State, events: list[Event]) -> State:
    """Decide the open proposal once every voter has voted (until then votes may change); a decided
    proposal ends the turn."""
    p = open_proposal(s)
    assert p is not None
    if {v for v, _ in p.votes} < set(p.voters):
        return s
    yes = sum(1 for _, y in p.votes if y)
    no = len(p.votes) - yes
    rule = settings(s).votes
    result = tally(rule, len(p.voters), yes, no)
    if result is None:
        return s
    score = f"{yes} yes, {no} no ({rule})"
    if result == "adopted":
        s = _with_record(s, _noted(s, replace(p, status=ADOPTED), "adopted", text=score))
        _emit(events, "adopt", f"Proposal {p.number} is adopted: {score}. It takes effect at the beginning "
                               "of the next turn (rule 111).", number=p.number)
    else:
        s = _with_record(s, _noted(s, replace(p, status=REJECTED), "rejected", text=score))
        _emit(events, "reject", f"Proposal {p.number} is rejected: {score}.", number=p.number)
    return _next_turn(s, events)


def _reject_open(s: State, events: list[Event], reason: str) -> State:
    p = open_proposal(s)
    if p is None:
        return s
    s = _with_record(s, _noted(s, replace(p, status=REJECTED), "rejected", text=reason))
    _emit(events, "reject", f"Proposal {p.number} is rejected: {reason}.", number=p.number)
    return s


def _apply_judge(s: State, seat: Seat, m: Judge, events: list[Event]) -> State:
    _need_running(s, "invoke Judgment")
    if not 0 <= seat < len(s.players) or s.players[seat].status != ACTIVE:
        raise IllegalMove("Only a player in this round can invoke Judgment.")
    _question_blocks(s)
    _clean(m.question, "question", MAX_QUESTION)
    judge = judge_of(s)
    assert judge is not None
    s = replace(s, question=Question(seat, judge, m.question))
    _emit(events, "judge", f"{name(s, seat)} invokes Judgment: \u201c{m.question}\u201d. The Judge is "
                           f"{name(s, judge)} (rule 114); play waits for the ruling.", seat=seat, judge=judge)
    return s


def _need_judge(s: State, seat: Seat, what: str) -> Question:
    if s.status != RUNNING or s.question is None:
        raise IllegalMove(f"There is no question to {what}: invoke Judgment first (`judge <question>`).")
    if seat != s.question.judge:
        raise IllegalMove(f"Only the Judge, {name(s, s.question.judge)}, can {what} (rule 114).")
    return s.question


def _apply_ruling(s: State, seat: Seat, m: Ruling, events: list[Event]) -> State:
    q = _need_judge(s, seat, "rule on the question")
    _clean(m.text, "ruling", MAX_TEXT)
    number = next_number(s)
    rec = Record(number, JUDGMENT, m.text, IN_EFFECT, proposer=seat)
    rec = _noted(s, _noted(s, rec, "asked", q.asker, text=q.text), "ruled", seat)
    s = replace(s, records=(*s.records, rec), effect_order=(*s.effect_order, number), question=None)
    _emit(events, "ruling", f"{name(s, seat)} rules on \u201c{q.text[:80]}\u201d. The ruling is rule "
                            f"{number}, adopted and in effect at once (rule 114).", seat=seat, number=number)
    return _resume(s, events)


def _apply_lapse(s: State, seat: Seat, m: Lapse, events: list[Event]) -> State:
    q = _need_judge(s, seat, "let the question lapse")
    s = replace(s, question=None)
    _emit(events, "lapse", f"The question \u201c{q.text[:80]}\u201d lapses without a ruling.", judge=seat)
    return _resume(s, events)


def _apply_skip(s: State, seat: Seat, m: Skip, events: list[Event]) -> State:
    _need_running(s, "end a turn")
    _question_blocks(s)
    if seat != s.current:
        raise IllegalMove(f"Only the current player, {name(s, s.current)}, can end the turn.")
    if s.phase not in (MOVE, PROPOSE, VOTE):
        raise IllegalMove("The turn cannot end while the bot rolls or reveals.")
    lost = {MOVE: "moving or proposing", PROPOSE: "a proposal", VOTE: "a complete vote"}[s.phase]
    if s.phase == MOVE and settings(s).phases == "movement":
        lost = "moving"
    _emit(events, "skip", f"{name(s, seat)}'s turn ends without {lost}.", seat=seat)
    s = _reject_open(s, events, "the turn ended before the vote was complete")
    return _next_turn(s, events)


def _apply_leave(s: State, seat: Seat, m: Leave, events: list[Event]) -> State:
    if not 0 <= seat < len(s.players) or s.players[seat].status == LEFT:
        raise IllegalMove("You are not in this game.")
    s = _with_player(s, seat, status=LEFT)
    _emit(events, "leave", f"{name(s, seat)} leaves the game.", seat=seat)
    if s.status == LOBBY:
        return s
    if len(seats_with(s, ACTIVE, PENDING)) < 2:
        return _finish(s, events, Reason.ABORTED, "Fewer than two players remain.")
    if s.question is not None and s.question.judge == seat:
        _emit(events, "lapse", f"The question \u201c{s.question.text[:80]}\u201d lapses: the Judge left.")
        s = replace(s, question=None)
    if seat == s.current:  # the turn ends; a pending question still waits for its Judge
        if s.phase == REVEAL:
            s = _with_player(s, seat, pos=s.path[-1])
        s = _reject_open(s, events, "the proposer left the game")
        return _next_turn(s, events)
    p = open_proposal(s)
    if p is not None and seat in p.voters:
        s = _with_record(s, replace(p, voters=tuple(v for v in p.voters if v != seat),
                                    votes=tuple(v for v in p.votes if v[0] != seat)))
    return _resume(s, events)


def _resume(s: State, events: list[Event]) -> State:
    """Count the open proposal again once no question holds play (votes may have settled it meanwhile)."""
    if s.question is None and s.phase == VOTE:
        return _count(s, events)
    return s


def _apply_end(s: State, seat: Seat, m: End, events: list[Event]) -> State:
    return _finish(s, events, Reason.ABORTED, "Stopped by the host." if m.by == "host" else "Stopped by an admin.")


def _finish(s: State, events: list[Event], reason: Reason, detail: str) -> State:
    s = _reject_open(s, events, "the game ended")
    if s.phase == REVEAL and s.current is not None:
        s = _with_player(s, s.current, pos=s.path[-1])
    s = replace(s, status=OVER, current=None, phase="", roll=None, question=None, end_reason=reason.value,
                end_detail=detail)
    _emit(events, "end", f"The game is over. {detail}", reason=reason.value)
    return s


def _take_effect(s: State, events: list[Event]) -> tuple[State, int | None]:
    """Adopted changes take effect (rule 111); returns the state and an adopted rule that ends the game."""
    ender = None
    for p in s.records:
        if p.status != ADOPTED:
            continue
        if p.kind == "enact":
            s = _with_record(s, _noted(s, replace(p, status=IN_EFFECT), "took effect"))
            s = replace(s, effect_order=(*s.effect_order, p.number))
            _emit(events, "effect", f"Rule {p.number} takes effect.", number=p.number)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
            continue
        assert p.target is not None
        target = record(s, p.target)
        assert target is not None
        if target.status != IN_EFFECT:
            s = _with_record(s, _noted(s, replace(p, status=APPLIED), "took effect",
                                       text=f"rule {p.target} was no longer in effect"))
            continue
        if p.kind == "repeal":
            s = _with_record(s, _noted(s, replace(target, status=REPEALED), "repealed", ref=p.number))
            s = replace(s, effect_order=tuple(n for n in s.effect_order if n != p.target))
            _emit(events, "effect", f"Proposal {p.number} takes effect: rule {p.target} is repealed.",
                  number=p.number, rule=p.target)
        else:
            effect = p.effect if p.effect is not None else target.effect
            amended = replace(target, text=p.text, effect=effect)
            s = _with_record(s, _noted(s, amended, "amended", ref=p.number, text=target.text))
            _emit(events, "effect", f"Proposal {p.number} takes effect: rule {p.target} is amended.",
                  number=p.number, rule=p.target)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
        s = _with_record(s, _noted(s, replace(p, status=APPLIED), "took effect"))
    return s, ender


def _next_turn(s: State, events: list[Event]) -> State:
    """End the current turn (if any) and begin the next, starting a new round when everybody has played."""
    done = s.done if s.current is None else (*s.done, s.current)
    s = replace(s, done=done, current=None, phase="", roll=None)
    active = seats_with(s, ACTIVE)
    remaining = [i for i in active if i not in s.done]
    if s.round == 0 or not remaining:
        pending = seats_with(s, PENDING)
        for i in pending:
            s = _with_player(s, i, status=ACTIVE)
        s = replace(s, round=s.round + 1, done=())
        joined = ""
        if pending:
            verb = "joins" if len(pending) == 1 else "join"
            joined = f" {', '.join(name(s, i) for i in pending)} {verb} the game."
        _emit(events, "round", f"Round {s.round} begins.{joined}", round=s.round)
        active = seats_with(s, ACTIVE)
        remaining = list(active)
    s, ender = _take_effect(s, events)
    if ender is not None:
        return _finish(s, events, Reason.AGREEMENT, f"Rule {ender} ended the game.")
    if len(active) < 2:
        return _finish(s, events, Reason.ABORTED, "Fewer than two players remain.")
    rules = settings(s)
    current = sort_turns(s, remaining, rules.order)[0]
    phase = ROLL if rules.phases in ("both", "movement") else PROPOSE
    s = replace(s, current=current, phase=phase)
    first = "movement" if phase == ROLL else "rule-change"
    _emit(events, "turn", f"Round {s.round}, turn {len(s.done) + 1}: {name(s, current)}'s turn "
                          f"({first} phase). Judge: {name(s, judge_of(s))}.", seat=current, round=s.round)
    return s


def _sample_proposals(s: State) -> list[Move]:
    """A representative set of legal proposals (the space of texts is unbounded)."""
    out: list[Move] = [Propose("enact", None, SAMPLE_TEXT), Propose("enact", None, "The game ends.",
                                                                    Effect("end"))]
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
            text = f"The bot's setting changes: {effect.describe()}."
            if holder is None:
                out.append(Propose("enact", None, text, effect))
            else:
                out.append(Propose("amend", holder.number, text, effect))
    out += [Propose("repeal", n, "") for n in s.effect_order]
    return out


_HANDLERS = {
    Join: _apply_join, Start: _apply_start, Roll: _apply_roll, Path: _apply_path, Reveal: _apply_reveal,
    Propose: _apply_propose, Vote: _apply_vote, Unvote: _apply_unvote, Judge: _apply_judge, Ruling: _apply_ruling,
    Lapse: _apply_lapse, Skip: _apply_skip, Leave: _apply_leave, End: _apply_end,
}

RULES = NomicRules()
"""The engine instance the platform uses (``bot.games.GAMES["nomic"].rules``)."""

__all__ = ["RULES", "NomicRules", "tally"]
