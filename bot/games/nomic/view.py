"""What the channel sees of a Nomic World game (everything is public).

The view holds facts, no sentences: a match keeps one view per seat whatever the language of whoever
reads it, so the texts built from it (a rule's history, an effect in words) are properties written in the
current language when they are read.

:func:`build_view` turns a state into a :class:`NomicView`: players with
names and positions, the map's revealed spaces, the last path, whose turn and
which phase, the open proposal and its votes, the pending question, the
settings in force, and the whole rulebook as data (the Discord cog pages it
into embeds; :mod:`bot.games.nomic.rulebook` formats it).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Seat
from bot.games.nomic.flow import end_text, stored_text
from bot.games.nomic.moves import ACTIONS, Effect, Point
from bot.games.nomic.state import (
    IN_EFFECT,
    RUNNING,
    WAS_ADOPTED,
    Note,
    Record,
    State,
    judge_of,
    next_number,
    open_proposal,
    round_order,
    settings,
)
from bot.i18n import _


@dataclass(frozen=True)
class PlayerView:
    """A seat as the channel sees it.

    ``status``: ``active`` (plays), ``pending`` (joined during a round, plays
    from the next) or ``left``. ``pos`` is ``None`` while in movement.
    ``proposals``/``adopted`` are the /stats counters; ``rulings`` the
    judgments this player gave.
    """

    seat: Seat
    user_id: int
    name: str
    status: str
    pos: Point | None
    proposals: int
    adopted: int
    rulings: int


@dataclass(frozen=True)
class NoteView:
    """One line of a rule's history as facts: what happened, who did it (a name), when, which entry, and
    the note's text (a reason, a score, a previous text, a question)."""

    what: str
    who: str | None
    round: int
    turn: int
    ref: int | None
    text: str

    def line(self) -> str:
        """The line in the current language."""
        return history_line(self)


@dataclass(frozen=True)
class RuleView:
    """One numbered entry of the rulebook (a rule, a proposal or a judgment).

    ``kind``: ``initial``, ``enact``, ``repeal``, ``amend`` or ``judgment``.
    ``status``: ``open``, ``rejected``, ``adopted`` (takes effect next turn),
    ``in effect``, ``repealed`` or ``applied`` (a repeal/amendment that took
    effect). ``text`` is the current text (for an amendment: the text it
    proposes; for a repeal: the reason). ``effect`` is the short form
    (``die=8``), ``effect_text`` its description. ``history`` is one line per
    event, oldest first, names and times written out (from ``notes``).
    """

    number: int
    kind: str
    title: str
    text: str
    status: str
    effect: str | None
    effect_data: Effect | None
    target: int | None
    proposer: Seat | None
    yes: tuple[Seat, ...]
    no: tuple[Seat, ...]
    amended: bool
    notes: tuple[NoteView, ...]

    @property
    def in_effect(self) -> bool:
        return self.status == IN_EFFECT

    @property
    def effect_text(self) -> str | None:
        """The effect in words of the current language."""
        return self.effect_data.describe() if self.effect_data is not None else None

    @property
    def history(self) -> tuple[str, ...]:
        """One line per event, oldest first, in the current language."""
        return tuple(n.line() for n in self.notes)


@dataclass(frozen=True)
class ProposalView:
    """The proposal being voted on."""

    number: int
    proposer: Seat
    action: str
    rule: int | None
    text: str
    effect: str | None
    effect_data: Effect | None
    voters: tuple[Seat, ...]
    yes: tuple[Seat, ...]
    no: tuple[Seat, ...]
    waiting: tuple[Seat, ...]
    needed: str

    @property
    def effect_text(self) -> str | None:
        """The effect in words of the current language."""
        return self.effect_data.describe() if self.effect_data is not None else None


@dataclass(frozen=True)
class QuestionView:
    """An invoked Judgment waiting for the Judge."""

    asker: Seat
    judge: Seat
    question: str


@dataclass(frozen=True)
class NomicView:
    """The public picture of a game, the same for every viewer.

    ``status``: ``lobby``, ``running`` or ``over``. ``phase``: ``roll``,
    ``move``, ``reveal``, ``propose`` or ``vote`` (empty outside a turn).
    ``turn`` counts turns within ``round`` (1 = first). ``order`` is this
    round's turn order (who played, the current player, who is still to
    play). ``judge`` is who would judge a question now. ``roll`` is this
    turn's movement distance. ``die``, ``votes_needed``, ``turn_order`` and
    ``phases`` are the settings in force and ``setting_rules`` the rule each
    comes from. ``rules`` has every numbered entry by number;
    ``in_effect`` the rules in effect in the order they took effect.
    ``path`` is the last movement's spaces (start first) by ``path_seat``.
    """

    viewer: Seat | None
    status: str
    round: int
    turn: int
    players: tuple[PlayerView, ...]
    order: tuple[Seat, ...]
    current: Seat | None
    phase: str
    judge: Seat | None
    roll: int | None
    die: int
    votes_needed: str
    turn_order: str
    phases: str
    setting_rules: tuple[tuple[str, int | None], ...]
    proposal: ProposalView | None
    question: QuestionView | None
    revealed: tuple[tuple[Point, str], ...]
    path: tuple[Point, ...]
    path_seat: Seat | None
    rules: tuple[RuleView, ...]
    in_effect: tuple[int, ...]
    next_number: int
    result: str

    def rule(self, number: int) -> RuleView | None:
        """The entry numbered ``number``, or ``None``."""
        for r in self.rules:
            if r.number == number:
                return r
        return None

    @property
    def result_text(self) -> str:
        """How the game ended, in the current language (``result`` is the state's English)."""
        return end_text(self.result) if self.result else ""

    def name(self, seat: Seat | None) -> str:
        if seat is None or not 0 <= seat < len(self.players):
            return _("nobody")
        return self.players[seat].name


def _when(n: NoteView) -> str:
    return _("before the game") if n.round == 0 else _("round {round}, turn {turn}", round=n.round,
                                                       turn=n.turn)


def history_line(n: NoteView) -> str:
    """One line of a rule's history in the current language (a player's own words kept as written)."""
    who = n.who if n.who is not None else _("nobody")
    when = _when(n)
    if n.what == "initial":
        return _("In the Initial Set, in effect when the game began.")
    if n.what == "proposed":
        return _("Proposed by {player} ({when}).", player=who, when=when)
    if n.what == "adopted":
        return _("Adopted: {score} ({when}).", score=stored_text(n.text), when=when)
    if n.what == "rejected":
        return _("Rejected: {reason} ({when}).", reason=stored_text(n.text), when=when)
    if n.what == "took effect":
        if n.text:
            return _("Took effect ({when}): {why}.", when=when, why=stored_text(n.text))
        return _("Took effect ({when}).", when=when)
    if n.what == "amended":
        return _("Amended by {number} ({when}). Previous text: {text}", number=n.ref, when=when, text=n.text)
    if n.what == "repealed":
        return _("Repealed by {number} ({when}).", number=n.ref, when=when)
    if n.what == "asked":
        return _("Question from {player}: \u201c{question}\u201d", player=who, question=n.text)
    if n.what == "ruled":
        return _("Ruling by {player}, the Judge; adopted and in effect at once ({when}).", player=who,
                 when=when)
    return f"{n.what} ({when})."


def _note_view(s: State, n: Note) -> NoteView:
    who = s.players[n.seat].name if n.seat is not None and 0 <= n.seat < len(s.players) else None
    return NoteView(n.what, who, n.round, n.turn, n.ref, n.text)


def _rule_view(s: State, r: Record) -> RuleView:
    return RuleView(
        number=r.number, kind=r.kind, title=r.title, text=r.text, status=r.status,
        effect=str(r.effect) if r.effect else None, effect_data=r.effect,
        target=r.target, proposer=r.proposer,
        yes=tuple(v for v, y in r.votes if y), no=tuple(v for v, y in r.votes if not y),
        amended=any(n.what == "amended" for n in r.history),
        notes=tuple(_note_view(s, n) for n in r.history))


def build_view(s: State, viewer: Seat | None) -> NomicView:
    """The view of ``s`` (identical for every ``viewer``; it is only recorded)."""
    made = [0] * len(s.players)
    passed = [0] * len(s.players)
    ruled = [0] * len(s.players)
    for r in s.records:
        if r.proposer is None:
            continue
        if r.kind in ACTIONS:
            made[r.proposer] += 1
            passed[r.proposer] += r.status in WAS_ADOPTED
        else:
            ruled[r.proposer] += 1
    players = tuple(PlayerView(i, p.user_id, p.name, p.status, p.pos, made[i], passed[i], ruled[i])
                    for i, p in enumerate(s.players))
    cfg = settings(s)
    proposal = None
    op = open_proposal(s)
    if op is not None and op.proposer is not None:
        yes = tuple(v for v, y in op.votes if y)
        no = tuple(v for v, y in op.votes if not y)
        proposal = ProposalView(op.number, op.proposer, op.kind, op.target, op.text,
                                str(op.effect) if op.effect else None, op.effect, op.voters, yes, no,
                                tuple(v for v in op.voters if v not in yes and v not in no), cfg.votes)
    question = None
    if s.question is not None:
        question = QuestionView(s.question.asker, s.question.judge, s.question.text)
    return NomicView(
        viewer=viewer, status=s.status, round=s.round, turn=len(s.done) + 1 if s.status == RUNNING else 0,
        players=players, order=round_order(s), current=s.current, phase=s.phase, judge=judge_of(s),
        roll=s.roll, die=cfg.die, votes_needed=cfg.votes, turn_order=cfg.order, phases=cfg.phases,
        setting_rules=cfg.sources, proposal=proposal, question=question, revealed=s.revealed, path=s.path,
        path_seat=s.path_seat, rules=tuple(_rule_view(s, r) for r in s.records), in_effect=s.effect_order,
        next_number=next_number(s),
        result=s.end_detail)


__all__ = ["NomicView", "NoteView", "PlayerView", "ProposalView", "QuestionView",
           "RuleView", "build_view", "history_line"]
